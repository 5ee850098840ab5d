#include "core/tune/ProgramTiming.h"

#include "core/process/Process.h"
#include "core/service/IreeCommands.h"
#include "core/util/Files.h"

#include <algorithm>
#include <cstdio>

namespace tilescope::tune {

Result<jobs::TimingStats> timeCheckedModule(const tools::IreeInstallation &iree,
                                            const jobs::CheckResult &ran,
                                            int repetitions,
                                            std::chrono::milliseconds timeout,
                                            const std::atomic<bool> *cancel) {
  if (!ran.hasVerdict())
    return Error{"the program did not run: nothing to time"};
  auto tool = iree.tool(tools::kIreeBenchmarkModule);
  if (!tool)
    return Error{tool.error()};
  jobs::ProcessSpec spec;
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
  const jobs::ProcessResult process = jobs::runProcess(spec);
  if (!process.succeeded())
    return Error{
        "iree-benchmark-module " + process.describe() + "\n  " +
        spec.shellCommand() +
        (process.standardError.empty()
             ? std::string()
             : "\n" + process.standardError.substr(
                          0, std::min<size_t>(2000,
                                              process.standardError.size())))};
  auto measurements = jobs::parseBenchmarkJson(process.standardOutput);
  if (!measurements)
    return Error{"iree-benchmark-module's output: " + measurements.error()};
  auto stats = jobs::timingStats(*measurements);
  if (!stats)
    return Error{"iree-benchmark-module printed no time for @" + ran.function};
  return *stats;
}

Result<OutputAgreement> compareOutputs(const jobs::CheckResult &a,
                                       const jobs::CheckResult &b) {
  if (!a.hasVerdict() || !b.hasVerdict())
    return Error{"both programs must have run to compare their outputs"};
  if (a.outputs.size() != b.outputs.size())
    return Error{"the programs give " + std::to_string(a.outputs.size()) +
                 " and " + std::to_string(b.outputs.size()) + " outputs"};
  OutputAgreement agreement;
  agreement.agree = true;
  size_t mismatches = 0;
  double worstAbsolute = 0, worstRelative = 0;
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    const jobs::TensorType &type = a.outputs[i].comparison.type;
    const std::string file = "tested" + std::to_string(i) + ".bin";
    auto left = readTextFile(a.directory / file);
    auto right = readTextFile(b.directory / file);
    if (!left || !right)
      return Error{left ? right.error() : left.error()};
    auto leftValues = jobs::tensorValues(type, *left);
    auto rightValues = jobs::tensorValues(type, *right);
    if (!leftValues || !rightValues)
      return Error{"output " + std::to_string(i) + ": " +
                   (leftValues ? rightValues.error() : leftValues.error())};
    const jobs::TensorComparison comparison = jobs::compareTensors(
        type, *rightValues, *leftValues, a.outputs[i].comparison.tolerance);
    agreement.agree = agreement.agree && comparison.passed();
    mismatches += comparison.mismatches;
    worstAbsolute = std::max(worstAbsolute, comparison.maxAbsoluteError);
    worstRelative = std::max(worstRelative, comparison.maxRelativeError);
  }
  char text[200];
  std::snprintf(text, sizeof text,
                "%zu output%s %s (%zu elements outside tolerance; max abs "
                "error %.3g, max rel error %.3g)",
                a.outputs.size(), a.outputs.size() == 1 ? "" : "s",
                a.outputs.size() == 1 ? (agreement.agree ? "agrees" : "DIFFERS")
                                      : (agreement.agree ? "agree" : "DIFFER"),
                mismatches, worstAbsolute, worstRelative);
  agreement.text = text;
  return agreement;
}

} // namespace tilescope::tune
