// Tuning a whole program: from a model's MLIR to one tuning spec that makes
// it faster, checked and measured end to end. The job `tilescope-cli tune`
// and the Python package's tune() both run:
//   1. the program is configured by the pinned iree-compile for the target
//      (configureProgram), and each dispatch's root op is timed with IREE's
//      own config, alone, as a sweep of one candidate (measured where the
//      target's device is here, else compiled and predicted): each
//      dispatch's share of the program's time;
//   2. in order of share, while the budget lasts, each kind of dispatch
//      (the same root op, loops, types, fused ops and target) is swept once
//      over IREE's constraint space nearest its config, or the rules'
//      consistent neighbours (a CPU config's tiles one entry at a time);
//   3. a winner is kept only when it is measured faster than IREE's
//      default beyond the noise of the two times and the program with it
//      computes what the CPU reference does (a checked run);
//   4. the winners make one tuning spec (IREE's foreach_match form), the
//      spec is proven on the program (iree-compile gives each op the
//      config), and the program is compiled with and without it, both run
//      on the same inputs, their outputs compared and both timed end to end
//      on the same device.
// Every try lands in the workspace's history under sweep names made from
// the dispatch's kind, so a killed tune resumes where it stopped and a kind
// tuned before (in this program or another) is taken from the history.
#pragma once

#include "core/run/CheckJob.h"
#include "core/run/RunBundle.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeCommands.h"
#include "core/tools/IreeInstallation.h"
#include "core/tries/TimeComparison.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::tune {

struct TuneProgress {
  std::string step; // "timing IREE's default of dispatch 3 of 12", ...
  size_t done = 0;  // steps done of `total` (each a timed or compiled try)
  size_t total = 0; // as planned so far
  std::optional<double> secondsLeft; // estimated from the steps so far
};

struct DispatchTune;

struct TuneRequest {
  std::filesystem::path source; // a linalg / torch / ONNX-imported program
  // Unset: the source names its devices (hal.device.targets).
  std::optional<service::CompileTarget> target;
  std::filesystem::path workspace; // tries, the history, the tune's folder
  // Where the timed and checked runs go: here, a GPU host over ssh or a
  // Slurm partition (run::RunPlace; compiling stays here). Elsewhere, the
  // target's driver there is the device and every time is measured there:
  // the dispatches' sweeps, the winners' checked runs and the program end
  // to end, with and without the spec.
  run::RunPlace place;
  // Set: nothing is timed here; the tune compiles (each dispatch's default
  // and candidates, both programs with the checked run's inputs) and
  // writes a run bundle there for the GPU machine (TuneBundle.h).
  std::filesystem::path bundle;
  // Set: a bundle of this tune that ran on the GPU machine; its times go
  // into the history first (the tune then decides on them) and its
  // programs' outputs and times are read back.
  std::filesystem::path importFrom;
  // Written with the spec; empty: SOURCE-NAME.TARGET.spec.mlir in the
  // tune's folder.
  std::filesystem::path specOutput;
  // No new dispatch kind is swept past it (the one sweeping finishes).
  std::chrono::seconds budget{std::chrono::minutes(30)};
  size_t candidatesPerDispatch = 8; // IREE's space: the nearest kept
  int repetitions = 5;              // of each timed run
  uint64_t seed = 1;                // the checked runs' inputs
  std::chrono::milliseconds timeout{std::chrono::minutes(5)}; // each step
  const std::atomic<bool> *cancel = nullptr;
  // Reads the configured program and each dispatch taken out alone.
  std::optional<service::DocumentWorker> worker;
  std::function<void(const TuneProgress &)> onProgress;
  // Each dispatch as what is known of it changes (its share, then its
  // tuning), from the job's thread.
  std::function<void(const DispatchTune &)> onDispatch;
};

// The ranges a tune's choices are held to, by every front end (the CLI's
// options, the window's boxes, Python's arguments).
struct TuneLimits {
  static constexpr double kMaxBudgetMinutes = 7 * 24 * 60; // a week
  static constexpr long long kMaxCandidates = 4096;
  static constexpr long long kMaxRepetitions = 1000;
};
// The budget (minutes, more than 0), candidates per dispatch and
// repetitions set on `request`, or which is out of its range, in words.
Result<bool> setTuneLimits(TuneRequest &request, double budgetMinutes,
                           long long candidates, long long repetitions);

