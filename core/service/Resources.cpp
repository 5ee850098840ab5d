#include "core/service/Resources.h"

#include "core/util/Files.h"

#include <cstdlib>
#include <sstream>

#ifndef TILESCOPE_PTXAS
#define TILESCOPE_PTXAS ""
#endif

namespace tilescope::service {
namespace {

namespace fs = std::filesystem;

std::string textOf(const fs::path &path, std::vector<std::string> &notes) {
  auto text = readTextFile(path);
  if (!text) {
    notes.push_back(text.error());
    return "";
  }
  return *text;
}

// The compile's own command, stopped after executable translation: its
// output holds each export's workgroup_local_memory.
process::ProcessSpec translateCommand(const CompileJobResult &compiled,
                                      const ResourceOptions &options) {
  process::ProcessSpec spec = compiled.spec;
  spec.onOutput = nullptr;
  spec.arguments.clear();
  for (size_t i = 0; i < compiled.spec.arguments.size(); ++i) {
    const std::string &argument = compiled.spec.arguments[i];
    if (argument.rfind("--iree-hal-dump-executable", 0) == 0 ||
        argument.rfind("--mlir-pass-pipeline-crash-reproducer", 0) == 0)
      continue;
    if (argument == "-o") {
      ++i;
      continue;
    }
    spec.arguments.push_back(argument);
  }
  spec.arguments.insert(
      spec.arguments.end(),
      {"--compile-to=executable-targets", "-o", "translated.mlir"});
  spec.timeout = options.timeout;
  spec.cancel = options.cancel;
  return spec;
}

void readCuda(const CompileJobResult &compiled, const ResourceOptions &options,
              ResourceReport &report) {
  std::vector<fs::path> ptxFiles;
  for (const fs::path &file : compiled.artifacts.assembly())
    if (file.extension() == ".ptx")
      ptxFiles.push_back(file);
  if (ptxFiles.empty()) {
    report.notes.push_back("the compile left no PTX in " +
                           compiled.artifacts.binaries.string());
    return;
  }

  std::map<std::string, long long> sharedMemory;
  const process::ProcessSpec translate = translateCommand(compiled, options);
  report.commands.push_back(translate.shellCommand());
  const process::ProcessResult translated = runProcess(translate);
  if (translated.succeeded()) {
    sharedMemory = isa::parseWorkgroupLocalMemory(
        textOf(compiled.artifacts.directory / "translated.mlir", report.notes));
  } else {
    report.notes.push_back("shared memory unknown: iree-compile up to "
                           "executable targets " +
                           translated.describe());
  }

  auto ptxas = locatePtxas();
  if (!ptxas) {
    report.notes.push_back(ptxas.error());
    return;
  }
  for (const fs::path &file : ptxFiles) {
    const isa::PtxFacts facts = isa::parsePtx(textOf(file, report.notes));
    process::ProcessSpec spec;
    spec.program = *ptxas;
    spec.arguments = {"-v", "-arch=" + facts.target, file.string(), "-o",
                      "/dev/null"};
    spec.timeout = options.timeout;
    spec.cancel = options.cancel;
    report.commands.push_back(spec.shellCommand());
    const process::ProcessResult ran = runProcess(spec);
    if (!ran.succeeded()) {
      report.notes.push_back("ptxas " + ran.describe() + " on " +
                             file.string() + ": " + ran.standardError);
      continue;
    }
    auto kernels =
        isa::parsePtxasVerbose(ran.standardError + ran.standardOutput);
    if (!kernels) {
      report.notes.push_back(kernels.error());
      continue;
    }
    for (isa::KernelResources &kernel : *kernels) {
      kernel.readFrom = file;
      if (kernel.arch.empty())
        kernel.arch = facts.target;
      if (auto size = facts.blockSize.find(kernel.kernel);
          size != facts.blockSize.end())
        kernel.workgroupSize = size->second;
      if (auto bytes = sharedMemory.find(isa::ptxName(kernel.kernel));
          bytes != sharedMemory.end())
        kernel.sharedMemoryBytes += bytes->second;
      isa::addOccupancy(kernel);
      report.kernels.push_back(std::move(kernel));
    }
  }
}

void readRocm(const CompileJobResult &compiled, ResourceReport &report) {
  bool found = false;
  for (const fs::path &file : compiled.artifacts.assembly()) {
    if (file.extension() != ".rocmasm")
      continue;
    found = true;
    auto kernels = isa::parseAmdgpuAssembly(textOf(file, report.notes));
    if (!kernels) {
      report.notes.push_back(file.string() + ": " + kernels.error());
      continue;
    }
    for (isa::KernelResources &kernel : *kernels) {
      kernel.readFrom = file;
      isa::addOccupancy(kernel);
      report.kernels.push_back(std::move(kernel));
    }
  }
  if (!found)
    report.notes.push_back("the compile left no AMD ISA (.rocmasm) in " +
                           compiled.artifacts.intermediates.string());
}

} // namespace

std::optional<fs::path> locateCudaTool(const char *variable,
                                       const std::string &installed,
                                       const std::string &name) {
  std::vector<fs::path> candidates;
  if (const char *path = std::getenv(variable); path && *path)
    candidates.emplace_back(path);
  if (!installed.empty())
    candidates.emplace_back(installed);
  if (const char *path = std::getenv("PATH"))
    for (std::string_view rest = path; !rest.empty();) {
      const size_t colon = rest.find(':');
      const std::string_view directory = rest.substr(0, colon);
      if (!directory.empty())
        candidates.push_back(fs::path(directory) / name);
      rest = colon == std::string_view::npos ? "" : rest.substr(colon + 1);
    }
  candidates.emplace_back("/usr/local/cuda/bin/" + name);
  std::error_code error;
  for (const fs::path &candidate : candidates)
    if (fs::is_regular_file(candidate, error))
      return candidate;
  return std::nullopt;
}

Result<fs::path> locatePtxas() {
  if (auto found = locateCudaTool("TILESCOPE_PTXAS", TILESCOPE_PTXAS, "ptxas"))
    return *found;
  return Error{
      "ptxas not found (looked at $TILESCOPE_PTXAS, " +
      std::string(*TILESCOPE_PTXAS ? TILESCOPE_PTXAS : "the set-up's .deps/") +
      ", PATH and /usr/local/cuda/bin): NVIDIA registers and spills "
      "need it; `scripts/tilescope.sh deps` installs it from PyPI"};
}

Result<ResourceReport> readResources(const CompileJobResult &compiled,
                                     const ResourceOptions &options) {
  if (!compiled.succeeded())
    return Error{"no resources to read: the compile did not succeed (" +
                 compiled.summary() + ")"};
  ResourceReport report;
  if (compiled.backend == "rocm")
    readRocm(compiled, report);
  else if (compiled.backend == "cuda")
    readCuda(compiled, options, report);
  else
    report.notes.push_back("no register or shared-memory model for " +
                           compiled.backend + " kernels (the assembly is in " +
                           compiled.artifacts.intermediates.string() + ")");
  return report;
}

std::optional<layout::CompiledKernel>
compiledKernelOf(const ResourceReport &report) {
  for (const isa::KernelResources &k : report.kernels) {
    if (k.backend != "rocm" && k.backend != "cuda")
      continue;
    layout::CompiledKernel kernel;
    kernel.registersPerThread = k.backend == "cuda"
                                    ? k.registers.value_or(0)
                                    : k.vgprs.value_or(0) + k.agprs.value_or(0);
    kernel.sharedMemoryBytes = k.sharedMemoryBytes;
    const int subgroup = k.subgroupSize > 0 ? k.subgroupSize : 1;
    const int subgroups =
        std::max(1, (k.workgroupSize + subgroup - 1) / subgroup);
    if (k.occupancy && k.occupancy->active > 0)
      // Warps per SM (NVIDIA) or waves per SIMD, 4 SIMDs a CU (AMD).
      kernel.workgroupsPerCu =
          std::max(1, (k.backend == "cuda" ? k.occupancy->active
                                           : k.occupancy->active * 4) /
                          subgroups);
    return kernel;
  }
  return std::nullopt;
}

} // namespace tilescope::service
