// Every MMA intrinsic the pinned IREE knows, with the per-lane fragment
// layouts of its LHS, RHS and ACC operands (IREE's MMASingleSubgroupLayout:
// outer, thread, tstrides, element per operand dimension).
//
// Lane l holds, for every outer index o and element index e, the operand
// element at o * thread * element + ((l / tstrides) % thread) * element + e
// per dimension; registers are outer-major, element-minor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::layout {

enum class MmaOperand { Lhs = 0, Rhs = 1, Acc = 2 };
const char *toString(MmaOperand operand);

struct FragmentLayout {
  std::vector<int64_t> outer, thread, tstrides, element; // 2 (or 3) dims
  std::vector<int64_t> shape() const; // per dim outer * thread * element
  int64_t elementsPerLane() const;
  // The operand coordinates lane `lane` holds, in register order.
  std::vector<std::vector<int64_t>> elementsOf(int64_t lane) const;
  // The lanes holding an operand coordinate (several when a tstride is 0).
  std::vector<int64_t> lanesAt(const std::vector<int64_t> &coordinates,
                               int64_t subgroupSize) const;
};

struct MmaIntrinsic {
  std::string name; // "MFMA_F32_16x16x16_F16"
  bool isVirtual = false;
  int64_t m = 0, n = 0, k = 0, blocks = 1;
  int64_t subgroupSize = 0;
  std::string aType, bType, cType;
  FragmentLayout lhs, rhs, acc;
  const FragmentLayout &fragment(MmaOperand operand) const;
  // col_major transposes the accumulator's layout (dims 0 and 1) and leaves
  // LHS, RHS and M, N, K as they are, as IREE does.
  MmaIntrinsic colMajor() const;
};

// What an XOR swizzle of an operand tile must respect (as IREE's
// ireeGPUGetXorShuffleBounds): accesses of at least the lane's contiguous
// elements, over the whole operand tile (1 and 1 for a layout-less one).
struct XorShuffleBounds {
  int64_t minAccessElements = 0;
  int64_t totalTileElements = 0;
};
std::optional<XorShuffleBounds>
xorShuffleBounds(const FragmentLayout &fragment);

const std::vector<MmaIntrinsic> &mmaIntrinsics();
const MmaIntrinsic *findMmaIntrinsic(std::string_view name);

} // namespace tilescope::layout
