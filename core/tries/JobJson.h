// The results of jobs as JSON: what `tilescope-cli ... --json` prints and
// what the history keeps in a try's details.
#pragma once

#include "core/layout/CostModel.h"
#include "core/run/BenchJob.h"
#include "core/run/CheckJob.h"
#include "core/service/CompileJob.h"
#include "core/service/Resources.h"
#include "core/service/SplitK.h"

#include <nlohmann/json.hpp>

namespace tilescope::tries {

nlohmann::json toJson(const isa::KernelResources &kernel);
// The inverse, for a kernel the history keeps (what toJson wrote).
isa::KernelResources kernelResourcesFromJson(const nlohmann::json &kernel);
nlohmann::json toJson(const service::ResourceReport &report);
// The inverse, for a report the history or a bundle keeps: kernels, commands
// and notes of another form are skipped.
service::ResourceReport resourceReportFromJson(const nlohmann::json &report);
// As the history keeps what stays of it (TriedCheck).
nlohmann::json toJson(const run::CheckResult &check);
// The cost model's prediction as the history keeps it (exporting::toJson's
// form): its figures, terms and notes, each used only with its type and in
// its range; unset where it has no time.
std::optional<layout::CostPrediction>
costPredictionFromJson(const nlohmann::json &prediction);
// Split-k: each reduction (IREE's split, the rule, its reasons, whether
// Tilescope's reading agrees) and the dispatches formed.
nlohmann::json toJson(const service::SplitKAnalysis &analysis);
nlohmann::json toJson(const service::SplitKApplied &applied);
nlohmann::json toJson(const document::FormedDispatch &dispatch);

// The history's word for how a job ended (TryRecord::outcome): "ok",
// "compile-failed", "compiler-crashed", "timed-out", "cancelled",
// "run-failed", "check-failed", "cannot-run-here".
std::string outcomeOf(const service::CompileJobResult &compiled);
std::string outcomeOf(const run::BenchJobResult &bench);
std::string outcomeOf(const run::CheckResult &check);
// A child process's end: "ok", "failed", "crashed", "timed-out",
// "cancelled", "failed-to-start".
std::string outcomeOf(const process::ProcessResult &process);

} // namespace tilescope::tries
