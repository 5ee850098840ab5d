#include "core/service/ConfigureProgram.h"

#include "core/document/MlirFile.h"
#include "core/util/Files.h"

namespace tilescope::jobs {
namespace {

// Every built-in device target Tilescope carries, by chip: the files of
// examples/targets, held by the library.
const char *const kSm90Device =
#include "BuiltinDeviceTargets.inc"
    ;

std::filesystem::path locatedPath(const std::filesystem::path &output) {
  std::filesystem::path located = output;
  located.replace_extension(".located.mlir");
  return located;
}

// The compiler's diagnostics without the IR it dumps after "see current
// operation", at most 40 lines.
std::string diagnosticsOf(const std::string &standardError) {
  std::string out;
  int lines = 0;
  size_t start = 0;
  while (start < standardError.size() && lines < 40) {
    size_t end = standardError.find('\n', start);
    if (end == std::string::npos)
      end = standardError.size();
    const std::string line = standardError.substr(start, end - start);
    out += line + "\n";
    ++lines;
    start = end + 1;
    if (line.find("note: see current operation:") != std::string::npos)
      break;
  }
  if (start < standardError.size())
    out += "[... the rest of the compiler's output cut]\n";
  return out;
}

// A child's failure in words, with the command that reproduces it.
Error failure(const std::string &what, const ProcessSpec &spec,
              const ProcessResult &result, const ConfigureRequest &request) {
  std::string message =
      what + " " + result.describe() + "\n  command: " + spec.shellCommand();
  if (!result.standardError.empty())
    message += "\n" + diagnosticsOf(result.standardError);
  if (result.standardError.find("missing GPU target") != std::string::npos &&
      request.target && request.target->backend == "cuda")
    message += "The loaded IREE has no built-in target for " +
               request.target->chip +
               " and Tilescope carries none: give the source its target, "
               "as examples/targets/cuda_sm_90.device.mlir does (module "
               "attributes {hal.device.targets = [...]}).\n";
  if (!message.empty() && message.back() == '\n')
    message.pop_back();
  return Error{message};
}

// The source as a module naming `device`, line for line: the module opens
// on the source's first line, so IREE's locations are the source's lines.
Result<std::string> onDevice(const std::string &source,
                             const std::string &device) {
  if (hasTopLevelModule(source))
    return Error{"the source has a module of its own: give it "
                 "{hal.device.targets = [...]} (Tilescope's device for this "
                 "chip is in examples/targets)"};
  // Top-level aliases stay outside the module, on their own lines.
  const document::AliasesAndBody split = document::splitTopLevelAliases(source);
  return split.aliases + "module attributes {hal.device.targets = [" + device +
         "]} { " + split.body + "\n}\n";
}

} // namespace

bool hasTopLevelModule(const std::string &source) {
  // Past the top-level aliases, which may come before the module.
  const std::string text = document::splitTopLevelAliases(source).body;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    const size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 2, "//") != 0)
      return line.compare(first, 6, "module") == 0;
    if (end == std::string::npos)
      break;
    at = end + 1;
  }
  return false;
}

bool namesItsDevices(const std::string &text) {
  return text.find("hal.device.targets") != std::string::npos &&
         text.find("#hal.device.target<") != std::string::npos;
}

std::optional<std::string> builtinDeviceTarget(const std::string &chip) {
  if (chip != "sm_90")
    return std::nullopt;
  std::string device = kSm90Device;
  while (!device.empty() && (device.back() == '\n' || device.back() == ' '))
    device.pop_back();
  return device;
}

Result<ProcessSpec> configureCommand(const tools::IreeInstallation &iree,
                                     const ConfigureRequest &request) {
  CompileRequest compile;
  compile.input = request.source;
  compile.output = locatedPath(request.output);
  compile.inputCarriesTarget = !request.target;
  if (request.target)
    compile.target = *request.target;
  compile.extraFlags = {"--compile-to=executable-configurations",
                        "--mlir-print-debuginfo"};
  compile.extraFlags.insert(compile.extraFlags.end(),
                            request.extraFlags.begin(),
                            request.extraFlags.end());
  auto spec = compileCommand(iree, compile);
  if (spec) {
    spec->timeout = request.timeout;
    spec->cancel = request.cancel;
  }
  return spec;
}

Result<ProcessSpec> stripLocationsCommand(const tools::IreeInstallation &iree,
                                          const ConfigureRequest &request) {
  auto tool = iree.tool(tools::kIreeOpt);
  if (!tool)
    return Error{tool.error()};
  ProcessSpec spec;
  spec.program = *tool;
  spec.arguments = {locatedPath(request.output).string(), "-o",
                    request.output.string()};
  spec.timeout = request.timeout;
  spec.cancel = request.cancel;
  return spec;
}

