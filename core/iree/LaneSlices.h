// What each lane reads of a lane-distributed forall: the document model's
// (core/document/LoweredIr.h), by the names core/iree has always used.
#pragma once

#include "core/document/LoweredIr.h"

namespace tilescope::iree {
using document::LaneDistribution;
using document::LaneSlice;
} // namespace tilescope::iree
