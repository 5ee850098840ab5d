// One workgroup iteration of an op's loops: the workgroup grid, the loops a
// workgroup walks (reduction and partial-reduction steps, serial tiles) and
// what one iteration holds of each loop. The one place this is worked out:
// the VectorDistribute layout (ConfigLayout), TileAndFuse's thread and
// subgroup distributions and the bank view's shared-memory rows all start
// from it.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::layout {

struct ReductionLoop {
  size_t dimension = 0;   // in the original iteration space
  int64_t size = 0;       // the dimension's bound
  int64_t chunk = 0;      // elements per iteration
  int64_t iterations = 0; // ceil(size / chunk)
  // The tiling level that makes the loop: "partial_reduction" (per-thread
  // partial sums kept across iterations) or "reduction".
  std::string level;
};

struct WorkgroupIteration {
  // Per loop: the workgroup's tile (the whole loop along a reduction loop)
  // and how many workgroups the grid has along it.
  std::vector<int64_t> workgroupTile, workgroupCounts;
  int64_t workgroupCount = 1;
  // The reduction loops a workgroup walks, in loop order.
  std::vector<ReductionLoop> reductionLoops;
  // Per loop: what one iteration holds. A parallel loop's workgroup tile, a
  // reduction loop's step (the smaller of its reduction and
  // partial_reduction tiles), each clamped to the loop and tiled again by
  // `serial` where that is smaller; the whole loop where nothing tiles it.
  std::vector<int64_t> bounds;
  std::vector<std::string> notes; // the serial loops, in words
};

// `workgroupTile`, when given (one entry per loop), stands for the config's
// own workgroup level (an op fused into the root op's tiles).
// `reductionUnits[d]`, when given, is what one reduction-tile step of loop d
// holds in elements (an intrinsic's K under TileAndFuse with an mma_kind,
// which counts its reduction tiles in intrinsic K's); otherwise tiles are in
// elements.
WorkgroupIteration
workgroupIteration(const config::LoweringConfig &config,
                   const config::IterationSpace &space,
                   const std::vector<int64_t> &reductionUnits = {},
                   const std::vector<int64_t> &workgroupTile = {});

// workgroupIteration(...).bounds.
std::vector<int64_t>
workgroupIterationBounds(const config::LoweringConfig &config,
                         const config::IterationSpace &space,
                         const std::vector<int64_t> &reductionUnits = {});

} // namespace tilescope::layout
