#include "core/isa/KernelResources.h"
#include "core/isa/PtxText.h"
#include "core/isa/Workgroup.h"

#include <yaml-cpp/yaml.h>

#include <regex>
#include <sstream>
#include <vector>

namespace tilescope::isa {
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

} // namespace

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
    // A count is none past what a register file holds, or below zero
    // (the occupancy divides by it).
    auto count = [&](const char *key) -> std::optional<int> {
      const std::optional<int> n = scalar<int>(node, key);
      return n && *n >= 0 && *n <= 65536 ? n : std::nullopt;
    };
    kernel.vgprs = count(".vgpr_count");
    kernel.agprs = count(".agpr_count");
    kernel.sgprs = count(".sgpr_count");
    kernel.vgprSpills = count(".vgpr_spill_count");
    kernel.sgprSpills = count(".sgpr_spill_count");
    kernel.scratchBytes =
        scalar<long long>(node, ".private_segment_fixed_size").value_or(0);
    kernel.sharedMemoryBytes =
        scalar<long long>(node, ".group_segment_fixed_size").value_or(0);
    kernel.subgroupSize = scalar<int>(node, ".wavefront_size").value_or(64);
    if (!isSubgroupSize(kernel.subgroupSize)) // not a wave a GPU runs
      kernel.subgroupSize = 64;
    kernel.workgroupSize =
        scalar<int>(node, ".max_flat_workgroup_size").value_or(0);
    if (const YAML::Node required = node[".reqd_workgroup_size"];
        required && required.IsSequence()) {
      std::vector<long long> sizes;
      for (const YAML::Node &size : required)
        sizes.push_back(size.as<long long>(0));
      // A shape beyond what a GPU runs is not taken.
      if (sizes.size() == 3 &&
          isRunnableWorkgroup(sizes[0], sizes[1], sizes[2]))
        kernel.workgroupSize = static_cast<int>(sizes[0] * sizes[1] * sizes[2]);
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

std::string ptxTarget(std::string_view ptx) {
  static const std::regex target(R"(^\s*\.target\s+(sm_[0-9a-z]+))");
  std::istringstream lines{std::string(ptx)};
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch match;
    if (std::regex_search(line, match, target))
      return match[1].str();
  }
  return {};
}

PtxFacts parsePtx(std::string_view ptx) {
  PtxFacts facts;
  facts.target = ptxTarget(ptx);
  // The block sizes as the instructions' reader takes them (PtxText): an
  // entry's .reqntid or .maxntid, in its header.
  for (const PtxEntryText &entry : ptxTextOf(std::string(ptx)).entries)
    if (entry.x > 0)
      facts.blockSize[entry.name] = static_cast<int>(entry.threads(1));
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

} // namespace tilescope::isa
