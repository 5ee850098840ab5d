#include "core/service/Resources.h"

#include "core/util/Files.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <regex>
#include <sstream>

#ifndef TILESCOPE_PTXAS
#define TILESCOPE_PTXAS ""
#endif

namespace tilescope::service {
namespace {

namespace fs = std::filesystem;

template <typename T>
std::optional<T> scalar(const YAML::Node &node, const char *key) {
  const YAML::Node value = node[key];
  if (!value || !value.IsScalar())
    return std::nullopt;
  try {
    return value.as<T>();
  } catch (const YAML::Exception &) {
    return std::nullopt;
  }
}

// "amdgpu9.42-amd-amdhsa-unknown-gfx942" or "amdgcn-amd-amdhsa--gfx942:xnack-"
// -> "gfx942".
std::string archOfTarget(const std::string &target) {
  const size_t gfx = target.rfind("gfx");
  if (gfx == std::string::npos)
    return "";
  return target.substr(gfx, target.find(':', gfx) - gfx);
}

std::string textOf(const fs::path &path, std::vector<std::string> &notes) {
  auto text = readTextFile(path);
  if (!text) {
    notes.push_back(text.error());
    return "";
  }
  return *text;
}

void addOccupancy(KernelResources &kernel) {
  Result<layout::Occupancy> occupancy = Error{""};
  if (kernel.backend == "rocm")
    occupancy = layout::amdOccupancy(
        kernel.arch, {kernel.vgprs.value_or(0), kernel.agprs.value_or(0),
                      kernel.sgprs.value_or(0), kernel.sharedMemoryBytes,
                      kernel.workgroupSize,
                      kernel.subgroupSize > 0 ? kernel.subgroupSize : 64});
  else
    occupancy = layout::nvidiaOccupancy(
        kernel.arch, {kernel.registers.value_or(0), kernel.sharedMemoryBytes,
                      kernel.workgroupSize});
  if (occupancy)
    kernel.occupancy = *occupancy;
  else
    kernel.occupancyNote = occupancy.error();
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
    sharedMemory = parseWorkgroupLocalMemory(
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
    const PtxFacts facts = parsePtx(textOf(file, report.notes));
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
    auto kernels = parsePtxasVerbose(ran.standardError + ran.standardOutput);
    if (!kernels) {
      report.notes.push_back(kernels.error());
      continue;
    }
    for (KernelResources &kernel : *kernels) {
      kernel.readFrom = file;
      if (kernel.arch.empty())
        kernel.arch = facts.target;
      if (auto size = facts.blockSize.find(kernel.kernel);
          size != facts.blockSize.end())
        kernel.workgroupSize = size->second;
      if (auto bytes = sharedMemory.find(ptxName(kernel.kernel));
          bytes != sharedMemory.end())
        kernel.sharedMemoryBytes += bytes->second;
      addOccupancy(kernel);
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
    auto kernels = parseAmdgpuAssembly(textOf(file, report.notes));
    if (!kernels) {
      report.notes.push_back(file.string() + ": " + kernels.error());
      continue;
    }
    for (KernelResources &kernel : *kernels) {
      kernel.readFrom = file;
      addOccupancy(kernel);
      report.kernels.push_back(std::move(kernel));
    }
  }
  if (!found)
    report.notes.push_back("the compile left no AMD ISA (.rocmasm) in " +
                           compiled.artifacts.intermediates.string());
}

} // namespace

bool KernelResources::spills() const {
  return vgprSpills.value_or(0) > 0 || sgprSpills.value_or(0) > 0 ||
         spillStoreBytes.value_or(0) > 0 || spillLoadBytes.value_or(0) > 0;
}

Result<std::vector<KernelResources>>
parseAmdgpuAssembly(std::string_view text) {
  const size_t begin = text.find(".amdgpu_metadata");
  const size_t end = text.find(".end_amdgpu_metadata");
  if (begin == std::string_view::npos || end == std::string_view::npos ||
      end < begin)
    return Error{"no .amdgpu_metadata section (not AMDGPU assembly?)"};
  const size_t yamlBegin = text.find('\n', begin);
  YAML::Node metadata;
  try {
    metadata = YAML::Load(std::string(text.substr(yamlBegin, end - yamlBegin)));
  } catch (const YAML::Exception &error) {
    return Error{std::string("the kernel metadata does not read as YAML: ") +
                 error.what()};
  }
  const std::string arch =
      archOfTarget(scalar<std::string>(metadata, "amdhsa.target").value_or(""));
  const YAML::Node kernels = metadata["amdhsa.kernels"];
  if (!kernels || !kernels.IsSequence())
    return Error{"the kernel metadata lists no amdhsa.kernels"};
  std::vector<KernelResources> result;
  for (const YAML::Node &node : kernels) {
    KernelResources kernel;
    kernel.backend = "rocm";
    kernel.arch = arch;
    kernel.kernel = scalar<std::string>(node, ".name").value_or("");
    kernel.vgprs = scalar<int>(node, ".vgpr_count");
    kernel.agprs = scalar<int>(node, ".agpr_count");
    kernel.sgprs = scalar<int>(node, ".sgpr_count");
    kernel.vgprSpills = scalar<int>(node, ".vgpr_spill_count");
    kernel.sgprSpills = scalar<int>(node, ".sgpr_spill_count");
    kernel.scratchBytes =
        scalar<long long>(node, ".private_segment_fixed_size").value_or(0);
    kernel.sharedMemoryBytes =
        scalar<long long>(node, ".group_segment_fixed_size").value_or(0);
    kernel.subgroupSize = scalar<int>(node, ".wavefront_size").value_or(64);
    kernel.workgroupSize =
        scalar<int>(node, ".max_flat_workgroup_size").value_or(0);
    if (const YAML::Node required = node[".reqd_workgroup_size"];
        required && required.IsSequence()) {
      int threads = 1;
      for (const YAML::Node &size : required)
        threads *= size.as<int>(1);
      kernel.workgroupSize = threads;
    }
    if (kernel.kernel.empty() || !kernel.vgprs)
      return Error{"a kernel in the metadata has no .name or .vgpr_count"};
    result.push_back(std::move(kernel));
  }
  return result;
}

Result<std::vector<KernelResources>> parsePtxasVerbose(std::string_view text) {
  static const std::regex entry(
      R"(Compiling entry function '([^']+)' for '([^']+)')");
  static const std::regex frame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  std::vector<KernelResources> kernels;
  const std::string all(text);
  std::istringstream lines(all);
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch match;
    if (std::regex_search(line, match, entry)) {
      KernelResources kernel;
      kernel.backend = "cuda";
      kernel.kernel = match[1].str();
      kernel.arch = match[2].str();
      kernel.subgroupSize = 32;
      kernels.push_back(std::move(kernel));
      continue;
    }
    if (kernels.empty())
      continue;
    KernelResources &kernel = kernels.back();
    if (std::regex_search(line, match, frame)) {
      kernel.scratchBytes = std::stoll(match[1].str());
      kernel.spillStoreBytes = std::stoll(match[2].str());
      kernel.spillLoadBytes = std::stoll(match[3].str());
    }
    if (std::regex_search(line, match, used))
      kernel.registers = std::stoi(match[1].str());
    if (std::regex_search(line, match, smem))
      kernel.sharedMemoryBytes = std::stoll(match[1].str());
  }
  if (kernels.empty())
    return Error{"ptxas -v reported no entry function"};
  for (const KernelResources &kernel : kernels)
    if (!kernel.registers)
      return Error{"ptxas -v gave no register count for " + kernel.kernel};
  return kernels;
}

PtxFacts parsePtx(std::string_view ptx) {
  static const std::regex target(R"(^\s*\.target\s+(sm_[0-9a-z]+))");
  static const std::regex entry(R"(\.entry\s+([A-Za-z_$][\w$]*))");
  static const std::regex threads(
      R"(\.(?:reqntid|maxntid)\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?)");
  PtxFacts facts;
  std::istringstream lines{std::string(ptx)};
  std::string line, current;
  while (std::getline(lines, line)) {
    std::smatch match;
    if (facts.target.empty() && std::regex_search(line, match, target))
      facts.target = match[1].str();
    if (std::regex_search(line, match, entry))
      current = match[1].str();
    if (!current.empty() && std::regex_search(line, match, threads)) {
      int count = 1;
      for (int i = 1; i <= 3; ++i)
        if (match[i].matched)
          count *= std::stoi(match[i].str());
      facts.blockSize[current] = count;
    }
  }
  return facts;
}

std::string ptxName(std::string name) {
  for (char &c : name)
    if (c == '$' || c == '.' || c == '@')
      c = '_';
  return name;
}

std::map<std::string, long long>
parseWorkgroupLocalMemory(std::string_view translated) {
  static const std::regex exportOp(
      R"(hal\.executable\.export\s+(?:public\s+)?@([\w$.]+))");
  static const std::regex local(R"(workgroup_local_memory\s*=\s*(\d+))");
  std::map<std::string, long long> result;
  const std::string text(translated);
  std::vector<std::pair<size_t, std::string>> exports;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), exportOp);
       it != std::sregex_iterator(); ++it)
    exports.emplace_back(static_cast<size_t>(it->position()), (*it)[1].str());
  for (size_t i = 0; i < exports.size(); ++i) {
    // The export's attributes come before its body's first op ends; look
    // no further than the next export or `builtin.module`.
    const size_t begin = exports[i].first;
    size_t end = i + 1 < exports.size() ? exports[i + 1].first : text.size();
    end = std::min(end, text.find("builtin.module", begin));
    std::smatch match;
    const std::string span = text.substr(begin, end - begin);
    if (std::regex_search(span, match, local))
      result[ptxName(exports[i].second)] = std::stoll(match[1].str());
  }
  return result;
}

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

