#include "core/service/ConfigureProgram.h"

#include "core/document/MlirFile.h"
#include "core/util/Files.h"

#include <cctype>
#include <map>
#include <string_view>

namespace tilescope::service {
namespace {

// Every built-in device target Tilescope carries, by chip: the files of
// examples/targets, held by the library.
const char *const kSm90Device =
#include "BuiltinDeviceTargets.inc"
    ;

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
Error failure(const std::string &what, const process::ProcessSpec &spec,
              const process::ProcessResult &result,
              const ConfigureRequest &request) {
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

// Where `module` opens the first statement of `body` (comments and blank
// lines skipped), or npos.
size_t moduleKeyword(const std::string &body) {
  size_t at = 0;
  while (at < body.size()) {
    const size_t end = body.find('\n', at);
    const size_t first = body.find_first_not_of(" \t", at);
    if (first != std::string::npos &&
        (end == std::string::npos || first < end)) {
      if (body.compare(first, 2, "//") != 0)
        return body.compare(first, 6, "module") == 0 ? first
                                                     : std::string::npos;
    }
    if (end == std::string::npos)
      break;
    at = end + 1;
  }
  return std::string::npos;
}

size_t skipSpaces(const std::string &text, size_t at) {
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])))
    ++at;
  return at;
}

} // namespace

bool hasTopLevelModule(const std::string &source) {
  // Past the top-level aliases, which may come before the module.
  return moduleKeyword(document::splitTopLevelAliases(source).body) !=
         std::string::npos;
}

