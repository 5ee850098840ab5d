// Where an MMA's reads of its promoted LHS and RHS land in shared memory:
// each operand's tile rows as IREE stores them (through its swizzle,
// promotion_types' swizzle_operand, or unswizzled with the row padding
// IREE's GPUReduceBankConflicts adds) and the reads each lane of a
// subgroup makes of its fragment. The pictures (the window's bank view,
// `tilescope-cli render FILE --view swizzle`) draw this; the banks come
// from analyzeBanks.
#pragma once

#include "core/config/configs/GpuTarget.h"
#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/layout/Swizzle.h"
#include "core/util/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::layout {

struct PromotedOperandReads {
  std::string name; // "LHS" or "RHS"
  // Why this operand has nothing to draw ("" when it has), in words that
  // name it: "RHS is not promoted (not in promote_operands)".
  std::string skipped;
  int64_t rowWidth = 0; // elements of one row of its shared-memory tile
  int64_t elementBytes = 0;
  // How its rows are stored: through its own swizzle, padded by
  // `padElements` (IREE's default), or packed (padding turned off).
  enum class Rows { Swizzled, Padded, Packed } rows = Rows::Packed;
  int64_t padElements = 0;
  std::optional<Swizzle> swizzle;
  std::vector<LaneAccess> accesses; // one subgroup's fragment reads
};

struct PromotedReads {
  std::string intrinsic;
  BankModel banks;
  std::vector<PromotedOperandReads> operands; // LHS, RHS
};

// The reads of `config`'s mma_kind over `space` (a contraction) under
// `pipeline` ("TileAndFuse" counts reduction tiles in intrinsic K's), with
// the translation's pipeline options (padding) and the target's banks
// (gfx942's without a target). An Error says why the view does not apply:
// no mma_kind, not a contraction, an intrinsic Tilescope does not know.
Result<PromotedReads> promotedOperandReads(
    const config::LoweringConfig &config, const config::IterationSpace &space,
    const std::string &pipeline, const config::TranslationInfo *translation,
    const config::GpuTarget *target);

} // namespace tilescope::layout
