// One try of a document as it stands: compiled by the pinned iree-compile,
// then (as asked) its kernels' resources read from the real ISA and its time
// taken on a device found here. The command line's compile, resources and
// bench, the window's run panel and a sweep's candidates all run this one
// sequence, so a try means the same everywhere and lands in the history the
// same way.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/run/BenchJob.h"
#include "core/run/CheckJob.h"
#include "core/run/RemoteRun.h"
#include "core/service/CompileJob.h"
#include "core/service/DispatchAlone.h"
#include "core/service/DocumentWorker.h"
#include "core/service/Resources.h"
#include "core/tools/IreeInstallation.h"
#include "core/tries/History.h"
#include "core/util/Result.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace tilescope::tries {

enum class TryStage { Compile, Resources, Bench };
// "compile", "resources", "bench": the try's kind in the history.
const char *toString(TryStage stage);

struct TryRequest {
  const document::Document *document = nullptr;
  // The root op the try is about (its roofline floor, the history's op
  // column); unset: the whole file, and the first root op's floor.
  std::optional<std::pair<size_t, size_t>> op;
  // With a worker, a try of a root op of a file holding other dispatches (a
  // whole program's configuration dump) tries its dispatch alone, as IREE
  // takes it out of the program (service::dispatchAlone, written to the try
  // folder as dispatch.benchmark.mlir): only it is compiled and timed.
  service::DocumentWorker *worker = nullptr;
  TryStage upTo = TryStage::Compile;
  std::optional<service::CompileTarget> target; // unset: the file's own
  std::filesystem::path directory;              // the try folder
  std::string device;                           // "": from discovery
  // Where the timed run happens: here, or a host over ssh (the module
  // travels as a run bundle; the device is then the backend's driver, the
  // host's first GPU of it, unless `device` names one).
  run::RunPlace place;
  // Stop before the timed run, its bundle written for the place (outcome
  // "queued", TryResult::pendingRun): the caller runs it with others (a
  // sweep's Slurm job array) and hands each result to finishTryRun.
  bool deferRun = false;
  // Stop before the compile too, its input and command.sh written (outcome
  // "queued", TryResult::pendingCompile): the caller runs the command
  // elsewhere (a Slurm compile task on a CPU partition) and hands what it
  // did to finishTryCompile. With deferRun, the run's bundle is written now,
  // referring to the module where the compile will put it.
  bool deferCompile = false;
  int repetitions = 5;
  // Profile the timed kernel too: "off", "auto" (where ncu / rocprofv3 is
  // installed), "on" (and say so when none is).
  std::string profile = "off";
  std::chrono::milliseconds timeout{std::chrono::minutes(5)}; // per step
  const std::atomic<bool> *cancel = nullptr;
  // Live output of each child process, and each step as it starts
  // ("compiling", "reading resources", "timing on local-task").
  std::function<void(std::string_view text, bool fromStandardError)> onOutput;
  std::function<void(const std::string &step)> onStep;
};

struct TryResult {
  service::CompileJobResult compiled;
  // Its kernels' resources, where read, are the record's (record.resources).
  // Its prediction by the cost model is the record's (record.prediction).
  // What stays of its timed run (the roofline floor it reached, the
  // profiler beside Tilescope) is the record's (record.bench).
  std::optional<run::BenchJobResult> bench;
  // The timed run set up and not yet run (TryRequest::deferRun).
  std::optional<run::PreparedBench> pendingRun;
  // The compile written and not yet run (TryRequest::deferCompile):
  // `compiled` holds its command and folder, nothing run.
  bool pendingCompile = false;
  // The dispatch tried alone (TryRequest::worker), kept for a deferred
  // compile's second half.
  std::shared_ptr<const service::DispatchAlone> alone;
  // Why it did not run, when it asked for a device this machine lacks.
  std::string cannotRun;
  // The history row (id unset) and the report --json prints: {"compile",
  // "resources", "bench"}.
  TryRecord record;
  nlohmann::json report = nlohmann::json::object();

  bool succeeded() const;
};

// Fails only when the try cannot start (no document, a try folder that
// cannot be made, a clashing target, a benchmark tool missing); everything
// the compiler and the kernel do is in the result.
Result<TryResult> runTry(const tools::IreeInstallation &iree,
                         const TryRequest &request);

// A deferred try's compile, run elsewhere: `process` is what its command.sh
// did (compile.log's text as standard error). The try goes on as runTry
// would from there: diagnostics, resources, prediction; a deferred run stays
// pending (outcome "queued") where it compiled, and is dropped where not.
// `request` is the one the try was made with.
void finishTryCompile(const TryRequest &request, TryResult &result,
                      process::ProcessResult process);

// A deferred try's timed run, run elsewhere: its bench, roofline floor,
// profile comparison and outcome, as a try that ran it itself has them.
// `request` is the one the try was made with.
void finishTryRun(const TryRequest &request, TryResult &result,
                  run::BenchJobResult timed);

// Where a checked run's tested module runs: `device` when given; on a place
// elsewhere (request.place) the backend's driver there; else the CPU for
// llvm-cpu and a GPU from discovery for rocm / cuda; with none here, the
// request becomes compile-only with the reason.
void placeCheck(run::CheckRequest &request, const std::string &backend,
                const std::string &device);
// A checked run of `document`, set up as `verify` and the Python package
// set it up: a dispatch file is checked inside `program`, the program it
// came from (an Error without one); a program itself has IREE's own
// configs checked for `target` (default llvm-cpu). Then placed
// (placeCheck). Returns the tested module's backend.
Result<std::string>
prepareCheck(run::CheckRequest &request, const document::Document &document,
             const std::optional<std::filesystem::path> &program,
             const std::optional<service::CompileTarget> &target,
             const std::string &device);
// The history row of a checked run of `document` (id unset).
TryRecord checkRecord(const run::CheckRequest &request,
                      const run::CheckResult &result,
                      const document::Document &document,
                      const std::string &backend);

// Adds a try to the history in `workspace`; an Error says why it could not.
Result<long long> recordTry(const std::filesystem::path &workspace,
                            TryRecord record);

} // namespace tilescope::tries
