// A try's timed run as its record keeps it (the history's details "bench",
// what `--json` prints as a try's "bench"): whether it ran and why not, the
// bundle's timing, run.sh's process, the host or Slurm task it ran on, the
// roofline floor it reached and the profiler beside Tilescope. The job's
// own result (run::BenchJobResult: the process's output, the ssh steps as
// specs) is what it is made from; this is what stays of it.
#pragma once

#include "core/run/BenchJob.h"
#include "core/run/RunBundle.h"
#include "core/tries/ProfileComparison.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tilescope::tries {

// run.sh as it ran: "ok", "failed", "crashed", ... (outcomeOf a process)
// and its status in words.
struct RanProcess {
  std::string command, outcome, status;
  double seconds = 0;
};

// On a host over ssh: the bundle's folder there and the steps, as shell
// commands.
struct RanRemote {
  std::string on; // "ssh:HOST"
  std::string folder;
  bool toolsCopied = false;
  std::vector<std::string> steps;
};

// On a Slurm cluster: how its task ended.
struct RanSlurm {
  std::string task, state, node, exitCode, log;
  bool reattached = false; // from an earlier submission
};

struct TriedBench {
  bool ran = false;
  std::string why; // why it did not run (no device here, no bundle written)
  run::ModuleTiming timing;
  std::optional<RanProcess> process; // unset for an imported bundle's time
  std::string bundle;                // the run bundle timed ("" imported)
  std::string summary;               // in words, as the job said it
  std::string error;                 // why there is no time
  std::optional<RanRemote> remote;
  std::optional<RanSlurm> slurm;
  // The roofline floor of its op on its target, the efficiency its median
  // reaches against it and what bounds it, where both are known.
  std::optional<double> floorMicroseconds, efficiency;
  std::string boundBy;
  // The profiler's reading beside Tilescope's, where it profiled.
  std::vector<ProfileRow> besideTilescope;

  // Timed: a per-dispatch median.
  bool timed() const { return ran && error.empty() && timing.timed(); }
};

// Where a bench row imported from a run bundle took its time (the history's
// details "imported_from", "run_on" and "compiled_in"): the bundle's results
// of one module, which are imported once.
struct BundleOrigin {
  std::string bundle;   // absolute
  std::string created;  // the manifest's
  std::string module;   // its id in the manifest
  std::string finished; // its results/ID.done's
  std::string runOn;    // the host the bundle ran on, where given
  std::optional<long long> compiledIn; // the try that compiled the module

  // The same results of the same bundle (where it ran and the compile aside).
  bool sameResults(const BundleOrigin &other) const;
};

// The details' keys, and the inverse: nullopt where "imported_from" is not an
// object.
void addOrigin(const BundleOrigin &origin, nlohmann::json &details);
std::optional<BundleOrigin> bundleOriginFromJson(const nlohmann::json &details);

// A run that did not start, and why.
TriedBench notRun(const std::string &why);
// What stays of a bundle's timing read here (its measurements dropped): all
// an imported run has, and where a job's result starts.
TriedBench triedBenchOf(const run::ModuleTiming &timing);
// What stays of a timed run's job result.
TriedBench triedBenchOf(const run::BenchJobResult &bench);

nlohmann::json toJson(const TriedBench &bench);
// The inverse, for what the history (or an untrusted bundle) keeps: each
// field only with its type; nullopt for what is not an object.
std::optional<TriedBench> triedBenchFromJson(const nlohmann::json &bench);

} // namespace tilescope::tries
