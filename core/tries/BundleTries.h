// Tries of the history as a run bundle, and a bundle's results back into
// the history: how a machine with the compiler and no GPU gets its tries
// timed on a machine with the GPU and no compiler.
//
//   tilescope-cli bundle --sweep NAME -o DIR    (or --try ID, or FILEs)
//   DIR/run.sh                                  (on the GPU machine)
//   tilescope-cli import-results DIR            (back here)
//
// Each module of the bundle is one compiled try; its manifest entry names
// the try, so the results land as a new "bench" row for the same file, op,
// target, sweep and candidate, with the try's configs, resources and
// prediction: a sweep then ranks the candidate by its measured time.
#pragma once

#include "core/run/RunBundle.h"
#include "core/tries/History.h"
#include "core/tries/ProfileComparison.h"
#include "core/util/Result.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::tries {

// The driver a try's modules run on: "cuda", "hip" or "local-task", from its
// target ("cuda-sm_90", "rocm-gfx942", "llvm-cpu"); empty for others.
std::string driverForTarget(const std::string &target);

// A compiled try as a bundle module ("try-ID"): its module.vmfb, the device
// of its target's driver, and what the manifest says of it. An Error for a
// try with no module (it did not compile) or no GPU or CPU target.
Result<run::BundleModule> bundleModuleOf(const TryRecord &record);

// The try a bundle carries for try `id`: the try itself, or, for a timing
// imported from a bundle, the try that compiled its module (bundling an
// imported row again bundles that module).
Result<TryRecord> bundledTryOf(const History &history, long long id);

// Where a try's kernels are read: its folder, or, for a timing imported
// from a bundle, the folder of the try that compiled its module (as
// bundledTryOf finds it), with Nsight Compute's source page of the module
// where a run profiled it: the bundle's results/ID.source.csv, or the
// try's own timed run's.
struct TryKernelFiles {
  long long compiledIn = 0; // the try whose folder it is
  std::filesystem::path folder;
  std::filesystem::path sourceCounters; // empty where there are none
  // The folder the page must lie in to be read (a bundle's): no link out.
  std::filesystem::path sourceCountersWithin;
};
Result<TryKernelFiles> kernelFilesOf(const History &history, long long id);

// The newest compiled try of each candidate of a sweep (the rows a bundle
// of the sweep carries); an Error when it has none.
Result<std::vector<TryRecord>> compiledTriesOfSweep(const History &history,
                                                    const std::string &sweep);

// The tries as a standalone bundle in `directory`, with the runtime tools
// of `iree`: what `tilescope-cli bundle` and the window's File > Export run
// bundle write.
Result<std::filesystem::path>
bundleTries(const std::vector<TryRecord> &tries,
            const std::filesystem::path &directory,
            const tools::IreeInstallation &iree);

struct ImportedModule {
  std::string id;
  std::optional<long long> compiledIn; // the try the module came from
  std::optional<long long> imported;   // the new history row
  bool alreadyImported = false;
  run::ModuleTiming timing;
  std::string candidate, sweep;
  std::string document, op, target;            // the problem it times
  std::optional<double> predictedMicroseconds; // the try's prediction
  std::vector<ProfileRow> besideTilescope;     // where it was profiled
  std::string error;                           // why it was not imported
};

// The cost model's order against the measured one over the modules of one
// problem (the same file, op and target: a sweep and the config it started
// from) that have a time and a prediction. Orders of different problems
// never mix: a 24 us and a 970 us kernel are not candidates of one choice.
struct OrderAgreement {
  std::string document, op, target;
  int modules = 0;
  double rankCorrelation = 0;
  double predictedFirstOverFastest = 1; // 1.0: the predicted first is fastest
  std::string predictedFirst, fastest;
  // The same against the profiler's kernel time of one launch, where every
  // module of the problem was profiled: for kernels of tens of
  // microseconds back-to-back dispatches (operands warm in L2) and one
  // profiled launch (caches flushed) can order differently.
  std::optional<double> profiledRankCorrelation;
  std::optional<double> profiledFirstOverFastest;
  std::string profiledFastest;
};

struct ImportReport {
  std::filesystem::path bundle;
  std::string host;
  std::vector<ImportedModule> modules;
  // One per problem with at least three timed, predicted modules, in the
  // order the bundle lists them.
  std::vector<OrderAgreement> orders;
};

// The cost model's order against the measured one, problem by problem. A
// module compiled from the whole file (no op named) joins the problem of
// the same file and target where the modules name one op of it.
std::vector<OrderAgreement>
orderAgreements(const std::vector<ImportedModule> &modules);

// Reads the bundle's results and adds each timed (or failed) module to the
// history as a bench row of its try; modules imported before are left.
Result<ImportReport> importBundleResults(const std::filesystem::path &bundle,
                                         History &history);

nlohmann::json toJson(const ImportReport &report);

} // namespace tilescope::tries
