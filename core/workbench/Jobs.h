// The jobs a front end starts, each from one choice: what a person chose in
// the CLI's options, the window's boxes or Python's arguments. The choice
// is checked here, once, for every front end (ranges, NaN and infinity, a
// target's name, a place to run, a program that can be read), and the
// workbench turns it into the core's request, filled with what it owns
// (IREE's parse worker, the workspace).
#pragma once

#include "core/edit/RootOpContext.h"
#include "core/sweep/SweepWorkflow.h"
#include "core/tune/Tune.h"
#include "core/util/Result.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

namespace tilescope::workbench {

// Why a choice makes no job: the choice itself (a value out of range, an
// unknown target: the CLI's usage error), no IREE to run it with, or the
// input (a program that cannot be read).
struct Refusal {
  enum class Kind { Choice, NoIree, Input };
  Kind kind = Kind::Choice;
  std::string message;
};

// A request made from a choice, or why none.
template <typename T> class Checked {
public:
  Checked(T made) : made(std::move(made)) {}
  Checked(Refusal refused) : refused(std::move(refused)) {}
  explicit operator bool() const { return made.has_value(); }
  T &operator*() { return *made; }
  T *operator->() { return &*made; }
  const Refusal &refusal() const { return refused; }

private:
  std::optional<T> made;
  Refusal refused;
};

// The ranges every front end holds a job's numbers to.
struct JobLimits {
  static constexpr double kMaxStepSeconds = 7 * 24 * 3600; // a week
  static constexpr long long kMaxNearest = 4096;
  static constexpr long long kMaxParallel = 256;
  static constexpr long long kMaxSweepRepetitions = 1000;
};

// Seconds as a job step's limit: finite, more than 0, at most a week; the
// Error names `what` ("timeout").
Result<std::chrono::milliseconds> stepLimit(double seconds,
                                            const std::string &what);

// A whole program tuned (core/tune).
struct TuneChoice {
  std::filesystem::path program;
  std::string target;        // "": the devices the program names
  double budgetMinutes = 30; // no new kind of dispatch swept past it
  long long candidates = 8;  // per dispatch
  long long repetitions = 5; // of each timed run
  double timeoutSeconds = 300;
  std::string on; // "": here (or the workspace's settings.json)
  // Set: nothing timed here, a bundle written for the GPU machine; its
  // results imported; the spec written there.
  std::filesystem::path bundle, importFrom, spec;
};

// One root op's config swept (core/sweep).
struct SweepJobChoice {
  edit::OpRef op;
  // Where its candidates come from (sweep::SweepChoice): FIELD=V1,V2 axes
  // (with ireeSpace: the fields whose knobs vary), IREE's space required or
  // refused, the points of IREE's space kept (nearest first), the name ("":
  // from the file, the op and the axes).
  std::vector<std::string> vary;
  bool ireeSpace = false, noIreeSpace = false;
  // IREE's space where it gives one, else the request's axes (the Sweep
  // panel's box; sweep::SweepChoice::ireeSpaceIfAny).
  bool ireeSpaceIfAny = false;
  long long nearest = 32;
  std::string name;
  std::string stage = "bench"; // or "resources": compiled, not timed
  long long parallel = 0;      // 0: the cores here
  long long repetitions = 3;
  double timeoutSeconds = 300;
  bool ireeConstraints = false; // IREE's verdict on each candidate
  std::string on;               // "": here
  std::string compileOn;        // a Slurm partition to compile on
};

} // namespace tilescope::workbench
