// Reading what another machine wrote: a run bundle's manifest and results
// come back from a GPU host, a Slurm node or a colleague, and are read as
// data that may be wrong, truncated or hostile. A file is read only when it
// is a regular file (a FIFO or a device is refused, never waited on) no
// larger than a bound, and, read from a bundle, when no link leads out of
// the bundle; a JSON field is used
// only when it has the type it must have, and a number only when finite.
#pragma once

#include "core/util/Result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::service {

// The bound for a bundle's text files (a manifest of thousands of modules
// with their configs, a benchmark's JSON, a profiler's CSV): 64 MiB.
constexpr std::uintmax_t kUntrustedFileBytes = 64ull << 20;

// Whether `path` lies inside `folder` with no link on the way: its real
// path is the folder's real path followed by its own path below the folder
// (a linked file or a linked folder under `folder` leads out and is not
// inside). An error says which.
Result<bool> insideFolder(const std::filesystem::path &path,
                          const std::filesystem::path &folder);

// The file's text, or an error naming it and why it was not read. With
// `within` (a bundle's root, a tune's folder), a file that a link leads out
// of that folder is refused (insideFolder).
Result<std::string>
readUntrustedFile(const std::filesystem::path &path,
                  std::uintmax_t maxBytes = kUntrustedFileBytes,
                  const std::filesystem::path &within = {});

// The deepest nesting of arrays and objects read from another machine's
// JSON (a manifest is 4 deep, a benchmark's JSON 3).
constexpr size_t kUntrustedJsonDepth = 64;

// `text` (read from `file`) as JSON, or why not in words: nested deeper
// than kUntrustedJsonDepth (counted before parsing), or where the parser
// stopped and why.
Result<nlohmann::json> parseUntrustedJson(const std::string &text,
                                          const std::filesystem::path &file);

// `object[key]` as a string, or `fallback` where the object, the key or the
// string is missing.
std::string stringField(const nlohmann::json &object, std::string_view key,
                        const std::string &fallback = {});
// The strings of `object[key]`, an array: items of another type skipped.
std::vector<std::string> stringsField(const nlohmann::json &object,
                                      std::string_view key);
// `object[key]` where it is an object, else null.
const nlohmann::json *objectField(const nlohmann::json &object,
                                  std::string_view key);
// `object[key]` as a boolean, false where it is missing or of another type.
bool flagField(const nlohmann::json &object, std::string_view key);
// `object[key]` as a finite number.
std::optional<double> numberField(const nlohmann::json &object,
                                  std::string_view key);
// `object[key]` as an integer (a finite number with no fraction) in
// [minimum, maximum].
std::optional<long long> integerField(const nlohmann::json &object,
                                      std::string_view key, long long minimum,
                                      long long maximum);

} // namespace tilescope::service
