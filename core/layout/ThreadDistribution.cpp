#include "core/layout/ThreadDistribution.h"

#include "core/config/rules/Validation.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/TileBounds.h"
#include "core/util/Numbers.h"

#include <algorithm>

namespace tilescope::layout {

int64_t ForallDistribution::iterations() const {
  int64_t total = 1;
  for (int64_t trips : tripCounts)
    total = saturatingMultiply(total, trips);
  return total;
}

int64_t ForallDistribution::rounds() const {
  return ceilDiv(iterations(), std::max<int64_t>(workers, 1));
}

int64_t ForallDistribution::idleWorkers() const {
  return std::max<int64_t>(workers - iterations(), 0);
}

int64_t
ForallDistribution::iterationOf(const std::vector<int64_t> &coordinate) const {
  int64_t iteration = 0;
  for (size_t i = 0; i < loops.size(); ++i) {
    const size_t loop = loops[i];
    const int64_t value = loop < coordinate.size() ? coordinate[loop] : 0;
    const int64_t index =
        value /
        std::max<int64_t>(saturatingMultiply(tiles[loop], unit[loop]), 1);
    iteration = saturatingAdd(saturatingMultiply(iteration, tripCounts[i]),
                              std::min(index, tripCounts[i] - 1));
  }
  return iteration;
}

int64_t
ForallDistribution::workerOf(const std::vector<int64_t> &coordinate) const {
  return iterationOf(coordinate) % std::max<int64_t>(workers, 1);
}

std::vector<int64_t> ForallDistribution::iterationsOf(int64_t worker) const {
  std::vector<int64_t> result;
  for (int64_t p = worker; p < iterations(); p += std::max<int64_t>(workers, 1))
    result.push_back(p);
  return result;
}

std::vector<int64_t> ForallDistribution::tileOrigin(int64_t iteration) const {
  std::vector<int64_t> origin(bounds.size(), 0);
  for (size_t i = loops.size(); i-- > 0;) {
    const int64_t index = iteration % tripCounts[i];
    iteration /= tripCounts[i];
    origin[loops[i]] = saturatingMultiply(
        index, saturatingMultiply(tiles[loops[i]], unit[loops[i]]));
  }
  return origin;
}

std::optional<ForallDistribution::AccumulatorOwner>
ForallDistribution::accumulatorOwnerOf(
    const std::vector<int64_t> &coordinate) const {
  const MmaIntrinsic *mma = level == "subgroup" && !intrinsic.empty()
                                ? findMmaIntrinsic(intrinsic)
                                : nullptr;
  const auto m = std::find(role.begin(), role.end(), "M");
  const auto n = std::find(role.begin(), role.end(), "N");
  if (!mma || m == role.end() || n == role.end())
    return std::nullopt;
  const size_t mLoop = static_cast<size_t>(m - role.begin());
  const size_t nLoop = static_cast<size_t>(n - role.begin());
  if (mLoop >= coordinate.size() || nLoop >= coordinate.size())
    return std::nullopt;
  const MmaIntrinsic::Owner fragment =
      mma->ownerOf(MmaOperand::Acc, {coordinate[mLoop] % unit[mLoop],
                                     coordinate[nLoop] % unit[nLoop]});
  const int64_t iteration = iterationOf(coordinate);
  const int64_t w = std::max<int64_t>(workers, 1);
  AccumulatorOwner owner;
  owner.subgroup = iteration % w;
  owner.round = iteration / w;
  owner.lane = fragment.lane;
  owner.reg = fragment.reg;
  owner.thread = owner.subgroup * subgroupSize + fragment.lane;
  return owner;
}

std::vector<int64_t>
ForallDistribution::threadCoordinates(int64_t thread) const {
  std::vector<int64_t> xyz;
  for (int64_t size : workgroupSize) {
    const int64_t extent = std::max<int64_t>(size, 1);
    xyz.push_back(thread % extent);
    thread /= extent;
  }
  return xyz;
}

ForallDistribution distributeForall(std::string level,
                                    const std::vector<int64_t> &bounds,
                                    const std::vector<int64_t> &tiles,
                                    int64_t workers) {
  ForallDistribution result;
  result.level = std::move(level);
  result.bounds = bounds;
  result.tiles = tiles;
  result.tiles.resize(bounds.size(), 0);
  result.unit.assign(bounds.size(), 1);
  result.workers = workers;
  for (size_t d = 0; d < bounds.size(); ++d) {
    if (result.tiles[d] <= 0)
      continue;
    result.loops.push_back(d);
    result.tripCounts.push_back(ceilDiv(bounds[d], result.tiles[d]));
  }
  // GPUApplyTilingLevel numbers tiled loops linear_dim_0, 1, ... in loop
  // order and reverses the list: the last tiled loop is linear_dim_0.
  const int count = static_cast<int>(result.loops.size());
  for (int i = 0; i < count; ++i)
    result.linearDims.push_back(count - 1 - i);
  return result;
}

Result<ForallDistribution>
tileAndFuseThreads(const config::LoweringConfig &config,
                   const config::IterationSpace &space,
                   const std::vector<int64_t> &workgroupSize) {
  const size_t rank = space.rank();
  for (int64_t bound : space.bounds)
    if (bound <= 0)
      return Error{"thread distribution needs static bounds (" +
                   space.toString() + ")"};
  auto thread = config.tileSizes(config::TilingLevel::Thread);
  if (!thread)
    return Error{"the config has no thread tile sizes"};
  if (thread->size() > rank)
    return Error{"thread has " + std::to_string(thread->size()) +
                 " sizes for a " + std::to_string(rank) + "-D op"};
  ForallDistribution result = distributeForall(
      "thread", workgroupIterationBounds(config, space),
      zeroPadded(thread, rank), saturatingProduct(workgroupSize));
  result.workgroupSize = workgroupSize;
  return result;
}

Result<IntrinsicUnits>
tileAndFuseIntrinsicUnits(const config::LoweringConfig &config,
                          const config::IterationSpace &space) {
  auto mma = config.mmaKind();
  if (!mma)
    return Error{"the config has no mma_kind"};
  auto shape = config::intrinsicShape(mma->intrinsic);
  if (!shape)
    return Error{"unknown intrinsic " + mma->intrinsic};
  auto dims = config::inferContraction(space);
  if (!dims)
    return Error{"the op is not a contraction"};
  IntrinsicUnits units;
  units.intrinsic = mma->intrinsic;
  units.unit.assign(space.rank(), 1);
  units.role.assign(space.rank(), "");
  const auto place = [&](int loop, int64_t size, const char *role) {
    if (loop < 0 || size <= 0)
      return;
    units.unit[static_cast<size_t>(loop)] = size;
    units.role[static_cast<size_t>(loop)] = role;
  };
  if (!dims->m.empty())
    place(dims->m.back(), shape->m, "M");
  if (!dims->n.empty())
    place(dims->n.back(), shape->n, "N");
  // A scaled intrinsic's K is K/block scale steps of `block` elements
  // (GPUPackToIntrinsics packs the k and kB dims apart).
  const MmaIntrinsic *intrinsic = findMmaIntrinsic(mma->intrinsic);
  if (intrinsic && intrinsic->isScaled && !dims->kB.empty()) {
    if (!dims->k.empty())
      place(dims->k.back(), shape->k / intrinsic->blockSize, "K");
    place(dims->kB.back(), intrinsic->blockSize, "K block");
  } else if (!dims->k.empty()) {
    place(dims->k.back(), shape->k, "K");
  }
  return units;
}

Result<ForallDistribution> tileAndFuseSubgroups(
    const config::LoweringConfig &config, const config::IterationSpace &space,
    const std::vector<int64_t> &workgroupSize, int64_t subgroupSize) {
  auto subgroup = config.tileSizes(config::TilingLevel::Subgroup);
  if (config.mmaKind() && !subgroup)
    return Error{"the config has no subgroup tile sizes"};
  auto units = tileAndFuseIntrinsicUnits(config, space);
  if (!units)
    return Error{units.error()};
  if (!subgroup)
    return Error{"the config has no subgroup tile sizes"};
  if (subgroupSize <= 0)
    return Error{"the subgroup size is unknown"};
  const size_t rank = space.rank();
  // With mma_kind, `workgroup` is in elements but `reduction` counts
  // intrinsic K tiles (GPUPackToIntrinsics runs before reduction tiling);
  // the innermost M, N and K loops count intrinsic tiles from here on.
  std::vector<int64_t> bounds =
      workgroupIterationBounds(config, space, units->unit);
  for (size_t d = 0; d < rank && d < units->unit.size(); ++d)
    if (units->unit[d] > 1)
      bounds[d] = ceilDiv(bounds[d], units->unit[d]);
  ForallDistribution result =
      distributeForall("subgroup", bounds, zeroPadded(*subgroup, rank),
                       saturatingProduct(workgroupSize) / subgroupSize);
  result.unit = units->unit;
  result.role = units->role;
  result.role.resize(rank);
  result.intrinsic = units->intrinsic;
  result.workgroupSize = workgroupSize;
  result.subgroupSize = subgroupSize;
  return result;
}

std::vector<int64_t>
derivedThreadTileSizes(const std::vector<int64_t> &loopRanges,
                       const std::vector<config::LoopKind> &kinds,
                       int64_t threads, int64_t elementBits) {
  if (loopRanges.empty() || elementBits <= 0 || threads <= 0)
    return {};
  const int64_t vectorSize = std::max<int64_t>(128 / elementBits, 1);
  const size_t rank = loopRanges.size();
  const size_t target = rank - 1;
  const int64_t targetRange = loopRanges[target];
  auto vectorOnly = [&] {
    std::vector<int64_t> tiles(rank, 1);
    tiles[target] =
        targetRange < 0 || targetRange >= vectorSize ? vectorSize : targetRange;
    return tiles;
  };
  std::vector<int64_t> tiles;
  const bool dynamic = std::any_of(loopRanges.begin(), loopRanges.end(),
                                   [](int64_t r) { return r < 0; });
  const int64_t trips = dynamic ? 0 : saturatingProduct(loopRanges);
  if (dynamic || trips % threads != 0) {
    tiles = vectorOnly();
  } else {
    int64_t maxVector = std::min(vectorSize, trips / threads);
    tiles.assign(rank, 1);
    if (targetRange % maxVector == 0 || maxVector % targetRange == 0) {
      tiles[target] = std::min(targetRange, maxVector);
      if (targetRange < maxVector) {
        maxVector /= targetRange;
        for (size_t i = rank - 1; i-- > 0;) {
          if (maxVector % loopRanges[i] != 0)
            break;
          tiles[i] = loopRanges[i];
          maxVector /= loopRanges[i];
        }
      }
    }
  }
  for (size_t d = 0; d < rank && d < kinds.size(); ++d)
    if (kinds[d] == config::LoopKind::Reduction)
      tiles[d] = 0;
  return tiles;
}

Result<config::NestedLayoutAttr>
derivedThreadLayout(const std::vector<int64_t> &workgroupSize,
                    const std::vector<int64_t> &shape,
                    const std::vector<int64_t> &elementTile) {
  const size_t rank = shape.size();
  if (rank == 0 || elementTile.size() != rank)
    return Error{"the derived thread layout needs one element tile per "
                 "dimension"};
  std::vector<int64_t> opShape = shape;
  for (size_t i = 0; i < rank; ++i) {
    if (opShape[i] < 0 || elementTile[i] <= 0 || opShape[i] % elementTile[i])
      return Error{"dimension " + std::to_string(i) + " (" +
                   std::to_string(shape[i]) +
                   ") is not a multiple of its element tile " +
                   std::to_string(elementTile[i])};
    opShape[i] /= elementTile[i];
  }
  config::NestedLayoutAttr layout;
  layout.threadTile.assign(rank, 1);
  layout.threadStrides.assign(rank, 0);
  int64_t residual = saturatingProduct(workgroupSize);
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    int64_t block = 0;
    if (opShape[i] > 0 && residual % opShape[i] == 0)
      block = opShape[i];
    else if (residual > 0 && opShape[i] % residual == 0)
      block = residual;
    else
      return Error{"IREE cannot spread " + std::to_string(residual) +
                   " threads over dimension " + std::to_string(i) + " (" +
                   std::to_string(opShape[i]) + " vectors)"};
    layout.threadTile[i] = block;
    layout.threadStrides[i] = block == 1 ? 0 : stride;
    opShape[i] /= block;
    stride *= block;
    residual /= block;
  }
  layout.subgroupTile.assign(rank, 1);
  layout.subgroupStrides.assign(rank, 0);
  layout.batchTile = opShape;
  layout.outerTile.assign(rank, 1);
  layout.elementTile = elementTile;
  return layout;
}

} // namespace tilescope::layout
