// A prediction of an attention dispatch's kernel time (iree_linalg_ext's
// attention and online_attention under VectorDistribute), for ranking its
// configs where nothing can be timed; a model, as CostModel.h's, never a
// measurement.
//
// IREE decomposes the op per reduction step of the key sequence (K2) into
// Q.K^T, the online softmax and P.V, and distributes both contractions by
// the decomposition_config's qk and pv configs (their mma_kind and
// subgroup_basis) over the tile the op's own config gives a workgroup:
// batch and query rows (M) and value columns (N) from `workgroup`, the key
// step from `reduction`, the head dimension (K1) whole. Every workgroup
// recomputes Q.K^T and the softmax for its rows, so a workgroup tile of N
// smaller than N repeats them once per N tile. The model counts, over the
// whole grid:
//   - matrix cores: each contraction's intrinsics, from its own config:
//     Q.K^T's query rows and keys per subgroup padded to its intrinsic's M
//     and N, P.V's query rows and value columns to its own (the
//     subgroup_basis counts at those loops);
//   - shared memory: each subgroup's reads of the step's K and V tiles
//     (fewer rows per subgroup read them as often for less work), and P's
//     round trip where S's accumulator layout is not P.V's LHS layout
//     (AttentionLayouts::pChangesLayout; IREE marks both intrinsics
//     col_major to avoid it);
//   - vector units: the online softmax's per-score work (max, exp, sum,
//     rescale);
// in sequence (a subgroup runs them in turn), over every unit of the
// target, scaled by one calibration measured on an H200
// (tests/data/gpu/h200-attention-f16-32x2048x128.csv).
#pragma once

#include "core/config/configs/OtherConfigs.h"
#include "core/layout/CostModel.h"

namespace tilescope::layout {

Result<CostPrediction>
predictAttentionTime(const CostModelInput &input,
                     const config::DecompositionConfig &decomposition);

} // namespace tilescope::layout
