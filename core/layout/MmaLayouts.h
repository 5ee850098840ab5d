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

// The scales are operands of scaled intrinsics only (IREE's
// kScaledMMAOperandLhsScale / RhsScale; its operand order is LHS, RHS,
// LHS scale, RHS scale, ACC).
enum class MmaOperand { Lhs = 0, Rhs = 1, Acc = 2, LhsScale = 3, RhsScale = 4 };
const char *toString(MmaOperand operand); // "lhs", ..., "lhs_scale"
std::optional<MmaOperand> mmaOperandNamed(std::string_view name);

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
  // A scaled intrinsic (#iree_gpu.scaled_mma_layout): LHS is [M, K/block,
  // block], RHS [K/block, block, N], each with a scale per block; its input
  // types are parameters of the attribute, not part of the name.
  bool isScaled = false;
  int64_t blockSize = 0; // K elements per scale, scaled intrinsics only
  int64_t m = 0, n = 0, k = 0, blocks = 1;
  int64_t subgroupSize = 0;
  std::string aType, bType, cType;
  FragmentLayout lhs, rhs, acc;
  FragmentLayout lhsScale, rhsScale; // scaled intrinsics only
  const FragmentLayout &fragment(MmaOperand operand) const;
  // Its operands in IREE's order: LHS, RHS, ACC, or LHS, RHS, LHS scale, RHS
  // scale, ACC.
  std::vector<MmaOperand> operands() const;

  // A virtual intrinsic whose fragment names fewer threads than its
  // subgroup has lanes (VDMFMA LHS: 8 x 4 threads on 64 lanes) does not
  // replicate the fragment over the spare lanes when IREE distributes it:
  // the one element dimension divisible by `parts` is split among them, lane
  // group g taking elements [g * element / parts, (g + 1) * element / parts)
  // of each thread's run (VirtualMMAAttr::populateOperandOffsetsSizesStrides,
  // physicalLanesPerThread). The group is (lane / laneStride) % parts.
  struct LaneSplit {
    size_t dim = 0;
    int64_t parts = 1;
    int64_t laneStride = 1;
  };
  std::optional<LaneSplit> laneSplit(MmaOperand operand) const;
  // The operand coordinates `lane` holds as IREE distributes the intrinsic,
  // in register order (the fragment's elementsOf, split as above).
  std::vector<std::vector<int64_t>> laneElements(MmaOperand operand,
                                                 int64_t lane) const;
  // Which lane holds an operand coordinate (the lowest, where a tstride of 0
  // replicates it) and in which of its registers.
  struct Owner {
    int64_t lane = 0;
    int64_t reg = 0;
  };
  Owner ownerOf(MmaOperand operand,
                const std::vector<int64_t> &coordinate) const;
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
