// TileAndFuse pictures: which linear thread (or subgroup) runs which tile of
// the workgroup tile, as IREE's thread/subgroup tiling and
// GPUDistributeForall hand them out.
#pragma once

#include "core/layout/ThreadDistribution.h"
#include "widgets/render/GridScene.h"
#include "widgets/render/Scenes.h"

#include <memory>
#include <vector>

namespace tilescope::render {

// The workgroup tile over loops `rowLoop` x `columnLoop` (the others held
// where `slice` says, 0 where it does not), each element coloured by the
// thread (or subgroup) that runs it; labels add the round when workers run
// several tiles. A subgroup distribution of an intrinsic colours by lane or
// register where asked: the lane and accumulator register of the intrinsic
// tile that holds each element of the result (IREE's ACC fragment).
GridScene distributionScene(
    std::shared_ptr<const layout::ForallDistribution> distribution,
    size_t rowLoop, size_t columnLoop, const QString &subtitle = {},
    const std::vector<int64_t> &slice = {},
    ColorBy colorBy = ColorBy::Subgroup);

} // namespace tilescope::render
