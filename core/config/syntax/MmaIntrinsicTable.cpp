#include "core/config/syntax/MmaIntrinsicTable.h"

namespace tilescope::config {

const std::vector<MmaTableEntry> &mmaIntrinsicTable() {
  static const std::vector<MmaTableEntry> entries = {
#include "core/config/syntax/MmaIntrinsicTable.inc"
  };
  return entries;
}

const std::vector<ScaledMmaTableEntry> &scaledMmaIntrinsicTable() {
  // Each fragment: {outer, thread, tstrides, element}.
  static const std::vector<ScaledMmaTableEntry> entries = {
      {"MFMA_SCALE_F32_16x16x128_B32",
       32,
       {{1, 1, 1}, {16, 4, 1}, {1, 16, 1}, {1, 1, 32}},
       {{1, 1, 1}, {4, 1, 16}, {16, 1, 1}, {1, 32, 1}},
       {{1, 1}, {16, 4}, {1, 16}, {1, 1}},
       {{1, 1}, {4, 16}, {16, 1}, {1, 1}},
       {{1, 1}, {4, 16}, {16, 1}, {4, 1}}},
      {"MFMA_SCALE_F32_32x32x64_B32",
       32,
       {{1, 1, 1}, {32, 2, 1}, {1, 32, 1}, {1, 1, 32}},
       {{1, 1, 1}, {2, 1, 32}, {32, 1, 1}, {1, 32, 1}},
       {{1, 1}, {32, 2}, {1, 32}, {1, 1}},
       {{1, 1}, {2, 32}, {32, 1}, {1, 1}},
       {{4, 1}, {2, 32}, {32, 1}, {4, 1}}},
  };
  return entries;
}

} // namespace tilescope::config
