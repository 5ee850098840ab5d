// The results of jobs as JSON: what `tilescope-cli ... --json` prints and
// what the history keeps in a try's details.
#pragma once

#include "core/jobs/BenchJob.h"
#include "core/jobs/CheckJob.h"
#include "core/jobs/CompileJob.h"
#include "core/jobs/Resources.h"

#include <nlohmann/json.hpp>

namespace tilescope::jobs {

nlohmann::json toJson(const CompileJobResult &compiled);
nlohmann::json toJson(const KernelResources &kernel);
nlohmann::json toJson(const ResourceReport &report);
nlohmann::json toJson(const BenchJobResult &bench);
nlohmann::json toJson(const CheckResult &check);

// The history's word for how a job ended: "ok", "compile-failed",
// "compiler-crashed", "timed-out", "cancelled".
std::string outcomeOf(const CompileJobResult &compiled);
std::string outcomeOf(const ProcessResult &process);

} // namespace tilescope::jobs
