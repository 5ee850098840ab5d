#include "core/run/CheckJob.h"

#include "core/document/MlirFile.h"
#include "core/run/RunToolAt.h"
#include "core/service/CompileJob.h"
#include "core/service/ConfigureProgram.h"
#include "core/service/IreeCommands.h"
#include "core/util/Brackets.h"
#include "core/util/Files.h"

#include <cstdio>
#include <future>

namespace tilescope::run {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Step {
  CheckResult &result;
  const CheckRequest &request;
  void announce(const std::string &what) const {
    if (request.progress)
      request.progress(what);
  }
  // Runs `spec`, recording its command; on failure records the step and
  // why, and returns false.
  bool run(const std::string &name, process::ProcessSpec spec,
           process::ProcessResult *out = nullptr) const {
    spec.workingDirectory = result.directory;
    spec.timeout = request.timeout;
    spec.cancel = request.cancel;
    result.commands.push_back(spec.shellCommand());
    process::ProcessResult ran = runProcess(spec);
    const bool ok = ran.succeeded();
    if (!ok)
      fail(name, spec, ran);
    if (out)
      *out = std::move(ran);
    return ok;
  }
  void fail(const std::string &name, const process::ProcessSpec &spec,
            const process::ProcessResult &ran) const {
    result.failedStep = name;
    std::string why = spec.program.filename().string() + " " + ran.describe();
    std::string tail = ran.standardError;
    if (tail.size() > 1500)
      tail = "..." + tail.substr(tail.size() - 1500);
    while (!tail.empty() && tail.back() == '\n')
      tail.pop_back();
    if (!tail.empty())
      why += ":\n" + tail;
    result.error = why;
  }
};

std::vector<std::string> executableNames(const document::Document &document) {
  std::vector<std::string> names;
  for (const document::Dispatch &dispatch : document.dispatches)
    if (!dispatch.executable.empty() &&
        std::find(names.begin(), names.end(), dispatch.executable) ==
            names.end())
      names.push_back(dispatch.executable);
  return names;
}

} // namespace

bool CheckResult::passed() const {
  if (!hasVerdict())
    return false;
  for (const OutputCheck &output : outputs)
    if (!output.comparison.passed())
      return false;
  return true;
}

std::string CheckResult::summary() const {
  if (!error.empty())
    return "no verdict: the " + failedStep +
           " step failed: " + error.substr(0, error.find('\n'));
  if (compiledOnly)
    return "compiled the checked run (the program with the dispatch file's "
           "executables, and the CPU reference); not run" +
           (notRunBecause.empty() ? std::string() : ": " + notRunBecause);
  if (outputs.empty())
    return "no verdict: the function returns nothing to compare";
  char text[200];
  double worstAbsolute = 0, worstRelative = 0;
  size_t mismatches = 0, elements = 0;
  for (const OutputCheck &output : outputs) {
    worstAbsolute = std::max(worstAbsolute, output.comparison.maxAbsoluteError);
    worstRelative = std::max(worstRelative, output.comparison.maxRelativeError);
    mismatches += output.comparison.mismatches;
    elements += output.comparison.type.elementCount();
  }
  std::snprintf(text, sizeof text,
                "%s: %zu of %zu elements outside tolerance; max abs error "
                "%.3g, max rel error %.3g (on %s vs the CPU reference)",
                passed() ? "check passed" : "CHECK FAILED", mismatches,
                elements, worstAbsolute, worstRelative, device.c_str());
  return text;
}

std::string deviceTargetText(const std::string &text) {
  const size_t at = text.find("#hal.device.target<");
  if (at == std::string::npos)
    return "";
  const size_t end = closingBracket(text, text.find('<', at));
  return end == std::string::npos ? "" : text.substr(at, end - at + 1);
}

std::optional<std::string> programOnDevice(const std::string &program,
                                           const std::string &dispatchText) {
  const std::string device = deviceTargetText(dispatchText);
  if (device.empty())
    return std::nullopt;
  // The device names the executable target by its alias in a configured
  // program (#executable_target_embedded_elf_x86_64): that alias goes along.
  const std::string needed = document::aliasesUsedBy(
      document::splitTopLevelAliases(dispatchText).aliases, device,
      document::splitTopLevelAliases(program).aliases);
  auto placed = service::sourceOnDevice(program, device, needed);
  return placed ? std::optional<std::string>(std::move(*placed)) : std::nullopt;
}

