// Opens what people hold, a model's MLIR, as configured executables: the
// pinned iree-compile runs up to executable configurations for a target
// (in a child process, with a time limit and cancel), and every root op of
// the result is linked back to the source op it came from, by IREE's own
// locations.
#pragma once

#include "core/document/Document.h"
#include "core/service/DocumentWorker.h"
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

namespace tilescope::service {

struct ConfigureRequest {
  std::filesystem::path source;
  // Unset: the source names its own devices (module attributes
  // {hal.device.targets = [...]}), which also win over a target given.
  std::optional<CompileTarget> target;
  // The configured MLIR, printed without locations (what is opened and
  // edited); each root op keeps the source op it came from. Nothing else
  // is written beside it.
  std::filesystem::path output;
  std::vector<std::string> extraFlags;
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  const std::atomic<bool> *cancel = nullptr;
  // Told each step as it starts ("configuring with iree-compile", ...).
  std::function<void(const std::string &step)> progress;
};

struct ConfiguredProgram {
  document::Document document;       // of `output`, its text included
  std::vector<std::string> commands; // each step, as a shell command
  // How the device was named: "the source's hal.device.targets", "--target
  // gfx942", or "Tilescope's sm_90 target (IREE 3.13 names none)".
  std::string deviceFrom;
};

// Whether an MLIR text's first statement is a `module` (comments skipped).
bool hasTopLevelModule(const std::string &text);

// `source` naming `device` (a #hal.device.target) as its
// hal.device.targets, line for line (IREE's locations stay the source's
// lines), with `aliases` (definitions the device uses, each on its own line)
// beside the source's own: a source with no module of its own is wrapped in
// one opening on its first line; a module of its own (`module {`, `module
// @name attributes {...} {`, as iree-import-onnx writes) gets the device
// among its attributes. An Error for a module header it cannot read.
Result<std::string> sourceOnDevice(const std::string &source,
                                   const std::string &device,
                                   const std::string &aliases = {});

// Whether an MLIR text names its devices (hal.device.targets).
bool namesItsDevices(const std::string &text);

// The #hal.device.target Tilescope carries for a chip the IREE in use may
// not name by flag (sm_90: examples/targets/cuda_sm_90.device.mlir), or
// nullopt.
std::optional<std::string> builtinDeviceTarget(const std::string &chip);

// The two commands a configure runs: iree-compile to `located` (the IR
// with IREE's locations), iree-opt printing it without them to `output`.
Result<process::ProcessSpec>
configureCommand(const tools::IreeInstallation &iree,
                 const ConfigureRequest &request,
                 const std::filesystem::path &located);
Result<process::ProcessSpec>
stripLocationsCommand(const tools::IreeInstallation &iree,
                      const ConfigureRequest &request,
                      const std::filesystem::path &located);

// The name a source's configuration is written under when none is given
// (the CLI, Python, the window): "STEM.TARGET.configured.mlir", TARGET the
// target's name ("rocm-gfx942") or "own-device" for a source that names
// its devices.
std::string configuredFileName(const std::filesystem::path &source,
                               const std::optional<CompileTarget> &target);

Result<ConfiguredProgram> configureProgram(const tools::IreeInstallation &iree,
                                           DocumentWorker &worker,
                                           const ConfigureRequest &request);

} // namespace tilescope::service
