#include "core/service/IreeCommands.h"
#include "core/config/configs/GpuTarget.h"
#include "core/service/UntrustedFiles.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace tilescope::service {
namespace {

CompileTarget rocmTarget(const std::string &chip) {
  return CompileTarget{
      "rocm-" + chip,
      "rocm",
      chip,
      "hip",
      {"--iree-hal-target-device=hip", "--iree-rocm-target=" + chip}};
}

CompileTarget cudaTarget(const std::string &chip) {
  return CompileTarget{
      "cuda-" + chip,
      "cuda",
      chip,
      "cuda",
      {"--iree-hal-target-device=cuda", "--iree-cuda-target=" + chip}};
}

CompileTarget cpuTarget(const std::string &cpu) {
  return CompileTarget{"llvm-cpu",
                       "llvm-cpu",
                       cpu,
                       "local-task",
                       {"--iree-hal-target-device=local",
                        "--iree-hal-local-target-device-backends=llvm-cpu",
                        "--iree-llvmcpu-target-cpu=" + cpu}};
}

bool startsWith(const std::string &text, const std::string &prefix) {
  return text.rfind(prefix, 0) == 0;
}

} // namespace

Result<CompileTarget> compileTarget(const std::string &spec) {
  std::string backend, chip = spec;
  if (const size_t colon = spec.find(':'); colon != std::string::npos) {
    backend = spec.substr(0, colon);
    chip = spec.substr(colon + 1);
  }
  if (backend.empty()) {
    if (startsWith(chip, "gfx"))
      backend = "rocm";
    else if (startsWith(chip, "sm_"))
      backend = "cuda";
    else if (chip == "llvm-cpu" || chip == "cpu") {
      backend = "llvm-cpu";
      chip = "host";
    } else if (auto product = config::builtinTarget(chip)) {
      // A product name check and targets take (h100, mi300x): its chip.
      chip = product->arch;
      backend = startsWith(chip, "gfx") ? "rocm" : "cuda";
    }
  }
  if ((backend == "rocm" || backend == "hip") && startsWith(chip, "gfx"))
    return rocmTarget(chip);
  if (backend == "cuda" && startsWith(chip, "sm_"))
    return cudaTarget(chip);
  if (backend == "llvm-cpu" || backend == "cpu")
    return cpuTarget(chip.empty() || chip == backend ? "host" : chip);
  return Error{"unknown compile target '" + spec +
               "': use a ROCm chip (gfx942, rocm:gfx950), a CUDA chip (sm_90, "
               "cuda:sm_80) or llvm-cpu[:cpu-name]"};
}

bool hasStreamHost(const std::string &text) {
  return (text.find("stream.cmd.dispatch") != std::string::npos ||
          text.find("stream.async.dispatch") != std::string::npos) &&
         text.find("hal.executable.variant") != std::string::npos;
}

std::optional<std::string> compilePhaseOf(const std::string &text) {
  const bool configured = text.find("translation_info") != std::string::npos ||
                          text.find("lowering_config") != std::string::npos;
  if (hasStreamHost(text))
    return configured ? "executable-configurations" : "executable-sources";
  // A dispatch benchmark (IREE's iree-hal-dump-executable-benchmarks) of
  // configured executables: compiled from the input phase, IREE 3.13
  // lowers some (a 1x1000x256 f32 matvec) to a kernel that distributes
  // nothing, each thread loading the whole weight (a million lines of
  // ROCDL, minutes of compile); from its configurations it builds the
  // kernel the whole program gets (for the gfx942 matmul and reduction
  // examples, the same hsaco byte for byte as from the input phase).
  if (configured && text.find("hal.executable.variant") != std::string::npos &&
      text.find("iree.benchmark = \"dispatch\"") != std::string::npos)
    return "executable-configurations";
  return std::nullopt;
}

Result<process::ProcessSpec> compileCommand(const tools::IreeInstallation &iree,
                                            const CompileRequest &request) {
  Result<std::filesystem::path> tool = iree.tool(tools::kIreeCompile);
  if (!tool)
    return Error{tool.error()};
  process::ProcessSpec spec;
  spec.program = *tool;
  stopHungCompiles(spec);
  spec.arguments.push_back(request.input.string());
  if (!request.inputCarriesTarget)
    spec.arguments.insert(spec.arguments.end(),
                          request.target.compileFlags.begin(),
                          request.target.compileFlags.end());
  spec.arguments.insert(spec.arguments.end(), request.extraFlags.begin(),
                        request.extraFlags.end());
  spec.arguments.push_back("-o");
  spec.arguments.push_back(request.output.string());
  return spec;
}

Result<process::ProcessSpec>
benchmarkCommand(const tools::IreeInstallation &iree,
                 const BenchmarkRequest &request) {
  Result<std::filesystem::path> tool = iree.tool(tools::kIreeBenchmarkModule);
  if (!tool)
    return Error{tool.error()};
  if (request.repetitions < 1)
    return Error{"benchmark repetitions must be at least 1, not " +
                 std::to_string(request.repetitions)};
  process::ProcessSpec spec;
  spec.program = *tool;
  spec.arguments = {"--module=" + request.module.string(),
                    "--device=" + request.device, "--benchmark_format=json"};
  if (request.repetitions > 1)
    spec.arguments.push_back("--benchmark_repetitions=" +
                             std::to_string(request.repetitions));
  if (!request.function.empty()) {
    // A named function is benchmarked as a plain call: pass its batch size.
    spec.arguments.push_back("--function=" + request.function);
    spec.arguments.push_back("--input=1");
  }
  return spec;
}

