// Runs IREE's GPU lowering pipeline on dispatch functions in a child process
// (iree-opt) and brings back the IR it printed after chosen passes, one dump
// per function and pass, with IREE's diagnostics tied to the function they
// concern. What IREE decided (its layouts, its thread mapping) is then read
// from the dumps by core/iree/LoweredIr.
#pragma once

#include "core/process/Process.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace tilescope::service {

enum class GpuBackend { Rocdl, Nvvm };

// The pass IREE's VectorDistribute pipeline sets layouts in, and the one
// that tiles to subgroups and threads under TileAndFuse.
inline constexpr const char *kConfigureTensorLayoutsPass =
    "iree-llvmgpu-configure-tensor-layouts";
inline constexpr const char *kApplyTilingLevelPass =
    "iree-codegen-gpu-apply-tiling-level";

struct LoweringProbeRequest {
  // func.func dispatch functions (ProbeModule, or IREE's lit-test form),
  // separated by `// -----` lines.
  std::string moduleText;
  GpuBackend backend = GpuBackend::Rocdl;
  // --iree-gpu-test-target (e.g. "gfx942"), completing a bare
  // #hal.executable.target<"rocm", "rocm-hsaco-fb">. Empty: every function
  // carries a full target.
  std::string testTarget;
  std::vector<std::string> printAfter; // pass arguments
  // Run the pipeline down to the LLVM dialect (what a compile would do),
  // not only to its vector-level passes.
  bool includeLlvmLowering = false;
  // The functions are wrapped in hal.executable / variant (ProbeModule's
  // executable form): the pipeline runs nested inside each variant.
  bool executableForm = false;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  const std::atomic<bool> *cancel = nullptr;
};

struct IrDump {
  std::string pass;     // "iree-codegen-gpu-apply-tiling-level"
  std::string options;  // "allow-zero-slices=true ... tiling-level=thread"
  std::string function; // the function's symbol
  std::string text;     // the function, as IREE printed it
  // The value of `key=` in the options ("thread" for "tiling-level").
  std::string option(const std::string &key) const;
};

struct ProbeDiagnostic {
  int line = 0; // in the module text, 1-based
  int column = 0;
  std::string severity; // "error", "warning", "note", "remark"
  std::string message;
};

struct LoweringProbeResult {
  std::vector<IrDump> dumps; // in the order IREE printed them
  // IREE's diagnostics, by the function whose part of the file they point at.
  std::map<std::string, std::vector<ProbeDiagnostic>> diagnostics;
  std::vector<std::string> functions; // every function, in file order
  process::ProcessResult process;
  std::string command; // the shell command that reproduces the run

  const IrDump *dump(const std::string &function, const std::string &pass,
                     const std::string &optionKey = "",
                     const std::string &optionValue = "") const;
  bool failed(const std::string &function) const;
  // The function IREE was working on when the process died, when it did.
  std::string crashedIn() const;
};

Result<LoweringProbeResult>
runLoweringProbe(const tools::IreeInstallation &iree,
                 const LoweringProbeRequest &request);

// Splits IREE's textual output (stderr of --mlir-print-ir-after) into dumps
// and diagnostics; `partFunctions` maps each part of the input (by its first
// line) to its function, for the diagnostics.
void parseLoweringOutput(
    const std::string &output, const std::string &inputPath,
    LoweringProbeResult &result,
    const std::vector<std::pair<int, std::string>> &partFunctions);

} // namespace tilescope::service