namespace {

// One checked run, step by step; checkProgram calls the steps in order. A
// step that can be refused returns an Error when the request or its files
// are at fault (no result); a step returns false when the run stops there
// (the result names the failed step and why), true to go on.
class CheckRun {
public:
  CheckRun(const tools::IreeInstallation &iree, const CheckRequest &request)
      : iree(iree), request(request) {}

  Result<CheckResult> run();

private:
  Result<bool> readInputs();
  Result<bool> placeTestedProgram();
  Result<bool> compileBoth();
  bool readSignature();
  Result<bool> writeInputs();
  bool runBoth();
  bool compareOutputs();
  CheckResult finish();
  CheckResult compiledOnly();

  bool stop(const std::string &stepName, const std::string &why) {
    result.failedStep = stepName;
    result.error = why;
    return false;
  }
  process::ProcessSpec runCommand(const std::string &module,
                                  const std::string &device,
                                  const std::string &prefix) const;

  const tools::IreeInstallation &iree;
  const CheckRequest &request;
  CheckResult result;
  const Step step{result, request};
  Clock::time_point start;
  fs::path runner, dumper, directory;
  std::string programText, referenceText;
  // The tested module: the program (placed on the edited file's device)
  // and its flags, with the edited executables substituted.
  std::string testedProgram;
  std::vector<std::string> testedFlags, substituted;
  FunctionSignature signature;
  std::vector<std::string> inputFlags;
};

Result<CheckResult> CheckRun::run() {
  for (auto refusable : {&CheckRun::readInputs, &CheckRun::placeTestedProgram,
                         &CheckRun::compileBoth}) {
    Result<bool> goOn = (this->*refusable)();
    if (!goOn)
      return Error{goOn.error()};
    if (!*goOn)
      return finish();
  }
  // Compile-only: stop after the compiles, or after the inputs are ready.
  if (request.compileOnly && !request.prepareInputs)
    return compiledOnly();
  if (!readSignature())
    return finish();
  if (auto written = writeInputs(); !written)
    return Error{written.error()};
  if (request.compileOnly)
    return compiledOnly();
  if (runBoth())
    compareOutputs();
  return finish();
}

// The tools, the program and its reference, and the try folder.
Result<bool> CheckRun::readInputs() {
  auto compiler = iree.tool(tools::kIreeCompile);
  auto runnerTool = iree.tool(tools::kIreeRunModule);
  auto dumperTool = iree.tool(tools::kIreeDumpModule);
  for (const auto *tool : {&compiler, &runnerTool, &dumperTool})
    if (!*tool)
      return Error{tool->error()};
  runner = *runnerTool;
  dumper = *dumperTool;
  auto program = readTextFile(request.program);
  if (!program)
    return Error{program.error()};
  programText = std::move(*program);
  auto reference = readTextFile(request.reference.value_or(request.program));
  if (!reference)
    return Error{reference.error()};
  referenceText = std::move(*reference);
  std::error_code error;
  fs::create_directories(request.directory, error);
  if (error)
    return Error{"cannot create the try folder " + request.directory.string() +
                 ": " + error.message()};
  directory = fs::absolute(request.directory);
  result.directory = directory;
  start = Clock::now();
  return true;
}

// 1. The tested module: the program for the edited file's device, with the
// file's executables in place of IREE's; the files both compiles read, and
// the device the tested module runs on.
Result<bool> CheckRun::placeTestedProgram() {
  testedProgram = programText;
  if (request.edited) {
    const std::vector<std::string> backends =
        service::documentBackends(*request.edited);
    result.backend = backends.empty() ? "" : backends.front();
    if (service::namesItsDevices(programText)) {
      // The program names its own devices: compiled as it stands.
    } else if (auto onDevice =
                   programOnDevice(programText, request.edited->text)) {
      testedProgram = std::move(*onDevice);
    } else if (request.target) {
      testedFlags = request.target->compileFlags;
    } else if (service::hasTopLevelModule(programText)) {
      return Error{request.program.string() +
                   " has a module of its own that names no device "
                   "(hal.device.targets): add them to it, or give --target"};
    } else {
      return Error{"the dispatch file names no device target and none was "
                   "chosen: cannot compile the program for its target"};
    }
    if (auto written = writeFileAtomically(directory / "edited.mlir",
                                           request.edited->text);
        !written)
      return Error{written.error()};
    substituted = executableNames(*request.edited);
    if (substituted.empty())
      return Error{"the dispatch file holds no hal.executable to substitute"};
    for (const std::string &name : substituted)
      testedFlags.push_back("--iree-hal-substitute-executable-configuration=" +
                            name + "=" + (directory / "edited.mlir").string());
  } else {
    const service::CompileTarget target =
        request.target.value_or(*service::compileTarget("llvm-cpu"));
    result.backend = target.backend;
    // A program that names its devices is compiled for them as it stands.
    if (!service::namesItsDevices(programText))
      testedFlags = target.compileFlags;
  }
  testedFlags.insert(testedFlags.end(), request.extraFlags.begin(),
                     request.extraFlags.end());
  for (const auto &[name, text] : {std::pair<const char *, const std::string *>{
                                       "program.mlir", &testedProgram},
                                   {"reference.mlir", &referenceText}})
    if (auto written = writeFileAtomically(directory / name, *text); !written)
      return Error{written.error()};

  result.device = request.device;
  if (result.device.empty() && !request.compileOnly) {
    if (result.backend != "llvm-cpu")
      return Error{"no device given to run the " + result.backend +
                   " module on"};
    result.device = "local-task";
  }
  return true;
}

// The tested module and the CPU reference, compiled side by side; IREE must
// have substituted every edited executable.
Result<bool> CheckRun::compileBoth() {
  // Relative paths: the step runs in the try folder (Step::run).
  service::CompileRequest testedRequest;
  testedRequest.input = "program.mlir";
  testedRequest.output = "tested.vmfb";
  testedRequest.inputCarriesTarget = true; // testedFlags name it
  testedRequest.extraFlags = testedFlags;
  auto testedCompile = service::compileCommand(iree, testedRequest);
  service::CompileRequest referenceRequest;
  referenceRequest.input = "reference.mlir";
  referenceRequest.output = "reference.vmfb";
  referenceRequest.target = *service::compileTarget("llvm-cpu");
  auto referenceCompile = service::compileCommand(iree, referenceRequest);
  for (const auto *command : {&testedCompile, &referenceCompile})
    if (!*command)
      return Error{command->error()};

  step.announce("compiling the program with the edited dispatch and the "
                "CPU reference");
  CheckResult referenceSide = result;
  const Step referenceStep{referenceSide, request};
  auto reference = std::async(std::launch::async, [&] {
    return referenceStep.run("reference compile", *referenceCompile);
  });
  process::ProcessResult testedRun;
  const bool testedOk = step.run("compile", *testedCompile, &testedRun);
  const bool referenceOk = reference.get();
  result.commands.push_back(referenceSide.commands.back());
  if (!testedOk)
    return false;
  if (!referenceOk)
    return stop(referenceSide.failedStep, referenceSide.error);
  for (const std::string &name : substituted)
    if (testedRun.standardError.find("`" + name + "` substituted") ==
        std::string::npos)
      return stop("compile",
                  "IREE did not substitute @" + name +
                      ": the program has no executable of that name, so the "
                      "dispatch file does not come from this program (or "
                      "from other compile flags)");
  return true;
}

// 2. The function checked, from the reference module's ABI.
bool CheckRun::readSignature() {
  step.announce("reading the function's signature");
  process::ProcessSpec dump;
  dump.program = dumper;
  dump.arguments = {"--output=metadata", "reference.vmfb"};
  process::ProcessResult dumped;
  if (!step.run("signature", dump, &dumped))
    return false;
  auto signatures = parseAbiDeclarations(dumped.standardOutput);
  if (!signatures)
    return stop("signature", signatures.error());
  // No declaration (IREE writes none for torch-input functions, as ONNX
  // imports hold them): the program's own public functions that the module
  // exports, their types read from the source.
  if (signatures->empty()) {
    for (SourceFunction &function : parseSourceFunctions(referenceText)) {
      if (dumped.standardOutput.find("] " + function.signature.name + "(") ==
          std::string::npos)
        continue;
      if (!function.unfed.empty()) {
        if (request.function.empty() ||
            request.function == function.signature.name)
          return stop("signature",
                      "@" + function.signature.name + ": " + function.unfed);
        continue;
      }
      signatures->push_back(std::move(function.signature));
    }
  }
  const FunctionSignature *chosen = nullptr;
  for (const FunctionSignature &candidate : *signatures)
    if (request.function.empty() ? signatures->size() == 1
                                 : candidate.name == request.function)
      chosen = &candidate;
  if (!chosen) {
    std::string names;
    for (const FunctionSignature &candidate : *signatures)
      names += (names.empty() ? "" : ", ") + ("@" + candidate.name);
    return stop("signature", request.function.empty()
                                 ? "the program exports " +
                                       std::to_string(signatures->size()) +
                                       " functions (" + names + "): choose one"
                                 : "the program has no function @" +
                                       request.function + " (it has " + names +
                                       ")");
  }
  signature = *chosen;
  result.function = signature.name;
  result.resultTypes = signature.results;
  return true;
}

// The function's inputs, random from the request's seed.
Result<bool> CheckRun::writeInputs() {
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    const TensorType &type = signature.inputs[i];
    const std::string name = "input" + std::to_string(i) + ".bin";
    if (auto written = writeFileAtomically(
            directory / name,
            randomTensorBytes(type, request.seed * 1000003u + i));
        !written)
      return Error{written.error()};
    inputFlags.push_back("--input=" + type.toString() + "=@" + name);
  }
  result.inputFlags = inputFlags;
  return true;
}

