// A run bundle: what travels to a machine with the GPU so it can time what
// this machine compiled. A folder holding the compiled modules, the pinned
// runtime's iree-benchmark-module and iree-run-module (a few MB, no
// compiler), a manifest of what each module is (the try, the sweep
// candidate, its configs and Tilescope's prediction), and one run.sh that
// times (and, where a profiler is installed, profiles) every module and
// writes its results beside it.
//
// Every timed run goes through run.sh, a bench here included (its try
// folder holds a bundle that refers to the module in place), so a time
// means the same thing on every machine:
//   - per dispatch: IREE's dispatch benchmark functions dispatch their
//     kernel --batch_size times in one command buffer (with a barrier
//     between), and iree-benchmark-module divides by it; run.sh picks the
//     batch so one iteration lasts at least 1 ms, warms up, and takes the
//     median of the repetitions. (Compiling such a module with
//     --iree-hal-benchmark-dispatch-repeat-count=N as well would run N x N
//     dispatches per iteration and report N times the kernel's time: the
//     flag is for modules whose functions do not loop themselves.)
//   - per submission: the same with one dispatch per submission, the figure
//     that carries the queue submission and synchronisation.
#pragma once

#include "core/process/Process.h"
#include "core/run/Profiler.h"
#include "core/service/IreeCommands.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::run {

// Median, spread (standard deviation) and range of the repetitions.
struct TimingStats {
  double median = 0, spread = 0, minimum = 0, maximum = 0;
  int repetitions = 0;
};
// Over the "iteration" rows of the first benchmark the measurements name
// (its name into `benchmark`, when given); nullopt with none.
std::optional<TimingStats>
timingStats(const std::vector<service::BenchmarkMeasurement> &measurements,
            std::string *benchmark = nullptr);

struct BundleModule {
  std::string id; // letters, digits, '-', '_' and '.': a file name
  std::filesystem::path module; // the .vmfb
  // The IREE device it runs on: a driver ("local-task", "cuda", "hip"; the
  // runtime picks its first device) or a URI ("cuda://0").
  std::string device;
  // IREE's dispatch benchmark functions loop --batch_size times themselves:
  // their runs are batched. Other modules are timed one invocation at a time.
  bool dispatchBenchmark = true;
  // What the module is, for whoever reads the results: the try, the sweep
  // and candidate, the document, op, target, configs, the prediction.
  nlohmann::json about = nlohmann::json::object();
};

// "local-task" for "local-task", "cuda" for "cuda://0".
std::string driverOf(const std::string &device);
// Whether an IREE input is a dispatch benchmark (its functions carry
// iree.benchmark = "dispatch").
bool isDispatchBenchmarkText(const std::string &text);

struct BundleWriteOptions {
  // Copy the modules and the runtime tools in, so the folder runs anywhere;
  // false: refer to the modules where they are and run with the tools here
  // (a bench on this machine).
  bool standalone = true;
  // A standalone bundle without tools/: it runs with $TILESCOPE_TOOLS (a
  // host's cache of them, core/run/RemoteRun.h).
  bool carryTools = true;
  const tools::IreeInstallation *iree = nullptr; // whose tools to copy
  // Not standalone only: a module may be missing now, written before the
  // bundle runs (by a compile on a Slurm node).
  bool moduleMayFollow = false;
};

// Writes the bundle into `directory` (created; an existing bundle there is
// replaced, its results kept). Fails on an id that is not a file name, a
// module that is missing, tools that cannot be copied.
Result<std::filesystem::path>
writeRunBundle(const std::filesystem::path &directory,
               const std::vector<BundleModule> &modules,
               const BundleWriteOptions &options);

struct BundleManifest {
  std::filesystem::path directory;
  std::string created;
  std::vector<BundleModule> modules; // module paths as the bundle holds them
  nlohmann::json json;
};
Result<BundleManifest> readBundleManifest(const std::filesystem::path &bundle);

// The shortest timed iteration: 20 ms. An iteration carries 100-200 us of
// submission and synchronisation besides its dispatches (measured on an
// H200: the 4096^3 f16 matmul read 1100 us a dispatch one per submission,
// 1003 four per submission, 986 at 16, 972 at 64, against Nsight Compute's
// 970 us), so it must last ~100x that for the per-dispatch figure to come
// within 1 % of the profiler's (docs/jobs.md).
inline constexpr double kTimedIterationMicroseconds = 20000;

struct BundleRunOptions {
  std::filesystem::path tools; // the runtime tools; empty: the bundle's own
  std::string device;          // a URI overriding modules of its driver
  int repetitions = 5;
  double targetMicroseconds = kTimedIterationMicroseconds;
  std::string profile = "auto"; // "off", "auto", "on"
  std::string only;             // one module's id
  bool force = false;           // time modules that have results
  int toolTimeoutSeconds = 300; // each tool run
  std::chrono::milliseconds timeout{std::chrono::minutes(30)}; // all of it
  const std::atomic<bool> *cancel = nullptr;
  std::function<void(std::string_view text, bool fromStandardError)> onOutput;
};
// `bash BUNDLE/run.sh` with the settings in its environment.
process::ProcessSpec runBundleCommand(const std::filesystem::path &bundle,
                                      const BundleRunOptions &options);

// What run.sh found for one module, read from results/ID.*.
struct ModuleTiming {
  std::string id;
  std::string status; // "ok", "failed", "not-run" (no results yet)
  std::string why;    // when it failed, or what went wrong on the side
  std::string device, kind;
  int batch = 1; // dispatches per submission in the timed run
  double targetMicroseconds = 0;
  std::optional<double> probeMicroseconds;
  std::string benchmark;                    // the function timed
  std::optional<TimingStats> perDispatch;   // the timed run, per dispatch
  std::optional<TimingStats> perSubmission; // one dispatch per submission
  std::vector<service::BenchmarkMeasurement> measurements;
  std::optional<ProfileReading> profile;
  std::string profiler, profileError;
  // Nsight Compute's source page of one launch (results/ID.source.csv:
  // per SASS instruction, core/isa/SourceCounters.h), where it wrote one;
  // why not where it tried and failed.
  std::filesystem::path sourceCounters;
  std::string sourceCountersError;

  bool timed() const { return status == "ok" && perDispatch.has_value(); }
  // How the time was taken, in a sentence.
  std::string method() const;
  // "28.93 us median per dispatch (32 back to back per submission; spread
  // 0.12 us, 5 repetitions) on cuda://0; one per submission 45.67 us".
  std::string summary() const;
};
ModuleTiming readModuleTiming(const std::filesystem::path &bundle,
                              const std::string &id);

nlohmann::json toJson(const TimingStats &stats);
nlohmann::json toJson(const ModuleTiming &timing);
std::optional<TimingStats> timingStatsFromJson(const nlohmann::json &json);
// The inverse of toJson (a timing the history or a bundle's manifest keeps):
// each field read only with its type and in its range; its measurements are
// not kept. A status "ok" without per-dispatch figures reads as "failed".
ModuleTiming moduleTimingFromJson(const nlohmann::json &json);

// The run.sh every bundle carries.
const std::string &runBundleScript();

} // namespace tilescope::run
