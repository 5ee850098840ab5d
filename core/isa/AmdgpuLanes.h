// A wave's lanes (or a workgroup's) running AMDGPU assembly's vector and
// scalar integer arithmetic in lockstep, for the readers of its addresses
// (the LDS banks, the accumulators' stores): v0 holds each lane's work-item
// ids (packed x | y << 10 | z << 20 where the kernel asks for y or z); a
// scalar register never seen set (a kernel argument, the workgroup's ids)
// is the same in every lane and unknown, unless named among the registers
// taken as 0 (the first workgroup's ids).
#pragma once

#include "core/isa/AmdgpuText.h"
#include "core/isa/LaneValues.h"

#include <map>
#include <string>
#include <vector>

namespace tilescope::isa {

class AmdgpuLanes {
public:
  struct Shape {
    size_t lanes = 64;
    int64_t x = 64, y = 1;
    bool packedIds = false; // v0 packs x, y and z
    std::vector<std::string> zeroRegisters;
  };
  explicit AmdgpuLanes(const Shape &shape);
  // Every thread of `kernel`'s first workgroup (its ids' SGPRs taken as 0).
  static Shape firstWorkgroupOf(const AmdgpuKernelText &kernel);

  Lanes read(const std::string &operand, size_t line) const;
  // Runs one statement; what it writes is kept.
  void run(const AmdgpuStatement &statement);

private:
  void write(const std::string &operand, const Lanes &value);

  size_t lanes;
  std::map<std::string, Lanes> registers;
};

// A global or buffer access's byte address in each lane, from the lanes
// as they stand before it runs: a buffer's offset from its resource's
// base, a global one's from its scalar base or, for a 64-bit address, the
// low half's (the same unknown base in every lane).
Lanes amdgpuGlobalAddress(const AmdgpuStatement &s, const AmdgpuLanes &lanes,
                          size_t threads);

} // namespace tilescope::isa
