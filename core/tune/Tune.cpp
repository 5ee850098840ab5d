#include "core/tune/Tune.h"

#include "core/process/FolderLock.h"

#include "core/devices/GpuDiscovery.h"
#include "core/edit/RootOpContext.h"
#include "core/export/TuningSpec.h"
#include "core/run/BenchJob.h"
#include "core/run/TensorData.h"
#include "core/service/CompileJob.h"
#include "core/service/ConfigureProgram.h"
#include "core/sweep/Neighbours.h"
#include "core/sweep/Sweep.h"
#include "core/sweep/SweepWorkflow.h"
#include "core/tries/BundleTries.h"
#include "core/tries/ConfigsPutBack.h"
#include "core/tries/History.h"
#include "core/tries/TryJob.h"
#include "core/tune/ProgramTiming.h"
#include "core/tune/SpecProof.h"
#include "core/tune/TuneBundle.h"
#include "core/tune/TuneReport.h"
#include "core/tune/TuneSpec.h"
#include "core/tune/TuneSteps.h"
#include "core/util/Files.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace fs = std::filesystem;
using nlohmann::json;

namespace tilescope::tune {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Steps told to the caller, with the time left estimated from the steps so
// far.
class Progress {
public:
  Progress(const TuneRequest &request, Clock::time_point start)
      : request(request), start(start) {}
  void plan(size_t steps) { total += steps; }
  void step(const std::string &text) {
    if (!request.onProgress)
      return;
    TuneProgress progress{text, done, total, std::nullopt};
    if (done > 0 && total > done)
      progress.secondsLeft = secondsSince(start) / static_cast<double>(done) *
                             static_cast<double>(total - done);
    request.onProgress(progress);
  }
  void finished(size_t steps = 1) { done += steps; }

private:
  const TuneRequest &request;
  Clock::time_point start;
  size_t done = 0, total = 0;
};

// The root op a dispatch is tuned by: IREE's root op, where it has a
// config of its own.
std::optional<size_t> tunedOp(const document::Dispatch &dispatch) {
  const size_t op = edit::rootOpIndex(dispatch);
  if (op >= dispatch.rootOps.size())
    return std::nullopt;
  const document::RootOp &root = dispatch.rootOps[op];
  if (root.loweringConfig.empty() && root.compilationInfo.empty())
    return std::nullopt;
  return op;
}

// The rules' neighbours as candidates of one change each: their every
// combination would be hundreds of tries for one dispatch of many. The
// value each axis has now is IREE's default, timed already.
void onePerChange(sweep::SweepRequest &request) {
  if (!request.points.empty() || request.axes.empty())
    return;
  for (const sweep::SweepAxis &axis : request.axes) {
    const std::string now =
        sweep::currentValue(*request.document, request.op, axis.field);
    for (const std::string &value : axis.values) {
      if (value == now)
        continue;
      sweep::SweepPoint point;
      point.name = axis.field + "=" + value;
      point.settings = {{axis.field, value}};
      point.distance = 1;
      request.points.push_back(std::move(point));
    }
  }
}

// Whether the candidate leaves the op's config as it was (an indexed axis
// value equal to the current entry): IREE's default again.
bool changesNothing(const sweep::SweepCandidate &candidate,
                    const document::Dispatch &original, size_t op) {
  if (!candidate.dispatch || op >= candidate.dispatch->rootOps.size())
    return false;
  const document::RootOp &now = candidate.dispatch->rootOps[op];
  const document::RootOp &before = original.rootOps[op];
  return now.loweringConfig == before.loweringConfig &&
         now.compilationInfo == before.compilationInfo &&
         candidate.dispatch->translationInfo == original.translationInfo;
}

// Why a tuning spec cannot carry the dispatch's config ("" where it can, or
// where that was not asked): where IREE's config gives other ops of the
// dispatch lowering_configs of their own (fills aside), a spec configures
// the root op alone, and some such dispatches then no longer compile
// (docs/iree-3.13.md). IREE's own config is put in a spec and proven on the
// program by compiling it, before any candidate is swept.
std::string specCannotCarry(const tools::IreeInstallation &iree,
                            service::DocumentWorker &worker,
                            const TuneRequest &request,
                            const document::Document &document,
                            const DispatchTune &tuned, const fs::path &folder,
                            Progress &progress) {
  if (otherConfiguredOps(document.dispatches[tuned.dispatch], tuned.op) == 0)
    return {};
  progress.step("proving that a spec can carry dispatch " +
                std::to_string(tuned.dispatch) + "'s config");
  // Its dag printed once, for the spec and its proof.
  std::vector<exporting::SpecOp> ops = {
      {static_cast<int>(tuned.dispatch), static_cast<int>(tuned.op), {}}};
  if (!attachDags(worker, document, ops))
    return {}; // the proof of the winners' spec will say
  auto spec = exporting::tuningSpec(document, ops);
  const fs::path file =
      folder /
      ("iree-default-" + std::to_string(tuned.dispatch) + ".spec.mlir");
  if (!spec || !writeFileAtomically(file, *spec))
    return {};
  auto proof = proveSpec(iree, worker, document, ops, request.source, file,
                         proofLimits(request, folder));
  if (!proof || proof->ops.empty() || proof->ops[0].compileError.empty())
    return {};
  std::string why = "a tuning spec cannot carry its config: IREE's own "
                    "config, given through a spec, breaks the program's "
                    "compile (" +
                    proof->ops[0].compileError + ")";
  for (const std::string &note : proof->notes)
    why += "; " + note;
  return why;
}

// Step 4: the winners as one proven spec (TuneSpec.h), and the program
// compiled with and without it, run on the same inputs, compared and timed
// end to end.
void writeSpecAndRun(const tools::IreeInstallation &iree,
                     service::DocumentWorker &worker,
                     const TuneRequest &request,
                     const document::Document &document,
                     const std::string &backend, TuneResult &result,
                     Progress &progress) {
  writeProvenSpec(
      iree, worker, request, document, backend, result,
      [&progress](const std::string &text) { progress.step(text); });

  // The program on the configured file's device (so sm_90, which IREE
  // cannot name by flag, compiles for it), with and without the spec.
  fs::path program = request.source;
  if (auto source = readTextFile(request.source); source)
    if (auto onDevice = run::programOnDevice(*source, document.text))
      if (writeFileAtomically(result.folder / "program.mlir", *onDevice))
        program = result.folder / "program.mlir";
  auto run = [&](const std::string &what,
                 const std::string &folder) -> ProgramRun {
    ProgramRun ran;
    ran.what = what;
    run::CheckRequest check;
    check.program = program;
    check.target = request.target;
    if (!check.target)
      if (auto target = service::compileTarget(
              backend == "llvm-cpu" ? "llvm-cpu" : backend))
        check.target = *target;
    check.directory = result.folder / folder;
    check.seed = request.seed;
    check.timeout = request.timeout;
    check.cancel = request.cancel;
    if (what == "tuned")
      check.extraFlags = {specFlag(backend, result.spec)};
    check.place = request.place;
    tries::placeCheck(check, backend, result.device);
    // Run elsewhere (a bundle's programs.sh): the function and its inputs
    // are still prepared here, the outputs read back against them.
    if (!request.bundle.empty() || !request.importFrom.empty()) {
      check.compileOnly = true;
      check.notRunBecause = result.notMeasuredBecause;
      check.prepareInputs = true;
    }
    progress.step("compiling and running the program (" + what + ")");
    auto checked = run::checkProgram(iree, check);
    if (!checked) {
      ran.error = checked.error();
      return ran;
    }
    ran.check = std::move(*checked);
    if (!ran.check.error.empty()) {
      ran.error = ran.check.failedStep + ": " + ran.check.error;
      return ran;
    }
    if (ran.check.compiledOnly) {
      ran.error = "compiled only: " + ran.check.notRunBecause;
      return ran;
    }
    progress.step("timing the program end to end (" + what + ")");
    auto timed =
        timeCheckedModule(iree, ran.check, request.repetitions, request.timeout,
                          request.cancel, request.place);
    if (timed)
      ran.time = *timed;
    else
      ran.error = timed.error();
    return ran;
  };
  if (process::stopRequested(request.cancel))
    return;
  result.defaultRun = run("IREE's default", "default");
  if (result.spec.empty())
    return;
  result.tunedRun = run("tuned", "tuned");
  if (result.defaultRun->check.hasVerdict() &&
      result.tunedRun->check.hasVerdict()) {
    auto agreement =
        compareOutputs(result.defaultRun->check, result.tunedRun->check);
    if (agreement) {
      result.outputsAgree = agreement->agree;
      result.outputsComparison = agreement->text;
    } else {
      result.outputsComparison = agreement.error();
    }
  }
  if (result.defaultRun->time && result.tunedRun->time)
    result.endToEnd =
        tries::compareTimes(*result.defaultRun->time, *result.tunedRun->time);
}

} // namespace

