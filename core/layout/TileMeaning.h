// What the numbers of a tile list mean for an op under its pipeline, loop
// by loop: the unit each number counts (elements, or under TileAndFuse with
// mma_kind intrinsic tiles of M, N or K for `subgroup` and `reduction`),
// the elements that makes, what it divides (the loop, or the workgroup
// tile) and how many pieces result (workgroups, reduction steps, threads,
// subgroups). The config editor's tile editor shows it as a person types;
// the same reading drives the layout views (ThreadDistribution's units).
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/util/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::layout {

struct TileEntryMeaning {
  size_t dim = 0;
  int64_t bound = 0;    // the loop's bound (config::kDynamicSize: dynamic)
  int64_t value = 0;    // the number as written
  int64_t unit = 1;     // elements one unit stands for
  std::string unitName; // "elements", "MFMA_F32_16x16x16_F16 K (16)"
  int64_t elements = 0; // value x unit; 0: this level leaves the loop alone
  int64_t over = 0;     // what it divides (the loop, or the workgroup tile)
  int64_t count = 0;    // ceil(over / elements); 0 when not tiled or unknown
  std::string text;     // the whole reading, in a line
};

struct TileLevelMeaning {
  std::string level;  // "workgroup", "reduction", ...
  std::string pieces; // what the count counts: "workgroups", "steps", ...
  std::vector<TileEntryMeaning> entries; // one per loop
};

// `values` for the lowering-config key `level` ("workgroup", "reduction",
// "partial_reduction", "serial", "thread", "subgroup") on an op with
// `space`, the rest of its config `config`, compiled by `pipeline`
// ("TileAndFuse", "VectorDistribute", ... or empty: unknown). An Error for
// a key that is not a tile level or values that are not one per loop.
Result<TileLevelMeaning> describeTileLevel(const std::string &level,
                                           const std::vector<int64_t> &values,
                                           const config::LoweringConfig &config,
                                           const config::IterationSpace &space,
                                           const std::string &pipeline);

} // namespace tilescope::layout
