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

// What each job command says it does (--help).
QString descriptionOf(Stage stage) {
  static const char *const descriptions[] = {
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
  return descriptions[static_cast<int>(stage)];
}

// bench's own options (compile and resources take neither).
struct BenchOptions {
  QCommandLineOption repetitions{"repetitions",
                                 "Benchmark repetitions (default 5).", "N"};
  QCommandLineOption profile{
      "profile",
      "Also read the kernel with the vendor's profiler where one is "
      "installed (Nsight Compute's ncu, ROCm's rocprofv3): its duration, "
      "achieved occupancy, DRAM throughput, registers and shared memory, "
      "beside what Tilescope predicted; says so where none is."};
};

// The try in words: what was compiled, where, what it uses and how fast.
void printTry(const tries::TryResult &tried, const document::Document &opened,
              size_t dispatch) {
  const service::CompileJobResult &compiled = tried.compiled;
  if (tried.alone && dispatch < opened.dispatches.size())
    std::cout << "dispatch " << dispatch << " ("
              << opened.dispatches[dispatch].name
              << ") alone, taken out of the program by IREE: "
              << tried.alone->document.path.string() << "\n";
  std::cout << compiled.summary() << "\n";
  for (const service::CompileDiagnostic &d : compiled.diagnostics)
    std::cout << d.toString() << "\n";
  std::cout << "try folder: " << compiled.artifacts.directory.string()
            << "\n  reproduce: " << compiled.artifacts.command.string() << "\n";
  for (const auto &file : compiled.artifacts.assembly())
    std::cout << "  assembly: " << file.string() << "\n";
  if (tried.record.resources) {
    std::cout << "resources:\n";
    for (const isa::KernelResources &kernel : tried.record.resources->kernels)
      std::cout << isa::describe(kernel);
    for (const std::string &note : tried.record.resources->notes)
      std::cout << "  note: " << note << "\n";
  }
  if (tried.record.prediction)
    std::cout << "prediction: " << tried.record.prediction->summary() << "\n";
  if (const auto &timed = tried.record.bench) {
    if (!timed->ran)
      std::cout << "not run: " << timed->why << "\n";
    else {
      std::cout << timed->summary << "\n";
      if (timed->timing.timed())
        std::cout << "  method: " << timed->timing.method() << "\n"
                  << "  run bundle: " << timed->bundle
                  << " (its run.sh times it again, here or on any machine "
                     "with the runtime tools)\n";
      if (!timed->timing.profileError.empty())
        std::cout << "profile: " << timed->timing.profileError << "\n";
      if (!timed->besideTilescope.empty())
        std::cout << "profiler beside Tilescope (\"!\" where they differ):\n"
                  << tries::profileTable(timed->besideTilescope);
      if (timed->floorMicroseconds && timed->efficiency)
        std::cout << "roofline floor "
                  << format("%.3f us", *timed->floorMicroseconds) << " ("
                  << timed->boundBy << " bound): efficiency "
                  << format("%.1f%%", 100 * *timed->efficiency) << "\n";
    }
  }
}

int runJobCommand(const QStringList &arguments, Stage stage) {
  const char *name = tries::toString(stage);
  QCommandLineParser parser;
  parser.setApplicationDescription(descriptionOf(stage));
  const BenchOptions benchOptions;
  parser.addOptions({kTargetOption, kOpOption, kTryFolderOption,
                     kWorkspaceOption, kTimeoutOption, kJsonOption,
                     kIreeOption});
  if (stage == Stage::Bench)
    parser.addOptions({kDeviceOption, kOnOption, benchOptions.repetitions,
                       benchOptions.profile});
  parser.addPositionalArgument("FILE", "An IREE MLIR file.");
  if (!parseCommandLine(parser, arguments, name))
    return kExitUsage;
  const workbench::Workbench bench = workbenchOf(parser);
  auto usage = [name](const std::string &message) {
    return usageError(name, message);
  };
  auto fail = [name](const std::string &message, int code) {
    std::cerr << "tilescope-cli " << name << ": " << message << "\n";
    return code;
  };
  auto inputs = jobArguments(parser);
  if (!inputs)
    return usage(inputs.error());
  const std::string &path = inputs->path;
  // --repetitions is bench's alone; asking the parser of another is a warning.
  auto repetitions = stage == Stage::Bench
                         ? countOf(parser, benchOptions.repetitions, 5, 1, 1000)
                         : Result<int>(5);
  if (!repetitions)
    return usage(repetitions.error());
  auto timeout = timeoutOf(parser);
  if (!timeout)
    return usage(timeout.error());
  auto place = stage == Stage::Bench ? placeOf(parser)
                                     : Result<run::RunPlace>(run::RunPlace{});
  if (!place)
    return usage(place.error());
  const bool asJson = parser.isSet(kJsonOption);

  int code = kExitOk;
  auto document = openJobFile(parser, code);
  if (!document)
    return fail(document.error(), code);
  auto op = jobOp(parser, *document, stage, path);
  if (!op)
    return usage(op.error());
  // No try folder is made for a try that cannot start for want of IREE.
  if (auto installation = bench.iree(); !installation)
    return fail(installation.error(), kExitIreeUnavailable);
  auto folder = tryFolderOf(parser);
  if (!folder)
    return fail(folder.error(), kExitBadInput);

  TerminalProgress progress(!asJson);
  tries::TryRequest request;
  request.document = &*document;
  if (*op)
    request.op = std::pair{(*op)->dispatch, (*op)->op};
  request.upTo = stage;
  request.target = inputs->target;
  request.directory = *folder;
  if (stage == Stage::Bench)
    request.device = parser.value(kDeviceOption).toStdString();
  request.place = *place;
  request.repetitions = *repetitions;
  if (stage == Stage::Bench && parser.isSet(benchOptions.profile))
    request.profile = "on";
  request.timeout = *timeout;
  request.onStep = [&progress](const std::string &what) {
    progress.step(what);
  };
  // A root op of a whole program is tried on its dispatch alone, as IREE
  // takes it out, read back by the workbench's parse worker.
  auto tried = bench.runTry(request);
  if (!tried) {
    progress.done();
    return refused(name, tried.refusal());
  }
  json out = tried->report;
  out["file"] = path;
  int exit = tried->succeeded() ? kExitOk : kExitFailure;
  if (!tried->cannotRun.empty())
    exit = kExitCannotRunHere;

  progress.done();
  const auto id = recordTry(parser, tried->record, asJson);
  out["try"] = id ? json(*id) : json(nullptr);
  out["outcome"] = tried->record.outcome;
  if (asJson)
    std::cout << exporting::jsonText(out, 2) << "\n";
  else
    printTry(*tried, *document, *op ? (*op)->dispatch : 0);
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
