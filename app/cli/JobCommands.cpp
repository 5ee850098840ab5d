// tilescope-cli compile, resources and bench: a file as it stands compiled
// by the pinned iree-compile into a try folder, the resources its kernels
// use read from the real ISA, and its time on a device found here. Every
// try lands in the history. With --op on a file of several dispatches (a
// whole program's configuration dump), the op's dispatch is taken out
// alone (service::dispatchAlone) and only it is compiled and timed.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/JobInputs.h"
#include "app/common/IreeSettings.h"
#include "core/edit/RootOpContext.h"
#include "core/export/JsonText.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeCommands.h"
#include "core/tries/ProfileComparison.h"
#include "core/tries/TryJob.h"

#include <QCommandLineParser>

#include <cstdio>
#include <iostream>

using nlohmann::json;

namespace tilescope::cli {
namespace {

using Stage = tries::TryStage;

std::string format(const char *pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

int runJobCommand(const QStringList &arguments, Stage stage) {
  const char *name = tries::toString(stage);
  QCommandLineParser parser;
  const QString descriptions[] = {
      "tilescope-cli compile: compile an IREE file as it stands (a dispatch "
      "benchmark, edited or not, or a program with --target) with the pinned "
      "iree-compile in a child process. With --op on a whole program's "
      "configuration dump, that op's dispatch alone: IREE's "
      "iree-hal-dump-executable-benchmarks takes it out of the program (as "
      "it stands) with the program's sizes. The try folder keeps the input, "
      "the command, the log, the vmfb and the executables' ISA / PTX / "
      "assembly; "
      "diagnostics point at the file and, where they name one, the config "
      "field. The try is recorded in the history.",
      "tilescope-cli resources: compile as `compile` does and read what each "
      "kernel uses from the real artifacts: VGPRs, AGPRs, SGPRs, spills, "
      "scratch and LDS from AMD ISA metadata; registers and spills from "
      "ptxas -v on the PTX and shared memory from IREE's export; and the "
      "occupancy those allow on the target.",
      "tilescope-cli bench: compile, read resources and time the dispatch "
      "with iree-benchmark-module on a device found here (the CPU for "
      "llvm-cpu files, a GPU from discovery for rocm and cuda ones; with no "
      "such GPU it says so and exits 5), against the root op's roofline "
      "floor."};
  parser.setApplicationDescription(descriptions[static_cast<int>(stage)]);
  const QCommandLineOption repetitionsOption(
      "repetitions", "Benchmark repetitions (default 5).", "N");
  const QCommandLineOption profileOption(
      "profile",
      "Also read the kernel with the vendor's profiler where one is "
      "installed (Nsight Compute's ncu, ROCm's rocprofv3): its duration, "
      "achieved occupancy, DRAM throughput, registers and shared memory, "
      "beside what Tilescope predicted; says so where none is.");
  parser.addOptions({kTargetOption, kOpOption, kTryFolderOption,
                     kWorkspaceOption, kTimeoutOption, kJsonOption,
                     kIreeOption});
  if (stage == Stage::Bench)
    parser.addOptions(
        {kDeviceOption, kOnOption, repetitionsOption, profileOption});
  parser.addPositionalArgument("FILE", "An IREE MLIR file.");
  if (!parseCommandLine(parser, arguments, name))
    return kExitUsage;
  const workbench::Workbench bench = workbenchOf(parser);
  auto usage = [name](const std::string &message) {
    return usageError(name, message);
  };
  auto inputs = jobArguments(parser);
  if (!inputs)
    return usage(inputs.error());
  const std::optional<service::CompileTarget> &target = inputs->target;
  const std::string &path = inputs->path;
  // --repetitions is bench's alone; asking the parser of another is a warning.
  auto repetitions = stage == Stage::Bench
                         ? countOf(parser, repetitionsOption, 5, 1, 1000)
                         : Result<int>(5);
  if (!repetitions)
    return usage(repetitions.error());
  auto place = stage == Stage::Bench ? placeOf(parser)
                                     : Result<run::RunPlace>(run::RunPlace{});
  if (!place)
    return usage(place.error());
  const bool asJson = parser.isSet(kJsonOption);

  int code = kExitOk;
  auto document = openJobFile(parser, code);
  if (!document) {
    std::cerr << "tilescope-cli " << name << ": " << document.error() << "\n";
    return code;
  }
  std::optional<edit::OpRef> op;
  if (parser.isSet(kOpOption)) {
    auto ref = edit::findOp(*document, parser.value(kOpOption).toStdString());
    if (!ref)
      return usage(path + ": --op: " + ref.error());
    op = *ref;
  } else if (service::hasStreamHost(document->text)) {
    // A whole program's one dispatch is tried alone, as IREE takes it out
    // (its entry point takes inputs a timing run does not have); of several,
    // a timing names one.
    if (document->dispatches.size() == 1)
      op = edit::OpRef{0, edit::rootOpIndex(document->dispatches.front())};
    else if (stage == Stage::Bench)
      return usage(path + " is a program of " +
                   std::to_string(document->dispatches.size()) +
                   " dispatches: name the one to time with --op D:O "
                   "('tilescope-cli dispatches " +
                   path + "' lists them)");
  }
  auto installation = bench.iree();
  if (!installation) {
    std::cerr << "tilescope-cli " << name << ": " << installation.error()
              << "\n";
    return kExitIreeUnavailable;
  }
  auto folder = tryFolderOf(parser);
  if (!folder) {
    std::cerr << "tilescope-cli " << name << ": " << folder.error() << "\n";
    return kExitBadInput;
  }

  TerminalProgress progress(!asJson);
  tries::TryRequest request;
  request.document = &*document;
  // With a worker, a root op of a whole program is tried on its dispatch
  // alone, as IREE takes it out (runTry decides).
  auto worker = bench.worker();
  if (!worker) {
    std::cerr << "tilescope-cli " << name << ": " << worker.error() << "\n";
    return kExitIreeUnavailable;
  }
  request.worker = &*worker;
  if (op)
    request.op = std::pair{op->dispatch, op->op};
  request.upTo = stage;
  request.target = target;
  request.directory = *folder;
  if (stage == Stage::Bench)
    request.device = parser.value(kDeviceOption).toStdString();
  request.place = *place;
  request.repetitions = *repetitions;
  if (stage == Stage::Bench && parser.isSet(profileOption))
    request.profile = "on";
  request.timeout = timeoutOf(parser);
  request.onStep = [&progress](const std::string &what) {
    progress.step(what);
  };
  auto tried = tries::runTry(*installation, request);
  if (!tried) {
    std::cerr << "tilescope-cli " << name << ": " << tried.error() << "\n";
    return kExitBadInput;
  }
  const service::CompileJobResult &compiled = tried->compiled;
  json out = tried->report;
  out["file"] = path;
  int exit = tried->succeeded() ? kExitOk : kExitFailure;
  if (!tried->cannotRun.empty())
    exit = kExitCannotRunHere;

  progress.done();
  const auto id = recordTry(parser, tried->record, asJson);
  out["try"] = id ? json(*id) : json(nullptr);
  out["outcome"] = tried->record.outcome;
  if (asJson) {
    std::cout << exporting::jsonText(out, 2) << "\n";
    return exit;
  }
  if (out.contains("dispatch_alone"))
    std::cout << "dispatch " << op->dispatch << " ("
              << out["dispatch_alone"]["name"].get<std::string>()
              << ") alone, taken out of the program by IREE: "
              << out["dispatch_alone"]["file"].get<std::string>() << "\n";
  std::cout << compiled.summary() << "\n";
  for (const service::CompileDiagnostic &d : compiled.diagnostics)
    std::cout << d.toString() << "\n";
  std::cout << "try folder: " << compiled.artifacts.directory.string()
            << "\n  reproduce: " << compiled.artifacts.command.string() << "\n";
  for (const auto &file : compiled.artifacts.assembly())
    std::cout << "  assembly: " << file.string() << "\n";
  if (tried->resources) {
    std::cout << "resources:\n";
    for (const service::KernelResources &kernel : tried->resources->kernels)
      std::cout << service::describe(kernel);
    for (const std::string &note : tried->resources->notes)
      std::cout << "  note: " << note << "\n";
  }
  if (tried->prediction)
    std::cout << "prediction: " << tried->prediction->summary() << "\n";
  if (out.contains("bench")) {
    const json &timed = out["bench"];
    if (!timed.value("ran", false))
      std::cout << "not run: " << timed["why"].get<std::string>() << "\n";
    else {
      std::cout << timed["summary"].get<std::string>() << "\n";
      if (tried->bench && tried->bench->timing.timed())
        std::cout << "  method: " << tried->bench->timing.method() << "\n"
                  << "  run bundle: " << tried->bench->bundle.string()
                  << " (its run.sh times it again, here or on any machine "
                     "with the runtime tools)\n";
      if (timed.contains("profile_error"))
        std::cout << "profile: " << timed["profile_error"].get<std::string>()
                  << "\n";
      if (timed.contains("beside_tilescope"))
        std::cout << "profiler beside Tilescope (\"!\" where they differ):\n"
                  << tries::profileTable(
                         tries::profileRowsFromJson(timed["beside_tilescope"]));
      if (timed.contains("floor_us"))
        std::cout << "roofline floor "
                  << format("%.3f us", timed["floor_us"].get<double>()) << " ("
                  << timed["bound_by"].get<std::string>()
                  << " bound): efficiency "
                  << format("%.1f%%", 100 * timed["efficiency"].get<double>())
                  << "\n";
    }
  }
  return exit;
}

} // namespace

int compile(const QStringList &arguments) {
  return runJobCommand(arguments, Stage::Compile);
}
int resources(const QStringList &arguments) {
  return runJobCommand(arguments, Stage::Resources);
}
int bench(const QStringList &arguments) {
  return runJobCommand(arguments, Stage::Bench);
}

} // namespace tilescope::cli
