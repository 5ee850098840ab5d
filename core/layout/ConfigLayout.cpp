#include "core/layout/ConfigLayout.h"

#include "core/config/rules/Validation.h"
#include "core/config/syntax/IreeSyntax.h"
#include "core/layout/Basis.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/TileBounds.h"
#include "core/util/Numbers.h"

#include <algorithm>

namespace tilescope::layout {
namespace {

// Tile and stride per iteration dimension from a basis (counts[mapping[i]],
// row-major stride of that axis), or 1 / 0 without one: for contractions,
// whose loops are the iteration space's.
void basisTiles(const std::optional<config::Basis> &basis, size_t rank,
                std::vector<int64_t> &tiles, std::vector<int64_t> &strides,
                std::vector<std::string> &notes, const char *name) {
  tiles.assign(rank, 1);
  strides.assign(rank, 0);
  if (!basis)
    return;
  auto map = BasisMap::create(*basis);
  if (!map || map->rank() != rank) {
    notes.push_back(
        std::string(name) + " does not fit the iteration space (" +
        (map ? "rank " + std::to_string(map->rank()) : map.error()) +
        "): ignored");
    return;
  }
  tiles = map->sizes();
  strides = map->strides();
}

// Copies dimension `i` of `from` onto the end of `to`.
void appendDimension(config::NestedLayoutAttr &to,
                     const config::NestedLayoutAttr &from, size_t i) {
  to.subgroupTile.push_back(from.subgroupTile[i]);
  to.batchTile.push_back(from.batchTile[i]);
  to.outerTile.push_back(from.outerTile[i]);
  to.threadTile.push_back(from.threadTile[i]);
  to.elementTile.push_back(from.elementTile[i]);
  to.subgroupStrides.push_back(from.subgroupStrides[i]);
  to.threadStrides.push_back(from.threadStrides[i]);
}

// A dimension nobody distributes: unit tiles, zero strides.
void appendUnitDimension(config::NestedLayoutAttr &to) {
  config::NestedLayoutAttr unit{{1}, {1}, {1}, {1}, {1}, {0}, {0}};
  appendDimension(to, unit, 0);
}

} // namespace

Result<config::IterationSpace> expandSpace(const config::IterationSpace &space,
                                           const config::ExpandDims &dims) {
  if (dims.reassociation.size() != space.rank())
    return Error{"expand_dims has " +
                 std::to_string(dims.reassociation.size()) +
                 " groups; the iteration space has " +
                 std::to_string(space.rank()) + " dimensions"};
  config::IterationSpace expanded;
  expanded.bounds.assign(dims.outputShape.size(), 0);
  expanded.kinds.assign(dims.outputShape.size(), config::LoopKind::Parallel);
  size_t next = 0;
  for (size_t group = 0; group < dims.reassociation.size(); ++group) {
    const auto &members = dims.reassociation[group];
    int64_t staticProduct = 1;
    int dynamicCount = 0;
    for (int64_t member : members) {
      if (member != static_cast<int64_t>(next++) ||
          static_cast<size_t>(member) >= dims.outputShape.size())
        return Error{"expand_dims reassociation must list the expanded "
                     "dimensions in order"};
      if (auto size = dims.outputShape[static_cast<size_t>(member)])
        staticProduct *= *size;
      else
        ++dynamicCount;
    }
    const int64_t bound = space.bounds[group];
    if (dynamicCount > 1)
      return Error{"expand_dims group " + std::to_string(group) +
                   " has more than one ?"};
    if (bound == config::kDynamicSize || staticProduct <= 0 ||
        bound % staticProduct != 0)
      return Error{"d" + std::to_string(group) + " = " + std::to_string(bound) +
                   " is not divisible by the static sizes of its group (" +
                   std::to_string(staticProduct) +
                   "): IREE 3.11 ignores expand_dims"};
    for (int64_t member : members) {
      const size_t m = static_cast<size_t>(member);
      expanded.kinds[m] = space.kinds[group];
      expanded.bounds[m] =
          dims.outputShape[m] ? *dims.outputShape[m] : bound / staticProduct;
    }
    if (dynamicCount == 0 && staticProduct != bound)
      return Error{"expand_dims sizes of group " + std::to_string(group) +
                   " multiply to " + std::to_string(staticProduct) + ", not " +
                   std::to_string(bound)};
  }
  return expanded;
}

namespace {

// IREE's divideTile step of setGPULoweringConfigLayout: bound = ceil(bound /
// tile), a tile of 0 counting as 1.
int64_t divideBound(int64_t &bound, int64_t tile) {
  const int64_t divisor = tile > 0 ? tile : 1;
  bound = ceilDiv(bound, divisor);
  return divisor;
}

// Tile and stride per loop from a basis (counts[mapping[i]], row-major stride
// of that axis), as distributeTilingSizes applies it; 1 / 0 without a basis.
void basisTilesOverLoops(const std::optional<config::Basis> &basis,
                         size_t loops, std::vector<int64_t> &tiles,
                         std::vector<int64_t> &strides,
                         std::vector<std::string> &notes, const char *name) {
  tiles.assign(loops, 1);
  strides.assign(loops, 0);
  if (!basis)
    return;
  if (basis->mapping.size() != loops) {
    notes.push_back(
        std::string(name) + " maps " + std::to_string(basis->mapping.size()) +
        " dimensions; the op has " + std::to_string(loops) + " loops: ignored");
    return;
  }
  std::vector<int64_t> axisStrides(basis->counts.size(), 1);
  for (size_t i = basis->counts.size(); i-- > 1;)
    axisStrides[i - 1] = saturatingMultiply(axisStrides[i], basis->counts[i]);
  for (size_t i = 0; i < loops; ++i) {
    const int64_t axis = basis->mapping[i];
    if (axis < 0 || axis >= static_cast<int64_t>(basis->counts.size())) {
      notes.push_back(std::string(name) + " mapping names axis " +
                      std::to_string(axis) + " of " +
                      std::to_string(basis->counts.size()) + ": ignored");
      tiles.assign(loops, 1);
      strides.assign(loops, 0);
      return;
    }
    tiles[i] = basis->counts[static_cast<size_t>(axis)];
    strides[i] = axisStrides[static_cast<size_t>(axis)];
  }
}

// GPUPackPartialReductions' rewrite of a basis for the packed op: the first
// `rank` counts and mapping entries stay (any count past the rank is
// dropped), each inner loop gets a count of 1 and maps to its own axis.
std::optional<config::Basis>
repackBasis(const std::optional<config::Basis> &basis, size_t rank,
            size_t packed, std::vector<std::string> &notes, const char *name) {
  if (!basis)
    return std::nullopt;
  config::Basis repacked;
  repacked.counts.assign(rank + packed, 1);
  repacked.mapping.resize(rank + packed);
  for (size_t d = 0; d < rank; ++d) {
    repacked.counts[d] = d < basis->counts.size() ? basis->counts[d] : 1;
    repacked.mapping[d] =
        d < basis->mapping.size() ? basis->mapping[d] : static_cast<int64_t>(d);
  }
  for (size_t i = 0; i < packed; ++i)
    repacked.mapping[rank + i] = static_cast<int64_t>(rank + i);
  if (basis->counts.size() > rank)
    notes.push_back(std::string(name) + " " + bracketedList(basis->counts) +
                    " has counts past the iteration space's rank: "
                    "GPUPackPartialReductions keeps only the first " +
                    std::to_string(rank) + ", so it becomes " +
                    bracketedList(repacked.counts) + " / " +
                    bracketedList(repacked.mapping));
  return repacked;
}

// A layout is drawn only over static bounds and tile sizes that are sizes.
std::optional<Error> undrawable(const config::LoweringConfig &cfg,
                                const config::IterationSpace &space) {
  for (int64_t bound : space.bounds)
    if (bound == config::kDynamicSize)
      return Error{"the iteration space " + space.toString() +
                   " has dynamic sizes; layouts need static bounds"};
  // A negative tile is no tile size at all: IREE does not check it and
  // builds a layout with it; Tilescope says so instead of drawing one.
  for (config::TilingLevel level : config::kAllTilingLevels)
    if (auto sizes = cfg.tileSizes(level))
      for (size_t d = 0; d < sizes->size(); ++d)
        if ((*sizes)[d] < 0)
          return Error{std::string(config::keyOf(level)) + "[" +
                       std::to_string(d) + "]=" + std::to_string((*sizes)[d]) +
                       " is negative: there is no layout to draw (IREE "
                       "builds one with a tile of " +
                       std::to_string((*sizes)[d]) +
                       "); use 0 for \"not tiled\""};
  return std::nullopt;
}

// expand_dims (IREE 3.11 only) reshapes the iteration space first.
void expandSpaceAsIreeDoes(const config::LoweringConfig &cfg,
                           const config::IterationSpace &original,
                           bool release311, const std::string &release,
                           DerivedLayout &result) {
  auto dims = cfg.expandDims();
  if (!dims)
    return;
  if (!release311) {
    result.notes.push_back("expand_dims ignored: IREE " + release +
                           " does not read it (3.11 only)");
  } else if (auto expanded = expandSpace(original, *dims)) {
    result.space = *expanded;
    result.notes.push_back("expand_dims applied: " + original.toString() +
                           " -> " + expanded->toString());
  } else {
    result.notes.push_back(expanded.error());
  }
}

// GPUPackPartialReductions (3.12+): each reduction dimension with
// partial_reduction > 1 and thread > 1 splits into an outer loop in place
// (partial / thread, no thread tile) and an inner loop of `thread` elements
// appended after all loops. Sets the layout's loops; returns each loop's
// element tile.
std::vector<int64_t> packedLoops(const config::IterationSpace &space,
                                 const std::vector<int64_t> &bounds,
                                 const std::vector<int64_t> &partial,
                                 const std::vector<int64_t> &thread,
                                 bool release311, std::vector<size_t> &packed,
                                 DerivedLayout &result) {
  const size_t rank = space.rank();
  if (!release311)
    for (size_t d = 0; d < rank; ++d)
      if (space.isReduction(d) && partial[d] > 1 && thread[d] > 1)
        packed.push_back(d);
  for (size_t d : packed) {
    if (bounds[d] % thread[d] != 0)
      result.notes.push_back(
          "d" + std::to_string(d) + ": partial_reduction " +
          std::to_string(bounds[d]) + " is not a multiple of thread " +
          std::to_string(thread[d]) +
          "; IREE's GPUPackPartialReductions asserts it is (undefined in a "
          "release build)");
  }
  std::vector<int64_t> elementTiles;
  for (size_t d = 0; d < rank; ++d) {
    const bool isPacked =
        std::find(packed.begin(), packed.end(), d) != packed.end();
    LayoutDimension dim;
    dim.name = "d" + std::to_string(d) + (isPacked ? ".outer" : "");
    dim.source = d;
    dim.bound = isPacked ? bounds[d] / thread[d] : bounds[d];
    dim.reduction = space.isReduction(d);
    dim.packedOuter = isPacked;
    dim.partiallyReduced =
        space.isReduction(d) &&
        (isPacked ? partial[d] / thread[d] > 0 : partial[d] > 0);
    result.dimensions.push_back(std::move(dim));
    elementTiles.push_back(isPacked ? 1 : thread[d]);
  }
  for (size_t d : packed) {
    LayoutDimension dim;
    dim.name = "d" + std::to_string(d) + ".inner";
    dim.source = d;
    dim.bound = thread[d];
    dim.reduction = true;
    dim.packedInner = true;
    result.dimensions.push_back(std::move(dim));
    elementTiles.push_back(thread[d]);
  }
  for (size_t d : packed)
    result.notes.push_back(
        "d" + std::to_string(d) +
        " packed by GPUPackPartialReductions: " + std::to_string(bounds[d]) +
        " = " + std::to_string(bounds[d] / thread[d]) + " x " +
        std::to_string(thread[d]));
  return elementTiles;
}

// setGPULoweringConfigLayout: the bases over the layout's loops (repacked
// where loops were packed), then subgroup, thread and element tiles divide
// the bounds in turn; what remains is the batch.
void nestLayout(const config::LoweringConfig &cfg, const DeriveOptions &options,
                size_t rank, size_t packedCount,
                const std::vector<int64_t> &elementTiles,
                DerivedLayout &result) {
  const size_t loops = result.dimensions.size();
  if (packedCount == 0) {
    result.effectiveLaneBasis = cfg.laneBasis();
    result.effectiveSubgroupBasis = cfg.subgroupBasis();
  } else {
    result.effectiveLaneBasis = repackBasis(cfg.laneBasis(), rank, packedCount,
                                            result.notes, "lane_basis");
    result.effectiveSubgroupBasis = repackBasis(
        cfg.subgroupBasis(), rank, packedCount, result.notes, "subgroup_basis");
  }
  std::vector<int64_t> subgroupTile, subgroupStride, laneTile, laneStride;
  basisTilesOverLoops(result.effectiveSubgroupBasis, loops, subgroupTile,
                      subgroupStride, result.notes, "subgroup_basis");
  basisTilesOverLoops(result.effectiveLaneBasis, loops, laneTile, laneStride,
                      result.notes, "lane_basis");
  if (auto basis = cfg.subgroupBasis())
    result.subgroups = basis->product();
  result.subgroupSize =
      options.subgroupSize > 0
          ? options.subgroupSize
          : (cfg.laneBasis() ? cfg.laneBasis()->product() : 1);

  config::NestedLayoutAttr &layout = result.layout;
  for (size_t i = 0; i < loops; ++i) {
    int64_t bound = result.dimensions[i].bound;
    const int64_t sg = divideBound(bound, subgroupTile[i]);
    const int64_t th = divideBound(bound, laneTile[i]);
    const int64_t element = divideBound(bound, elementTiles[i]);
    layout.subgroupTile.push_back(sg);
    layout.batchTile.push_back(bound);
    layout.outerTile.push_back(1);
    layout.threadTile.push_back(th);
    layout.elementTile.push_back(element);
    // NestedLayoutAttr::get normalizes the stride of a unit tile to 0.
    layout.subgroupStrides.push_back(sg == 1 ? 0 : subgroupStride[i]);
    layout.threadStrides.push_back(th == 1 ? 0 : laneStride[i]);
  }
}

// The accumulator of a partial reduction: the output's dimensions, then the
// partially reduced loops in loop order.
void accumulatorOfPartialReduction(DerivedLayout &result) {
  const bool anyPartial =
      std::any_of(result.dimensions.begin(), result.dimensions.end(),
                  [](const LayoutDimension &d) { return d.partiallyReduced; });
  if (!anyPartial)
    return;
  const config::IterationSpace &space = result.space;
  std::vector<int> outputDims;
  if (!space.operands.empty() && space.operands.back().isOutput) {
    outputDims = space.operands.back().dims;
  } else {
    for (size_t d = 0; d < space.rank(); ++d)
      if (!space.isReduction(d))
        outputDims.push_back(static_cast<int>(d));
  }
  for (int loop : outputDims) {
    if (loop < 0) {
      appendUnitDimension(result.accumulatorLayout);
      result.accumulatorDimensions.push_back("unit");
      continue;
    }
    appendDimension(result.accumulatorLayout, result.layout,
                    static_cast<size_t>(loop));
    result.accumulatorDimensions.push_back(
        result.dimensions[static_cast<size_t>(loop)].name);
  }
  for (size_t i = 0; i < space.rank(); ++i)
    if (result.dimensions[i].partiallyReduced) {
      appendDimension(result.accumulatorLayout, result.layout, i);
      result.accumulatorDimensions.push_back(result.dimensions[i].name);
    }
}

// Along the reduction dimensions, per iteration.
void countReductionElements(DerivedLayout &result) {
  const config::NestedLayoutAttr &layout = result.layout;
  result.reductionElementsPerSubgroup = 1;
  result.reductionElementsPerThread = 1;
  bool anyReduction = false;
  for (size_t i = 0; i < result.dimensions.size(); ++i) {
    if (!result.dimensions[i].reduction)
      continue;
    anyReduction = true;
    result.reductionElementsPerSubgroup = saturatingMultiply(
        result.reductionElementsPerSubgroup,
        ceilDiv(result.dimensions[i].bound,
                std::max<int64_t>(layout.subgroupTile[i], 1)));
    result.reductionElementsPerThread = saturatingMultiply(
        result.reductionElementsPerThread,
        layout.batchTile[i] * layout.outerTile[i] * layout.elementTile[i]);
  }
  if (!anyReduction)
    result.reductionElementsPerSubgroup = result.reductionElementsPerThread = 0;
}

} // namespace

Result<DerivedLayout> deriveLayout(const config::LoweringConfig &cfg,
                                   const config::IterationSpace &original,
                                   const DeriveOptions &options) {
  DerivedLayout result;
  result.space = original;
  const bool release311 =
      config::compareRelease(options.ireeRelease, "3.12") < 0;
  expandSpaceAsIreeDoes(cfg, original, release311, options.ireeRelease, result);
  const config::IterationSpace &space = result.space;
  const size_t rank = space.rank();
  if (auto refused = undrawable(cfg, space))
    return *refused;

  auto ownWorkgroup = cfg.tileSizes(config::TilingLevel::Workgroup);
  const bool inherits =
      !ownWorkgroup && options.fusedWorkgroupTile.size() == rank;
  if (inherits)
    result.notes.push_back("workgroup tile " +
                           bracketedList(options.fusedWorkgroupTile) +
                           " from the root op this op is fused into");
  // The workgroup grid and the bounds of one workgroup tile and iteration.
  WorkgroupIteration iteration = workgroupIteration(
      cfg, space, {},
      inherits ? options.fusedWorkgroupTile : std::vector<int64_t>{});
  result.workgroupTile = std::move(iteration.workgroupTile);
  result.workgroupCounts = std::move(iteration.workgroupCounts);
  result.workgroupCount = iteration.workgroupCount;
  result.reductionLoops = std::move(iteration.reductionLoops);
  result.notes.insert(result.notes.end(), iteration.notes.begin(),
                      iteration.notes.end());

  std::vector<size_t> packed;
  const std::vector<int64_t> elementTiles = packedLoops(
      space, iteration.bounds,
      zeroPadded(cfg.tileSizes(config::TilingLevel::PartialReduction), rank),
      zeroPadded(cfg.tileSizes(config::TilingLevel::Thread), rank), release311,
      packed, result);
  nestLayout(cfg, options, rank, packed.size(), elementTiles, result);
  accumulatorOfPartialReduction(result);
  countReductionElements(result);
  return result;
}

std::vector<int64_t>
inheritedWorkgroupTile(const config::LoweringConfig &op,
                       const config::IterationSpace &opSpace,
                       const config::LoweringConfig &root,
                       const config::IterationSpace &rootSpace) {
  if (op.tileSizes(config::TilingLevel::Workgroup) ||
      opSpace.bounds != rootSpace.bounds)
    return {};
  auto tiles = root.tileSizes(config::TilingLevel::Workgroup);
  if (!tiles || tiles->size() != rootSpace.rank())
    return {};
  return *tiles;
}

std::vector<config::NestedLayoutAttr>
operandLayouts(const DerivedLayout &derived,
               const config::IterationSpace &space) {
  std::vector<config::NestedLayoutAttr> layouts;
  const config::NestedLayoutAttr &op = derived.layout;
  const bool partial = !derived.accumulatorLayout.subgroupTile.empty();
  for (const config::OperandAccess &operand : space.operands) {
    if (operand.isOutput && partial) {
      layouts.push_back(derived.accumulatorLayout);
      continue;
    }
    // linalg.pack keeps a packed dimension's outer part in place and puts
    // its inner tile after all of the operand's dimensions.
    config::NestedLayoutAttr projected;
    for (int loop : operand.dims) {
      if (loop < 0 || static_cast<size_t>(loop) >= space.rank())
        appendUnitDimension(projected);
      else
        appendDimension(projected, op, static_cast<size_t>(loop));
    }
    // The inner tiles follow in the order the loops were packed (loop
    // order), whatever order the operand lists its dimensions in.
    for (size_t i = space.rank(); i < derived.dimensions.size(); ++i)
      if (std::find(operand.dims.begin(), operand.dims.end(),
                    static_cast<int>(derived.dimensions[i].source)) !=
          operand.dims.end())
        appendDimension(projected, op, i);
    layouts.push_back(projected);
  }
  if (space.operands.empty())
    layouts.push_back(op);
  return layouts;
}

namespace {

// Per vector dimension of `operand`: the loop it indexes and its role in
// the contraction, "d2 (K)".
std::vector<std::string> contractionAxes(const config::ContractionDims &dims,
                                         const config::OperandAccess &operand) {
  std::vector<std::string> names;
  for (int loop : operand.dims) {
    const auto in = [loop](const std::vector<int> &set) {
      return std::find(set.begin(), set.end(), loop) != set.end();
    };
    names.push_back(loop < 0 ? std::string("unit")
                             : "d" + std::to_string(loop) +
                                   (in(dims.m)       ? " (M)"
                                    : in(dims.n)     ? " (N)"
                                    : in(dims.k)     ? " (K)"
                                    : in(dims.batch) ? " (batch)"
                                                     : ""));
  }
  return names;
}

} // namespace

namespace {

// Where IREE's contraction layout covers less of an operand's tile than
// the tile: getContractionLayout counts batches by the intrinsic's M, N, K
// (col_major transposes them for the accumulator only).
void noteShortCoverage(ContractionLayouts &result,
                       const config::IterationSpace &space, bool colMajor) {
  const std::pair<const char *, std::pair<const config::NestedLayoutAttr *,
                                          const config::OperandAccess *>>
      operands[] = {{"LHS", {&result.lhs, &space.operands[0]}},
                    {"RHS", {&result.rhs, &space.operands[1]}},
                    {"ACC", {&result.acc, &space.operands[2]}}};
  for (const auto &[name, pair] : operands) {
    const auto &[layout, operand] = pair;
    std::vector<int64_t> covered, tile;
    bool short_ = false;
    for (size_t i = 0; i < operand->dims.size(); ++i) {
      const int loop = operand->dims[i];
      const int64_t extent = layout->subgroupTile[i] * layout->batchTile[i] *
                             layout->outerTile[i] * layout->threadTile[i] *
                             layout->elementTile[i];
      const int64_t bound =
          loop < 0 ? 1 : result.bounds[static_cast<size_t>(loop)];
      covered.push_back(extent);
      tile.push_back(bound);
      short_ = short_ || extent < bound;
    }
    if (short_)
      result.notes.push_back(
          std::string(name) + ": IREE's layout covers " + join(covered, " x ") +
          " of the " + join(tile, " x ") +
          " tile (getContractionLayout counts batches by the intrinsic's M, "
          "N, K" +
          (colMajor ? ", which col_major transposes for the accumulator only"
                    : "") +
          "); IREE's vector distribution cannot cover the rest");
  }
}

} // namespace

Result<ContractionLayouts>
deriveSimtContractionLayouts(const config::LoweringConfig &cfg,
                             const config::IterationSpace &space) {
  if (space.operands.size() != 3)
    return Error{"the contraction needs its LHS, RHS and ACC operands"};
  // IREE applies the layout to any op's maps; a contraction whose
  // accumulator keeps every loop (P.V under partial reduction) has no K to
  // name, and its axes are the loops alone.
  const auto dims =
      config::inferContraction(space).value_or(config::ContractionDims{});
  // IREE fails without either basis (distributeTilingSizes).
  if (!cfg.subgroupBasis() || !cfg.laneBasis())
    return Error{std::string("the config has no mma_kind and no ") +
                 (cfg.subgroupBasis() ? "lane_basis" : "subgroup_basis") +
                 ": IREE's LLVMGPUConfigureTensorLayouts lays a contraction "
                 "without an intrinsic out from its subgroup and lane bases "
                 "and thread tiles"};
  auto derived = deriveLayout(cfg, space);
  if (!derived)
    return Error{derived.error()};
  const auto layouts = operandLayouts(*derived, space);
  if (layouts.size() != 3)
    return Error{"the contraction's operands have no layouts"};
  ContractionLayouts result;
  result.bounds = derived->workgroupTile;
  result.lhs = layouts[0];
  result.rhs = layouts[1];
  result.acc = layouts[2];
  result.lhsAxes = contractionAxes(dims, space.operands[0]);
  result.rhsAxes = contractionAxes(dims, space.operands[1]);
  result.accAxes = contractionAxes(dims, space.operands[2]);
  result.notes = derived->notes;
  return result;
}

Result<ContractionLayouts>
deriveContractionLayouts(const config::LoweringConfig &cfg,
                         const config::IterationSpace &space) {
  auto mma = cfg.mmaKind();
  if (!mma)
    return Error{"the config has no mma_kind"};
  const MmaIntrinsic *found = findMmaIntrinsic(mma->intrinsic);
  if (!found)
    return Error{"unknown intrinsic " + mma->intrinsic};
  const MmaIntrinsic intrinsic = mma->colMajor ? found->colMajor() : *found;
  if (intrinsic.isScaled)
    return Error{mma->intrinsic +
                 " is a scaled intrinsic: IREE gives scaled contractions no "
                 "VectorDistribute layouts (they lower under TileAndFuse); its "
                 "fragments are in the MMA view"};
  const size_t fragmentRank = intrinsic.lhs.outer.size();
  if (fragmentRank != 2 && fragmentRank != 3)
    return Error{mma->intrinsic + " has no per-lane fragment layout (IREE "
                                  "gives it none)"};
  auto dims = config::inferContraction(space);
  if (!dims)
    return Error{"the op is not a contraction (needs LHS, RHS and ACC maps "
                 "with M, N and K dimensions)"};
  // A block intrinsic ([block, M, K] fragments) takes the innermost batch
  // dimension for its blocks (getContractionLayout, isBlockIntrinsic).
  const bool block = fragmentRank == 3;
  if (block && dims->batch.empty())
    return Error{mma->intrinsic +
                 " is a block intrinsic: IREE requires a batch dimension for "
                 "its blocks ('block intrinsic requires at least one batch "
                 "dimension') and this contraction has none"};
  const int b = block ? dims->batch.back() : -1;
  const size_t rank = space.rank();
  ContractionLayouts result;
  result.intrinsic = intrinsic.name;
  result.bounds = workgroupIterationBounds(cfg, space);
  // IREE (distributeTilingSizes) fails without a subgroup basis.
  if (!cfg.subgroupBasis())
    return Error{"the config has no subgroup_basis: IREE's "
                 "LLVMGPUConfigureTensorLayouts cannot distribute the "
                 "contraction over subgroups"};
  std::vector<int64_t> sgTile, sgStride;
  std::vector<std::string> notes;
  basisTiles(cfg.subgroupBasis(), rank, sgTile, sgStride, notes,
             "subgroup_basis");
  if (!notes.empty())
    return Error{notes.front()};
  const int m = dims->m.back(), n = dims->n.back(), k = dims->k.back();

  // Operand dimension -> which fragment dimension it carries: (first,
  // second) of a 2-D fragment, (block, first, second) of a 3-D one.
  auto build = [&](const config::OperandAccess &operand,
                   const FragmentLayout &fragment, int first, int second) {
    config::NestedLayoutAttr layout;
    const int shift = block ? 1 : 0;
    for (int loop : operand.dims) {
      const size_t d = static_cast<size_t>(std::max(loop, 0));
      const int f = block && loop == b ? 0
                    : loop == first    ? shift
                    : loop == second   ? shift + 1
                                       : -1;
      const int64_t outer = f < 0 ? 1 : fragment.outer[static_cast<size_t>(f)];
      const int64_t thread =
          f < 0 ? 1 : fragment.thread[static_cast<size_t>(f)];
      const int64_t tstride =
          f < 0 ? 0 : fragment.tstrides[static_cast<size_t>(f)];
      const int64_t element =
          f < 0 ? 1 : fragment.element[static_cast<size_t>(f)];
      // Every dimension, K included, takes the subgroup basis's count
      // (IREE's distributeTilingSizes applies it to all of them).
      const int64_t subgroup = loop < 0 ? 1 : sgTile[d];
      const int64_t bound = loop < 0 ? 1 : result.bounds[d];
      layout.subgroupTile.push_back(subgroup);
      // getContractionLayout computes one set of batch counts for all three
      // operands from the intrinsic's M, N and K (getMNKShape), not from each
      // operand's fragment: with col_major the accumulator's fragment is
      // transposed but its batch counts are not.
      const int64_t intrinsicSize = loop == m            ? intrinsic.m
                                    : loop == n          ? intrinsic.n
                                    : loop == k          ? intrinsic.k
                                    : block && loop == b ? intrinsic.blocks
                                                         : 1;
      layout.batchTile.push_back(ceilDiv(ceilDiv(bound, subgroup),
                                         std::max<int64_t>(intrinsicSize, 1)));
      layout.outerTile.push_back(outer);
      layout.threadTile.push_back(thread);
      layout.elementTile.push_back(element);
      layout.subgroupStrides.push_back(subgroup == 1 ? 0 : sgStride[d]);
      layout.threadStrides.push_back(thread == 1 ? 0 : tstride);
    }
    return layout;
  };
  result.lhsAxes = contractionAxes(*dims, space.operands[0]);
  result.rhsAxes = contractionAxes(*dims, space.operands[1]);
  result.accAxes = contractionAxes(*dims, space.operands[2]);
  result.lhs = build(space.operands[0], intrinsic.lhs, m, k);
  result.rhs = build(space.operands[1], intrinsic.rhs, k, n);
  result.acc = build(space.operands[2], intrinsic.acc, m, n);
  noteShortCoverage(result, space, mma->colMajor);
  return result;
}

} // namespace tilescope::layout