Result<bool> setTuneLimits(TuneRequest &request, double budgetMinutes,
                           long long candidates, long long repetitions) {
  if (!std::isfinite(budgetMinutes) || budgetMinutes <= 0 ||
      budgetMinutes > TuneLimits::kMaxBudgetMinutes)
    return Error{"the budget is in minutes, more than 0 and at most a week "
                 "(10080)"};
  if (candidates < 1 || candidates > TuneLimits::kMaxCandidates)
    return Error{"candidates per dispatch are 1 to " +
                 std::to_string(TuneLimits::kMaxCandidates)};
  if (repetitions < 1 || repetitions > TuneLimits::kMaxRepetitions)
    return Error{"repetitions are 1 to " +
                 std::to_string(TuneLimits::kMaxRepetitions)};
  request.budget =
      std::chrono::seconds(static_cast<long long>(budgetMinutes * 60));
  request.candidatesPerDispatch = static_cast<size_t>(candidates);
  request.repetitions = static_cast<int>(repetitions);
  return true;
}

std::string defaultSweepName(const std::string &kind) {
  return "tune " + kind + ": IREE's default";
}

std::string dispatchKind(const document::Dispatch &dispatch, size_t op,
                         const std::string &target) {
  const document::RootOp &root = dispatch.rootOps.at(op);
  std::vector<std::string> fused;
  for (const document::FusedOp &f : dispatch.fusedOps)
    fused.push_back(f.name);
  return root.name + " " + (root.space ? root.space->toString() : "?") + " " +
         joined(root.operandTypes, ",") + "->" + joined(root.resultTypes, ",") +
         (fused.empty() ? "" : " with " + joined(fused, ",")) + " on " + target;
}

