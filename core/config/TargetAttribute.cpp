#include "core/config/TargetAttribute.h"

#include "core/config/TranslationInfo.h"

#include <algorithm>

namespace tilescope::config {
namespace {

using Kind = Attribute::Kind;

std::optional<int64_t> integerAt(const Attribute &owner, std::string_view key) {
  const Attribute *value = owner.find(key);
  return value ? value->asInt64() : std::nullopt;
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
  if (const Attribute *chip = attribute.find("chip"))
    target.wgpCount = integerAt(*chip, "wgp_count");
  target.source = "#iree_gpu.target<arch = \"" + target.arch + "\", ...>";

  // Peaks are not in the attribute: take them from the built-in description
  // of the same arch, if there is one.
  if (auto builtin = builtinTarget(target.arch)) {
    target.product = builtin->product;
    target.peakMemoryBytesPerSecond = builtin->peakMemoryBytesPerSecond;
    target.peakMatrixOpsPerSecond = builtin->peakMatrixOpsPerSecond;
    target.peakVectorF32OpsPerSecond = builtin->peakVectorF32OpsPerSecond;
    if (!target.wgpCount)
      target.wgpCount = builtin->wgpCount;
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
