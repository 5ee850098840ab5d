#include "core/jobs/BenchJob.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tilescope::jobs {

Result<std::string> deviceForBackend(const std::string &backend,
                                     const GpuDiscovery &discovery) {
  if (backend == "llvm-cpu")
    return std::string("local-task");
  GpuVendor vendor;
  std::string runtime;
  if (backend == "rocm") {
    vendor = GpuVendor::Amd;
    runtime = "HIP";
  } else if (backend == "cuda") {
    vendor = GpuVendor::Nvidia;
    runtime = "CUDA";
  } else {
    return Error{"Tilescope runs no " + backend + " modules"};
  }
  for (const GpuInfo &gpu : discovery.gpus)
    if (gpu.vendor == vendor)
      return gpu.iree_device();
  std::string why;
  for (const RuntimeProbe &probe : discovery.probes)
    if (probe.runtime == runtime)
      why = probe.detail;
  return Error{"no " + toString(vendor) + " GPU here to run a " + backend +
               " module on" +
               (why.empty() ? "" : " (" + runtime + ": " + why + ")") +
               "; it compiles, but cannot run on this machine"};
}

Result<ProcessSpec> benchJobCommand(const iree::IreeInstallation &iree,
                                    const BenchJobRequest &request) {
  auto spec = benchmarkCommand(
      iree, {request.module, request.device, request.repetitions, ""});
  if (!spec)
    return spec;
  char minimum[64];
  std::snprintf(minimum, sizeof minimum, "--benchmark_min_time=%gs",
                request.minimumSeconds);
  spec->arguments.push_back(minimum);
  spec->timeout = request.timeout;
  spec->cancel = request.cancel;
  spec->onOutput = request.onOutput;
  return spec;
}

void summarizeMeasurements(BenchJobResult &result) {
  std::vector<double> times;
  for (const BenchmarkMeasurement &m : result.measurements) {
    if (m.runType != "iteration")
      continue;
    if (result.benchmark.empty())
      result.benchmark = m.name;
    if (m.name == result.benchmark)
      times.push_back(m.realTimeMicroseconds());
  }
  result.repetitions = static_cast<int>(times.size());
  if (times.empty())
    return;
  std::sort(times.begin(), times.end());
  const size_t n = times.size();
  result.medianMicroseconds =
      n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  result.minimumMicroseconds = times.front();
  result.maximumMicroseconds = times.back();
  double mean = 0;
  for (double t : times)
    mean += t;
  mean /= static_cast<double>(n);
  double variance = 0;
  for (double t : times)
    variance += (t - mean) * (t - mean);
  result.spreadMicroseconds =
      n > 1 ? std::sqrt(variance / static_cast<double>(n - 1)) : 0;
}

std::string BenchJobResult::summary() const {
  if (!succeeded())
    return "no time: " + error;
  char text[160];
  std::snprintf(text, sizeof text,
                "%.3f us median per dispatch (spread %.3f us, %d "
                "repetitions) on %s",
                medianMicroseconds, spreadMicroseconds, repetitions,
                device.c_str());
  return text;
}

Result<BenchJobResult> benchModule(const iree::IreeInstallation &iree,
                                   const BenchJobRequest &request) {
  auto spec = benchJobCommand(iree, request);
  if (!spec)
    return Error{spec.error()};
  BenchJobResult result;
  result.spec = *spec;
  result.device = request.device;
  result.process = runProcess(*spec);
  if (!result.process.succeeded()) {
    result.error = "iree-benchmark-module " + result.process.describe();
    // Its last words say why (a missing device, a failed dispatch).
    const std::string &err = result.process.standardError;
    if (!err.empty()) {
      const size_t from = err.size() > 600 ? err.size() - 600 : 0;
      result.error += ": " + err.substr(from);
      while (!result.error.empty() && result.error.back() == '\n')
        result.error.pop_back();
    }
    return result;
  }
  auto measurements = parseBenchmarkJson(result.process.standardOutput);
  if (!measurements) {
    result.error = measurements.error();
    return result;
  }
  result.measurements = std::move(*measurements);
  summarizeMeasurements(result);
  if (result.repetitions == 0)
    result.error = "iree-benchmark-module reported no repetition";
  return result;
}

} // namespace tilescope::jobs
