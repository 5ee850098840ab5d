#include "core/layout/TileBounds.h"

#include "core/util/Numbers.h"

#include <algorithm>

namespace tilescope::layout {

WorkgroupIteration
workgroupIteration(const config::LoweringConfig &config,
                   const config::IterationSpace &space,
                   const std::vector<int64_t> &reductionUnits,
                   const std::vector<int64_t> &workgroupTile) {
  const size_t rank = space.rank();
  const auto workgroup =
      workgroupTile.size() == rank
          ? workgroupTile
          : zeroPadded(config.tileSizes(config::TilingLevel::Workgroup), rank);
  const auto reduction =
      zeroPadded(config.tileSizes(config::TilingLevel::Reduction), rank);
  const auto partial =
      zeroPadded(config.tileSizes(config::TilingLevel::PartialReduction), rank);
  const auto serial =
      zeroPadded(config.tileSizes(config::TilingLevel::Serial), rank);
  WorkgroupIteration result;
  result.bounds.assign(rank, 0);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t size = space.bounds[d];
    int64_t &bound = result.bounds[d];
    if (!space.isReduction(d)) {
      // A tile that does not divide its loop leaves a dynamic size whose
      // upper bound (the tile) IREE lays out.
      const int64_t tile =
          workgroup[d] > 0 ? std::min(workgroup[d], size) : size;
      result.workgroupTile.push_back(tile);
      result.workgroupCounts.push_back(ceilDiv(size, tile));
      result.workgroupCount = saturatingMultiply(result.workgroupCount,
                                                 result.workgroupCounts.back());
      bound = tile;
    } else {
      result.workgroupTile.push_back(size);
      result.workgroupCounts.push_back(1);
      const int64_t unit = d < reductionUnits.size()
                               ? std::max<int64_t>(reductionUnits[d], 1)
                               : 1;
      int64_t chunk = size;
      if (reduction[d] > 0)
        chunk = std::min(saturatingMultiply(reduction[d], unit), chunk);
      // partial_reduction is padded to a multiple of its tile
      // (GPUApplyPaddingLevel); a step holds the smaller of the two levels.
      if (partial[d] > 0)
        chunk = std::min(partial[d], chunk);
      bound = chunk;
      if (chunk < size)
        result.reductionLoops.push_back(
            {d, size, chunk, ceilDiv(size, chunk),
             partial[d] > 0 ? "partial_reduction" : "reduction"});
    }
    // `serial` tiles the loop again, in a loop inside the workgroup.
    if (serial[d] > 0 && serial[d] < bound) {
      result.notes.push_back(
          "serial loop over d" + std::to_string(d) + ": " +
          std::to_string(bound) + " / " + std::to_string(serial[d]) + " = " +
          std::to_string(ceilDiv(bound, serial[d])) + " iterations");
      bound = serial[d];
    }
  }
  return result;
}

std::vector<int64_t>
workgroupIterationBounds(const config::LoweringConfig &config,
                         const config::IterationSpace &space,
                         const std::vector<int64_t> &reductionUnits) {
  return workgroupIteration(config, space, reductionUnits).bounds;
}

} // namespace tilescope::layout
