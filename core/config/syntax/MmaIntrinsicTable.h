// The MMA intrinsics of the pinned IREE with their fragment layouts, as
// `tilescope-cli mma-layouts --cpp` wrote them into MmaIntrinsicTable.inc
// from the loaded IREE. One copy, read by the syntax checker (which names
// IREE knows) and by core/layout (the fragments themselves).
#pragma once

#include <cstdint>
#include <vector>

namespace tilescope::config {

struct MmaTableEntry {
  const char *name;
  bool isVirtual;
  struct Fragment {
    std::vector<int64_t> outer, thread, tstrides, element;
  } lhs, rhs, acc;
};

const std::vector<MmaTableEntry> &mmaIntrinsicTable();

// The scaled MMA intrinsics (MFMA_SCALE_*, #iree_gpu.scaled_mma_layout):
// five operands, LHS [M, K/block, block], RHS [K/block, block, N], their
// scales [M, K/block] and [K/block, N], and ACC [M, N]. IREE's C API reports
// no layout for them (ireeGPUGetSingleSubgroupLayout takes MMA and virtual
// MMA intrinsics only), so these are written from IREE's
// getSingleSubgroupLayout(ScaledMMAIntrinsic) and held to what IREE's own
// lane distribution reads, lane by lane, by
// tests/core/iree/tst_lane_fragments.cpp.
struct ScaledMmaTableEntry {
  const char *name;
  int64_t blockSize;
  MmaTableEntry::Fragment lhs, rhs, lhsScale, rhsScale, acc;
};
const std::vector<ScaledMmaTableEntry> &scaledMmaIntrinsicTable();

} // namespace tilescope::config
