#include "core/service/IreeLowering.h"

#include "core/util/Files.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace tilescope::service {
namespace {

// Each `// -----` part of the input: the line it starts on (1-based) and the
// function it defines.
std::vector<std::pair<int, std::string>>
partFunctions(const std::string &text) {
  std::vector<std::pair<int, std::string>> parts{{1, ""}};
  static const std::regex function(R"(func\.func\s+(?:\w+\s+)?@([\w$.-]+))");
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("// -----", 0) == 0) {
      parts.push_back({number + 1, ""});
      continue;
    }
    std::smatch match;
    if (parts.back().second.empty() && std::regex_search(line, match, function))
      parts.back().second = match[1];
  }
  return parts;
}

std::string
functionAtLine(const std::vector<std::pair<int, std::string>> &parts,
               int line) {
  std::string name;
  for (const auto &[first, function] : parts)
    if (first <= line)
      name = function;
  return name;
}

} // namespace

std::string IrDump::option(const std::string &key) const {
  const std::string needle = key + "=";
  size_t at = options.find(needle);
  while (at != std::string::npos && at > 0 && options[at - 1] != ' ' &&
         options[at - 1] != '{')
    at = options.find(needle, at + 1);
  if (at == std::string::npos)
    return {};
  const size_t start = at + needle.size();
  const size_t end = options.find(' ', start);
  return options.substr(start, end == std::string::npos ? std::string::npos
                                                        : end - start);
}

const IrDump *LoweringProbeResult::dump(const std::string &function,
                                        const std::string &pass,
                                        const std::string &optionKey,
                                        const std::string &optionValue) const {
  for (const IrDump &d : dumps)
    if (d.function == function && d.pass == pass &&
        (optionKey.empty() || d.option(optionKey) == optionValue))
      return &d;
  return nullptr;
}

bool LoweringProbeResult::failed(const std::string &function) const {
  auto it = diagnostics.find(function);
  if (it == diagnostics.end())
    return false;
  return std::any_of(
      it->second.begin(), it->second.end(),
      [](const ProbeDiagnostic &d) { return d.severity == "error"; });
}

std::string LoweringProbeResult::crashedIn() const {
  if (process.outcome != process::ProcessResult::Outcome::Signaled)
    return {};
  // The function after the last one IREE dumped, or that one itself if the
  // crash came later in its pipeline: the last dumped function is the best
  // evidence IREE leaves.
  if (dumps.empty())
    return functions.empty() ? std::string() : functions.front();
  return dumps.back().function;
}

void parseLoweringOutput(
    const std::string &output, const std::string &inputPath,
    LoweringProbeResult &result,
    const std::vector<std::pair<int, std::string>> &parts) {
  static const std::regex header(
      R"(^// -----// IR Dump After \S+ \(?([\w-]+)\)?(?:\{(.*)\})?.*//----- //$)");
  static const std::regex function(R"(^func\.func\s+(?:\w+\s+)?@([\w$.-]+))");
  static const std::regex diagnostic(
      R"(^(.*):(\d+):(\d+): (error|warning|note|remark): (.*)$)");
  std::istringstream in(output);
  std::string line;
  IrDump *open = nullptr;
  bool inFunction = false;
  while (std::getline(in, line)) {
    std::smatch match;
    if (line.rfind("// -----// IR Dump", 0) == 0) {
      if (std::regex_match(line, match, header)) {
        result.dumps.push_back(IrDump{match[1], match[2], "", ""});
        open = &result.dumps.back();
        inFunction = false;
      }
      continue;
    }
    if (std::regex_match(line, match, diagnostic) &&
        (match[1] == inputPath || match[1].str().ends_with(inputPath))) {
      const int lineNumber =
          static_cast<int>(parseInt64(match[2].str()).value_or(0));
      result.diagnostics[functionAtLine(parts, lineNumber)].push_back(
          ProbeDiagnostic{
              lineNumber,
              static_cast<int>(parseInt64(match[3].str()).value_or(0)),
              match[4], match[5]});
      continue;
    }
    if (!open)
      continue;
    if (!inFunction) {
      if (std::regex_search(line, match, function)) {
        open->function = match[1];
        inFunction = true;
        open->text = line + "\n";
      }
      continue;
    }
    open->text += line;
    open->text += '\n';
    if (line == "}") { // the function's closing brace, at column 0
      open = nullptr;
      inFunction = false;
    }
  }
}

Result<LoweringProbeResult>
runLoweringProbe(const tools::IreeInstallation &iree,
                 const LoweringProbeRequest &request) {
  auto opt = iree.tool(tools::kIreeOpt);
  if (!opt)
    return Error{opt.error()};
  auto directory = TemporaryDirectory::create("tilescope-lowering");
  if (!directory)
    return Error{directory.error()};
  const auto input = directory->file("probe.mlir");
  if (auto written = writeFileAtomically(input, request.moduleText); !written)
    return Error{written.error()};

  process::ProcessSpec spec;
  spec.program = *opt;
  spec.arguments = {"--split-input-file", "--mlir-disable-threading"};
  if (!request.testTarget.empty())
    spec.arguments.push_back("--iree-gpu-test-target=" + request.testTarget);
  const std::string pipeline =
      request.backend == GpuBackend::Rocdl
          ? "iree-codegen-llvmgpu-rocdl-lowering-pipeline"
          : "iree-codegen-llvmgpu-nvvm-lowering-pipeline";
  const std::string option = request.includeLlvmLowering
                                 ? "include-llvm-lowering=true"
                                 : "include-llvm-lowering=false";
  // The executable form runs what IREE runs on a variant: configuration
  // pre-processing, the module's configuration (which keeps the config a
  // function carries) and lowering, and post-processing.
  if (request.executableForm)
    spec.arguments.push_back(
        "--pass-pipeline=builtin.module(hal.executable(hal.executable.variant("
        "iree-codegen-configuration-preprocessing-pipeline, builtin.module("
        "iree-codegen-llvmgpu-configuration-pipeline, " +
        pipeline + "{" + option +
        "}), iree-codegen-translation-postprocessing-pipeline)))");
  else
    spec.arguments.push_back("--" + pipeline + "=" + option);
  for (const std::string &pass : request.printAfter)
    spec.arguments.push_back("--mlir-print-ir-after=" + pass);
  spec.arguments.push_back(input.string());
  spec.arguments.push_back("-o");
  spec.arguments.push_back("/dev/null");
  spec.timeout = request.timeout;
  spec.cancel = request.cancel;

  LoweringProbeResult result;
  const auto parts = partFunctions(request.moduleText);
  for (const auto &[first, function] : parts)
    if (!function.empty())
      result.functions.push_back(function);
  result.command = spec.shellCommand();
  result.process = runProcess(spec);
  if (result.process.outcome ==
          process::ProcessResult::Outcome::FailedToStart ||
      result.process.outcome == process::ProcessResult::Outcome::Cancelled)
    return Error{"iree-opt " + result.process.describe()};
  parseLoweringOutput(result.process.standardError, input.string(), result,
                      parts);
  return result;
}

} // namespace tilescope::service
