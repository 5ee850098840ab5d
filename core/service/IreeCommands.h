// The command lines Tilescope runs the IREE tools with, and what it reads
// back from them. Each is a ProcessSpec, so it can be shown as the exact shell
// command that reproduces it.
#pragma once

#include "core/process/Process.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::service {

// A compile target: the flags iree-compile takes and the runtime device that
// runs its output.
struct CompileTarget {
  std::string name;          // "rocm-gfx942", "cuda-sm_90", "llvm-cpu"
  std::string backend;       // HAL target backend: "rocm", "cuda", "llvm-cpu"
  std::string chip;          // "gfx942", "sm_90", "host"
  std::string runtimeDriver; // "hip", "cuda", "local-task"
  std::vector<std::string> compileFlags;
};

// Whether an MLIR text is a whole program whose host code is already at the
// stream level (as `configure` writes it) around its executables.
bool hasStreamHost(const std::string &text);

// The phase an MLIR text is in, where iree-compile must be told it
// (--compile-from=PHASE): a program whose host code is already at the
// stream level is "executable-configurations" when its executables carry
// configs, else "executable-sources"; a dispatch benchmark whose
// executables carry configs is "executable-configurations"; nullopt for
// what iree-compile takes from its input phase (sources, a benchmark of
// unconfigured executables).
std::optional<std::string> compilePhaseOf(const std::string &text);

// Accepts "gfx942", "rocm:gfx942", "sm_90", "cuda:sm_90", "llvm-cpu", "cpu",
// "llvm-cpu:generic".
Result<CompileTarget> compileTarget(const std::string &spec);

struct CompileRequest {
  std::filesystem::path input;
  std::filesystem::path output; // .vmfb
  CompileTarget target;
  // A dispatch benchmark file already names its device and target; its
  // compile needs no target flags.
  bool inputCarriesTarget = false;
  std::vector<std::string> extraFlags;
};

// An iree-compile that has used no CPU for a minute is stopped as hung and
// run once more (ProcessSpec::stallTimeout, stallRetries): IREE 3.13 can
// deadlock while it loads a tuning spec (8 of some 1,740 compiles of a
// two-matmul program with a spec, here; docs/iree-3.13.md), and a working
// compile never idles that long.
inline void stopHungCompiles(process::ProcessSpec &spec) {
  spec.stallTimeout = std::chrono::minutes(1);
  spec.stallRetries = 1;
}

// iree-compile on `request` (stopHungCompiles).
Result<process::ProcessSpec> compileCommand(const tools::IreeInstallation &iree,
                                            const CompileRequest &request);

struct BenchmarkRequest {
  std::filesystem::path module; // .vmfb
  std::string device;           // "local-task", "hip://0", "cuda"
  int repetitions = 1;
  std::string function; // empty: every dispatch benchmark in the module
};
Result<process::ProcessSpec>
benchmarkCommand(const tools::IreeInstallation &iree,
                 const BenchmarkRequest &request);

// One line of iree-benchmark-module's --benchmark_format=json output.
struct BenchmarkMeasurement {
  std::string name;
  std::string runType; // "iteration" or "aggregate"
  std::string aggregateName;
  long long iterations = 0;
  double realTime = 0;
  double cpuTime = 0;
  std::string timeUnit; // "ns", "us", "ms", "s"
  double realTimeMicroseconds() const;
};
Result<std::vector<BenchmarkMeasurement>>
parseBenchmarkJson(const std::string &json);

} // namespace tilescope::service

namespace tilescope::service {

struct RuntimeDriver {
  std::string name;        // "local-task", "hip", "cuda", ...
  std::string description; // as the runtime describes it
};
// The HAL drivers the runtime tools were built with (iree-run-module
// --list_drivers).
Result<std::vector<RuntimeDriver>>
listRuntimeDrivers(const tools::IreeInstallation &iree);
std::vector<RuntimeDriver> parseDriverList(const std::string &output);

} // namespace tilescope::service
