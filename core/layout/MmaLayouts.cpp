#include "core/layout/MmaLayouts.h"

#include "core/config/rules/Validation.h"
#include "core/config/syntax/MmaIntrinsicTable.h"
#include "core/layout/Odometer.h"

#include <algorithm>

namespace tilescope::layout {
namespace {

FragmentLayout toFragment(const config::MmaTableEntry::Fragment &f) {
  return FragmentLayout{f.outer, f.thread, f.tstrides, f.element};
}

// An intrinsic with what its name says: M, N, K (and blocks), subgroup size
// and element types.
MmaIntrinsic named(const char *name) {
  MmaIntrinsic intrinsic;
  intrinsic.name = name;
  if (auto shape = config::intrinsicShape(name)) {
    intrinsic.m = shape->m;
    intrinsic.n = shape->n;
    intrinsic.k = shape->k;
    intrinsic.blocks = shape->blocks;
    intrinsic.subgroupSize = shape->subgroupSize;
    intrinsic.aType = shape->aType;
    intrinsic.bType = shape->bType;
    intrinsic.cType = shape->cType;
  }
  return intrinsic;
}

std::vector<MmaIntrinsic> buildIntrinsics() {
  std::vector<MmaIntrinsic> intrinsics;
  for (const config::MmaTableEntry &entry : config::mmaIntrinsicTable()) {
    MmaIntrinsic intrinsic = named(entry.name);
    intrinsic.isVirtual = entry.isVirtual;
    intrinsic.lhs = toFragment(entry.lhs);
    intrinsic.rhs = toFragment(entry.rhs);
    intrinsic.acc = toFragment(entry.acc);
    intrinsics.push_back(std::move(intrinsic));
  }
  for (const config::ScaledMmaTableEntry &entry :
       config::scaledMmaIntrinsicTable()) {
    // K counts elements (K/block scales); the input types are the
    // attribute's, not the name's "B32".
    MmaIntrinsic intrinsic = named(entry.name);
    intrinsic.aType.clear();
    intrinsic.bType.clear();
    intrinsic.isScaled = true;
    intrinsic.blockSize = entry.blockSize;
    intrinsic.lhs = toFragment(entry.lhs);
    intrinsic.rhs = toFragment(entry.rhs);
    intrinsic.lhsScale = toFragment(entry.lhsScale);
    intrinsic.rhsScale = toFragment(entry.rhsScale);
    intrinsic.acc = toFragment(entry.acc);
    intrinsics.push_back(std::move(intrinsic));
  }
  return intrinsics;
}

// IREE's getSingleSubgroupLayout(intrinsic, operand, colMajor) swaps dims 0
// and 1, also of a 3-D block layout (block, outer, inner), as its code does.
void swapFirstTwoDims(std::vector<int64_t> &values) {
  if (values.size() >= 2)
    std::swap(values[0], values[1]);
}

} // namespace

const char *toString(MmaOperand operand) {
  switch (operand) {
  case MmaOperand::Lhs:
    return "lhs";
  case MmaOperand::Rhs:
    return "rhs";
  case MmaOperand::Acc:
    return "acc";
  case MmaOperand::LhsScale:
    return "lhs_scale";
  case MmaOperand::RhsScale:
    return "rhs_scale";
  }
  return "";
}

std::optional<MmaOperand> mmaOperandNamed(std::string_view name) {
  for (MmaOperand operand : {MmaOperand::Lhs, MmaOperand::Rhs, MmaOperand::Acc,
                             MmaOperand::LhsScale, MmaOperand::RhsScale})
    if (name == toString(operand))
      return operand;
  return std::nullopt;
}

std::vector<int64_t> FragmentLayout::shape() const {
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < outer.size(); ++i)
    sizes.push_back(outer[i] * thread[i] * element[i]);
  return sizes;
}

int64_t FragmentLayout::elementsPerLane() const {
  int64_t count = 1;
  for (size_t i = 0; i < outer.size(); ++i)
    count *= outer[i] * element[i];
  return outer.empty() ? 0 : count;
}

