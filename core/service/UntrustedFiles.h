// Reading what another machine wrote: a run bundle's manifest and results
// come back from a GPU host, a Slurm node or a colleague, and are read as
// data that may be wrong, truncated or hostile. A file is read only when it
// is a regular file (a symlink to one is followed; a FIFO or a device is
// refused, never waited on) no larger than a bound; a JSON field is used
// only when it has the type it must have, and a number only when finite.
#pragma once

#include "core/util/Result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tilescope::service {

// The bound for a bundle's text files (a manifest of thousands of modules
// with their configs, a benchmark's JSON, a profiler's CSV): 64 MiB.
constexpr std::uintmax_t kUntrustedFileBytes = 64ull << 20;

// The file's text, or an error naming it and why it was not read.
Result<std::string>
readUntrustedFile(const std::filesystem::path &path,
                  std::uintmax_t maxBytes = kUntrustedFileBytes);

// `object[key]` as a string, or `fallback` where the object, the key or the
// string is missing.
std::string stringField(const nlohmann::json &object, std::string_view key,
                        const std::string &fallback = {});
// `object[key]` as a finite number.
std::optional<double> numberField(const nlohmann::json &object,
                                  std::string_view key);
// `object[key]` as an integer (a finite number with no fraction) in
// [minimum, maximum].
std::optional<long long> integerField(const nlohmann::json &object,
                                      std::string_view key, long long minimum,
                                      long long maximum);

} // namespace tilescope::service
