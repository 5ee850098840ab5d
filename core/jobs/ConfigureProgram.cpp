#include "core/jobs/ConfigureProgram.h"

#include "core/util/Files.h"

namespace tilescope::jobs {
namespace {

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
      request.target.backend == "cuda")
    message += "The loaded IREE has no built-in target for " +
               request.target.chip +
               " (IREE 3.13 knows no sm_90 by flag): give the source its "
               "target, as examples/targets/cuda_sm_90.device.mlir does "
               "(module attributes {hal.device.targets = [...]}).\n";
  if (!message.empty() && message.back() == '\n')
    message.pop_back();
  return Error{message};
}

} // namespace

Result<ProcessSpec> configureCommand(const iree::IreeInstallation &iree,
                                     const ConfigureRequest &request) {
  CompileRequest compile;
  compile.input = request.source;
  compile.output = locatedPath(request.output);
  compile.target = request.target;
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

Result<ProcessSpec> stripLocationsCommand(const iree::IreeInstallation &iree,
                                          const ConfigureRequest &request) {
  auto tool = iree.tool(iree::kIreeOpt);
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

Result<ConfiguredProgram> configureProgram(const iree::IreeInstallation &iree,
                                           DocumentWorker &worker,
                                           const ConfigureRequest &request) {
  auto step = [&](const std::string &what) {
    if (request.progress)
      request.progress(what);
  };
  ConfiguredProgram program;
  program.located = locatedPath(request.output);

  auto configure = configureCommand(iree, request);
  if (!configure)
    return Error{configure.error()};
  program.commands.push_back(configure->shellCommand());
  step("configuring " + request.source.filename().string() + " for " +
       request.target.name + " with iree-compile");
  const ProcessResult configured = runProcess(*configure);
  if (!configured.succeeded())
    return failure("iree-compile", *configure, configured, request);

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
