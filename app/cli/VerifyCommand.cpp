// tilescope-cli verify: a checked run. The program a dispatch came from is
// compiled with the (edited) dispatch file's executables in place of
// IREE's, run on deterministic random inputs and compared with the same
// program compiled for the CPU with IREE's defaults (core/run/CheckJob).
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/JobInputs.h"
#include "app/common/IreeSettings.h"
#include "core/devices/GpuDiscovery.h"
#include "core/export/JsonText.h"
#include "core/run/BenchJob.h"
#include "core/run/CheckJob.h"
#include "core/service/CompileJob.h"
#include "core/tries/JobJson.h"
#include "core/tries/TryJob.h"

#include <QCommandLineParser>

#include <iostream>

using nlohmann::json;

namespace tilescope::cli {

// verify's options.
struct VerifyOptions {
  QCommandLineOption program{
      "program", "The program FILE's dispatch came from.", "SOURCE"};
  QCommandLineOption reference{
      "reference", "Compare with this program instead (same signature).",
      "REFERENCE"};
  QCommandLineOption function{
      "function", "The function to run (default: the program's one).", "NAME"};
  QCommandLineOption seed{"seed", "Random inputs' seed (default 1).", "N"};
  QCommandLineOption atol{"atol", "Absolute tolerance.", "VALUE"};
  QCommandLineOption rtol{"rtol", "Relative tolerance.", "VALUE"};

  void addTo(QCommandLineParser &parser) const {
    parser.addOptions({program, reference, function, seed, atol, rtol,
                       kDeviceOption, kOnOption, kTargetOption,
                       kTryFolderOption, kWorkspaceOption, kTimeoutOption,
                       kJsonOption, kIreeOption});
  }
};

namespace {

// --seed, --atol and --rtol into `request`.
Result<bool> readNumbers(const QCommandLineParser &parser,
                         const VerifyOptions &options,
                         run::CheckRequest &request) {
  bool ok = true;
  if (parser.isSet(options.seed)) {
    request.seed = parser.value(options.seed).toULongLong(&ok);
    if (!ok)
      return Error{"--seed: expected a whole number"};
  }
  if (parser.isSet(options.atol) || parser.isSet(options.rtol)) {
    bool aOk = true, rOk = true;
    request.tolerance = run::Tolerance{
        parser.isSet(options.atol) ? parser.value(options.atol).toDouble(&aOk)
                                   : 0,
        parser.isSet(options.rtol) ? parser.value(options.rtol).toDouble(&rOk)
                                   : 0};
    if (!aOk || !rOk || request.tolerance->absolute < 0 ||
        request.tolerance->relative < 0)
      return Error{"--atol/--rtol: expected numbers of at least 0"};
  }
  return true;
}

// The checked run in words: each output's comparison, its first
// mismatches, the error's detail, the try folder and the commands.
void printChecked(const run::CheckResult &checked) {
  std::cout << checked.summary() << "\n";
  for (const run::OutputCheck &output : checked.outputs) {
    const run::TensorComparison &c = output.comparison;
    std::cout << "  output " << output.index << " (" << c.type.toString()
              << "): " << (c.passed() ? "passed" : "FAILED") << ", "
              << c.mismatches << " mismatches, max abs error "
              << c.maxAbsoluteError << ", max rel error " << c.maxRelativeError
              << "\n";
    for (const run::Mismatch &m : c.firstMismatches) {
      std::cout << "    at [";
      for (size_t i = 0; i < m.index.size(); ++i)
        std::cout << (i ? ", " : "") << m.index[i];
      std::cout << "]: " << m.value << ", reference " << m.reference << "\n";
    }
  }
  // The summary holds the error's first line; the rest follows it.
  if (const size_t rest = checked.error.find('\n'); rest != std::string::npos)
    std::cout << checked.error.substr(rest + 1) << "\n";
  std::cout << "try folder: " << checked.directory.string() << "\n";
  for (const std::string &command : checked.commands)
    std::cout << "  " << command << "\n";
}

} // namespace

int verify(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli verify: a checked run. FILE is a dispatch file (a "
      "dispatch benchmark, edited or not) and --program the program it came "
      "from: the program is compiled for FILE's device with FILE's "
      "executables substituted for IREE's, run on deterministic random "
      "inputs, and every output compared element by element with the "
      "program compiled for the CPU with IREE's own configs (or with "
      "--reference). FILE may also be a program itself: then IREE's own "
      "configs for --target are checked. Tolerance per element type (f32: "
      "1e-3 absolute + 1e-3 relative; f16 2e-2; bf16 8e-2; integers exact) "
      "unless --atol/--rtol are given.");
  const VerifyOptions options;
  options.addTo(parser);
  parser.addPositionalArgument("FILE", "A dispatch file, or a program.");
  if (!parseCommandLine(parser, arguments, "verify"))
    return kExitUsage;
  auto usage = [](const std::string &message) {
    return usageError("verify", message);
  };
  auto inputs = jobArguments(parser);
  if (!inputs)
    return usage(inputs.error());
  const std::optional<service::CompileTarget> &target = inputs->target;
  const std::string &path = inputs->path;
  const bool asJson = parser.isSet(kJsonOption);

  run::CheckRequest request;
  if (auto numbers = readNumbers(parser, options, request); !numbers)
    return usage(numbers.error());
  auto timeout = timeoutOf(parser);
  if (!timeout)
    return usage(timeout.error());
  request.timeout = *timeout;
  auto place = placeOf(parser);
  if (!place)
    return usage(place.error());
  request.place = *place;

  int code = kExitOk;
  auto document = openJobFile(parser, code);
  if (!document) {
    std::cerr << "tilescope-cli verify: " << document.error() << "\n";
    return code;
  }
  // The tested module runs where its backend can: the CPU, or a GPU found
  // here, or --on's place. Without one, the checked run is compiled but not
  // run.
  auto backend =
      tries::prepareCheck(request, *document,
                          parser.isSet(options.program)
                              ? std::optional<std::filesystem::path>(
                                    parser.value(options.program).toStdString())
                              : std::nullopt,
                          target, parser.value(kDeviceOption).toStdString());
  if (!backend)
    return usage(backend.error() + " (--program SOURCE)");

  if (parser.isSet(options.reference))
    request.reference = parser.value(options.reference).toStdString();
  request.function = parser.value(options.function).toStdString();

  const workbench::Workbench bench = workbenchOf(parser);
  if (auto installation = bench.iree(); !installation) {
    std::cerr << "tilescope-cli verify: " << installation.error() << "\n";
    return kExitIreeUnavailable;
  }
  auto folder = tryFolderOf(parser);
  if (!folder) {
    std::cerr << "tilescope-cli verify: " << folder.error() << "\n";
    return kExitBadInput;
  }
  request.directory = *folder;

  TerminalProgress progress(!asJson);
  request.progress = [&progress](const std::string &step) {
    progress.step(step);
  };
  auto checked = bench.check(request);
  progress.done();
  if (!checked)
    return refused("verify", checked.refusal());

  const tries::TryRecord record =
      tries::checkRecord(request, *checked, *document, *backend);
  const auto id = recordTry(parser, record, asJson);

  const int exit = checked->compiledOnly ? kExitCannotRunHere
                   : checked->passed()   ? kExitOk
                                         : kExitFailure;
  if (asJson) {
    json out = tries::toJson(*checked);
    out["file"] = path;
    out["try"] = id ? json(*id) : json(nullptr);
    out["outcome"] = record.outcome;
    std::cout << exporting::jsonText(out, 2) << "\n";
    return exit;
  }
  printChecked(*checked);
  return exit;
}

} // namespace tilescope::cli