std::string describe(const KernelResources &k) {
  std::ostringstream out;
  out << "  " << k.kernel << " (" << k.arch << ")\n";
  if (k.backend == "rocm")
    out << "    VGPRs " << k.vgprs.value_or(0) << ", AGPRs "
        << k.agprs.value_or(0) << ", SGPRs " << k.sgprs.value_or(0)
        << "; spills: " << k.vgprSpills.value_or(0) << " VGPR, "
        << k.sgprSpills.value_or(0) << " SGPR\n";
  else
    out << "    registers " << k.registers.value_or(0)
        << " per thread; spills: " << k.spillStoreBytes.value_or(0)
        << " B stored, " << k.spillLoadBytes.value_or(0) << " B loaded\n";
  out << "    " << (k.backend == "rocm" ? "LDS " : "shared memory ")
      << k.sharedMemoryBytes << " B, scratch " << k.scratchBytes
      << " B per thread, workgroup " << k.workgroupSize << " threads\n";
  if (k.occupancy) {
    out << "    occupancy " << k.occupancy->active << " of "
        << k.occupancy->maximum << " " << k.occupancy->unit << ", limited by "
        << k.occupancy->limitedBy << " (";
    bool first = true;
    for (const layout::OccupancyLimit &limit : k.occupancy->limits) {
      out << (first ? "" : ", ") << limit.resource << " " << limit.active;
      first = false;
    }
    out << ")\n";
  } else {
    out << "    occupancy unknown: " << k.occupancyNote << "\n";
  }
  return out.str();
}

std::optional<layout::CompiledKernel>
compiledKernelOf(const ResourceReport &report) {
  for (const KernelResources &k : report.kernels) {
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
