// The extent of one workgroup iteration of an op's loops: what a
// workgroup holds of each loop at once, and what its thread and subgroup
// tiles divide. The one place this is worked out (the distributions of
// VectorDistribute and TileAndFuse, the bank view's shared-memory rows).
#pragma once

#include "core/config/IterationSpace.h"
#include "core/config/LoweringConfig.h"

#include <cstdint>
#include <vector>

namespace tilescope::layout {

// Per loop: the workgroup tile along a parallel loop, the reduction tile
// along a reduction loop, each clamped to the loop's bound; the whole loop
// where the level has no tile (or the tile is 0). `reductionUnits[d]`, when
// given, is what one reduction-tile step of loop d holds in elements (an
// intrinsic's K under TileAndFuse with an mma_kind, which counts its
// reduction tiles in intrinsic K's); otherwise tiles are in elements.
std::vector<int64_t>
workgroupIterationBounds(const config::LoweringConfig &config,
                         const config::IterationSpace &space,
                         const std::vector<int64_t> &reductionUnits = {});

} // namespace tilescope::layout