std::vector<std::vector<int64_t>>
FragmentLayout::elementsOf(int64_t lane) const {
  const size_t rank = outer.size();
  std::vector<std::vector<int64_t>> result;
  if (rank == 0)
    return result;
  std::vector<int64_t> threadId(rank);
  for (size_t i = 0; i < rank; ++i)
    threadId[i] = tstrides[i] == 0 ? 0 : (lane / tstrides[i]) % thread[i];
  // Registers: outer-major, element-minor: iterate (outer..., element...)
  // row-major.
  std::vector<int64_t> counter(2 * rank, 0);
  std::vector<int64_t> limits(2 * rank);
  for (size_t i = 0; i < rank; ++i) {
    limits[i] = outer[i];
    limits[rank + i] = element[i];
  }
  while (true) {
    std::vector<int64_t> coordinate(rank);
    for (size_t i = 0; i < rank; ++i)
      coordinate[i] = counter[i] * thread[i] * element[i] +
                      threadId[i] * element[i] + counter[rank + i];
    result.push_back(std::move(coordinate));
    if (!advanceOdometer(counter, limits))
      return result;
  }
}

std::vector<int64_t>
FragmentLayout::lanesAt(const std::vector<int64_t> &coordinates,
                        int64_t subgroupSize) const {
  std::vector<int64_t> lanes;
  const size_t rank = outer.size();
  if (rank == 0 || coordinates.size() != rank)
    return lanes;
  std::vector<int64_t> wanted(rank);
  for (size_t i = 0; i < rank; ++i)
    wanted[i] = (coordinates[i] / element[i]) % thread[i];
  for (int64_t lane = 0; lane < subgroupSize; ++lane) {
    bool match = true;
    for (size_t i = 0; i < rank && match; ++i) {
      const int64_t id =
          tstrides[i] == 0 ? 0 : (lane / tstrides[i]) % thread[i];
      match = id == wanted[i];
    }
    if (match)
      lanes.push_back(lane);
  }
  return lanes;
}

const FragmentLayout &MmaIntrinsic::fragment(MmaOperand operand) const {
  switch (operand) {
  case MmaOperand::Lhs:
    return lhs;
  case MmaOperand::Rhs:
    return rhs;
  case MmaOperand::LhsScale:
    return lhsScale;
  case MmaOperand::RhsScale:
    return rhsScale;
  case MmaOperand::Acc:
    break;
  }
  return acc;
}

std::vector<MmaOperand> MmaIntrinsic::operands() const {
  if (isScaled)
    return {MmaOperand::Lhs, MmaOperand::Rhs, MmaOperand::LhsScale,
            MmaOperand::RhsScale, MmaOperand::Acc};
  return {MmaOperand::Lhs, MmaOperand::Rhs, MmaOperand::Acc};
}

std::optional<MmaIntrinsic::LaneSplit>
MmaIntrinsic::laneSplit(MmaOperand operand) const {
  const FragmentLayout &f = fragment(operand);
  if (!isVirtual || f.outer.empty() || subgroupSize <= 0)
    return std::nullopt;
  int64_t threads = 1;
  for (int64_t t : f.thread)
    threads *= t;
  if (threads <= 0 || threads >= subgroupSize || subgroupSize % threads != 0)
    return std::nullopt;
  LaneSplit split;
  split.parts = subgroupSize / threads;
  // The one element dimension divisible among the spare lanes (none, or
  // several: IREE splits nothing).
  std::optional<size_t> dim;
  for (size_t d = 0; d < f.element.size(); ++d) {
    if (f.element[d] > 1 && f.element[d] % split.parts == 0) {
      if (dim)
        return std::nullopt;
      dim = d;
    }
  }
  if (!dim)
    return std::nullopt;
  split.dim = *dim;
  // The spare lanes are the gap in the thread strides (IREE's
  // basisFromSizesStrides leaves it as the one unused basis entry).
  std::vector<std::pair<int64_t, int64_t>> strides; // (tstride, thread)
  for (size_t d = 0; d < f.thread.size(); ++d)
    if (f.tstrides[d] > 0 && f.thread[d] > 1)
      strides.emplace_back(f.tstrides[d], f.thread[d]);
  std::sort(strides.begin(), strides.end());
  int64_t covered = 1;
  split.laneStride = -1;
  for (const auto &[stride, size] : strides) {
    if (stride > covered) {
      split.laneStride = covered;
      break;
    }
    covered = stride * size;
  }
  if (split.laneStride < 0)
    split.laneStride = covered;
  return split;
}

