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

} // namespace tilescope::config