// One dispatch of the program: its share and what tuning it gave.
struct DispatchTune {
  size_t dispatch = 0, op = 0; // the root op, as `dispatches` lists it
  std::string name;            // the dispatch's
  std::string opName;          // "linalg.matmul"
  std::string loops;           // "256x256x512:ppr"
  // What makes two dispatches one kind: tuned once.
  std::string kind;
  // Another dispatch of the same kind, whose tuning this one takes.
  std::optional<size_t> sameAs;
  // Of the program's time (the sum over its dispatches), and what it
  // stands on: "measured" (each dispatch timed alone) or "predicted" (the
  // cost model, from the compiled kernel's resources).
  double share = 0;
  std::string shareFrom;
  std::optional<run::TimingStats> defaultTime; // IREE's config, measured
  std::optional<double> defaultPredicted;      // us
  // "tuned", "kept IREE's", "not tuned: ...": what happened, in words.
  std::string outcome;
  std::string sweep;         // the candidates' sweep in the history
  std::string neighbourhood; // "iree-constraints" or "rules"
  size_t candidates = 0, valid = 0;
  std::string winner; // the fastest candidate's name
  std::optional<run::TimingStats> winnerTime;
  std::optional<double> winnerPredicted;
  std::optional<tries::TimeVerdict> verdict; // default (A) against winner (B)
  std::string check; // the winner's checked run, in words
  // The winner's checked run could not run to a verdict (a compile, the
  // signature, a run failed): nothing was compared, so the tune failed.
  bool checkDidNotRun = false;
  bool kept = false; // measured faster and checked: in the spec
  // The winner only predicted faster (no device here): in the spec for a
  // device to confirm, never called faster.
  bool predictedOnly = false;
  std::string why; // why kept or not
  // The winner's configs (what winnerConfigs puts on its dispatch's root
  // op).
  std::string loweringConfig, compilationInfo, translationInfo;
  std::string specNote; // why it is not in the spec, where it is not
};

// The program compiled one way, run and timed.
struct ProgramRun {
  std::string what; // "IREE's default" or "tuned"
  run::CheckResult check;
  std::optional<run::TimingStats> time; // end to end, one call, us
  std::string error;                    // why there is no time
};

struct TuneResult {
  std::filesystem::path folder;     // WORKSPACE/tune/NAME
  std::filesystem::path configured; // the configured program
  std::filesystem::path spec;       // "" when there is none
  std::string specFlag;             // what gives it to iree-compile
  std::string target;               // "llvm-cpu", "cuda-sm_90", ...
  // The target the spec was proven for, as iree-compile's flags (a CPU
  // spec proven for the host's CPU may not compile for another).
  std::vector<std::string> targetFlags;
  std::string device;           // where it ran ("" compile-only)
  std::string on;               // "ssh:HOST", "slurm:P"; "" here
  std::filesystem::path bundle; // the run bundle written, if any
  // What importing the bundle added to the history ("12 modules: 12
  // timed, ..."), with --import.
  std::string imported;
  bool measured = false; // a device was here: times are measured
  std::string notMeasuredBecause;
  std::vector<DispatchTune> dispatches; // in the program's order
  // IREE proving the spec: per op in it, whether iree-compile with the spec
  // gave it the winner's config ("" where it did).
  std::vector<std::pair<std::string, std::string>> specProof;
  std::optional<ProgramRun> defaultRun, tunedRun;
  // The tuned program's outputs against the default's (same inputs).
  std::optional<bool> outputsAgree;
  std::string outputsComparison;
  std::optional<tries::TimeVerdict> endToEnd; // default (A), tuned (B)
  double wallSeconds = 0;
  double timedSeconds = 0; // spent in timed runs (the device's time)
  size_t tries = 0, resumed = 0;
  bool budgetSpent = false, cancelled = false;
  std::vector<std::string> notes; // what a reader should know
};

// Runs the whole tune. Fails (an Error) only when it cannot start or the
// program cannot be configured; everything after is in the result.
Result<TuneResult> tuneProgram(const tools::IreeInstallation &iree,
                               const TuneRequest &request);

// The sweep in the history that holds IREE's default of a kind of
// dispatch.
std::string defaultSweepName(const std::string &kind);

// The kind of a dispatch's root op: op, loops, operand and result types,
// the ops fused with it, the target. Dispatches of one kind are tuned once.
std::string dispatchKind(const document::Dispatch &dispatch, size_t op,
                         const std::string &target);

} // namespace tilescope::tune
