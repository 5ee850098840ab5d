// The rest of the config vocabulary IREE attaches to ops: promotion types
// (inside promotion_types), attention's decomposition_config, and the CPU
// lowering configs (read and kept, so CPU dispatches can be listed and shown).
#pragma once

#include "core/config/configs/LayoutAttributes.h"
#include "core/config/configs/LoweringConfig.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::config {

// One entry of promotion_types: #iree_gpu.derived_thread_config,
// #iree_gpu.use_global_load_dma, #iree_gpu.promote_with_cache_swizzle<...>,
// #iree_gpu.swizzle_operand<copy_config = ..., swizzle = ...>.
struct PromotionType {
  std::string
      kind; // the mnemonic: "derived_thread_config", "swizzle_operand", ...
  std::optional<Attribute> copyConfig;      // swizzle_operand's copy_config
  std::optional<XorShuffleAttr> xorShuffle; // swizzle_operand's swizzle, if XOR
  std::optional<RotateRowsAttr>
      rotateRows;                 // swizzle_operand's swizzle, if rotate
  std::optional<Attribute> inner; // promote_with_cache_swizzle's argument
  Attribute attribute;            // as written
  static Result<PromotionType> fromAttribute(const Attribute &attribute);
};
std::vector<PromotionType> promotionTypes(const LoweringConfig &config);

// decomposition_config = {qk_attrs = {lowering_config = ...}, pv_attrs = {...}}
// on iree_linalg_ext attention ops.
struct DecompositionConfig {
  std::optional<LoweringConfig> qk;
  std::optional<LoweringConfig> pv;
  Attribute attribute; // as written, other keys included
  static Result<DecompositionConfig> fromAttribute(const Attribute &attribute);
};

// #iree_cpu.lowering_config<distribution = [...], vector_common_parallel = ...>
// and the older #iree_codegen.lowering_config<tile_sizes = [[...], ...]>:
// tile sizes per named level ("tile_sizes[1]" for the older form).
struct CpuLoweringConfig {
  std::map<std::string, std::vector<int64_t>> levels;
  Attribute attribute;
  static Result<CpuLoweringConfig> fromAttribute(const Attribute &attribute);
};

} // namespace tilescope::config
