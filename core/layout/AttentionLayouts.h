// Attention (iree_linalg_ext.attention and online_attention) as IREE's
// VectorDistribute pipeline lays it out. IREE decomposes the op inside each
// workgroup tile and each step of its K2 loop into two contractions
// (LinalgExt's decomposeOperation):
//
//   S = Q . K^T    over (batch, M, K1, K2), K1 reduced; qk_attrs' config
//   O += P . V     over (batch, M, K2, N), K2 reduced;  pv_attrs' config
//
// with the online softmax between them (the running max and sum of S's rows
// over K2, P = exp2(S - max)). Each contraction is a linalg.generic over the
// attention loops it uses, in the attention's order (compressUnusedDims),
// whose operands are the workgroup's tiles; LLVMGPUConfigureTensorLayouts
// gives it the layouts of any mma_kind contraction (getContractionLayout)
// from its own lowering config: mma_kind and a subgroup_basis whose counts
// are over the attention's loops and whose mapping names, per loop of the
// contraction, the attention loop it is.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/OtherConfigs.h"
#include "core/layout/ConfigLayout.h"
#include "core/util/Result.h"

#include <string>
#include <vector>

namespace tilescope::layout {

// The attention's loops by role, as IREE's AttentionOpDetail infers them
// from the Q, K, V and output maps: B = (Q & V) | (K & O), K1 = Q & K - B,
// K2 = K - B - K1, M = Q - B - K1, N = V - B - K2; each sorted.
struct AttentionDims {
  std::vector<int> batch, m, k1, k2, n;
};
Result<AttentionDims> attentionDims(const config::IterationSpace &space);

struct AttentionContraction {
  std::string name;              // "Q.K^T", "P.V"
  std::string lhs, rhs, acc;     // "Q", "K", "S" / "P", "V", "O"
  config::IterationSpace space;  // the generic's loops; bounds: the tile
  std::vector<int> loops;        // per loop: the attention loop it is
  config::LoweringConfig config; // qk_attrs' / pv_attrs' lowering_config
  ContractionLayouts layouts;
};

// What lays a contraction out, in words: its intrinsic, or "SIMT" (IREE's
// config without an intrinsic: subgroup and lane bases, thread tiles).
std::string layoutSource(const AttentionContraction &part);

struct AttentionLayouts {
  AttentionDims dims;
  // Per attention loop: what one workgroup holds in one step of the K2 loop
  // (its workgroup tile, K2's reduction or partial_reduction tile, K1
  // whole).
  std::vector<int64_t> tile;
  int64_t k2Steps = 1; // iterations of the K2 loop
  AttentionContraction qk, pv;
  // S's accumulator layout is not P.V's LHS layout: P is moved between
  // lanes (IREE's to_layout) every step.
  bool pChangesLayout = false;
  // K2 tiled by partial_reduction, not reduction (IREE's SIMT config): O,
  // the max and the sum keep K2, merged after the loop.
  bool partialK2 = false;
  // The online softmax on S's accumulator layout, and P's change of layout
  // between the two contractions, in words.
  std::vector<std::string> notes;
};

// `outer` is the attention op's own lowering config (workgroup and
// reduction tiles); `space` its loops with Q, K, V (scale, mask) and output
// operands.
Result<AttentionLayouts>
deriveAttentionLayouts(const config::LoweringConfig &outer,
                       const config::IterationSpace &space,
                       const config::DecompositionConfig &decomposition);

} // namespace tilescope::layout