std::vector<std::vector<int64_t>>
MmaIntrinsic::laneElements(MmaOperand operand, int64_t lane) const {
  const FragmentLayout &f = fragment(operand);
  auto elements = f.elementsOf(lane);
  const auto split = laneSplit(operand);
  if (!split)
    return elements;
  const int64_t group = (lane / split->laneStride) % split->parts;
  const int64_t perLane = f.element[split->dim] / split->parts;
  std::erase_if(elements, [&](const std::vector<int64_t> &c) {
    return (c[split->dim] % f.element[split->dim]) / perLane != group;
  });
  return elements;
}

MmaIntrinsic::Owner
MmaIntrinsic::ownerOf(MmaOperand operand,
                      const std::vector<int64_t> &coordinate) const {
  const FragmentLayout &f = fragment(operand);
  const auto split = laneSplit(operand);
  Owner owner;
  int64_t outerIndex = 0, elementIndex = 0;
  for (size_t i = 0; i < f.outer.size() && i < coordinate.size(); ++i) {
    int64_t element = f.element[i];
    int64_t within = coordinate[i] % f.element[i];
    if (split && split->dim == i) {
      element /= split->parts;
      owner.lane += (within / element) * split->laneStride;
      within %= element;
    }
    const int64_t t = (coordinate[i] / f.element[i]) % f.thread[i];
    owner.lane += t * f.tstrides[i];
    outerIndex =
        outerIndex * f.outer[i] + coordinate[i] / (f.thread[i] * f.element[i]);
    elementIndex = elementIndex * element + within;
  }
  int64_t elementCount = 1;
  for (size_t i = 0; i < f.element.size(); ++i)
    elementCount *=
        split && split->dim == i ? f.element[i] / split->parts : f.element[i];
  owner.reg = outerIndex * elementCount + elementIndex;
  return owner;
}

MmaIntrinsic MmaIntrinsic::colMajor() const {
  // IREE (IREEGPUAttrs.cpp, getSingleSubgroupLayout(mmaKind, operandIndex))
  // passes `operandIndex == kMMAOperandAcc && getColMajor()`: only the
  // accumulator is transposed; the MFMA/WMMA swaps its LHS and RHS inputs to
  // produce it, and M, N, K stay as they are.
  MmaIntrinsic swapped = *this;
  FragmentLayout &acc = swapped.acc;
  swapFirstTwoDims(acc.outer);
  swapFirstTwoDims(acc.thread);
  swapFirstTwoDims(acc.tstrides);
  swapFirstTwoDims(acc.element);
  return swapped;
}

std::optional<XorShuffleBounds>
xorShuffleBounds(const FragmentLayout &fragment) {
  // A layout-less intrinsic (NV_WMMA_*) gives empty products, 1 and 1, as
  // IREE's does.
  XorShuffleBounds bounds{1, 1};
  for (int64_t e : fragment.element)
    bounds.minAccessElements *= e;
  for (int64_t size : fragment.shape())
    bounds.totalTileElements *= size;
  return bounds;
}

const std::vector<MmaIntrinsic> &mmaIntrinsics() {
  static const std::vector<MmaIntrinsic> intrinsics = buildIntrinsics();
  return intrinsics;
}

const MmaIntrinsic *findMmaIntrinsic(std::string_view name) {
  const auto &all = mmaIntrinsics();
  auto it = std::find_if(all.begin(), all.end(),
                         [&](const MmaIntrinsic &i) { return i.name == name; });
  return it == all.end() ? nullptr : &*it;
}

} // namespace tilescope::layout
