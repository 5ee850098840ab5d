#include "core/tune/ProgramTiming.h"

#include "core/process/Process.h"
#include "core/run/RunToolAt.h"
#include "core/service/IreeCommands.h"
#include "core/service/UntrustedFiles.h"
#include "core/util/Files.h"

#include <algorithm>
#include <cstdio>

namespace tilescope::tune {

Result<run::TimingStats> timeCheckedModule(const tools::IreeInstallation &iree,
                                           const run::CheckResult &ran,
                                           int repetitions,
                                           std::chrono::milliseconds timeout,
                                           const std::atomic<bool> *cancel,
                                           const run::RunPlace &place) {
  if (!ran.hasVerdict())
    return Error{"the program did not run: nothing to time"};
  auto tool = iree.tool(tools::kIreeBenchmarkModule);
  if (!tool)
    return Error{tool.error()};
  process::ProcessSpec spec;
  spec.program = *tool;
  spec.workingDirectory = ran.directory;
  spec.arguments = {"--module=tested.vmfb", "--device=" + ran.device,
                    "--function=" + ran.function};
  spec.arguments.insert(spec.arguments.end(), ran.inputFlags.begin(),
                        ran.inputFlags.end());
  spec.arguments.insert(
      spec.arguments.end(),
      {"--benchmark_repetitions=" + std::to_string(std::max(1, repetitions)),
       "--benchmark_min_time=0.2s", "--benchmark_format=json"});
  spec.timeout = timeout;
  spec.cancel = cancel;
  process::ProcessResult process;
  if (place.local()) {
    process = process::runProcess(spec);
  } else {
    // Where the checked run ran: its module and inputs go there again (the
    // input files its --input=TYPE=@FILE flags name), nothing comes back
    // but what the tool prints.
    std::vector<std::string> inputs{"tested.vmfb"};
    for (const std::string &file : inputFilesOf(ran))
      inputs.push_back(file);
    std::vector<std::string> steps;
    Result<process::ProcessResult> remote = run::runToolAt(
        place,
        {ran.directory, inputs, tools::kIreeBenchmarkModule, spec.arguments, "",
         ran.device, tool->parent_path(), timeout, cancel},
        steps);
    if (!remote)
      return Error{"iree-benchmark-module " + place.where() + ": " +
                   remote.error()};
    process = std::move(*remote);
  }
  if (!process.succeeded())
    return Error{
        "iree-benchmark-module " + process.describe() + "\n  " +
        spec.shellCommand() +
        (process.standardError.empty()
             ? std::string()
             : "\n" + process.standardError.substr(
                          0, std::min<size_t>(2000,
                                              process.standardError.size())))};
  auto measurements = service::parseBenchmarkJson(process.standardOutput);
  if (!measurements)
    return Error{"iree-benchmark-module's output: " + measurements.error()};
  auto stats = run::timingStats(*measurements);
  if (!stats)
    return Error{"iree-benchmark-module printed no time for @" + ran.function};
  return *stats;
}

std::vector<std::string> inputFilesOf(const run::CheckResult &check) {
  std::vector<std::string> files;
  for (const std::string &flag : check.inputFlags)
    if (const size_t at = flag.find("=@"); at != std::string::npos)
      files.push_back(flag.substr(at + 2));
  return files;
}

Result<OutputAgreement> compareOutputs(const run::CheckResult &a,
                                       const run::CheckResult &b) {
  if (!a.hasVerdict() || !b.hasVerdict())
    return Error{"both programs must have run to compare their outputs"};
  if (a.outputs.size() != b.outputs.size())
    return Error{"the programs give " + std::to_string(a.outputs.size()) +
                 " and " + std::to_string(b.outputs.size()) + " outputs"};
  std::vector<run::TensorType> types;
  std::vector<run::Tolerance> tolerances;
  std::vector<std::filesystem::path> left, right;
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    types.push_back(a.outputs[i].comparison.type);
    tolerances.push_back(a.outputs[i].comparison.tolerance);
    const std::string file = "tested" + std::to_string(i) + ".bin";
    left.push_back(a.directory / file);
    right.push_back(b.directory / file);
  }
  return compareOutputFiles(types, tolerances, left, right);
}

Result<OutputAgreement>
compareOutputFiles(const std::vector<run::TensorType> &types,
                   const std::vector<run::Tolerance> &tolerances,
                   const std::vector<std::filesystem::path> &a,
                   const std::vector<std::filesystem::path> &b,
                   const std::filesystem::path &within) {
  if (types.empty() || tolerances.size() != types.size() ||
      a.size() != types.size() || b.size() != types.size())
    return Error{"no outputs to compare"};
  OutputAgreement agreement;
  agreement.agree = true;
  size_t mismatches = 0;
  double worstAbsolute = 0, worstRelative = 0;
  for (size_t i = 0; i < types.size(); ++i) {
    const run::TensorType &type = types[i];
    const std::uintmax_t bytes = type.elementCount() * type.elementBytes();
    auto left = service::readUntrustedFile(
        a[i], bytes, within.empty() ? a[i].parent_path() : within);
    auto right = service::readUntrustedFile(
        b[i], bytes, within.empty() ? b[i].parent_path() : within);
    if (!left || !right)
      return Error{left ? right.error() : left.error()};
    auto leftValues = run::tensorValues(type, *left);
    auto rightValues = run::tensorValues(type, *right);
    if (!leftValues || !rightValues)
      return Error{"output " + std::to_string(i) + ": " +
                   (leftValues ? rightValues.error() : leftValues.error())};
    const run::TensorComparison comparison =
        run::compareTensors(type, *rightValues, *leftValues, tolerances[i]);
    agreement.agree = agreement.agree && comparison.passed();
    mismatches += comparison.mismatches;
    worstAbsolute = std::max(worstAbsolute, comparison.maxAbsoluteError);
    worstRelative = std::max(worstRelative, comparison.maxRelativeError);
  }
  char text[200];
  std::snprintf(text, sizeof text,
                "%zu output%s %s (%zu elements outside tolerance; max abs "
                "error %.3g, max rel error %.3g)",
                types.size(), types.size() == 1 ? "" : "s",
                types.size() == 1 ? (agreement.agree ? "agrees" : "DIFFERS")
                                  : (agreement.agree ? "agree" : "DIFFER"),
                mismatches, worstAbsolute, worstRelative);
  agreement.text = text;
  return agreement;
}

} // namespace tilescope::tune
