// Reads a lane-distributed scf.forall into a LaneDistribution (LaneSlices.h).
// Private to core/iree/.
#pragma once

#include "core/document/LoweredIr.h"
#include "core/iree/detail/Ir.h"

namespace tilescope::iree::detail {

// `forall` is an scf.forall mapped to #iree_gpu.lane_id.
document::LaneDistribution readLaneDistribution(const Ir &ir, MlirOperation forall);

} // namespace tilescope::iree::detail
