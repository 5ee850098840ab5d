// JSON for split-k's plain data (core/document/ProgramReductions.h): what
// tilescope-iree-worker hands back after IREE read a program at its
// split-reduction point, wrote splits on it or listed the dispatches a later
// phase formed, or printed a configured text's root ops as spec matchers
// (core/document/RootOpDag.h), for a process that must not load IREE itself
// (core/service/DocumentWorker, the window's Split-k tab). Reading it back is
// strict: a missing or mistyped field is an error naming it, never a crash.
#pragma once

#include "core/document/ProgramReductions.h"
#include "core/document/RootOpDag.h"
#include "core/util/Result.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace tilescope::exporting {

nlohmann::json toJson(const document::ProgramReduction &reduction);
Result<document::ProgramReduction>
programReductionFromJson(const nlohmann::json &value);

nlohmann::json toJson(const document::SplitChoice &choice);
Result<document::SplitChoice> splitChoiceFromJson(const nlohmann::json &value);

// The worker's form of a formed dispatch (split-k's JSON for people is
// tries::toJson in core/tries/JobJson).
nlohmann::json toWorkerJson(const document::FormedDispatch &dispatch);
Result<document::FormedDispatch>
formedDispatchFromJson(const nlohmann::json &value);

// A root op as a tuning-spec matcher body, as the worker hands it back.
nlohmann::json toJson(const document::RootOpDag &dag);
Result<document::RootOpDag> rootOpDagFromJson(const nlohmann::json &value);

// An array of any of the above, each read back; the error names the entry.
template <typename T, typename Read>
Result<std::vector<T>> arrayFromJson(const nlohmann::json &value, Read read) {
  if (!value.is_array())
    return Error{"expected an array"};
  std::vector<T> out;
  for (size_t i = 0; i < value.size(); ++i) {
    auto entry = read(value[i]);
    if (!entry)
      return Error{"entry " + std::to_string(i) + ": " + entry.error()};
    out.push_back(std::move(*entry));
  }
  return out;
}

} // namespace tilescope::exporting
