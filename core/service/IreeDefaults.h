// IREE's own choice of configs for a document's dispatches: the document as
// it stands, its configs removed (iree-codegen-strip-compilation-info) and
// chosen again by IREE's strategy selection for the variants' backend
// (iree-llvmgpu-select-lowering-strategy, or the CPU one), run by the pinned
// iree-opt in a child process. Paired with the document's own root ops, it
// says "what IREE would do" beside the user's edit.
#pragma once

#include "core/document/Document.h"
#include "core/document/SplitInput.h"
#include "core/process/Process.h"
#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>

namespace tilescope::service {

// The HAL backend of the document's executable variants ("rocm", "cuda",
// "llvm-cpu", ...), or why there is no single one.
Result<std::string> variantBackend(const document::Document &document);

struct DefaultConfigRequest {
  std::filesystem::path input;  // the document's text, on disk
  std::filesystem::path output; // IREE's configs written here
  std::string backend;          // from variantBackend
  bool splitInputFile = false;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  const std::atomic<bool> *cancel = nullptr;
};
Result<process::ProcessSpec>
defaultConfigCommand(const tools::IreeInstallation &iree,
                     const DefaultConfigRequest &request);

struct DefaultConfigs {
  document::Document document; // IREE's configs, dispatches in the same order
  std::string command;     // the shell command that reproduces it
};
Result<DefaultConfigs>
ireeDefaultConfigs(const tools::IreeInstallation &iree, DocumentWorker &worker,
                   const document::Document &document,
                   std::chrono::milliseconds timeout = std::chrono::minutes(5),
                   const std::atomic<bool> *cancel = nullptr);

} // namespace tilescope::service