double BenchmarkMeasurement::realTimeMicroseconds() const {
  if (timeUnit == "ns")
    return realTime / 1000.0;
  if (timeUnit == "ms")
    return realTime * 1000.0;
  if (timeUnit == "s")
    return realTime * 1e6;
  return realTime;
}

Result<std::vector<BenchmarkMeasurement>>
parseBenchmarkJson(const std::string &text) {
  // iree-benchmark-module may print log lines before the JSON document.
  const size_t begin = text.find('{');
  if (begin == std::string::npos)
    return Error{"iree-benchmark-module printed no JSON (expected "
                 "--benchmark_format=json output)"};
  auto parsed = parseUntrustedJson(text.substr(begin),
                                   "iree-benchmark-module's JSON output");
  if (!parsed)
    return Error{parsed.error()};
  nlohmann::json document = std::move(*parsed);
  if (!document.is_object())
    return Error{"iree-benchmark-module's JSON output is not an object"};
  if (!document.contains("benchmarks") || !document["benchmarks"].is_array())
    return Error{"iree-benchmark-module's JSON output has no \"benchmarks\" "
                 "array"};
  std::vector<BenchmarkMeasurement> measurements;
  size_t index = 0;
  for (const nlohmann::json &entry : document["benchmarks"]) {
    const std::string where = "benchmarks[" + std::to_string(index++) + "]";
    if (!entry.is_object())
      continue;
    // Typed as google benchmark writes them; a field of another type (a
    // results file from elsewhere) reads as missing, never as a throw.
    BenchmarkMeasurement m;
    m.name = stringField(entry, "name");
    m.runType = stringField(entry, "run_type", "iteration");
    m.aggregateName = stringField(entry, "aggregate_name");
    m.iterations = integerField(entry, "iterations", 0, 1ll << 62).value_or(0);
    m.realTime = numberField(entry, "real_time").value_or(0.0);
    m.cpuTime = numberField(entry, "cpu_time").value_or(0.0);
    m.timeUnit = stringField(entry, "time_unit", "ns");
    // Times from elsewhere are held to physics: a unit google benchmark
    // writes, no time below zero, and no repetition's time below a
    // nanosecond (nothing dispatches faster). Aggregates are spared the
    // floor: a stddev of 0.3 ns or a cv of 0.05 % is a small spread, not a
    // time.
    if (m.timeUnit != "ns" && m.timeUnit != "us" && m.timeUnit != "ms" &&
        m.timeUnit != "s")
      return Error{where + ".time_unit \"" + m.timeUnit.substr(0, 16) +
                   "\" is none of ns, us, ms, s"};
    const double microseconds = m.realTimeMicroseconds();
    char value[32];
    std::snprintf(value, sizeof value, "%g", m.realTime);
    if (microseconds < 0 ||
        (m.runType == "iteration" && microseconds > 0 && microseconds < 1e-3))
      return Error{where + ".real_time " + value + " " + m.timeUnit + " is " +
                   (microseconds < 0 ? std::string("negative")
                                     : std::string("under a nanosecond")) +
                   ": no dispatch runs so"};
    measurements.push_back(std::move(m));
  }
  if (measurements.empty())
    return Error{"iree-benchmark-module ran no benchmark (the module has no "
                 "dispatch benchmark functions?)"};
  return measurements;
}

} // namespace tilescope::service

namespace tilescope::service {

std::vector<RuntimeDriver> parseDriverList(const std::string &output) {
  std::vector<RuntimeDriver> drivers;
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos)
      end = output.size();
    const std::string line = output.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line[0] == '#')
      continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    const size_t nameBegin = line.find_first_not_of(' ');
    if (nameBegin >= colon)
      continue;
    RuntimeDriver driver;
    driver.name = line.substr(nameBegin, colon - nameBegin);
    const size_t descriptionBegin = line.find_first_not_of(' ', colon + 1);
    if (descriptionBegin != std::string::npos)
      driver.description = line.substr(descriptionBegin);
    drivers.push_back(std::move(driver));
  }
  return drivers;
}

Result<std::vector<RuntimeDriver>>
listRuntimeDrivers(const tools::IreeInstallation &iree) {
  Result<std::filesystem::path> tool = iree.tool(tools::kIreeRunModule);
  if (!tool)
    return Error{tool.error()};
  process::ProcessSpec spec;
  spec.program = *tool;
  spec.arguments = {"--list_drivers"};
  spec.timeout = std::chrono::seconds(30);
  process::ProcessResult result = runProcess(spec);
  if (!result.succeeded())
    return Error{spec.shellCommand() + " " + result.describe() + ": " +
                 result.standardError};
  return parseDriverList(result.standardOutput);
}

} // namespace tilescope::service