process::ProcessSpec CheckRun::runCommand(const std::string &module,
                                          const std::string &device,
                                          const std::string &prefix) const {
  process::ProcessSpec spec;
  spec.program = runner;
  spec.arguments = {"--module=" + module, "--device=" + device,
                    "--function=" + signature.name};
  spec.arguments.insert(spec.arguments.end(), inputFlags.begin(),
                        inputFlags.end());
  for (size_t i = 0; i < signature.results.size(); ++i)
    spec.arguments.push_back("--output=@" + prefix + std::to_string(i) +
                             ".bin");
  return spec;
}

// 3. Both run on the same inputs: the tested module where the request
// says, the reference here.
bool CheckRun::runBoth() {
  step.announce("running the tested module on " + result.device +
                (request.place.local() ? "" : " " + request.place.where()));
  process::ProcessSpec tested =
      runCommand("tested.vmfb", result.device, "tested");
  if (request.place.local()) {
    if (!step.run("run", tested))
      return false;
  } else {
    // Elsewhere: the module and its inputs go there, its outputs come back
    // (by themselves through a cluster's shared filesystem).
    std::vector<std::string> inputs{"tested.vmfb"};
    for (size_t i = 0; i < signature.inputs.size(); ++i)
      inputs.push_back("input" + std::to_string(i) + ".bin");
    Result<process::ProcessResult> ran = runToolAt(
        request.place,
        {directory, inputs, tools::kIreeRunModule, tested.arguments, "tested",
         result.device, runner.parent_path(), request.timeout, request.cancel},
        result.commands);
    if (!ran)
      return stop("run", ran.error());
    if (!ran->succeeded()) {
      step.fail("run", tested, *ran);
      return false;
    }
  }
  step.announce("running the CPU reference");
  return step.run("reference run",
                  runCommand("reference.vmfb", "local-task", "reference"));
}