Result<std::string> sourceOnDevice(const std::string &source,
                                   const std::string &device,
                                   const std::string &aliases) {
  // Top-level aliases stay outside the module, on their own lines.
  document::AliasesAndBody split = document::splitTopLevelAliases(source);
  split.aliases += aliases;
  const std::string targets = "hal.device.targets = [" + device + "]";
  const size_t keyword = moduleKeyword(split.body);
  if (keyword == std::string::npos)
    return split.aliases + "module attributes {" + targets + "} { " +
           split.body + "\n}\n";
  std::string body = split.body;
  size_t at = skipSpaces(body, keyword + 6);
  if (at < body.size() && body[at] == '@') { // its name: @name or @"name"
    ++at;
    if (at < body.size() && body[at] == '"') {
      const size_t close = body.find('"', at + 1);
      at = close == std::string::npos ? body.size() : close + 1;
    } else {
      while (
          at < body.size() &&
          (std::isalnum(static_cast<unsigned char>(body[at])) ||
           std::string_view("_$.-").find(body[at]) != std::string_view::npos))
        ++at;
    }
    at = skipSpaces(body, at);
  }
  if (body.compare(at, 10, "attributes") == 0) {
    const size_t open = skipSpaces(body, at + 10);
    if (open >= body.size() || body[open] != '{')
      return Error{"the source's module has attributes Tilescope cannot read: "
                   "give it {hal.device.targets = [...]} (Tilescope's device "
                   "for this chip is in examples/targets)"};
    const bool empty = skipSpaces(body, open + 1) < body.size() &&
                       body[skipSpaces(body, open + 1)] == '}';
    body.insert(open + 1, targets + (empty ? "" : ", "));
    return split.aliases + body;
  }
  if (at >= body.size() || body[at] != '{')
    return Error{"the source's module opens in a way Tilescope cannot read: "
                 "give it {hal.device.targets = [...]} (Tilescope's device "
                 "for this chip is in examples/targets)"};
  body.insert(at, "attributes {" + targets + "} ");
  return split.aliases + body;
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

Result<process::ProcessSpec>
configureCommand(const tools::IreeInstallation &iree,
                 const ConfigureRequest &request,
                 const std::filesystem::path &located) {
  CompileRequest compile;
  compile.input = request.source;
  compile.output = located;
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

Result<process::ProcessSpec>
stripLocationsCommand(const tools::IreeInstallation &iree,
                      const ConfigureRequest &request,
                      const std::filesystem::path &located) {
  auto tool = iree.tool(tools::kIreeOpt);
  if (!tool)
    return Error{tool.error()};
  process::ProcessSpec spec;
  spec.program = *tool;
  spec.arguments = {located.string(), "-o", request.output.string()};
  spec.timeout = request.timeout;
  spec.cancel = request.cancel;
  return spec;
}

std::string configuredFileName(const std::filesystem::path &source,
                               const std::optional<CompileTarget> &target) {
  return source.stem().string() + "." + (target ? target->name : "own-device") +
         ".configured.mlir";
}

namespace {

// The located print of a copy of the source: its locations renamed to the
// source's own file.
std::optional<Error> renameLocations(const std::filesystem::path &located,
                                     const std::filesystem::path &copy,
                                     const std::filesystem::path &source) {
  auto locatedText = readTextFile(located);
  if (!locatedText)
    return Error{locatedText.error()};
  std::string text = *locatedText;
  const std::string from = "\"" + copy.string() + "\"";
  const std::string to = "\"" + source.string() + "\"";
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos;
       at += to.size())
    text.replace(at, from.size(), to);
  if (auto written = writeFileAtomically(located, text); !written)
    return Error{written.error()};
  return std::nullopt;
}

// Each root op of `document` (the print without locations, `output`) takes
// its source location from the located print. The two prints hold the
// same IR, but the parser lists dispatches by where their locations say
// they start, and the located print's locations are the source's: its
// order is the source ops', not the print's. Dispatches are paired by
// their symbols (executable and function); within one, root ops come in
// the same walk order in both.
std::optional<Error>
takeSourceLocations(document::Document &document,
                    const document::Document &withLocations,
                    const std::filesystem::path &output) {
  if (withLocations.dispatches.size() != document.dispatches.size())
    return Error{"iree-compile's located print holds " +
                 std::to_string(withLocations.dispatches.size()) +
                 " dispatches and " + output.string() + " " +
                 std::to_string(document.dispatches.size())};
  const auto locatedBySymbol = document::dispatchesBySymbol(withLocations);
  for (document::Dispatch &dispatch : document.dispatches) {
    const auto found = locatedBySymbol.find(document::symbolOf(dispatch));
    if (found == locatedBySymbol.end() ||
        found->second->rootOps.size() != dispatch.rootOps.size())
      return Error{"@" + dispatch.name + " differs between " + output.string() +
                   " and iree-compile's located print"};
    for (size_t k = 0; k < dispatch.rootOps.size(); ++k)
      dispatch.rootOps[k].source = found->second->rootOps[k].source;
  }
  return std::nullopt;
}

} // namespace

Result<ConfiguredProgram> configureProgram(const tools::IreeInstallation &iree,
                                           DocumentWorker &worker,
                                           const ConfigureRequest &request) {
  auto step = [&](const std::string &what) {
    if (request.progress)
      request.progress(what);
  };
  ConfiguredProgram program;
  // The located print (and a copy of the source on Tilescope's device) are
  // the configure's own: in a folder of its own, gone when it returns, so
  // nothing but `output` is left beside it.
  auto scratch = TemporaryDirectory::create("tilescope-configure");
  if (!scratch)
    return Error{scratch.error()};
  const std::filesystem::path located = scratch->file("located.mlir");

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
  auto configure = configureCommand(iree, asked, located);
  if (!configure)
    return Error{configure.error()};
  step("configuring " + request.source.filename().string() + " for " +
       (asked.target ? asked.target->name : program.deviceFrom) +
       " with iree-compile");
  process::ProcessResult configured = runProcess(*configure);
  // An IREE that names no target for the chip (3.13 and sm_90): Tilescope's
  // own device for it, put on the source line for line.
  std::optional<std::filesystem::path> wrapped;
  if (!configured.succeeded() && asked.target &&
      configured.standardError.find("missing GPU target") != std::string::npos)
    if (auto device = builtinDeviceTarget(asked.target->chip)) {
      auto text = sourceOnDevice(*sourceText, *device);
      if (!text)
        return Error{text.error()};
      wrapped =
          scratch->file("on-device-" + request.source.filename().string());
      if (auto written = writeFileAtomically(*wrapped, *text); !written)
        return Error{written.error()};
      ConfigureRequest onIt = asked;
      onIt.source = *wrapped;
      onIt.target.reset();
      configure = configureCommand(iree, onIt, located);
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
  if (wrapped)
    if (auto failed = renameLocations(located, *wrapped, request.source))
      return *failed;

  auto strip = stripLocationsCommand(iree, request, located);
  if (!strip)
    return Error{strip.error()};
  program.commands.push_back(strip->shellCommand());
  step("printing it without locations with iree-opt");
  const process::ProcessResult stripped = runProcess(*strip);
  if (!stripped.succeeded())
    return failure("iree-opt", *strip, stripped, request);

  step("reading the configured dispatches");
  iree::ParseOptions whole;
  whole.splitInputFile = false;
  auto document = worker.parseFile(request.output, whole);
  if (!document)
    return Error{document.error()};
  auto withLocations = worker.parseFile(located, whole);
  if (!withLocations)
    return Error{withLocations.error()};
  auto text = readTextFile(request.output);
  if (!text)
    return Error{text.error()};
  document->path = request.output;
  document->text = std::move(*text);

  if (auto failed =
          takeSourceLocations(*document, *withLocations, request.output))
    return *failed;
  program.document = std::move(*document);
  return program;
}

} // namespace tilescope::service
