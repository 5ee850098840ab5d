#include "core/config/configs/TargetAttribute.h"

#include "core/config/configs/TranslationInfo.h"

#include <algorithm>
#include <exception>
#include <string>

namespace tilescope::config {
namespace {

using Kind = Attribute::Kind;

std::optional<int64_t> integerAt(const Attribute &owner, std::string_view key) {
  const Attribute *value = owner.find(key);
  return value ? value->asInt64() : std::nullopt;
}

std::optional<double> numberAt(const Attribute &owner, std::string_view key) {
  const Attribute *value = owner.find(key);
  if (!value || !(value->is(Kind::Float) || value->is(Kind::Integer)))
    return std::nullopt;
  try {
    return std::stod(value->text);
  } catch (const std::exception &) {
    return std::nullopt;
  }
}

// chip = <wgp_count = 304, sku = "mi300x", memory_bandwidth_tbps = 5.3 : f32,
//         perf_tflops = {fp16 = 1307.4 : f32, fp32 = ..., fp8 = ..., int8 =
//         ...}>
void readChipPeaks(const Attribute &chip, GpuTarget &target) {
  if (const Attribute *sku = chip.find("sku"); sku && sku->is(Kind::String))
    target.product = sku->text;
  if (auto tbps = numberAt(chip, "memory_bandwidth_tbps"))
    target.peakMemoryBytesPerSecond = *tbps * 1e12;
  const Attribute *perf = chip.find("perf_tflops");
  if (!perf)
    return;
  const std::pair<const char *, const char *> keys[] = {
      {"fp16", "f16"}, {"fp8", "f8"}, {"int8", "i8"}, {"fp32", "f32"}};
  for (const auto &[ireeKey, ourKey] : keys)
    if (auto tflops = numberAt(*perf, ireeKey))
      target.peakMatrixOpsPerSecond[ourKey] = *tflops * 1e12;
}

} // namespace

Result<GpuTarget> gpuTargetFromAttribute(const Attribute &attribute) {
  // #hal.executable.target<"backend", "format", {..., iree_codegen.target_info
  // = ...}>
  if (attribute.isDialect("hal", "executable.target") ||
      (attribute.is(Kind::Elided) && !attribute.positional().empty() &&
       attribute.positional().front()->is(Kind::String))) {
    const auto positional = attribute.positional();
    for (const Attribute *value : positional) {
      if (!value->is(Kind::Dictionary))
        continue;
      if (const Attribute *info = value->find("iree_codegen.target_info")) {
        auto target = gpuTargetFromAttribute(*info);
        if (target && !positional.empty() &&
            positional.front()->is(Kind::String))
          target->backend = positional.front()->text;
        return target;
      }
    }
    return Error{"this executable target carries no iree_codegen.target_info "
                 "(not a GPU target?)"};
  }
  if (!attribute.isDialect("iree_gpu", "target"))
    return Error{
        "expected #iree_gpu.target<...> or #hal.executable.target<...>, "
        "found " +
        printAttribute(attribute)};
  GpuTarget target;
  if (const Attribute *arch = attribute.find("arch");
      arch && arch->is(Kind::String))
    target.arch = arch->text;
  else
    return Error{"#iree_gpu.target needs arch = \"...\""};
  if (const Attribute *features = attribute.find("features"))
    target.features = features->text;
  target.backend = target.arch.rfind("sm_", 0) == 0 ? "cuda" : "rocm";
  const Attribute *wgp = attribute.find("wgp");
  if (!wgp)
    return Error{"#iree_gpu.target needs wgp = <...>"};
  if (const Attribute *choices = wgp->find("subgroup_size_choices"))
    target.subgroupSizeChoices =
        choices->asInt64Array().value_or(std::vector<int64_t>{});
  if (const Attribute *sizes = wgp->find("max_workgroup_sizes")) {
    auto values = sizes->asInt64Array().value_or(std::vector<int64_t>{});
    for (size_t i = 0; i < 3 && i < values.size(); ++i)
      target.maxWorkgroupSizes[i] = values[i];
  }
  target.maxThreadCountPerWorkgroup =
      integerAt(*wgp, "max_thread_count_per_workgroup").value_or(0);
  target.maxWorkgroupMemoryBytes =
      integerAt(*wgp, "max_workgroup_memory_bytes").value_or(0);
  for (const char *key : {"mma", "scaled_mma"}) {
    const Attribute *list = wgp->find(key);
    if (!list || !list->is(Kind::Array))
      continue;
    for (const Attribute &entry : list->elements) {
      std::string name;
      if (!entry.positional().empty())
        name = entry.positional().front()->text;
      else if (const Attribute *intrinsic = entry.find("intrinsic"))
        name = intrinsic->text;
      auto &names = std::string(key) == "mma" ? target.mmaIntrinsics
                                              : target.scaledMmaIntrinsics;
      if (!name.empty() &&
          std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(name);
    }
  }
  target.simdsPerWgp = integerAt(*wgp, "simds_per_wgp");
  target.workgroupMemoryBankCount =
      integerAt(*wgp, "workgroup_memory_bank_count");
  target.maxLoadInstructionBits = integerAt(*wgp, "max_load_instruction_bits");
  target.vgprSpaceBits = integerAt(*wgp, "vgpr_space_bits");
  const Attribute *chip = attribute.find("chip");
  if (chip)
    target.wgpCount = integerAt(*chip, "wgp_count");
  target.source = "#iree_gpu.target<arch = \"" + target.arch + "\", ...>";

  // Peaks are figures of a product, not of an arch. A chip IREE names (sku,
  // from --iree-rocm-target=mi325x) takes the built-in description of that
  // product if Tilescope has one (vendor figures, cited there), else the
  // figures IREE's chip attribute states; with no chip, the built-in
  // description of the arch.
  const Attribute *sku = chip ? chip->find("sku") : nullptr;
  const bool namesProduct = sku && sku->is(Kind::String);
  auto builtin = builtinTarget(namesProduct ? sku->text : target.arch);
  if (builtin && builtin->arch == target.arch) {
    target.product = builtin->product;
    target.peakMemoryBytesPerSecond = builtin->peakMemoryBytesPerSecond;
    target.peakMatrixOpsPerSecond = builtin->peakMatrixOpsPerSecond;
    target.peakVectorF32OpsPerSecond = builtin->peakVectorF32OpsPerSecond;
    if (!target.wgpCount)
      target.wgpCount = builtin->wgpCount;
  } else if (chip) {
    readChipPeaks(*chip, target);
  }
  return target;
}

Result<GpuTarget> gpuTargetFromText(std::string_view text) {
  auto attribute = parseResolvedAttribute(text);
  if (!attribute)
    return Error{attribute.error()};
  return gpuTargetFromAttribute(*attribute);
}

Result<GpuTarget> resolveTarget(std::string_view nameOrAttribute) {
  if (auto builtin = builtinTarget(nameOrAttribute))
    return *builtin;
  const size_t first = nameOrAttribute.find_first_not_of(" \t\n");
  if (first != std::string_view::npos &&
      (nameOrAttribute[first] == '#' || nameOrAttribute[first] == '<'))
    return gpuTargetFromText(nameOrAttribute);
  std::string known;
  for (const std::string &arch : builtinTargetArchs())
    known += (known.empty() ? "" : ", ") + arch;
  return Error{"unknown target '" + std::string(nameOrAttribute) +
               "': use one of " + known +
               " (or a product name such as mi300x, h100), or paste an "
               "#iree_gpu.target<...>"};
}

} // namespace tilescope::config
