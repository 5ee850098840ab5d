// A lowering config applied to a root op's iteration space, the way IREE's
// VectorDistribute pipeline applies it: workgroup tiling and the workgroup
// grid, the partial-reduction loop, GPUPackPartialReductions (3.12+) or
// expand_dims (3.11), and the nested layout IREE's
// LLVMGPUConfigureTensorLayouts gives the op (setGPULoweringConfigLayout).
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LayoutAttributes.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/layout/TileBounds.h"
#include "core/util/Result.h"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::layout {

// One loop of the op IREE lays out: the iteration space's dimensions, in
// order (a packed one as its outer part), then the inner part of each packed
// dimension, as GPUPackPartialReductions appends them.
struct LayoutDimension {
  std::string name;  // "d0", "d1", or "d1.outer" / "d1.inner" when packed
  size_t source = 0; // original iteration dimension
  int64_t bound = 0; // extent within one workgroup tile and iteration
  bool reduction = false;
  bool packedOuter = false;
  bool packedInner = false;
  // Tiled by partial_reduction: a parallel loop of the tiled op, kept in the
  // accumulator (each thread's partial sums).
  bool partiallyReduced = false;
};

struct DerivedLayout {
  config::IterationSpace space;         // after expand_dims (3.11), if any
  std::vector<int64_t> workgroupTile;   // per dimension of `space`
  std::vector<int64_t> workgroupCounts; // per dimension of `space`
  int64_t workgroupCount = 1;
  std::vector<ReductionLoop> reductionLoops;
  std::vector<LayoutDimension> dimensions; // the layout's dimensions
  config::NestedLayoutAttr layout;         // over `dimensions`
  // The accumulator of a partial reduction: the output's dimensions, then the
  // partially reduced ones in loop order (IREE's partial-reduction tiling).
  // Empty when nothing is partially reduced.
  config::NestedLayoutAttr accumulatorLayout;
  std::vector<std::string> accumulatorDimensions;
  // The bases as IREE applies them: after GPUPackPartialReductions rewrote
  // them for the packed loops (counts past the original rank dropped).
  std::optional<config::Basis> effectiveLaneBasis, effectiveSubgroupBasis;
  int64_t subgroups = 1;
  int64_t subgroupSize = 1;
  // Per iteration of the reduction loop, along the reduction dimensions:
  int64_t reductionElementsPerSubgroup = 0; // the seed's "512 per iteration"
  int64_t reductionElementsPerThread = 0;
  std::vector<std::string> notes; // what was applied or ignored
};

struct DeriveOptions {
  std::string ireeRelease = "3.13";
  int64_t subgroupSize = 0; // 0: the lane basis's count product
  // The workgroup tile of the dispatch, for an op whose own config has no
  // `workgroup` level: IREE tiles the root op and fuses the others into its
  // tiles (see inheritedWorkgroupTile). Empty: the op's own, or none.
  std::vector<int64_t> fusedWorkgroupTile;
};

// The workgroup tile an op fused into the root op's tiles runs on: the root's
// `workgroup` tiles when the two ops have the same loop bounds (softmax's
// reductions and its elementwise tail), empty when they differ or the op has
// workgroup tiles of its own.
std::vector<int64_t>
inheritedWorkgroupTile(const config::LoweringConfig &op,
                       const config::IterationSpace &opSpace,
                       const config::LoweringConfig &root,
                       const config::IterationSpace &rootSpace);

Result<DerivedLayout> deriveLayout(const config::LoweringConfig &config,
                                   const config::IterationSpace &space,
                                   const DeriveOptions &options = {});

// Each operand's layout, inputs then the output: the op's layout applied to
// the operand's indexing map (IREE's NestedLayoutAttr::apply). A packed
// dimension keeps its outer part in place and its inner part goes after the
// operand's dimensions, as linalg.pack puts it; a constant index gets unit
// tiles. The output of a partial reduction is the accumulator layout.
std::vector<config::NestedLayoutAttr>
operandLayouts(const DerivedLayout &derived,
               const config::IterationSpace &space);

// A contraction with mma_kind under VectorDistribute: the operand layouts
// IREE's getContractionLayout derives (subgroup tiles from subgroup_basis,
// the intrinsic's fragment on the innermost M/N/K dimensions, batches for
// the rest), over each operand's own dimensions.
struct ContractionLayouts {
  config::NestedLayoutAttr lhs, rhs, acc;
  std::string intrinsic;
  std::vector<int64_t> bounds; // per loop dimension: workgroup / reduction tile
  // Per operand (LHS, RHS, ACC), per vector dimension: the loop dimension it
  // indexes and its role, "d2 (K)", as the operand's indexing map orders
  // them (a transposed B is N x K).
  std::vector<std::string> lhsAxes, rhsAxes, accAxes;
  // Where IREE's layouts do not cover their operand's tile (col_major: the
  // batch counts follow the intrinsic's M x N, not the transposed
  // accumulator fragment).
  std::vector<std::string> notes;
};
Result<ContractionLayouts>
deriveContractionLayouts(const config::LoweringConfig &config,
                         const config::IterationSpace &space);

// A contraction without mma_kind under VectorDistribute (attention's Q.K^T
// and P.V in IREE's SIMT attention config): IREE's
// setGPULoweringConfigLayout gives the op one nested layout from its
// subgroup and lane bases and thread tiles and applies it to each operand's
// map. `intrinsic` stays empty.
Result<ContractionLayouts>
deriveSimtContractionLayouts(const config::LoweringConfig &config,
                             const config::IterationSpace &space);

// expand_dims applied to a space (reassociation, `?` inferred); an error
// says why IREE 3.11 would ignore it.
Result<config::IterationSpace> expandSpace(const config::IterationSpace &space,
                                           const config::ExpandDims &dims);

} // namespace tilescope::layout
