#include "core/service/IreeDefaults.h"

#include "core/util/Files.h"

#include <set>

namespace tilescope::service {
namespace {

// The strategy selection pass IREE runs for a backend's variants.
Result<std::string> selectionPass(const std::string &backend) {
  if (backend == "rocm" || backend == "cuda")
    return std::string("iree-llvmgpu-select-lowering-strategy");
  if (backend == "llvm-cpu")
    return std::string("iree-llvmcpu-select-lowering-strategy");
  if (backend == "vmvx")
    return std::string("iree-vmvx-select-lowering-strategy");
  if (backend == "vulkan-spirv" || backend == "vulkan")
    return std::string("iree-spirv-select-lowering-strategy-pass");
  return Error{"IREE has no strategy selection Tilescope knows for the \"" +
               backend + "\" backend"};
}

} // namespace

Result<std::string> variantBackend(const document::Document &document) {
  std::set<std::string> backends;
  for (const document::Dispatch &dispatch : document.dispatches) {
    // #hal.executable.target<"rocm", "rocm-hsaco-fb", {...}>
    const size_t open = dispatch.target.find('"');
    const size_t close = open == std::string::npos
                             ? std::string::npos
                             : dispatch.target.find('"', open + 1);
    if (close != std::string::npos)
      backends.insert(dispatch.target.substr(open + 1, close - open - 1));
  }
  if (backends.empty())
    return Error{"IREE chooses configs per executable variant and this file "
                 "has none (bare functions, as in a lit test): configure the "
                 "source program for a target instead"};
  if (backends.size() > 1) {
    std::string names;
    for (const std::string &name : backends)
      names += (names.empty() ? "" : ", ") + name;
    return Error{"the file holds variants for several backends (" + names +
                 "); IREE's defaults are asked for one backend at a time"};
  }
  return *backends.begin();
}

Result<process::ProcessSpec>
defaultConfigCommand(const tools::IreeInstallation &iree,
                     const DefaultConfigRequest &request) {
  auto tool = iree.tool(tools::kIreeOpt);
  if (!tool)
    return Error{tool.error()};
  auto pass = selectionPass(request.backend);
  if (!pass)
    return Error{pass.error()};
  process::ProcessSpec spec;
  spec.program = *tool;
  spec.arguments = {"--pass-pipeline=builtin.module(hal.executable(hal."
                    "executable.variant(builtin.module(iree-codegen-strip-"
                    "compilation-info," +
                        *pass + "))))",
                    request.input.string(), "-o", request.output.string()};
  if (request.splitInputFile)
    spec.arguments.insert(spec.arguments.begin(), "--split-input-file");
  spec.timeout = request.timeout;
  spec.cancel = request.cancel;
  return spec;
}

Result<DefaultConfigs> ireeDefaultConfigs(const tools::IreeInstallation &iree,
                                          DocumentWorker &worker,
                                          const document::Document &document,
                                          std::chrono::milliseconds timeout,
                                          const std::atomic<bool> *cancel) {
  auto backend = variantBackend(document);
  if (!backend)
    return Error{backend.error()};
  auto folder = TemporaryDirectory::create("tilescope-defaults");
  if (!folder)
    return Error{folder.error()};
  DefaultConfigRequest request;
  request.input = folder->file("document.mlir");
  request.output = folder->file("defaults.mlir");
  request.backend = *backend;
  request.splitInputFile = document.partCount > 1;
  request.timeout = timeout;
  request.cancel = cancel;
  if (auto written = writeFileAtomically(request.input, document.text);
      !written)
    return Error{written.error()};
  auto spec = defaultConfigCommand(iree, request);
  if (!spec)
    return Error{spec.error()};
  const process::ProcessResult result = runProcess(*spec);
  if (!result.succeeded()) {
    folder->keep();
    return Error{"iree-opt " + result.describe() + " choosing IREE's configs" +
                 "\n  command: " + spec->shellCommand() + "\n" +
                 result.standardError.substr(0, 4000)};
  }
  iree::ParseOptions options;
  options.splitInputFile = request.splitInputFile;
  auto defaults = worker.parseFile(request.output, options);
  if (!defaults)
    return Error{"IREE's own output does not read back: " + defaults.error()};
  return DefaultConfigs{std::move(*defaults), spec->shellCommand()};
}

} // namespace tilescope::service
