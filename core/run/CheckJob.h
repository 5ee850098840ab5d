// A checked run: is the edited kernel still right?
//
// A dispatch benchmark file cannot say: its buffers are uninitialised and
// its results go nowhere. So the check is built from the program the
// dispatch came from:
//   1. the program is compiled for the dispatch file's own device, with the
//      file's executables (edits and all) substituted for the ones IREE
//      would make (--iree-hal-substitute-executable-configuration), and IREE
//      must say it substituted each of them;
//   2. the reference program (the same program unless another is given) is
//      compiled for the host CPU with IREE's own default configs;
//   3. both run on the same deterministic random inputs (iree-run-module,
//      raw little-endian tensors) and every output is compared element by
//      element, with a tolerance per element type.
// With no edited file, step 1 checks IREE's own configs for the target.
#pragma once

#include "core/document/Document.h"
#include "core/process/Process.h"
#include "core/run/RemoteRun.h"
#include "core/run/TensorData.h"
#include "core/service/IreeCommands.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::run {

struct CheckRequest {
  std::filesystem::path program; // an MLIR program: functions on tensors
  std::string function;          // empty: the module's one function
  // A dispatch file (e.g. an edited benchmark) whose executables replace
  // the program's; null: IREE's own configs are checked.
  const document::Document *edited = nullptr;
  // The tested module's target when there is no edited file (default:
  // llvm-cpu on the host).
  std::optional<service::CompileTarget> target;
  std::optional<std::filesystem::path> reference; // default: `program`
  // More iree-compile flags for the tested module only (a tuning spec:
  // --iree-codegen-tuning-spec-path=SPEC).
  std::vector<std::string> extraFlags;
  std::string device; // where the tested module runs; empty: local-task
                      // for CPU modules, else it is an error
  // Where: here, a GPU host over ssh or a node of a Slurm partition (the
  // tested module and its inputs go there, its outputs come back; the CPU
  // reference and the comparison stay here). `device` is then the
  // backend's driver, the place's first device of it.
  RunPlace place;
  // Stop after both compiles (and the substitution check): for a target
  // this machine cannot run, with `notRunBecause` saying why.
  bool compileOnly = false;
  std::string notRunBecause;
  // With compileOnly: still read the function's signature and write its
  // inputs, so the run can happen elsewhere (a tune's run bundle carries
  // the tested module with them).
  bool prepareInputs = false;
  std::filesystem::path directory; // the try folder, created
  uint64_t seed = 1;
  std::optional<Tolerance> tolerance; // default: per element type
  std::chrono::milliseconds timeout{std::chrono::minutes(5)}; // per step
  const std::atomic<bool> *cancel = nullptr;
  std::function<void(const std::string &step)> progress;
};

struct OutputCheck {
  int index = 0;
  TensorComparison comparison;
};

struct CheckResult {
  std::filesystem::path directory;
  std::vector<std::string> commands; // every step, as shell commands
  std::string backend;               // of the tested module
  std::string device;
  std::string function;
  // The run's --input=TYPE=@inputN.bin flags (files in `directory`): what
  // times the tested module on the same inputs.
  std::vector<std::string> inputFlags;
  // The function's results, in order (read with its signature).
  std::vector<TensorType> resultTypes;
  // Set when there is no verdict: the step that failed and why.
  std::string failedStep; // "compile", "reference compile", "run", ...
  std::string error;
  std::vector<OutputCheck> outputs;
  std::chrono::milliseconds elapsed{0};
  bool compiledOnly = false; // both compiles done, nothing run
  std::string notRunBecause;

  bool hasVerdict() const { return error.empty() && !outputs.empty(); }
  bool passed() const;
  std::string summary() const;
};

// The #hal.device.target<...> a dispatch file names (its device global),
// or empty.
std::string deviceTargetText(const std::string &text);

// `program` on the device a dispatch file names: that #hal.device.target as
// the module's hal.device.targets, so it compiles for exactly that device
// with no target flags (and for sm_90, which IREE 3.13 cannot name by flag).
// A module of the program's own gets the device among its attributes. Unset
// when the file names no device or the module's header cannot be read.
std::optional<std::string> programOnDevice(const std::string &program,
                                           const std::string &dispatchText);

// Fails (an Error) only when the check cannot start (no program, a try
// folder that cannot be made). Compiler and runtime failures are in the
// result, with the step and the command.
Result<CheckResult> checkProgram(const tools::IreeInstallation &iree,
                                 const CheckRequest &request);

} // namespace tilescope::run
