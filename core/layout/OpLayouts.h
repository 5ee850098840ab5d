// What a root op's config means under its pipeline, decided once for every
// front end (the CLI's explain/render, the window's views):
//
//   VectorDistribute, no intrinsic   the nested layout IREE's
//                                    configure-tensor-layouts gives the op
//   VectorDistribute, mma_kind       LHS / RHS / ACC layouts
//   (getContractionLayout) TileAndFuse, thread tiles        which linear thread
//   runs which tile TileAndFuse, mma_kind            which subgroup runs which
//   intrinsic tiles,
//                                    and the intrinsic's fragments
//   attention (VectorDistribute)     its Q.K^T and P.V contractions' layouts
//                                    from the decomposition_config
//
// Without a translation_info the pipeline is inferred from the config's keys
// (lane_basis / subgroup_basis: VectorDistribute; thread or subgroup tiles
// without bases: TileAndFuse).
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/OtherConfigs.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/layout/AttentionLayouts.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/ThreadDistribution.h"
#include "core/util/Result.h"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::layout {

enum class OpView {
  VectorLayout,      // derived
  ContractionLayout, // contraction
  ThreadTiles,       // threads
  SubgroupTiles,     // subgroups (+ intrinsic)
  AttentionLayout,   // attention: its Q.K^T and P.V contractions
};

struct OpLayouts {
  OpView view = OpView::VectorLayout;
  std::string pipeline; // "VectorDistribute", "TileAndFuse" (maybe inferred)
  bool pipelineInferred = false;
  std::optional<DerivedLayout> derived;
  std::optional<ContractionLayouts> contraction;
  std::optional<ForallDistribution> threads, subgroups;
  std::optional<AttentionLayouts> attention;
  std::string intrinsic; // mma_kind's, if any
  bool colMajor = false;
  std::vector<std::string> notes; // what was applied, ignored or assumed
};

struct OpLayoutRequest {
  const config::LoweringConfig *config = nullptr;
  const config::IterationSpace *space = nullptr;
  const config::TranslationInfo *translationInfo = nullptr; // may be null
  DeriveOptions options;
  // An attention op's qk and pv configs: the op is laid out as its two
  // contractions (AttentionLayouts). Null for every other op.
  const config::DecompositionConfig *decomposition = nullptr;
};

Result<OpLayouts> opLayouts(const OpLayoutRequest &request);

} // namespace tilescope::layout
