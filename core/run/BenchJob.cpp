#include "core/run/BenchJob.h"

#include <algorithm>

namespace tilescope::run {

Result<std::string> deviceForBackend(const std::string &backend,
                                     const devices::GpuDiscovery &discovery) {
  if (backend == "llvm-cpu")
    return std::string("local-task");
  devices::GpuVendor vendor;
  std::string runtime;
  if (backend == "rocm") {
    vendor = devices::GpuVendor::Amd;
    runtime = "HIP";
  } else if (backend == "cuda") {
    vendor = devices::GpuVendor::Nvidia;
    runtime = "CUDA";
  } else {
    return Error{"Tilescope runs no " + backend + " modules"};
  }
  for (const devices::GpuInfo &gpu : discovery.gpus)
    if (gpu.vendor == vendor)
      return gpu.iree_device();
  std::string why;
  for (const devices::RuntimeProbe &probe : discovery.probes)
    if (probe.runtime == runtime)
      why = probe.detail;
  return Error{"no " + toString(vendor) + " GPU here to run a " + backend +
               " module on" +
               (why.empty() ? "" : " (" + runtime + ": " + why + ")") +
               "; it compiles, but cannot run on this machine"};
}

Result<PreparedBench> prepareBench(const tools::IreeInstallation &iree,
                                   const BenchJobRequest &request) {
  auto tool = iree.tool(tools::kIreeBenchmarkModule);
  if (!tool)
    return Error{tool.error()};
  BundleModule module;
  module.id = "module";
  module.module = request.module;
  module.device = request.device;
  module.dispatchBenchmark = request.dispatchBenchmark;
  module.about = request.about;
  // Here the bundle refers to the module in place; a host or a cluster
  // node gets a copy of it (and the tools from its cache).
  BundleWriteOptions write;
  write.standalone = !request.place.local() && !request.moduleToCome;
  write.moduleMayFollow = request.moduleToCome;
  write.carryTools = false;
  write.iree = &iree;
  auto bundle = writeRunBundle(request.directory, {module}, write);
  if (!bundle)
    return Error{bundle.error()};

  PreparedBench prepared;
  prepared.bundle = *bundle;
  prepared.moduleId = module.id;
  BundleRunOptions &run = prepared.run;
  run.tools = tool->parent_path();
  run.repetitions = request.repetitions;
  run.targetMicroseconds = request.targetMicroseconds;
  run.profile = request.profile;
  run.force = true; // a bench times now, whatever an earlier run left
  run.toolTimeoutSeconds = static_cast<int>(std::max<long long>(
      1, std::chrono::duration_cast<std::chrono::seconds>(request.timeout)
             .count()));
  // Probe, timed run (maybe twice), one per submission, a profile and its
  // per-instruction pass (two ncu runs): the whole run may take a few tool
  // runs' time.
  run.timeout = request.timeout * 7;
  run.cancel = request.cancel;
  run.onOutput = request.onOutput;
  return prepared;
}

BenchJobResult benchResultOf(const PreparedBench &prepared,
                             process::ProcessSpec spec,
                             process::ProcessResult process,
                             const std::string &failed) {
  BenchJobResult result;
  result.bundle = prepared.bundle;
  result.spec = std::move(spec);
  result.process = std::move(process);
  result.timing = readModuleTiming(prepared.bundle, prepared.moduleId);
  if (!failed.empty() && !result.timing.timed()) {
    result.error = failed;
  } else if (result.process.outcome !=
             process::ProcessResult::Outcome::Exited) {
    result.error = "run.sh " + result.process.describe();
  } else if (!result.timing.timed()) {
    result.error =
        result.timing.status == "not-run"
            ? "run.sh " + result.process.describe() + ": " +
                  result.process.standardError.substr(
                      0, std::min<size_t>(600,
                                          result.process.standardError.size()))
            : result.timing.why;
  }
  while (!result.error.empty() &&
         (result.error.back() == '\n' || result.error.back() == ' '))
    result.error.pop_back();
  return result;
}

Result<BenchJobResult> benchModule(const tools::IreeInstallation &iree,
                                   const BenchJobRequest &request) {
  auto prepared = prepareBench(iree, request);
  if (!prepared)
    return Error{prepared.error()};
  // The place could not run it (ssh or Slurm said why): no time.
  const auto notRun = [&](const std::string &why) {
    BenchJobResult result;
    result.bundle = prepared->bundle;
    result.error = why;
    return result;
  };
  switch (request.place.kind) {
  case RunPlace::Kind::Local: {
    process::ProcessSpec spec =
        runBundleCommand(prepared->bundle, prepared->run);
    process::ProcessResult process = runProcess(spec);
    return benchResultOf(*prepared, std::move(spec), std::move(process));
  }
  case RunPlace::Kind::Ssh: {
    auto remote = runBundleOverSsh(request.place.host, prepared->bundle,
                                   prepared->run, prepared->run.tools);
    if (!remote)
      return notRun(remote.error());
    BenchJobResult result =
        benchResultOf(*prepared, remote->spec, remote->process);
    result.remote = std::move(*remote);
    return result;
  }
  case RunPlace::Kind::Slurm: {
    // One try: an array of one task, in the try folder.
    SlurmArrayRequest array;
    array.partition = request.place.partition;
    array.folder = prepared->bundle.parent_path() / "slurm";
    array.sharedCache = request.sharedFolder;
    array.bundles = {prepared->bundle};
    array.run = prepared->run;
    array.gpu = driverOf(request.device) != "local-task";
    array.cancel = request.cancel;
    array.onStatus = request.onStatus;
    auto ran = runSlurmArray(array);
    if (!ran)
      return notRun(ran.error());
    const SlurmTaskEnd &end = ran->ends.front();
    BenchJobResult result =
        benchResultOf(*prepared, end.submission, end.process(), end.why);
    result.slurm = end;
    return result;
  }
  }
  return Error{"no such place"};
}

std::string BenchJobResult::summary() const {
  return succeeded() ? timing.summary() : "no time: " + error;
}

} // namespace tilescope::run
