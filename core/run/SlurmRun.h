// Run bundles (RunBundle.h) timed on a Slurm cluster, as the tasks of one
// job array: each task runs its bundles' run.sh on a node of the
// partition. The modules compile here (the login node, where the compiler
// and the edits are), or as a job array of their own on another partition
// that the run array's tasks wait for (SlurmCompileStage). Slurm's own commands
// do all of it, as the user would: sbatch
// (--array, --gres=gpu:1 for a GPU module, a time limit from the run's),
// squeue for the live states, sacct (or scontrol where accounting is off)
// for how a task ended, scancel to stop.
//
// Assumed, as on most clusters: the folder the array's files go in, the
// bundles and the runtime tools' copy are on a filesystem the nodes see at
// the same path (the workspace, normally under $HOME). The runtime tools
// are copied once into SHARED/iree-runtime-KEY (KEY from their bytes), as
// a host's cache over ssh is (RemoteRun.h).
//
// Resuming: every submission is written down in FOLDER/submissions.tsv
// (job, task, bundle). Run again for the same bundles, a bundle whose
// earlier task finished (its results are there) or is still queued or
// running is waited for, not submitted again; only the rest go out, as a
// new array.
#pragma once

#include "core/process/Process.h"
#include "core/run/RemoteRun.h"
#include "core/run/RunBundle.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::run {

// Where a try's runs on a cluster keep the shared copy of the runtime
// tools: the workspace's slurm/ for a try folder WORKSPACE/tries/ID, else
// the folder itself.
std::filesystem::path sharedFolderOf(const std::filesystem::path &tryDirectory);

// Extra sbatch options, split on blanks, after Tilescope's own (sbatch
// takes the last of a repeated option): "--account=lab --qos=short",
// "--gres=gpu:mi300x:1", "--time=0:30".
inline constexpr const char *kSbatchOptionsVariable =
    "TILESCOPE_SBATCH_OPTIONS";
// The most tasks one array may have (default 1000: Slurm's MaxArraySize is
// 1001 unless a cluster sets it); past it a task runs several bundles.
inline constexpr const char *kArrayLimitVariable =
    "TILESCOPE_SLURM_ARRAY_LIMIT";
// Where the shared copy of the runtime tools goes, when not the request's.
inline constexpr const char *kSlurmCacheVariable = "TILESCOPE_SLURM_CACHE";

// How one bundle's task ended.
struct SlurmTaskEnd {
  size_t index = 0;     // in the request's bundles
  std::string task;     // "JOB_TASK", as squeue names it
  std::string state;    // Slurm's: COMPLETED, TIMEOUT, CANCELLED, NODE_FAIL,
                        // FAILED, ...; "" when it never ended (stopped here)
  std::string node;     // where it ran, when Slurm said
  std::string exitCode; // Slurm's "0:15" (code:signal)
  std::string why;      // in words, when it ended badly
  std::filesystem::path log;       // the task's output
  bool reattached = false;         // from an earlier submission
  bool timed = false;              // its bundle has results
  process::ProcessSpec submission; // the sbatch that sent it (unset
                                   // for an earlier run's)

  // The history's outcome for a task that left no time: "timed-out",
  // "cancelled", "node-failed", "run-failed"; "" when it has results.
  std::string outcome() const;
  // As a process result (for the bench's report): the log's last lines as
  // output, TIMEOUT as timed out, CANCELLED as cancelled.
  process::ProcessResult process() const;
};

// Compiling as its own job array on a (CPU) partition before the runs: task
// N compiles the bundles run task N times, each bundle's module by its try
// folder's command.sh (the compile, as CompileJob.h writes it, with the
// compiler's path as here: the compiler is on the shared filesystem too),
// and run task N starts when compile task N has ended well (sbatch
// --dependency=aftercorr:JOB, the per-task form of afterok; a run task whose
// compile task failed is cancelled with it, --kill-on-invalid-dep). Each
// compile's exit and time go to FOLDER/compile.status, its output to
// FOLDER/compile.log; a run task skips a bundle whose compile failed.
struct SlurmCompileStage {
  std::string partition;
  // Per bundle of the request: the try folder whose command.sh makes the
  // module its bundle refers to (BundleWriteOptions::moduleMayFollow).
  std::vector<std::filesystem::path> folders;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)}; // each compile
  // Each bundle's compile as it is seen to end, from the calling thread: its
  // exit and time, compile.log's text as standard error; for a task that
  // ended before it compiled this (cancelled, over its time limit, its node
  // down), also how, as a task's end (`slurm`, else null). Returns whether
  // the bundle's run is to be waited for (it compiled); when not, no onEnd
  // comes for it: the caller has said how it ended.
  std::function<bool(size_t bundle, process::ProcessResult compiled,
                     const SlurmTaskEnd *slurm)>
      onCompiled;
};
// Extra sbatch options of compile arrays (split on blanks); unset:
// $TILESCOPE_SBATCH_OPTIONS's without a --gres.
inline constexpr const char *kSbatchCompileOptionsVariable =
    "TILESCOPE_SBATCH_COMPILE_OPTIONS";

