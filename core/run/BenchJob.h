// Times a compiled dispatch on a device found here: the CPU for llvm-cpu
// modules, a GPU from discovery for rocm and cuda ones. Where the device is
// missing, the answer says so; it never falls back to another device
// unasked.
//
// The time is taken the way every Tilescope time is (RunBundle.h): a run
// bundle in the try folder, run by its own run.sh with the runtime tools
// here, so the figures mean the same as those of a bundle run on a GPU host.
#pragma once

#include "core/devices/GpuDiscovery.h"
#include "core/process/Process.h"
#include "core/run/RemoteRun.h"
#include "core/run/RunBundle.h"
#include "core/run/SlurmRun.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace tilescope::run {

// The runtime device for a backend's modules: "local-task" for llvm-cpu,
// "hip://N" / "cuda://N" for the first GPU of the vendor that discovery
// found. An Error says why there is none here (no GPU of that vendor, the
// runtime's own words).
Result<std::string> deviceForBackend(const std::string &backend,
                                     const devices::GpuDiscovery &discovery);

struct BenchJobRequest {
  // Here, a host over ssh (RemoteRun.h) or a Slurm partition (SlurmRun.h:
  // an array of one task).
  RunPlace place;
  std::filesystem::path module; // .vmfb
  // The module is not there yet: a compile elsewhere (a Slurm compile task)
  // writes it before the run starts. The bundle then refers to it where it
  // will be (on the filesystem a cluster's nodes share) rather than a copy.
  bool moduleToCome = false;
  std::string device; // as deviceForBackend gives it
  // Where the bundle goes (made; its results/ keep what run.sh wrote).
  std::filesystem::path directory;
  bool dispatchBenchmark = true; // see BundleModule
  int repetitions = 5;
  double targetMicroseconds = kTimedIterationMicroseconds;
  // "off", "auto" (where ncu / rocprofv3 is installed), "on" (say so when
  // none is).
  std::string profile = "off";
  nlohmann::json about = nlohmann::json::object(); // the manifest's entry
  std::chrono::milliseconds timeout{std::chrono::minutes(5)}; // each run
  const std::atomic<bool> *cancel = nullptr;
  std::function<void(std::string_view text, bool fromStandardError)> onOutput;
  // On a cluster: where the shared copy of the runtime tools goes (the
  // workspace's slurm/; empty: beside the bundle), and the task's state as
  // it changes ("job 41: 1 queued, 0 running, 0 of 1 done").
  std::filesystem::path sharedFolder;
  std::function<void(const std::string &status)> onStatus;
};

struct BenchJobResult {
  process::ProcessSpec spec;         // run.sh, as run (through ssh on a host)
  std::optional<RemoteRun> remote;   // the ssh steps, on a host
  std::optional<SlurmTaskEnd> slurm; // how its task ended, on a cluster
  process::ProcessResult process;
  std::filesystem::path bundle;
  ModuleTiming timing;
  std::string error; // why there is no time

  bool succeeded() const { return error.empty() && timing.timed(); }
  // The per-dispatch median (0 without a time).
  double medianMicroseconds() const {
    return timing.perDispatch ? timing.perDispatch->median : 0;
  }
  std::string summary() const;
};

Result<BenchJobResult> benchModule(const tools::IreeInstallation &iree,
                                   const BenchJobRequest &request);

// A timed run set up and not yet run: its bundle written (standalone where
// the run happens elsewhere) and the settings its run.sh takes. benchModule
// is prepareBench, the run where the request's place says, benchResultOf;
// a sweep on a Slurm cluster prepares every candidate's, runs them as one
// job array (SlurmRun.h) and takes each result as its task ends.
struct PreparedBench {
  std::filesystem::path bundle;
  BundleRunOptions run; // tools: the runtime tools here
  std::string moduleId = "module";
};
Result<PreparedBench> prepareBench(const tools::IreeInstallation &iree,
                                   const BenchJobRequest &request);
// The bench a run of `prepared` gave: run.sh's process (or what stood for
// it) and the bundle's results; `failed` is why it did not run, when the
// place said (a connection, a Slurm task's end).
BenchJobResult benchResultOf(const PreparedBench &prepared,
                             process::ProcessSpec spec,
                             process::ProcessResult process,
                             const std::string &failed = "");

} // namespace tilescope::run