namespace {

// One tune as its steps pass it on: what was asked, what each step found.
class TuneRun {
public:
  TuneRun(const tools::IreeInstallation &iree, const TuneRequest &request)
      : iree(iree), request(request), start(Clock::now()),
        progress(request, start), worker(*request.worker) {
    worker.cancel = request.cancel;
  }

  // The tune's folder, held against a second tune of the program.
  Result<bool> claimFolder();
  // A bundle of this tune that ran on the GPU machine: its times into the
  // history first, so the tune decides on them.
  Result<bool> importBundle();
  // Step 1: the program configured, each dispatch's root op and kind, and
  // where times come from. False where it was cancelled.
  Result<bool> configureAndGroup();
  // Step 2: IREE's default of each kind, alone: the shares.
  void timeDefaults();
  // Step 3: each kind swept in order of its share, its winner decided.
  void sweepByShare();
  // Step 4: one spec for the winners, proven, and the program end to end.
  void proveAndRun();
  TuneResult finish();
  TuneResult cancelled();

private:
  sweep::SweepRequest sweepRequest(const DispatchTune &tuned) const;
  void chooseDevice();
  void tuneDispatch(DispatchTune &tuned);
  // The candidates of a dispatch's sweep, nearest first, or why none.
  std::optional<std::string> prepareCandidates(DispatchTune &tuned,
                                               sweep::SweepRequest &sweep);
  // A winner measured faster: kept where the program with it computes
  // what the CPU reference does.
  void checkWinner(DispatchTune &tuned);
  void countTries(const sweep::SweepResult &swept) {
    result.tries += swept.ran;
    result.resumed += swept.resumed;
  }
  void tell(const DispatchTune &tuned) const {
    if (request.onDispatch)
      request.onDispatch(tuned);
  }

