// The workbench's jobs: each front end's choice checked once and made the
// core's request (core/workbench/Jobs.h).
#include "core/workbench/Jobs.h"

#include "core/run/RemoteRun.h"
#include "core/service/ConfigureProgram.h"
#include "core/service/IreeCommands.h"
#include "core/util/Files.h"
#include "core/workbench/Workbench.h"

#include <algorithm>
#include <cmath>

namespace tilescope::workbench {

namespace {

Refusal choiceRefused(std::string message) {
  return Refusal{Refusal::Kind::Choice, std::move(message)};
}

// A count from `low` to `high`, or which is out of range.
std::optional<std::string> outOfRange(const std::string &what, long long value,
                                      long long low, long long high) {
  if (value >= low && value <= high)
    return std::nullopt;
  return what + " is " + std::to_string(low) + " to " + std::to_string(high) +
         ", not " + std::to_string(value);
}

} // namespace

Result<std::chrono::milliseconds> stepLimit(double seconds,
                                            const std::string &what) {
  // NaN fails every comparison and infinity overflows the cast: both are
  // refused, as is more than a week.
  if (!std::isfinite(seconds) || seconds <= 0 ||
      seconds > JobLimits::kMaxStepSeconds)
    return Error{
        what + " is in seconds, more than 0 and at most a week (" +
        std::to_string(static_cast<long long>(JobLimits::kMaxStepSeconds)) +
        ")"};
  return std::chrono::milliseconds(
      std::max<long long>(1, std::llround(seconds * 1000)));
}

Checked<tune::TuneRequest>
Workbench::tuneRequest(const TuneChoice &choice) const {
  tune::TuneRequest request;
  if (auto limited = tune::setTuneLimits(request, choice.budgetMinutes,
                                         choice.candidates, choice.repetitions);
      !limited)
    return choiceRefused(limited.error());
  auto timeout = stepLimit(choice.timeoutSeconds, "the timeout");
  if (!timeout)
    return choiceRefused(timeout.error());
  request.timeout = *timeout;
  if (!choice.target.empty()) {
    auto target = service::compileTarget(choice.target);
    if (!target)
      return choiceRefused("target: " + target.error());
    request.target = *target;
  }
  if (!choice.bundle.empty() && !choice.on.empty())
    return choiceRefused(
        "a bundle times nothing here or at another place: give one");
  request.workspace = given.workspace;
  if (choice.bundle.empty()) {
    auto place = run::runPlaceOr(choice.on, request.workspace);
    if (!place)
      return choiceRefused("run on: " + place.error());
    request.place = *place;
  } else {
    request.bundle = std::filesystem::absolute(choice.bundle);
  }
  if (!choice.importFrom.empty())
    request.importFrom = std::filesystem::absolute(choice.importFrom);
  request.specOutput = choice.spec;

  // The program: a file that can be read, naming its devices or given a
  // target.
  auto text = readTextFile(choice.program);
  if (!text)
    return Refusal{Refusal::Kind::Input, text.error()};
  if (!request.target && !service::namesItsDevices(*text))
    return choiceRefused(choice.program.string() +
                         " names no device (hal.device.targets): give a "
                         "target (gfx942, sm_90, llvm-cpu)");
  request.source = std::filesystem::absolute(choice.program);
  auto parser = worker();
  if (!parser)
    return Refusal{Refusal::Kind::NoIree, parser.error()};
  request.worker = std::move(*parser);
  return request;
}

Checked<tune::TuneResult>
Workbench::tune(const tune::TuneRequest &request) const {
  auto installation = iree();
  if (!installation)
    return Refusal{Refusal::Kind::NoIree, installation.error()};
  auto tuned = tune::tuneProgram(*installation, request);
  if (!tuned)
    return Refusal{Refusal::Kind::Input, tuned.error()};
  return std::move(*tuned);
}

Checked<sweep::SweepRequest>
Workbench::sweepRequest(const document::Document &document,
                        const SweepJobChoice &choice) const {
  sweep::SweepRequest request;
  request.document = &document;
  request.op = choice.op;
  if (choice.op.dispatch >= document.dispatches.size() ||
      choice.op.op >= document.dispatches[choice.op.dispatch].rootOps.size())
    return choiceRefused("op " + std::to_string(choice.op.dispatch) + ":" +
                         std::to_string(choice.op.op) +
                         " is not a root op of " + document.path.string());
  if (choice.stage == "bench")
    request.upTo = tries::TryStage::Bench;
  else if (choice.stage == "resources")
    request.upTo = tries::TryStage::Resources;
  else
    return choiceRefused("the stage is bench or resources, not '" +
                         choice.stage + "'");
  for (const auto &bad :
       {outOfRange("nearest", choice.nearest, 0, JobLimits::kMaxNearest),
        outOfRange("parallel (0: the cores here)", choice.parallel, 0,
                   JobLimits::kMaxParallel),
        outOfRange("repetitions", choice.repetitions, 1,
                   JobLimits::kMaxSweepRepetitions)})
    if (bad)
      return choiceRefused(*bad);
  auto timeout = stepLimit(choice.timeoutSeconds, "the timeout");
  if (!timeout)
    return choiceRefused(timeout.error());
  // With IREE's space, `vary` names the fields whose knobs vary; without,
  // each is an axis.
  if (!choice.ireeSpace) {
    auto axes = sweep::parseSweepAxes(choice.vary);
    if (!axes)
      return choiceRefused("vary " + axes.error());
    request.axes = std::move(*axes);
  }
  request.workspace = given.workspace;
  request.parallel = static_cast<int>(choice.parallel);
  request.repetitions = static_cast<int>(choice.repetitions);
  request.timeout = *timeout;
  request.ireeConstraints = choice.ireeConstraints;
  auto place = run::runPlaceOr(choice.on, request.workspace);
  if (!place)
    return choiceRefused("run on: " + place.error());
  request.place = *place;
  auto partition = sweep::compilePartitionOf(
      choice.compileOn, request.place, request.upTo,
      "--on slurm:PARTITION (Python: on=\"slurm:PARTITION\")");
  if (!partition)
    return choiceRefused("compile on: " + partition.error());
  request.compilePartition = *partition;
  return request;
}

Checked<sweep::PreparedSweep>
Workbench::prepareSweep(sweep::SweepRequest &request,
                        const SweepJobChoice &choice) const {
  auto installation = iree();
  if (choice.ireeSpace && !installation)
    return Refusal{Refusal::Kind::NoIree, installation.error()};
  sweep::SweepChoice how;
  how.vary = choice.vary;
  how.ireeSpace = choice.ireeSpace;
  how.noIreeSpace = choice.noIreeSpace;
  how.ireeSpaceIfAny = choice.ireeSpaceIfAny;
  how.nearest = static_cast<size_t>(std::max(0LL, choice.nearest));
  how.name = choice.name;
  how.timeout = request.timeout;
  auto prepared = sweep::prepareSweep(installation ? &*installation : nullptr,
                                      request, how);
  if (!prepared)
    return choiceRefused(prepared.error());
  return std::move(*prepared);
}

Checked<sweep::SweepPlanned>
Workbench::planSweep(const sweep::SweepRequest &request,
                     bool keepWithoutVerdicts) const {
  auto installation = iree();
  if (request.ireeConstraints && !installation && !keepWithoutVerdicts)
    return Refusal{Refusal::Kind::NoIree, installation.error()};
  auto planned = sweep::planSweepWithVerdicts(
      installation ? &*installation : nullptr, request);
  if (!planned)
    return choiceRefused(planned.error());
  if (!planned->ireeProblem.empty() && !keepWithoutVerdicts)
    return Refusal{Refusal::Kind::NoIree, planned->ireeProblem};
  return std::move(*planned);
}

Checked<sweep::SweepResult>
Workbench::runSweep(sweep::SweepRequest request) const {
  auto installation = iree();
  if (!installation)
    return Refusal{Refusal::Kind::NoIree, installation.error()};
  // An op of a whole program: each candidate's dispatch is tried alone.
  auto parser = worker(request.cancel);
  if (!parser)
    return Refusal{Refusal::Kind::NoIree, parser.error()};
  request.worker = std::move(*parser);
  auto swept = sweep::runSweep(*installation, request);
  if (!swept)
    return choiceRefused(swept.error());
  return std::move(*swept);
}

Checked<tries::TryResult> Workbench::runTry(tries::TryRequest request) const {
  auto installation = iree();
  if (!installation)
    return Refusal{Refusal::Kind::NoIree, installation.error()};
  std::optional<service::DocumentWorker> parser;
  if (!request.worker) {
    auto made = worker(request.cancel);
    if (!made)
      return Refusal{Refusal::Kind::NoIree, made.error()};
    parser = std::move(*made);
    request.worker = &*parser;
  }
  auto tried = tries::runTry(*installation, request);
  if (!tried)
    return Refusal{Refusal::Kind::Input, tried.error()};
  return std::move(*tried);
}

Checked<run::CheckResult>
Workbench::check(const run::CheckRequest &request) const {
  auto installation = iree();
  if (!installation)
    return Refusal{Refusal::Kind::NoIree, installation.error()};
  auto checked = run::checkProgram(*installation, request);
  if (!checked)
    return Refusal{Refusal::Kind::Input, checked.error()};
  return std::move(*checked);
}

} // namespace tilescope::workbench
