#include "core/config/configs/OtherConfigs.h"

namespace tilescope::config {

using Kind = Attribute::Kind;

Result<PromotionType> PromotionType::fromAttribute(const Attribute &attribute) {
  if (!attribute.is(Kind::Dialect) || attribute.dialect != "iree_gpu")
    return Error{"a promotion type is an #iree_gpu attribute such as "
                 "#iree_gpu.derived_thread_config, not " +
                 printAttribute(attribute)};
  PromotionType type;
  type.kind = attribute.mnemonic;
  type.attribute = attribute;
  if (type.kind == "swizzle_operand") {
    if (const Attribute *copy = attribute.find("copy_config"))
      type.copyConfig = *copy;
    const Attribute *swizzle = attribute.find("swizzle");
    if (!swizzle)
      return Error{"#iree_gpu.swizzle_operand needs swizzle = "
                   "#iree_codegen.xor_shuffle<...> or rotate_rows<...>"};
    if (auto xorShuffle = XorShuffleAttr::fromAttribute(*swizzle))
      type.xorShuffle = *xorShuffle;
    else if (auto rotate = RotateRowsAttr::fromAttribute(*swizzle))
      type.rotateRows = *rotate;
    else
      return Error{"#iree_gpu.swizzle_operand's swizzle is neither "
                   "xor_shuffle nor rotate_rows: " +
                   printAttribute(*swizzle)};
  } else if (type.kind == "promote_with_cache_swizzle") {
    auto positional = attribute.positional();
    if (!positional.empty())
      type.inner = *positional.front();
  }
  return type;
}

std::vector<PromotionType> promotionTypes(const LoweringConfig &config) {
  std::vector<PromotionType> types;
  if (const Attribute *list = config.promotionTypes();
      list && list->is(Kind::Array))
    for (const Attribute &entry : list->elements)
      if (auto type = PromotionType::fromAttribute(entry))
        types.push_back(*type);
  return types;
}

Result<DecompositionConfig>
DecompositionConfig::fromAttribute(const Attribute &attribute) {
  if (!attribute.is(Kind::Dictionary))
    return Error{"decomposition_config is a dictionary {qk_attrs = {...}, "
                 "pv_attrs = {...}}, not " +
                 printAttribute(attribute)};
  DecompositionConfig result;
  result.attribute = attribute;
  for (const char *key : {"qk_attrs", "pv_attrs"}) {
    const Attribute *attrs = attribute.find(key);
    if (!attrs)
      continue;
    const Attribute *config = attrs->find("lowering_config");
    if (!config)
      continue;
    auto parsed = LoweringConfig::fromAttribute(*config);
    if (!parsed)
      return Error{std::string(key) + ".lowering_config: " + parsed.error()};
    (std::string(key) == "qk_attrs" ? result.qk : result.pv) = *parsed;
  }
  return result;
}

Result<CpuLoweringConfig>
CpuLoweringConfig::fromAttribute(const Attribute &attribute) {
  CpuLoweringConfig result;
  result.attribute = attribute;
  if (attribute.isDialect("iree_cpu", "lowering_config")) {
    for (const Parameter &p : attribute.parameters)
      if (auto sizes = p.get().asInt64Array())
        result.levels[p.name] = *sizes;
    return result;
  }
  if (attribute.isDialect("iree_codegen", "lowering_config")) {
    const Attribute *tiles = attribute.find("tile_sizes");
    if (!tiles || !tiles->is(Kind::Array))
      return Error{"#iree_codegen.lowering_config needs tile_sizes = [[...]]"};
    for (size_t i = 0; i < tiles->elements.size(); ++i)
      if (auto sizes = tiles->elements[i].asInt64Array())
        result.levels["tile_sizes[" + std::to_string(i) + "]"] = *sizes;
    return result;
  }
  return Error{"expected #iree_cpu.lowering_config<...> or "
               "#iree_codegen.lowering_config<...>, found " +
               printAttribute(attribute)};
}

} // namespace tilescope::config
