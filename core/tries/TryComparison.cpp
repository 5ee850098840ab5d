#include "core/tries/TryComparison.h"

#include "core/isa/Assembly.h"
#include "core/service/CompileJob.h"

#include "core/export/DifferenceJson.h"

#include <map>

using nlohmann::json;

namespace tilescope::tries {
namespace {

// Each kernel's resources of a try, by kernel name.
std::map<std::string, const isa::KernelResources *>
kernelsOf(const TryRecord &record) {
  std::map<std::string, const isa::KernelResources *> kernels;
  if (record.resources)
    for (const isa::KernelResources &kernel : record.resources->kernels)
      kernels.emplace(kernel.kernel, &kernel);
  return kernels;
}

std::optional<long long> valueOf(const std::optional<int> &value) {
  return value ? std::optional<long long>(*value) : std::nullopt;
}

// The resources a comparison lists, in its order (the history's keys).
const char *const kResourceKeys[] = {"vgprs",
                                     "agprs",
                                     "sgprs",
                                     "vgpr_spills",
                                     "sgpr_spills",
                                     "registers",
                                     "spill_store_bytes",
                                     "spill_load_bytes",
                                     "shared_memory_bytes",
                                     "scratch_bytes",
                                     "workgroup_size"};

// A kernel's resources by those keys, the ones its backend reports (AMD's
// VGPRs, AGPRs, SGPRs and their spills; NVIDIA's registers and spill
// bytes); unset values where it reports the key but not the figure.
std::map<std::string, std::optional<long long>>
resourceFields(const isa::KernelResources &k) {
  std::map<std::string, std::optional<long long>> fields;
  if (k.backend == "rocm" || k.vgprs) {
    fields["vgprs"] = valueOf(k.vgprs);
    fields["agprs"] = valueOf(k.agprs);
    fields["sgprs"] = valueOf(k.sgprs);
    fields["vgpr_spills"] = valueOf(k.vgprSpills);
    fields["sgpr_spills"] = valueOf(k.sgprSpills);
  }
  if (k.backend != "rocm" || k.registers) {
    fields["registers"] = valueOf(k.registers);
    fields["spill_store_bytes"] = k.spillStoreBytes;
    fields["spill_load_bytes"] = k.spillLoadBytes;
  }
  fields["shared_memory_bytes"] = k.sharedMemoryBytes;
  fields["scratch_bytes"] = k.scratchBytes;
  fields["workgroup_size"] = k.workgroupSize;
  return fields;
}

std::optional<long long> activeWaves(const isa::KernelResources &kernel) {
  return kernel.occupancy ? std::optional<long long>(kernel.occupancy->active)
                          : std::nullopt;
}

bool hasResources(const TryRecord &record) {
  return !kernelsOf(record).empty();
}

} // namespace

std::optional<double> TryComparison::speedup() const {
  if (!aMicroseconds || !bMicroseconds || *bMicroseconds <= 0)
    return std::nullopt;
  return *aMicroseconds / *bMicroseconds;
}

namespace {

// A try folder's kernels, read from its assembly (none where it holds
// none: a CPU try, a try not compiled, a folder gone).
std::map<std::string, isa::Kernel> kernelsIn(const TryRecord &record) {
  std::map<std::string, isa::Kernel> kernels;
  if (record.directory.empty())
    return kernels;
  for (const std::filesystem::path &file :
       service::compileArtifactsIn(record.directory).assembly())
    if (auto listing = isa::readAssemblyFile(file))
      for (isa::Kernel &kernel : listing->kernels)
        kernels.emplace(kernel.name, std::move(kernel));
  return kernels;
}

// The first region of `kind` in a kernel, or none.
const isa::Region *regionOf(const isa::Kernel &kernel, isa::Region::Kind kind) {
  for (const isa::Region &region : kernel.regions)
    if (region.kind == kind)
      return &region;
  return nullptr;
}

} // namespace

std::vector<KernelInstructions> compareInstructions(const TryRecord &a,
                                                    const TryRecord &b) {
  std::vector<KernelInstructions> out;
  const auto kernelsA = kernelsIn(a), kernelsB = kernelsIn(b);
  for (const auto &[name, kernelA] : kernelsA) {
    auto found = kernelsB.find(name);
    if (found == kernelsB.end())
      continue;
    KernelInstructions kernel{name, {}};
    for (isa::Region::Kind kind :
         {isa::Region::Kind::Loop, isa::Region::Kind::Prologue,
          isa::Region::Kind::Epilogue}) {
      const isa::Region *inA = regionOf(kernelA, kind);
      const isa::Region *inB = regionOf(found->second, kind);
      if (!inA && !inB)
        continue;
      for (const isa::InstructionClass instructionClass : isa::kReportOrder) {
        const size_t countA = inA ? inA->count(instructionClass) : 0;
        const size_t countB = inB ? inB->count(instructionClass) : 0;
        if (countA == 0 && countB == 0)
          continue;
        kernel.counts.push_back({isa::toString(kind),
                                 isa::toString(instructionClass), countA,
                                 countB});
      }
      // The region's shared-memory accesses whose lanes collide on a bank.
      auto conflicted = [](const isa::Kernel &k, const isa::Region *region) {
        size_t n = 0;
        if (region)
          for (const isa::SharedAccess &access : k.sharedAccesses)
            n += access.line >= region->firstLine &&
                 access.line <= region->lastLine && access.resolved &&
                 access.degrees.worst > 1;
        return n;
      };
      const size_t conflictedA = conflicted(kernelA, inA);
      const size_t conflictedB = conflicted(found->second, inB);
      if (conflictedA + conflictedB > 0)
        kernel.counts.push_back({isa::toString(kind), "bank-conflicted access",
                                 conflictedA, conflictedB});
    }
    out.push_back(std::move(kernel));
  }
  return out;
}

TryComparison compareTries(const TryRecord &a, const TryRecord &b) {
  TryComparison comparison;
  comparison.configs = edit::documentDifferences(
      documentFromConfigs(a.configs), documentFromConfigs(b.configs));
  const auto kernelsA = kernelsOf(a), kernelsB = kernelsOf(b);
  for (const auto &[name, kernelA] : kernelsA) {
    auto found = kernelsB.find(name);
    if (found == kernelsB.end())
      continue;
    KernelComparison kernel{name, {}};
    const auto fieldsA = resourceFields(*kernelA);
    const auto fieldsB = resourceFields(*found->second);
    // Every key either kernel reports.
    for (const char *key : kResourceKeys) {
      const auto inA = fieldsA.find(key), inB = fieldsB.find(key);
      if (inA != fieldsA.end() || inB != fieldsB.end())
        kernel.resources.push_back(
            {key, inA != fieldsA.end() ? inA->second : std::nullopt,
             inB != fieldsB.end() ? inB->second : std::nullopt});
    }
    kernel.resources.push_back(
        {"occupancy", activeWaves(*kernelA), activeWaves(*found->second)});
    comparison.kernels.push_back(std::move(kernel));
  }
  comparison.aMicroseconds = a.medianMicroseconds;
  comparison.bMicroseconds = b.medianMicroseconds;
  auto timedA = timingOf(a), timedB = timingOf(b);
  if (timedA && timedB)
    comparison.times = compareTimes(*timedA, *timedB);
  return comparison;
}

namespace {

// {"kernel": ..., "regions": {"loop": {"mma": [a, b], ...}, ...}} a kernel.
json instructionsJson(const std::vector<KernelInstructions> &kernels) {
  json out = json::array();
  for (const KernelInstructions &kernel : kernels) {
    json regions = json::object();
    for (const InstructionCountPair &pair : kernel.counts)
      regions[pair.region][pair.instructionClass] = {pair.a, pair.b};
    out.push_back({{"kernel", kernel.kernel}, {"regions", regions}});
  }
  return out;
}

} // namespace

json toJson(const TryComparison &comparison, const TryRecord &a,
            const TryRecord &b) {
  json resources = json::array();
  for (const KernelComparison &kernel : comparison.kernels) {
    json fields = json::object();
    for (const ResourcePair &pair : kernel.resources)
      fields[pair.key] = {pair.a ? json(*pair.a) : json(),
                          pair.b ? json(*pair.b) : json()};
    resources.push_back({{"kernel", kernel.kernel}, {"fields", fields}});
  }
  json times = {
      {"a_us", a.medianMicroseconds ? json(*a.medianMicroseconds) : json()},
      {"b_us", b.medianMicroseconds ? json(*b.medianMicroseconds) : json()}};
  if (comparison.times)
    times.update(toJson(*comparison.times));
  json out = {
      {"a", toJson(a)},
      {"b", toJson(b)},
      {"configs", exporting::differencesJson(comparison.configs, "a", "b")},
      {"resources", resources},
      {"instructions", instructionsJson(comparison.instructions)},
      {"times", times}};
  out["a"].erase("details");
  out["b"].erase("details");
  return out;
}

const isa::KernelResources *firstKernel(const TryRecord &record) {
  return record.resources && !record.resources->kernels.empty()
             ? &record.resources->kernels.front()
             : nullptr;
}

std::optional<long long> registersOf(const TryRecord &record) {
  const isa::KernelResources *kernel = firstKernel(record);
  if (!kernel)
    return std::nullopt;
  return valueOf(kernel->vgprs ? kernel->vgprs : kernel->registers);
}

std::optional<long long> activeOccupancyOf(const TryRecord &record) {
  const isa::KernelResources *kernel = firstKernel(record);
  return kernel ? activeWaves(*kernel) : std::nullopt;
}

std::string resourceBrief(const TryRecord &record) {
  const isa::KernelResources *k = firstKernel(record);
  if (!k)
    return {};
  std::string text;
  if (k->vgprs)
    text = std::to_string(*k->vgprs) + " VGPRs";
  else if (k->registers)
    text = std::to_string(*k->registers) + " registers";
  text += (text.empty() ? "" : ", ") + std::string("shared ") +
          std::to_string(k->sharedMemoryBytes) + " B";
  if (k->spills())
    text += ", spills";
  if (k->occupancy)
    text += ", " + std::to_string(k->occupancy->active) + " of " +
            std::to_string(k->occupancy->maximum) + " " + k->occupancy->unit;
  return text;
}

std::optional<TryRecord> previousWithResources(const History &history,
                                               const TryRecord &record) {
  HistoryFilter filter;
  filter.document = record.document;
  filter.op = record.op;
  auto records = history.list(filter); // newest first
  if (!records)
    return std::nullopt;
  for (TryRecord &earlier : *records)
    if (earlier.id < record.id && hasResources(earlier))
      return std::move(earlier);
  return std::nullopt;
}

} // namespace tilescope::tries
