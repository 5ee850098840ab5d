#include "core/tries/TryJob.h"

#include "core/tries/BundleTries.h"

#include "core/config/configs/TargetAttribute.h"
#include "core/devices/GpuDiscovery.h"
#include "core/devices/HostCpu.h"
#include "core/edit/RootOpContext.h"
#include "core/export/ConfigJson.h"
#include "core/layout/Roofline.h"
#include "core/service/DispatchAlone.h"
#include "core/service/UntrustedFiles.h"
#include "core/tries/JobJson.h"
#include "core/tries/ProfileComparison.h"
#include "core/util/Numbers.h"

#include <cstring>

using nlohmann::json;

namespace tilescope::tries {
namespace {

void step(const TryRequest &request, const std::string &what) {
  if (request.onStep)
    request.onStep(what);
}

bool cancelled(const TryRequest &request) {
  return process::stopRequested(request.cancel);
}

// The GPU target of the try's root op's dispatch, when it has one.
std::optional<config::GpuTarget> targetOf(const TryRequest &request) {
  const document::Document &document = *request.document;
  const auto [d, k] = request.op.value_or(std::pair<size_t, size_t>{0, 0});
  if (d >= document.dispatches.size() ||
      k >= document.dispatches[d].rootOps.size())
    return std::nullopt;
  const document::Dispatch &dispatch = document.dispatches[d];
  // A CPU module's roofline is this machine's CPU.
  if (dispatch.target.find("\"llvm-cpu\"") != std::string::npos)
    if (auto cpu = devices::hostCpu())
      return devices::rooflineTargetOf(*cpu);
  if (!config::namesGpuTarget(dispatch.target))
    return std::nullopt;
  auto target = config::gpuTargetFromText(dispatch.target);
  if (!target)
    return std::nullopt;
  return std::move(*target);
}

// The roofline floor of the try's root op on its GPU target, when Tilescope
// knows both.
void addFloor(const TryRequest &request, TryResult &result) {
  const auto [d, k] = request.op.value_or(std::pair<size_t, size_t>{0, 0});
  auto target = targetOf(request);
  if (!target)
    return;
  const document::RootOp &op = request.document->dispatches[d].rootOps[k];
  if (!op.space)
    return;
  auto floor = layout::rooflineFloor(*op.space, *target, op.kind);
  if (!floor)
    return;
  TriedBench &tried = *result.record.bench;
  tried.floorMicroseconds = floor->floorSeconds * 1e6;
  tried.efficiency =
      *tried.floorMicroseconds / result.bench->medianMicroseconds();
  tried.boundBy = floor->boundBy;
}

// The cost model's prediction for the try's root op, with the compiled
// kernel's resources where they were read.
void addPrediction(const TryRequest &request, TryResult &result) {
  const auto [d, k] = request.op.value_or(std::pair<size_t, size_t>{0, 0});
  const edit::RootOpContext context =
      edit::contextOf(*request.document, {d, k});
  auto prediction = layout::predictOpTime(
      edit::costInputsOf(context),
      result.record.resources ? compiledKernelOf(*result.record.resources)
                              : std::nullopt);
  if (!prediction)
    return;
  result.report["prediction"] = exporting::toJson(*prediction);
  result.record.prediction = std::move(*prediction);
}

// The device the try's timed run uses, or "" with why not in the result.
std::string runDevice(const TryRequest &request, TryResult &result) {
  TryRecord &record = result.record;
  const auto cannot = [&](const std::string &why) {
    result.cannotRun = why;
    record.outcome = "cannot-run-here";
    record.summary = why;
    record.bench = notRun(why);
    result.report["bench"] = toJson(*record.bench);
    return std::string();
  };
  if (!request.device.empty())
    return request.device;
  if (!request.place.local()) {
    const std::string driver = driverForTarget(result.compiled.backend);
    if (driver.empty())
      return cannot("Tilescope runs no " + result.compiled.backend +
                    " modules on a host");
    return driver;
  }
  step(request, "looking for a device");
  auto found =
      run::deviceForBackend(result.compiled.backend, devices::discoverGpus());
  if (!found)
    return cannot(found.error());
  return *found;
}

void bench(const tools::IreeInstallation &iree, const TryRequest &request,
           TryResult &result) {
  TryRecord &record = result.record;
  const std::string device = runDevice(request, result);
  if (device.empty())
    return;
  record.device = device;
  if (!request.place.local())
    record.where.on = request.place.toString();
  step(request, "timing on " + device +
                    (request.place.local() ? "" : " " + request.place.where()) +
                    " with iree-benchmark-module");
  run::BenchJobRequest benchRequest;
  benchRequest.place = request.place;
  benchRequest.module = result.compiled.artifacts.module;
  benchRequest.moduleToCome = request.deferCompile;
  benchRequest.device = device;
  benchRequest.directory = request.directory / "run";
  benchRequest.dispatchBenchmark =
      run::isDispatchBenchmarkText(request.document->text);
  benchRequest.repetitions = request.repetitions;
  benchRequest.profile = request.profile;
  benchRequest.about = {{"document", record.document},
                        {"op", record.op},
                        {"target", record.target}};
  benchRequest.timeout = request.timeout;
  benchRequest.cancel = request.cancel;
  benchRequest.onOutput = request.onOutput;
  benchRequest.onStatus = request.onStep;
  benchRequest.sharedFolder = run::sharedFolderOf(request.directory);
  // The run could not start (its bundle not written, the benchmark tool
  // missing): the try is a compile that was not timed, said in words.
  const auto notStarted = [&](const std::string &why) {
    record.outcome = "run-failed";
    record.summary = why;
    record.bench = notRun(why);
    result.report["bench"] = toJson(*record.bench);
  };
  if (request.deferRun || request.deferCompile) {
    auto prepared = prepareBench(iree, benchRequest);
    if (!prepared)
      return notStarted(prepared.error());
    record.outcome = "queued";
    record.summary = "its run is to go " + request.place.where();
    result.pendingRun = std::move(*prepared);
    return;
  }

  auto timed = benchModule(iree, benchRequest);
  if (!timed)
    return notStarted(timed.error());
  finishTryRun(request, result, std::move(*timed));
}

} // namespace

void finishTryRun(const TryRequest &request, TryResult &result,
                  run::BenchJobResult timed) {
  TryRecord &record = result.record;
  result.pendingRun.reset();
  result.bench = std::move(timed);
  record.bench = triedBenchOf(*result.bench);
  if (result.bench->succeeded()) {
    addFloor(request, result);
    record.medianMicroseconds = result.bench->medianMicroseconds();
  }
  if (const run::ModuleTiming &timing = result.bench->timing; timing.profile) {
    ProfileInputs inputs;
    inputs.reading = &*timing.profile;
    if (const auto &resources = record.resources;
        resources && !resources->kernels.empty())
      inputs.resources = &resources->kernels.front();
    if (record.prediction)
      inputs.prediction = &*record.prediction;
    if (timing.perDispatch)
      inputs.perDispatch = &*timing.perDispatch;
    if (auto target = targetOf(request))
      inputs.peakMemoryBytesPerSecond = target->peakMemoryBytesPerSecond;
    record.bench->besideTilescope = profileBesideTilescope(inputs);
  }
  record.outcome = outcomeOf(*result.bench);
  record.summary = result.bench->summary();
  record.wallSeconds += result.bench->process.elapsed.count() / 1000.0;
  result.report["bench"] = toJson(*record.bench);
}

const char *toString(TryStage stage) {
  switch (stage) {
  case TryStage::Compile:
    return "compile";
  case TryStage::Resources:
    return "resources";
  case TryStage::Bench:
    return "bench";
  }
  return "";
}

bool TryResult::succeeded() const { return record.outcome == "ok"; }

namespace {

// The request as the try compiles it: where the asked op's dispatch was
// taken out alone, its document and op there.
TryRequest triedRequest(const TryRequest &asked, const TryResult &result) {
  TryRequest request = asked;
  if (result.alone) {
    request.document = &result.alone->document;
    request.op = std::pair<size_t, size_t>{0, asked.op->second};
  }
  return request;
}

// The history row of a try as far as its compile: what was compiled, for
// which file and op, and how it went.
void recordCompile(const TryRequest &asked, const TryRequest &request,
                   TryResult &result) {
  TryRecord &record = result.record;
  record.kind = toString(request.upTo);
  // The history names the file and op asked about.
  record.document = asked.document->path.string();
  if (asked.op)
    record.op = std::to_string(asked.op->first) + ":" +
                std::to_string(asked.op->second);
  record.target =
      request.target ? request.target->name : result.compiled.backend;
  record.outcome = outcomeOf(result.compiled);
  record.summary = result.compiled.summary();
  record.directory = result.compiled.artifacts.directory.string();
  record.wallSeconds = result.compiled.process.elapsed.count() / 1000.0;
  record.configs = configsOf(*request.document);
  record.compile = triedCompileOf(result.compiled);
  result.report["compile"] = toJson(*record.compile);
  if (result.alone) {
    record.dispatchAlone =
        DispatchTaken{static_cast<long long>(asked.op->first),
                      asked.document->dispatches[asked.op->first].name,
                      request.document->path.string(), result.alone->command};
    result.report["dispatch_alone"] = toJson(*record.dispatchAlone);
  }
}

// After a compile that made a module: the kernels' resources and the cost
// model's prediction.
void readCompiled(const TryRequest &request, TryResult &result) {
  TryRecord &record = result.record;
  if (!cancelled(request)) {
    step(request, "reading resources");
    service::ResourceOptions options;
    options.timeout = request.timeout;
    options.cancel = request.cancel;
    if (auto resources = readResources(result.compiled, options)) {
      result.report["resources"] = toJson(*resources);
      record.resources = std::move(*resources);
    } else {
      record.resourcesError = resources.error();
      result.report["resources_error"] = resources.error();
    }
  }
  addPrediction(request, result);
}

Result<TryResult> tryDocument(const tools::IreeInstallation &iree,
                              const TryRequest &asked) {
  if (!asked.document)
    return Error{"no document to try"};
  TryResult result;
  // A root op of a whole program: its dispatch alone is what is tried.
  if (asked.op && asked.worker &&
      service::triesDispatchAlone(*asked.document)) {
    step(asked, "taking dispatch " + std::to_string(asked.op->first) +
                    " out of the program with iree-opt");
    std::error_code error;
    std::filesystem::create_directories(asked.directory, error);
    auto taken =
        dispatchAlone(iree, *asked.worker, *asked.document, asked.op->first,
                      asked.directory / "dispatch.benchmark.mlir",
                      asked.timeout, asked.cancel);
    if (!taken)
      return Error{asked.document->path.string() + ": " + taken.error()};
    result.alone =
        std::make_shared<const service::DispatchAlone>(std::move(*taken));
  }
  const TryRequest request = triedRequest(asked, result);
  const document::Document &document = *request.document;
  service::CompileJobRequest compileRequest;
  compileRequest.document = &document;
  compileRequest.target = request.target;
  compileRequest.directory = request.directory;
  compileRequest.timeout = request.timeout;
  compileRequest.cancel = request.cancel;
  compileRequest.onOutput = request.onOutput;

  if (request.deferCompile) {
    auto prepared = prepareCompile(iree, compileRequest);
    if (!prepared)
      return Error{prepared.error()};
    result.compiled = std::move(*prepared);
    result.pendingCompile = true;
    recordCompile(asked, request, result);
    if (request.upTo != TryStage::Bench) {
      result.record.outcome = "queued";
      result.record.summary = "its compile is to go elsewhere";
      return result;
    }
    bench(iree, request, result);
    if (result.pendingRun) {
      result.record.summary = "its compile and run are to go elsewhere";
      return result;
    }
    // It cannot run there (no device for it, its bundle not written): it
    // compiles here, and the try says why it did not run (the report's
    // "bench" says it already).
    const TryRecord unrun = result.record;
    step(request, "compiling " + document.path.filename().string() +
                      " with iree-compile");
    finishTryCompile(asked, result, runProcess(result.compiled.spec));
    if (result.compiled.succeeded()) {
      result.record.outcome = unrun.outcome;
      result.record.summary = unrun.summary;
    }
    return result;
  }

  step(request,
       "compiling " + document.path.filename().string() + " with iree-compile");
  auto compiled = compileDocument(iree, compileRequest);
  if (!compiled)
    return Error{compiled.error()};
  result.compiled = std::move(*compiled);
  recordCompile(asked, request, result);
  if (!result.compiled.succeeded() || request.upTo == TryStage::Compile)
    return result;
  readCompiled(request, result);
  if (request.upTo == TryStage::Bench) {
    if (cancelled(request)) {
      result.record.outcome = "cancelled";
      result.record.summary = "cancelled before the run";
    } else {
      bench(iree, request, result);
    }
  }
  return result;
}

} // namespace

void finishTryCompile(const TryRequest &asked, TryResult &result,
                      process::ProcessResult process) {
  const TryRequest request = triedRequest(asked, result);
  finishCompile(result.compiled, *request.document, std::move(process));
  result.pendingCompile = false;
  std::optional<run::PreparedBench> pending = std::move(result.pendingRun);
  result.pendingRun.reset();
  const std::string device = result.record.device;
  recordCompile(asked, request, result);
  if (!result.compiled.succeeded() || request.upTo == TryStage::Compile)
    return;
  readCompiled(request, result);
  if (request.upTo != TryStage::Bench || !pending)
    return;
  TryRecord &record = result.record;
  record.device = device;
  if (!request.place.local())
    record.where.on = request.place.toString();
  record.outcome = "queued";
  record.summary = "its run is to go " + request.place.where();
  result.pendingRun = std::move(pending);
}

Result<TryResult> runTry(const tools::IreeInstallation &iree,
                         const TryRequest &request) {
  auto tried = tryDocument(iree, request);
  // A signal stopped it (the command line's SIGINT, SIGTERM, SIGHUP): the
  // history says so rather than "cancelled".
  if (const int signal = process::jobsInterruptedBy();
      tried && signal != 0 && tried->record.outcome != "ok") {
    tried->record.outcome = "interrupted";
    tried->record.summary =
        std::string("interrupted by ") + ::sigabbrev_np(signal) + " (signal " +
        std::to_string(signal) + "): " + tried->record.summary;
  }
  return tried;
}

void placeCheck(run::CheckRequest &request, const std::string &backend,
                const std::string &device) {
  request.device = device;
  if (!request.device.empty())
    return;
  if (!request.place.local()) {
    // Elsewhere: the backend's driver, the place's first device of it.
    request.device = driverForTarget(backend);
    if (request.device.empty()) {
      request.compileOnly = true;
      request.notRunBecause =
          "Tilescope runs no " + backend + " modules " + request.place.where();
    }
    return;
  }
  if (auto found = run::deviceForBackend(backend, devices::discoverGpus())) {
    request.device = *found;
  } else {
    request.compileOnly = true;
    request.notRunBecause = found.error();
  }
}

Result<std::string>
prepareCheck(run::CheckRequest &request, const document::Document &document,
             const std::optional<std::filesystem::path> &program,
             const std::optional<service::CompileTarget> &target,
             const std::string &device) {
  std::string backend;
  if (!document.dispatches.empty()) {
    if (!program)
      return Error{document.path.string() +
                   " is a dispatch file: a checked run needs the program it "
                   "came from"};
    request.program = *program;
    request.edited = &document;
    if (const auto carried = service::documentBackends(document);
        !carried.empty())
      backend = carried.front();
  } else {
    request.program = document.path;
    request.target = target.value_or(*service::compileTarget("llvm-cpu"));
    backend = request.target->backend;
  }
  placeCheck(request, backend, device);
  return backend;
}

TryRecord checkRecord(const run::CheckRequest &request,
                      const run::CheckResult &result,
                      const document::Document &document,
                      const std::string &backend) {
  TryRecord record;
  record.kind = "verify";
  record.document = document.path.string();
  record.target = backend;
  record.device = result.device;
  record.outcome = outcomeOf(result);
  if (result.hasVerdict())
    record.checkPassed = result.passed();
  record.summary = result.summary();
  record.directory = result.directory.string();
  record.wallSeconds = result.elapsed.count() / 1000.0;
  record.configs = configsOf(document);
  record.program = std::filesystem::absolute(request.program).string();
  record.check = triedCheckOf(result);
  if (!request.place.local())
    record.where.on = request.place.toString();
  return record;
}

Result<long long> recordTry(const std::filesystem::path &workspace,
                            TryRecord record) {
  auto history = History::open(historyFile(workspace));
  if (!history)
    return Error{history.error()};
  return history->add(std::move(record));
}

} // namespace tilescope::tries
