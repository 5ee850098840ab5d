// Times a compiled dispatch with iree-benchmark-module on a device found
// here: the CPU for llvm-cpu modules, a GPU from discovery for rocm and cuda
// ones. Where the device is missing, the answer says so; it never falls back
// to another device unasked.
#pragma once

#include "core/iree/IreeInstallation.h"
#include "core/jobs/GpuDiscovery.h"
#include "core/jobs/IreeCommands.h"
#include "core/jobs/Process.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace tilescope::jobs {

// The runtime device for a backend's modules: "local-task" for llvm-cpu,
// "hip://N" / "cuda://N" for the first GPU of the vendor that discovery
// found. An Error says why there is none here (no GPU of that vendor, the
// runtime's own words).
Result<std::string> deviceForBackend(const std::string &backend,
                                     const GpuDiscovery &discovery);

struct BenchJobRequest {
  std::filesystem::path module; // .vmfb
  std::string device;           // as deviceForBackend gives it
  int repetitions = 5;
  // Passed to --benchmark_min_time: seconds each repetition runs at least.
  double minimumSeconds = 0.1;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  const std::atomic<bool> *cancel = nullptr;
  std::function<void(std::string_view text, bool fromStandardError)> onOutput;
};

struct BenchJobResult {
  ProcessSpec spec;
  ProcessResult process;
  std::vector<BenchmarkMeasurement> measurements;
  std::string device;    // where it ran
  std::string benchmark; // the function timed
  // Over the repetitions, per dispatch.
  double medianMicroseconds = 0;
  double spreadMicroseconds = 0; // standard deviation
  double minimumMicroseconds = 0;
  double maximumMicroseconds = 0;
  int repetitions = 0;
  std::string error; // why there is no time, when the run failed

  bool succeeded() const { return repetitions > 0 && error.empty(); }
  std::string summary() const;
};

Result<ProcessSpec> benchJobCommand(const iree::IreeInstallation &iree,
                                    const BenchJobRequest &request);
Result<BenchJobResult> benchModule(const iree::IreeInstallation &iree,
                                   const BenchJobRequest &request);

// Median, spread, minimum and maximum of the first benchmark's repetitions
// (its "iteration" rows), into `result`.
void summarizeMeasurements(BenchJobResult &result);

} // namespace tilescope::jobs
