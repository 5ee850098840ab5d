#include "core/tries/TryComparison.h"

#include "core/isa/Assembly.h"
#include "core/service/CompileJob.h"

#include "core/export/DifferenceJson.h"

#include <map>

using nlohmann::json;

namespace tilescope::tries {
namespace {

// Each kernel's resources of a try, by kernel name.
std::map<std::string, json> kernelsOf(const TryRecord &record) {
  std::map<std::string, json> kernels;
  const json resources = record.details.value("resources", json());
  if (resources.is_object() && resources.value("kernels", json()).is_array())
    for (const json &kernel : resources["kernels"])
      if (kernel.is_object())
        kernels[kernel.value("kernel", "")] = kernel;
  return kernels;
}

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

json activeWaves(const json &kernel) {
  const json occupancy = kernel.value("occupancy", json());
  return occupancy.is_object() ? occupancy.value("active", json()) : json();
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
    for (const char *key : kResourceKeys)
      if (kernelA.contains(key) || found->second.contains(key))
        kernel.resources.push_back({key, kernelA.value(key, json()),
                                    found->second.value(key, json())});
    kernel.resources.push_back(
        {"occupancy", activeWaves(kernelA), activeWaves(found->second)});
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
      fields[pair.key] = {pair.a, pair.b};
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

std::optional<json> firstKernel(const TryRecord &record) {
  const json resources = record.details.value("resources", json());
  if (!resources.is_object() ||
      !resources.value("kernels", json()).is_array() ||
      resources["kernels"].empty() || !resources["kernels"][0].is_object())
    return std::nullopt;
  return resources["kernels"][0];
}

std::optional<long long> registersOf(const TryRecord &record) {
  const auto kernel = firstKernel(record);
  if (!kernel)
    return std::nullopt;
  for (const char *key : {"vgprs", "registers"})
    if (kernel->value(key, json()).is_number())
      return (*kernel)[key].get<long long>();
  return std::nullopt;
}

std::optional<long long> activeOccupancyOf(const TryRecord &record) {
  const auto kernel = firstKernel(record);
  if (!kernel)
    return std::nullopt;
  const json active = activeWaves(*kernel);
  if (!active.is_number())
    return std::nullopt;
  return active.get<long long>();
}

std::string resourceBrief(const TryRecord &record) {
  const auto kernel = firstKernel(record);
  if (!kernel)
    return {};
  const json &k = *kernel;
  std::string text;
  if (k.contains("vgprs") && k["vgprs"].is_number())
    text = std::to_string(k["vgprs"].get<long long>()) + " VGPRs";
  else if (k.contains("registers") && k["registers"].is_number())
    text = std::to_string(k["registers"].get<long long>()) + " registers";
  const json shared = k.value("shared_memory_bytes", json(0));
  text += (text.empty() ? "" : ", ") + std::string("shared ") +
          (shared.is_number() ? std::to_string(shared.get<long long>())
                              : std::string("?")) +
          " B";
  const json spills = k.value("spills", json(false));
  if ((spills.is_boolean() && spills.get<bool>()) ||
      (spills.is_number() && spills.get<double>() > 0))
    text += ", spills";
  const json occupancy = k.value("occupancy", json());
  if (occupancy.is_object())
    text += ", " + std::to_string(occupancy.value("active", 0LL)) + " of " +
            std::to_string(occupancy.value("maximum", 0LL)) + " " +
            occupancy.value("unit", std::string());
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