  const tools::IreeInstallation &iree;
  const TuneRequest &request;
  const Clock::time_point start;
  Progress progress;
  service::DocumentWorker worker;
  TuneResult result;
  std::optional<process::FolderLock> lock;
  std::optional<service::ConfiguredProgram> configured;
  std::string backend;
  tries::TryStage upTo = tries::TryStage::Resources;
  size_t kinds = 0;

  const document::Document &document() const { return configured->document; }
};

Result<bool> TuneRun::claimFolder() {
  const std::string targetName =
      request.target ? request.target->name : "own-devices";
  result.folder =
      fs::absolute(request.workspace / "tune" /
                   (request.source.stem().string() + "." + targetName));
  std::error_code error;
  fs::create_directories(result.folder, error);
  if (error)
    return Error{"cannot create " + result.folder.string() + ": " +
                 error.message()};
  // Two tunes of one program on one workspace would time every candidate
  // twice, each under the other's load, and write the same folder.
  auto acquired = process::FolderLock::acquire(
      result.folder,
      "a tune of " + request.source.filename().string() + " for " + targetName);
  if (!acquired)
    return Error{acquired.error()};
  lock.emplace(std::move(*acquired));
  return true;
}

Result<bool> TuneRun::importBundle() {
  if (request.importFrom.empty())
    return true;
  std::error_code error;
  if (!fs::is_directory(request.importFrom / "results", error))
    return Error{"--import " + request.importFrom.string() +
                 ": the bundle holds no results: run its run.sh and "
                 "programs.sh on the GPU machine first"};
  auto history = tries::History::open(tries::historyFile(request.workspace));
  if (!history)
    return Error{history.error()};
  auto imported = tries::importBundleResults(request.importFrom, *history);
  if (!imported)
    return Error{"--import " + request.importFrom.string() + ": " +
                 imported.error()};
  result.imported = describeImport(imported->modules, request.importFrom);
  return true;
}

Result<bool> TuneRun::configureAndGroup() {
  service::ConfigureRequest configure;
  configure.source = request.source;
  configure.target = request.target;
  configure.output =
      result.folder / (request.source.stem().string() + ".configured.mlir");
  configure.timeout = std::max(
      request.timeout, std::chrono::milliseconds(std::chrono::minutes(10)));
  configure.cancel = request.cancel;
  configure.progress = [this](const std::string &step) { progress.step(step); };
  auto done = service::configureProgram(iree, worker, configure);
  if (!done && process::stopRequested(request.cancel))
    return false;
  if (!done)
    return Error{done.error()};
  configured = std::move(*done);
  result.configured = configure.output;
  chooseDevice();

  std::map<std::string, size_t> firstOfKind;
  for (size_t d = 0; d < document().dispatches.size(); ++d) {
    const document::Dispatch &dispatch = document().dispatches[d];
    DispatchTune tuned;
    tuned.dispatch = d;
    tuned.name = dispatch.name;
    if (const std::optional<size_t> op = tunedOp(dispatch)) {
      const document::RootOp &root = dispatch.rootOps[*op];
      tuned.op = *op;
      tuned.opName = root.name;
      tuned.loops = root.space ? root.space->toString() : "";
      tuned.kind = dispatchKind(dispatch, *op, result.target);
      auto [first, isNew] = firstOfKind.emplace(tuned.kind, d);
      if (!isNew)
        tuned.sameAs = first->second;
    } else {
      tuned.outcome = "not tuned: no root op with a config of its own";
    }
    result.dispatches.push_back(std::move(tuned));
  }
  kinds = firstOfKind.size();
  return true;
}

// Where the times come from: this machine's device for the target, a
// place elsewhere, or a run bundle (then nothing is timed here).
void TuneRun::chooseDevice() {
  const std::vector<std::string> backends =
      service::documentBackends(document());
  backend = request.target     ? request.target->backend
            : backends.empty() ? ""
                               : backends.front();
  result.target = request.target ? request.target->name : backend;
  result.on = request.place.local() ? "" : request.place.toString();
  if (!request.importFrom.empty()) {
    result.notMeasuredBecause =
        "timed where the run bundle " + request.importFrom.string() + " ran";
  } else if (!request.bundle.empty()) {
    result.notMeasuredBecause =
        "timed where the run bundle " + request.bundle.string() + " runs";
  } else if (!request.place.local()) {
    // Elsewhere: the target's driver there (its first device), as a
    // checked run or a sweep placed there takes it.
    result.device = tries::driverForTarget(backend);
    if (result.device.empty())
      result.notMeasuredBecause =
          "Tilescope runs no " + backend + " modules " + request.place.where();
  } else if (backend == "llvm-cpu") {
    result.device = "local-task";
  } else if (auto found =
                 run::deviceForBackend(backend, devices::discoverGpus())) {
    result.device = *found;
  } else {
    result.notMeasuredBecause = found.error();
  }
  result.measured = !result.device.empty();
  upTo = result.measured ? tries::TryStage::Bench : tries::TryStage::Resources;
}

// A sweep of one dispatch's root op, as `sweep` runs it.
sweep::SweepRequest TuneRun::sweepRequest(const DispatchTune &tuned) const {
  sweep::SweepRequest sweep;
  sweep.document = &document();
  sweep.op = {tuned.dispatch, tuned.op};
  sweep.upTo = upTo;
  sweep.target = request.target;
  sweep.workspace = request.workspace;
  sweep.place = request.place;
  // Timed runs one at a time: a compile beside a timed run is noise.
  sweep.parallel = result.measured && request.place.local() ? 1 : 0;
  sweep.repetitions = request.repetitions;
  sweep.timeout = request.timeout;
  sweep.cancel = request.cancel;
  sweep.worker = worker;
  // Named by the dispatch's kind: tried before under another file name or
  // in a copied workspace, it is taken from the history, as the docs say.
  sweep.resumeAcrossFiles = true;
  return sweep;
}

void TuneRun::timeDefaults() {
  progress.plan(kinds);
  for (DispatchTune &tuned : result.dispatches) {
    if (tuned.kind.empty() || tuned.sameAs)
      continue;
    if (process::stopRequested(request.cancel)) {
      result.cancelled = true;
      break;
    }
    progress.step((result.measured ? "timing" : "compiling") +
                  std::string(" IREE's default of dispatch ") +
                  std::to_string(tuned.dispatch) + " (" + tuned.opName + " " +
                  tuned.loops + ")");
    sweep::SweepRequest sweep = sweepRequest(tuned);
    sweep.points = {sweep::SweepPoint{"IREE's default", {}, 0}};
    sweep.name = defaultSweepName(tuned.kind);
    auto swept = sweep::runSweep(iree, sweep);
    progress.finished();
    if (!swept) {
      tuned.outcome = "not tuned: " + swept.error();
      continue;
    }
    countTries(*swept);
    const sweep::SweepCandidate &only = swept->candidates.front();
    if (!only.valid) {
      tuned.outcome = "not tuned: Tilescope's rules reject IREE's own "
                      "config (" +
                      only.whyNot + ")";
      continue;
    }
    tuned.defaultTime = only.measuredTiming();
    tuned.defaultPredicted = only.predictedMicroseconds;
    if (!only.record || only.record->outcome != "ok")
      tuned.outcome = "not tuned: IREE's default did not " +
                      std::string(result.measured ? "run: " : "compile: ") +
                      (only.record ? only.record->summary : "no try");
  }
  shareDefaults(result.dispatches);
  shareTimes(result.dispatches, result.measured);
  for (const DispatchTune &tuned : result.dispatches)
    tell(tuned);
}

void TuneRun::sweepByShare() {
  const std::vector<size_t> order = sweepOrder(result.dispatches);
  progress.plan(order.size() * request.candidatesPerDispatch);
  for (size_t d : order) {
    DispatchTune &tuned = result.dispatches[d];
    if (process::stopRequested(request.cancel) || result.cancelled) {
      result.cancelled = true;
      tuned.outcome = "not tuned: cancelled";
    } else if (secondsSince(start) >
               static_cast<double>(request.budget.count())) {
      result.budgetSpent = true;
      tuned.outcome = "not tuned: the budget was spent";
    } else {
      tuneDispatch(tuned);
    }
    tell(tuned);
  }
  takeKindsTuning(result.dispatches,
                  [this](const DispatchTune &tuned) { tell(tuned); });
}

std::optional<std::string>
TuneRun::prepareCandidates(DispatchTune &tuned, sweep::SweepRequest &sweep) {
  sweep::SweepChoice choice;
  choice.nearest = request.candidatesPerDispatch;
  choice.timeout = request.timeout;
  progress.step("finding candidates for dispatch " +
                std::to_string(tuned.dispatch) + " (" + tuned.opName + " " +
                tuned.loops + ")");
  auto prepared = sweep::prepareSweep(&iree, sweep, choice);
  if (!prepared)
    return prepared.error();
  tuned.neighbourhood = prepared->neighbourhood;
  onePerChange(sweep);
  // A reduction that keeps lanes idle: its lanes filled first.
  if (tuned.neighbourhood == "rules") {
    std::vector<sweep::SweepPoint> filled =
        sweep::laneFillingPoints(document(), sweep.op);
    sweep.points.insert(sweep.points.begin(), filled.begin(), filled.end());
  }
  // IREE's default is timed already: not a candidate again.
  std::erase_if(sweep.points,
                [](const sweep::SweepPoint &p) { return p.distance <= 0; });
  std::stable_sort(sweep.points.begin(), sweep.points.end(),
                   [](const sweep::SweepPoint &a, const sweep::SweepPoint &b) {
                     return a.distance < b.distance;
                   });
  if (sweep.points.size() > request.candidatesPerDispatch)
    sweep.points.resize(request.candidatesPerDispatch);
  sweep.name = "tune " + tuned.kind + ": " + tuned.neighbourhood;
  tuned.sweep = sweep.name;
  return std::nullopt;
}

void TuneRun::tuneDispatch(DispatchTune &tuned) {
  const size_t d = tuned.dispatch;
  if (std::string why = specCannotCarry(iree, worker, request, document(),
                                        tuned, result.folder, progress);
      !why.empty()) {
    tuned.outcome = "not tuned: " + why;
    return;
  }
  sweep::SweepRequest sweep = sweepRequest(tuned);
  if (auto why = prepareCandidates(tuned, sweep)) {
    tuned.outcome = "not tuned: " + *why;
    return;
  }
  sweep.onCandidate = [&](const sweep::SweepCandidate &candidate, size_t done,
                          size_t count) {
    progress.finished();
    progress.step("dispatch " + std::to_string(d) + ": candidate " +
                  std::to_string(done) + " of " + std::to_string(count) + ", " +
                  candidate.name);
  };
  auto swept = sweep::runSweep(iree, sweep);
  if (!swept) {
    tuned.outcome = "not tuned: " + swept.error();
    return;
  }
  countTries(*swept);
  tuned.candidates = swept->candidates.size();
  tuned.valid = static_cast<size_t>(
      std::count_if(swept->candidates.begin(), swept->candidates.end(),
                    [](const sweep::SweepCandidate &c) { return c.valid; }));
  // Measured here, or by a device elsewhere (a bundle's times imported):
  // the measured candidates decide; else the cost model's.
  bool byMeasure = result.measured;
  for (const sweep::SweepCandidate &c : swept->candidates)
    byMeasure = byMeasure || (tuned.defaultTime && c.valid &&
                              c.measuredTiming().has_value());
  const sweep::SweepCandidate *winner = winnerOf(
      swept->candidates, byMeasure, [&](const sweep::SweepCandidate &c) {
        return changesNothing(c, document().dispatches[d], tuned.op);
      });
  if (!winner) {
    // Not timed, and no prediction for any: a CPU target (the cost model
    // predicts GPUs) compiled here for timing elsewhere.
    const bool compiled =
        std::any_of(swept->candidates.begin(), swept->candidates.end(),
                    [](const sweep::SweepCandidate &c) {
                      return c.record && c.record->outcome == "ok";
                    });
    tuned.outcome = "kept IREE's: no candidate " +
                    std::string(byMeasure  ? "was timed"
                                : compiled ? "was timed or predicted (" +
                                                 result.notMeasuredBecause + ")"
                                           : "compiled");
    return;
  }
  tuned.winner = winner->name;
  tuned.winnerTime = winner->measuredTiming();
  tuned.winnerPredicted = winner->predictedMicroseconds;
  const document::RootOp &won = winner->dispatch->rootOps[tuned.op];
  tuned.loweringConfig = won.loweringConfig;
  tuned.compilationInfo = won.compilationInfo;
  tuned.translationInfo = winner->dispatch->translationInfo;
  if (!byMeasure) {
    decideOnPrediction(tuned);
    return;
  }
  if (!tuned.defaultTime) {
    tuned.outcome = "kept IREE's: IREE's default has no time to beat";
    return;
  }
  tuned.verdict = tries::compareTimes(*tuned.defaultTime, *tuned.winnerTime);
  if (tuned.verdict->withinNoise || tuned.verdict->speedup <= 1) {
    tuned.outcome = "kept IREE's";
    tuned.why = "the fastest candidate is not faster beyond noise: " +
                tuned.verdict->text;
    return;
  }
  if (!result.measured) {
    // Timed elsewhere, where the program runs too: there its outputs
    // with the spec are compared with IREE's default's.
    tuned.kept = true;
    tuned.outcome = "tuned (timed elsewhere)";
    tuned.why = tuned.verdict->text;
    tuned.check = "not run here (no device): the tuned program's outputs "
                  "are compared with the default's where it runs";
    return;
  }
  checkWinner(tuned);
}

void TuneRun::checkWinner(DispatchTune &tuned) {
  const size_t d = tuned.dispatch;
  progress.step("checking dispatch " + std::to_string(d) + "'s winner, " +
                tuned.winner + ", in the program");
  const document::Document edited =
      tries::withConfigs({winnerConfigs(tuned)}, document());
  run::CheckRequest check;
  check.program = request.source;
  check.edited = &edited;
  check.target = request.target;
  check.directory = result.folder / "checks" / ("dispatch" + std::to_string(d));
  check.seed = request.seed;
  check.timeout = request.timeout;
  check.cancel = request.cancel;
  check.place = request.place;
  tries::placeCheck(check, backend, result.device);
  auto checked = run::checkProgram(iree, check);
  tuned.check = !checked ? checked.error()
                : checked->error.empty()
                    ? checked->summary()
                    : checked->failedStep + ": " + checked->error;
  tuned.kept = checked && checked->hasVerdict() && checked->passed();
  tuned.checkDidNotRun = !checked || !checked->hasVerdict();
  tuned.outcome =
      tuned.kept ? "tuned"
      : tuned.checkDidNotRun
          ? "kept IREE's: the checked run could not run (" + tuned.check + ")"
          : "kept IREE's: the checked run failed";
  tuned.why = tuned.verdict->text;
}

// Here, or where a bundle runs (written now, or read back).
void TuneRun::proveAndRun() {
  writeSpecAndRun(iree, worker, request, document(), backend, result, progress);
  if (!request.importFrom.empty())
    readTuneBundle(request.importFrom, result);
  if (!request.bundle.empty()) {
    progress.step("writing the run bundle " + request.bundle.string());
    auto written = writeTuneBundle(iree, result, request.workspace,
                                   request.bundle, request.repetitions);
    if (written)
      result.bundle = *written;
    else
      result.notes.push_back("no run bundle: " + written.error());
  }
}

TuneResult TuneRun::finish() {
  result.wallSeconds = secondsSince(start);
  if (auto written = writeFileAtomically(result.folder / "tune.json",
                                         toJson(result).dump(2) + "\n");
      !written)
    result.notes.push_back(written.error());
  return std::move(result);
}

TuneResult TuneRun::cancelled() {
  result.cancelled = true;
  result.wallSeconds = secondsSince(start);
  return std::move(result);
}

} // namespace

Result<TuneResult> tuneProgram(const tools::IreeInstallation &iree,
                               const TuneRequest &request) {
  if (!request.worker)
    return Error{"tune needs the parse worker (tilescope-iree-worker)"};
  TuneRun run(iree, request);
  if (auto claimed = run.claimFolder(); !claimed)
    return Error{claimed.error()};
  if (auto imported = run.importBundle(); !imported)
    return Error{imported.error()};
  auto configured = run.configureAndGroup();
  if (!configured)
    return Error{configured.error()};
  if (!*configured)
    return run.cancelled();
  run.timeDefaults();
  run.sweepByShare();
  run.proveAndRun();
  return run.finish();
}

} // namespace tilescope::tune
