// tilescope-cli configure: a source program configured by the pinned
// iree-compile, each root op linked to the source op it came from.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/common/IreeSettings.h"
#include "core/export/DocumentJson.h"
#include "core/export/JsonText.h"
#include "core/service/ConfigureProgram.h"
#include "core/service/IreeTargets.h"
#include "core/util/Files.h"

#include <QCommandLineParser>

#include <iostream>

using nlohmann::json;
using namespace tilescope;

namespace tilescope::cli {

// configure's options.
struct ConfigureOptions {
  QCommandLineOption target{
      "target",
      "gfx942, rocm:gfx1100, sm_90, cuda:sm_80, llvm-cpu (a source that "
      "names its devices needs none; sm_90, which IREE 3.13 cannot name, "
      "gets Tilescope's own target).",
      "TARGET"};
  QCommandLineOption output{{"o", "output"},
                            "The configured MLIR (default: SOURCE's name with "
                            ".TARGET.configured.mlir, in the current folder).",
                            "OUT"};

  void addTo(QCommandLineParser &parser) const {
    parser.addOptions({target, output, kJsonOption, kIreeOption});
  }
};

int configure(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli configure: run the pinned iree-compile on a program up "
      "to executable configurations for a target, and list the configured "
      "dispatches, each root op linked to the source op it came from.");
  const ConfigureOptions options;
  options.addTo(parser);
  parser.addPositionalArgument("SOURCE", "An MLIR program (e.g. a model).");
  if (!parseCommandLine(parser, arguments, "configure"))
    return kExitUsage;
  const workbench::Workbench bench = workbenchOf(parser);
  if (parser.positionalArguments().size() != 1) {
    std::cerr << "tilescope-cli configure: expected one SOURCE\n";
    return kExitUsage;
  }
  // A source that names its devices needs no --target (and keeps them).
  std::optional<service::CompileTarget> target;
  if (parser.isSet(options.target)) {
    auto named =
        service::compileTarget(parser.value(options.target).toStdString());
    if (!named) {
      std::cerr << "tilescope-cli configure: --target: " << named.error()
                << "\n";
      return kExitUsage;
    }
    target = *named;
  }
  const std::filesystem::path source =
      parser.positionalArguments().front().toStdString();
  if (!std::filesystem::is_regular_file(source)) {
    std::cerr << "tilescope-cli configure: " << source.string()
              << ": no such file\n";
    return kExitBadInput;
  }
  if (!target) {
    auto text = readTextFile(source);
    if (!text || !service::namesItsDevices(*text)) {
      std::cerr << "tilescope-cli configure: " << source.string()
                << " names no device (hal.device.targets): give --target "
                   "(gfx942, sm_90, llvm-cpu, ...)\n";
      return kExitUsage;
    }
  }
  std::filesystem::path output =
      parser.isSet(options.output)
          ? std::filesystem::path(parser.value(options.output).toStdString())
          : std::filesystem::path(service::configuredFileName(source, target));
  auto installation = bench.iree();
  if (!installation) {
    std::cerr << "tilescope-cli configure: " << installation.error() << "\n";
    return kExitIreeUnavailable;
  }
  // A GPU chip IREE does not know is a wrong --target (exit 2), said as
  // `check` and `targets` say it, not iree-compile's "device alias"
  // complaint about a file it could not read (exit 4).
  if (target && target->backend != "llvm-cpu")
    if (auto known = service::ireeTarget(*installation, target->chip);
        !known && service::namesNoTarget(known.error())) {
      std::cerr << "tilescope-cli configure: --target: " << known.error()
                << "\n";
      return kExitUsage;
    }
  auto worker = bench.worker();
  if (!worker) {
    std::cerr << "tilescope-cli configure: " << worker.error() << "\n";
    return kExitIreeUnavailable;
  }
  service::ConfigureRequest request;
  request.source = source;
  request.target = target;
  request.output = output;
  const bool asJson = parser.isSet(kJsonOption);
  request.progress = [asJson](const std::string &step) {
    if (!asJson)
      std::cerr << step << "...\n";
  };
  auto program = service::configureProgram(*installation, *worker, request);
  if (!program) {
    // Named once: a file that cannot be read is named by the error itself.
    std::cerr << "tilescope-cli configure: "
              << (program.error().starts_with(source.string())
                      ? ""
                      : source.string() + ": ")
              << program.error() << "\n";
    return kExitBadInput;
  }
  const document::Document &document = program->document;
  if (asJson) {
    json out = exporting::toJson(document);
    out["source"] = source.string();
    out["commands"] = program->commands;
    out["device_from"] = program->deviceFrom;
    std::cout << exporting::jsonText(out, 2) << "\n";
    return kExitOk;
  }
  std::cout << output.string() << ": " << document.dispatches.size()
            << " dispatch" << (document.dispatches.size() == 1 ? "" : "es")
            << " configured for " << program->deviceFrom << "\n";
  for (size_t d = 0; d < document.dispatches.size(); ++d) {
    const document::Dispatch &dispatch = document.dispatches[d];
    std::cout << "\n"
              << d << "  @" << dispatch.name << "  (line " << dispatch.line
              << ")\n";
    for (size_t k = 0; k < dispatch.rootOps.size(); ++k) {
      const document::RootOp &op = dispatch.rootOps[k];
      std::cout << "   " << d << ":" << k << "  " << op.name << "  "
                << config::toString(op.kind)
                << (op.space ? " " + op.space->toString() : "");
      if (op.source)
        std::cout << "  from " << op.source->file << ":" << op.source->line
                  << ":" << op.source->column;
      std::cout << "\n";
    }
  }
  return kExitOk;
}

} // namespace tilescope::cli