// 4. Each output against the reference's, within the element type's
// tolerance.
bool CheckRun::compareOutputs() {
  for (size_t i = 0; i < signature.results.size(); ++i) {
    const TensorType &type = signature.results[i];
    const std::string index = std::to_string(i) + ".bin";
    auto tested = readTextFile(directory / ("tested" + index));
    auto expected = readTextFile(directory / ("reference" + index));
    if (!tested || !expected)
      return stop("compare", tested ? expected.error() : tested.error());
    auto values = tensorValues(type, *tested);
    auto referenceValues = tensorValues(type, *expected);
    if (!values || !referenceValues)
      return stop("compare",
                  "output " + std::to_string(i) + ": " +
                      (values ? referenceValues.error() : values.error()));
    result.outputs.push_back(
        {static_cast<int>(i),
         compareTensors(
             type, *values, *referenceValues,
             request.tolerance.value_or(defaultTolerance(type.element)))});
  }
  return true;
}

CheckResult CheckRun::compiledOnly() {
  result.compiledOnly = true;
  result.notRunBecause = request.notRunBecause;
  return finish();
}

// The result, with the commands that reproduce the run (docs/jobs.md).
CheckResult CheckRun::finish() {
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      Clock::now() - start);
  std::string script = "#!/bin/sh\n# The checked run's commands, as they "
                       "ran (the comparison of\n# outputs is Tilescope's: "
                       "tilescope-cli verify).\nset -e\ncd " +
                       process::shellQuote(directory.string()) + "\n";
  for (const std::string &command : result.commands)
    script += command + "\n";
  if (writeFileAtomically(directory / "command.sh", script)) {
    std::error_code ignored;
    fs::permissions(directory / "command.sh", fs::perms::owner_exec,
                    fs::perm_options::add, ignored);
  }
  return result;
}

} // namespace

Result<CheckResult> checkProgram(const tools::IreeInstallation &iree,
                                 const CheckRequest &request) {
  return CheckRun(iree, request).run();
}

} // namespace tilescope::run
