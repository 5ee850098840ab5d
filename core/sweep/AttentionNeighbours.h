// An attention op's neighbours where IREE states no constraint space for it
// (sm_90: IREE 3.13 states attention's constraints for gfx942 only): beside
// its tiles halved and doubled, the subgroups along the query rows, the way
// IREE's attention config sets them (KernelConfig.cpp: one subgroup_basis
// count on M for both contractions, workgroup_size the subgroups' lanes).
#pragma once

#include "core/iree/Document.h"
#include "core/sweep/Sweep.h"

#include <vector>

namespace tilescope::jobs {

// For a VectorDistribute attention with a decomposition_config whose qk and
// pv bases count subgroups on the query rows (M): half and twice as many
// subgroups, each holding as many rows as now (the workgroup's M tile
// following, within the loop) or sharing the M tile as it is (where each
// keeps at least the intrinsic's M rows); both bases and workgroup_size
// follow. None for another op.
std::vector<SweepPoint> attentionSubgroupPoints(const iree::Document &document,
                                                edit::OpRef op);

// Every combination of the axes' values as points (the product planSweep
// makes of axes), each as far from the config as the entries it changes.
std::vector<SweepPoint> axisPoints(const iree::Document &document,
                                   edit::OpRef op,
                                   const std::vector<SweepAxis> &axes);

} // namespace tilescope::jobs