struct SlurmArrayRequest {
  std::string partition;
  // The array's files: submit-N.sh / .tsv, submissions.tsv, logs/. On the
  // shared filesystem.
  std::filesystem::path folder;
  // Where the shared copy of the runtime tools goes ($TILESCOPE_SLURM_CACHE
  // wins); empty: `folder`.
  std::filesystem::path sharedCache;
  // Standalone bundles without tools (writeRunBundle, carryTools off).
  std::vector<std::filesystem::path> bundles;
  // run.sh's settings; tools: the runtime tools here, to copy; timeout:
  // each bundle's, the task's time limit is that times its bundles.
  BundleRunOptions run;
  bool gpu = false; // ask for one GPU per task (--gres=gpu:1)
  // Compile the bundles' modules as an array of their own first.
  std::optional<SlurmCompileStage> compile;
  // Past this many tasks, a task runs several bundles in turn (Slurm's
  // MaxArraySize is 1001 unless a cluster raises it);
  // $TILESCOPE_SLURM_ARRAY_LIMIT wins.
  size_t maximumTasks = 1000;
  std::chrono::milliseconds poll{2000};
  const std::atomic<bool> *cancel = nullptr;
  // Each bundle as its task ends, from the calling thread, in the order
  // they end (an earlier run's finished ones first).
  std::function<void(const SlurmTaskEnd &end)> onEnd;
  // "job 41: 12 queued, 2 running, 50 of 64 done" when it changes.
  std::function<void(const std::string &status)> onStatus;
  // A bundle's task went "queued" (PENDING) or "running" (a task of several
  // bundles runs them in turn: each counts as running), or with a compile
  // stage "compiling" (its compile task running), from the calling thread,
  // each time it changes; its end comes through onEnd.
  std::function<void(size_t bundle, const std::string &phase)> onPhase;
};

struct SlurmArrayResult {
  process::ProcessSpec submission;        // the last sbatch, as run
  process::ProcessSpec compileSubmission; // the compile array's, when one went
  std::vector<std::string> jobs;          // the arrays submitted now
  size_t submitted = 0;                   // bundles sent now
  size_t reattached = 0;                  // bundles of an earlier submission
  bool cancelled = false;                 // stopped: the live tasks scancelled
  std::vector<SlurmTaskEnd> ends; // one per bundle, in the request's order
};

// Submits the bundles not already done or under way, and waits for every
// task to end (or the cancel flag: then scancel). An Error when nothing
// could start: no sbatch, a partition Slurm refuses, tools that cannot be
// copied; a task's own end is in its SlurmTaskEnd.
Result<SlurmArrayResult> runSlurmArray(const SlurmArrayRequest &request);

// One runtime tool run on a node of the partition (a checked run's tested
// module): srun in `directory` (on the shared filesystem, so its inputs are
// there and its outputs come back by themselves), `tool` from the shared
// copy of the runtime tools, one GPU asked for when `gpu`. The tool's own
// failure is the result; an Error is Slurm's (no srun, a refused
// partition). The srun command goes into `steps`.
Result<process::ProcessResult> runToolOnSlurm(
    const std::string &partition, const std::filesystem::path &directory,
    const std::string &tool, const std::vector<std::string> &arguments,
    bool gpu, const std::filesystem::path &toolsDirectory,
    const std::filesystem::path &sharedCache, std::chrono::milliseconds timeout,
    const std::atomic<bool> *cancel, std::vector<std::string> &steps);

// What a node of the partition has to run on (PlaceDevices): srun of the
// device listing on one node, with one GPU asked for (as the runs ask;
// $TILESCOPE_SBATCH_OPTIONS after it), the runtime tools shared first.
Result<PlaceDevices> devicesOnSlurm(const std::string &partition,
                                    const std::filesystem::path &toolsDirectory,
                                    const std::filesystem::path &sharedCache,
                                    std::chrono::milliseconds timeout);

} // namespace tilescope::run
