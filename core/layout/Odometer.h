// Counting through a box of indices, last index fastest: the register order
// of distributed vectors and the enumeration of basis digits.
#pragma once

#include <cstdint>
#include <vector>

namespace tilescope::layout {

// Steps `counter` to the next index below `limits` (row-major); false once
// every index has been visited (the counter is back at all zeros).
inline bool advanceOdometer(std::vector<int64_t> &counter,
                            const std::vector<int64_t> &limits) {
  for (size_t d = counter.size(); d-- > 0;) {
    if (++counter[d] < limits[d])
      return true;
    counter[d] = 0;
  }
  return false;
}

} // namespace tilescope::layout