Result<ConfiguredProgram> configureProgram(const tools::IreeInstallation &iree,
                                           DocumentWorker &worker,
                                           const ConfigureRequest &request) {
  auto step = [&](const std::string &what) {
    if (request.progress)
      request.progress(what);
  };
  ConfiguredProgram program;
  program.located = locatedPath(request.output);

  // The source's own devices win over a target given.
  ConfigureRequest asked = request;
  auto sourceText = readTextFile(request.source);
  if (!sourceText)
    return Error{sourceText.error()};
  if (namesItsDevices(*sourceText)) {
    asked.target.reset();
    program.deviceFrom = "the source's hal.device.targets";
  } else if (!asked.target) {
    return Error{"the source names no device (hal.device.targets): give "
                 "--target (gfx942, sm_90, llvm-cpu, ...)"};
  } else {
    program.deviceFrom = "--target " + asked.target->name;
  }
  auto configure = configureCommand(iree, asked);
  if (!configure)
    return Error{configure.error()};
  step("configuring " + request.source.filename().string() + " for " +
       (asked.target ? asked.target->name : program.deviceFrom) +
       " with iree-compile");
  ProcessResult configured = runProcess(*configure);
  // An IREE that names no target for the chip (3.13 and sm_90): Tilescope's
  // own device for it, put on the source line for line.
  std::optional<std::filesystem::path> wrapped;
  if (!configured.succeeded() && asked.target &&
      configured.standardError.find("missing GPU target") != std::string::npos)
    if (auto device = builtinDeviceTarget(asked.target->chip)) {
      auto text = onDevice(*sourceText, *device);
      if (!text)
        return Error{text.error()};
      wrapped = request.output;
      wrapped->replace_extension(".on-device.mlir");
      if (auto written = writeFileAtomically(*wrapped, *text); !written)
        return Error{written.error()};
      ConfigureRequest onIt = asked;
      onIt.source = *wrapped;
      onIt.target.reset();
      configure = configureCommand(iree, onIt);
      if (!configure)
        return Error{configure.error()};
      program.deviceFrom = "Tilescope's " + asked.target->chip +
                           " target (the loaded IREE names none)";
      step("configuring on Tilescope's " + asked.target->chip + " target");
      configured = runProcess(*configure);
    }
  program.commands.push_back(configure->shellCommand());
  if (!configured.succeeded())
    return failure("iree-compile", *configure, configured, asked);
  // IREE's locations name the file it read: the source's, not the copy's.
  if (wrapped) {
    auto located = readTextFile(program.located);
    if (!located)
      return Error{located.error()};
    std::string text = *located;
    const std::string from = "\"" + wrapped->string() + "\"";
    const std::string to = "\"" + request.source.string() + "\"";
    for (size_t at = 0; (at = text.find(from, at)) != std::string::npos;
         at += to.size())
      text.replace(at, from.size(), to);
    if (auto written = writeFileAtomically(program.located, text); !written)
      return Error{written.error()};
  }

  auto strip = stripLocationsCommand(iree, request);
  if (!strip)
    return Error{strip.error()};
  program.commands.push_back(strip->shellCommand());
  step("printing it without locations with iree-opt");
  const ProcessResult stripped = runProcess(*strip);
  if (!stripped.succeeded())
    return failure("iree-opt", *strip, stripped, request);

  step("reading the configured dispatches");
  iree::ParseOptions whole;
  whole.splitInputFile = false;
  auto document = worker.parseFile(request.output, whole);
  if (!document)
    return Error{document.error()};
  auto located = worker.parseFile(program.located, whole);
  if (!located)
    return Error{located.error()};
  auto text = readTextFile(request.output);
  if (!text)
    return Error{text.error()};
  document->path = request.output;
  document->text = std::move(*text);

  // The two prints hold the same IR: dispatches and root ops pair up in
  // order, and the located one knows where each came from.
  if (located->dispatches.size() != document->dispatches.size())
    return Error{program.located.string() + " holds " +
                 std::to_string(located->dispatches.size()) +
                 " dispatches and " + request.output.string() + " " +
                 std::to_string(document->dispatches.size())};
  for (size_t d = 0; d < document->dispatches.size(); ++d) {
    iree::Dispatch &dispatch = document->dispatches[d];
    const iree::Dispatch &withLocations = located->dispatches[d];
    if (withLocations.name != dispatch.name ||
        withLocations.rootOps.size() != dispatch.rootOps.size())
      return Error{"@" + dispatch.name + " differs between " +
                   request.output.string() + " and " +
                   program.located.string()};
    for (size_t k = 0; k < dispatch.rootOps.size(); ++k)
      dispatch.rootOps[k].source = withLocations.rootOps[k].source;
  }
  program.document = std::move(*document);
  return program;
}

} // namespace tilescope::jobs
