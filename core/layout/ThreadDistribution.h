// How IREE's TileAndFuse pipeline spreads a workgroup tile over threads and
// subgroups, and the tiles it derives for ops it gives
// #iree_gpu.derived_thread_config (copies of promoted operands, gathers).
//
// GPUApplyTilingLevel tiles every loop with a non-zero `thread` (or
// `subgroup`) size into an scf.forall, mapped to #gpu.thread (#gpu.warp)
// linear dimensions in descending order: the last tiled loop is
// linear_dim_0, the fastest. GPUDistributeForall then hands forall
// iteration p (row-major over the forall's trip counts) to linear worker
// p mod W, in rounds p = w, w + W, w + 2W, ... (W = threads, or subgroups).
// The linear thread id is z, y, x over workgroup_size, x fastest.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LayoutAttributes.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/util/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::layout {

struct ForallDistribution {
  std::string level; // "thread" or "subgroup"
  // Per loop of the op: its bound within the workgroup tile, and its tile
  // size at this level (0: not distributed).
  std::vector<int64_t> bounds, tiles;
  // The forall's dimensions: the loops with a non-zero tile, in loop order,
  // each with its trip count and #gpu.*<linear_dim_N> id.
  std::vector<size_t> loops;
  std::vector<int64_t> tripCounts;
  std::vector<int> linearDims;
  int64_t workers = 1;                // threads (or subgroups) of the workgroup
  std::vector<int64_t> workgroupSize; // x, y, z (threads)
  int64_t subgroupSize = 0;           // the subgroup level's lanes
  // Loop units: 1 element, or an intrinsic's M/N/K for the subgroup level of
  // an MMA config (its tiles count intrinsics); which of "M", "N", "K" each
  // such loop is ("" elsewhere), and the intrinsic.
  std::vector<int64_t> unit;
  std::vector<std::string> role;
  std::string intrinsic;

  int64_t iterations() const;
  // Rounds the slowest worker runs: ceil(iterations / workers).
  int64_t rounds() const;
  // Workers with no iteration at all (workgroup larger than the forall).
  int64_t idleWorkers() const;
  // Which forall iteration holds a loop coordinate (in elements of the
  // workgroup tile), and which worker runs it.
  int64_t iterationOf(const std::vector<int64_t> &coordinate) const;
  int64_t workerOf(const std::vector<int64_t> &coordinate) const;
  // The iterations a worker runs, and the first element of each, per loop.
  std::vector<int64_t> iterationsOf(int64_t worker) const;
  std::vector<int64_t> tileOrigin(int64_t iteration) const;
  // The subgroup level of an MMA config: who holds the result element at
  // `coordinate` (elements of the workgroup tile, per loop): the subgroup
  // and the round it runs the element's tile in, and the lane (and its
  // thread) and accumulator register of the intrinsic's fragment. None
  // without an intrinsic on M and N loops.
  struct AccumulatorOwner {
    int64_t subgroup = 0, round = 0, lane = 0, reg = 0, thread = 0;
  };
  std::optional<AccumulatorOwner>
  accumulatorOwnerOf(const std::vector<int64_t> &coordinate) const;
  // A linear thread id as workgroup coordinates x, y, z (x fastest).
  std::vector<int64_t> threadCoordinates(int64_t thread) const;
};

// The thread level of a TileAndFuse config on an op: bounds are the
// workgroup tile (parallel loops) and the reduction tile (reduction loops).
Result<ForallDistribution>
tileAndFuseThreads(const config::LoweringConfig &config,
                   const config::IterationSpace &space,
                   const std::vector<int64_t> &workgroupSize);

// Under TileAndFuse with mma_kind, `subgroup` and `reduction` count
// intrinsic tiles along the contraction's innermost M, N and K loops
// (GPUPackToIntrinsics runs before those levels are tiled): the elements
// one unit stands for, per loop (1 elsewhere), and which of M, N, K (or a
// scaled intrinsic's "K block") each such loop is.
struct IntrinsicUnits {
  std::string intrinsic;
  std::vector<int64_t> unit;
  std::vector<std::string> role;
};
Result<IntrinsicUnits>
tileAndFuseIntrinsicUnits(const config::LoweringConfig &config,
                          const config::IterationSpace &space);

// The subgroup level of a TileAndFuse config with mma_kind: `subgroup`
// counts intrinsic tiles of the workgroup tile's M and N.
Result<ForallDistribution> tileAndFuseSubgroups(
    const config::LoweringConfig &config, const config::IterationSpace &space,
    const std::vector<int64_t> &workgroupSize, int64_t subgroupSize);

// #iree_gpu.derived_thread_config: IREE's deriveThreadTileSizes for a linalg
// op with these loop ranges (reduction loops get 0), `threads` threads and
// results of `elementBits` bits: 128-bit vectors along the innermost loop,
// widened across whole inner loops where the trips allow.
std::vector<int64_t>
derivedThreadTileSizes(const std::vector<int64_t> &loopRanges,
                       const std::vector<config::LoopKind> &kinds,
                       int64_t threads, int64_t elementBits);

// The nested layout VectorDistribute gives a derived_thread_config op
// (getDerivedThreadLayout): threads fill the loops innermost first.
Result<config::NestedLayoutAttr>
derivedThreadLayout(const std::vector<int64_t> &workgroupSize,
                    const std::vector<int64_t> &shape,
                    const std::vector<int64_t> &elementTile);

// A generic forall over `bounds` tiled by `tiles` for `workers` workers.
ForallDistribution distributeForall(std::string level,
                                    const std::vector<int64_t> &bounds,
                                    const std::vector<int64_t> &tiles,
                                    int64_t workers);

} // namespace tilescope::layout
