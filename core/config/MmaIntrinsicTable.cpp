#include "core/config/MmaIntrinsicTable.h"

namespace tilescope::config {

const std::vector<MmaTableEntry> &mmaIntrinsicTable() {
  static const std::vector<MmaTableEntry> entries = {
#include "core/config/MmaIntrinsicTable.inc"
  };
  return entries;
}

} // namespace tilescope::config
