#include "core/layout/TileBounds.h"

#include "core/util/Numbers.h"

#include <algorithm>

namespace tilescope::layout {

std::vector<int64_t>
workgroupIterationBounds(const config::LoweringConfig &config,
                         const config::IterationSpace &space,
                         const std::vector<int64_t> &reductionUnits) {
  const size_t rank = space.rank();
  const auto workgroup =
      zeroPadded(config.tileSizes(config::TilingLevel::Workgroup), rank);
  const auto reduction =
      zeroPadded(config.tileSizes(config::TilingLevel::Reduction), rank);
  std::vector<int64_t> bounds(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t size = space.bounds[d];
    int64_t tile = workgroup[d];
    if (space.isReduction(d)) {
      const int64_t unit = d < reductionUnits.size()
                               ? std::max<int64_t>(reductionUnits[d], 1)
                               : 1;
      tile = reduction[d] > 0 ? saturatingMultiply(reduction[d], unit) : 0;
    }
    bounds[d] = tile > 0 ? std::min(tile, size) : size;
  }
  return bounds;
}

} // namespace tilescope::layout
