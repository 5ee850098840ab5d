// JSON for what IREE decided in a lowered function (core/iree/LoweredIr):
// what tilescope-iree-worker hands back after reading IREE's printed IR for
// a process that must not load IREE itself (core/service/DocumentWorker).
// Reading it back is strict: a missing or mistyped field is an error, never
// a crash.
#pragma once

#include "core/document/LoweredIr.h"
#include "core/util/Result.h"

#include <nlohmann/json.hpp>

namespace tilescope::exporting {

nlohmann::json toJson(const document::LoweredFunction &function);
Result<document::LoweredFunction>
loweredFunctionFromJson(const nlohmann::json &value);

} // namespace tilescope::exporting
