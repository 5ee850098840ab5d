// The results of jobs as JSON: what `tilescope-cli ... --json` prints and
// what the history keeps in a try's details.
#pragma once

#include "core/run/BenchJob.h"
#include "core/run/CheckJob.h"
#include "core/service/CompileJob.h"
#include "core/service/Resources.h"
#include "core/service/SplitK.h"

#include <nlohmann/json.hpp>

namespace tilescope::jobs {

nlohmann::json toJson(const CompileJobResult &compiled);
nlohmann::json toJson(const KernelResources &kernel);
// The inverse, for a kernel the history keeps (what toJson wrote).
KernelResources kernelResourcesFromJson(const nlohmann::json &kernel);
nlohmann::json toJson(const ResourceReport &report);
nlohmann::json toJson(const BenchJobResult &bench);
nlohmann::json toJson(const CheckResult &check);
// Split-k: each reduction (IREE's split, the rule, its reasons, whether
// Tilescope's reading agrees) and the dispatches formed.
nlohmann::json toJson(const SplitKAnalysis &analysis);
nlohmann::json toJson(const SplitKApplied &applied);
nlohmann::json toJson(const document::FormedDispatch &dispatch);

// The history's word for how a job ended (TryRecord::outcome): "ok",
// "compile-failed", "compiler-crashed", "timed-out", "cancelled",
// "run-failed", "check-failed", "cannot-run-here".
std::string outcomeOf(const CompileJobResult &compiled);
std::string outcomeOf(const BenchJobResult &bench);
std::string outcomeOf(const CheckResult &check);
// A child process's end: "ok", "failed", "crashed", "timed-out",
// "cancelled", "failed-to-start".
std::string outcomeOf(const ProcessResult &process);

} // namespace tilescope::jobs
