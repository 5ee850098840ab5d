#include "core/layout/ConfigLayout.h"

#include "core/config/Validation.h"
#include "core/layout/Basis.h"
#include "core/layout/MmaLayouts.h"
#include "core/util/Numbers.h"

#include <algorithm>

namespace tilescope::layout {
namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return b <= 0 ? a : (a + b - 1) / b; }

std::vector<int64_t> sizesOr(const std::optional<std::vector<int64_t>> &sizes,
                             size_t rank) {
  std::vector<int64_t> result = sizes.value_or(std::vector<int64_t>{});
  result.resize(rank, 0);
  return result;
}

// Tile and stride per iteration dimension from a basis (counts[mapping[i]],
// row-major stride of that axis), or 1 / 0 without one.
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

Result<DerivedLayout> deriveLayout(const config::LoweringConfig &cfg,
                                   const config::IterationSpace &original,
                                   const DeriveOptions &options) {
  DerivedLayout result;
  result.space = original;
  const bool release311 =
      config::compareRelease(options.ireeRelease, "3.12") < 0;

  if (auto dims = cfg.expandDims()) {
    if (!release311) {
      result.notes.push_back("expand_dims ignored: IREE " +
                             options.ireeRelease +
                             " does not read it (3.11 only)");
    } else if (auto expanded = expandSpace(original, *dims)) {
      result.space = *expanded;
      result.notes.push_back("expand_dims applied: " + original.toString() +
                             " -> " + expanded->toString());
    } else {
      result.notes.push_back(expanded.error());
    }
  }
  const config::IterationSpace &space = result.space;
  const size_t rank = space.rank();
  for (int64_t bound : space.bounds)
    if (bound == config::kDynamicSize)
      return Error{"the iteration space " + space.toString() +
                   " has dynamic sizes; layouts need static bounds"};

  auto ownWorkgroup = cfg.tileSizes(config::TilingLevel::Workgroup);
  const auto workgroup =
      !ownWorkgroup && options.fusedWorkgroupTile.size() == rank
          ? options.fusedWorkgroupTile
          : sizesOr(ownWorkgroup, rank);
  if (!ownWorkgroup && options.fusedWorkgroupTile.size() == rank)
    result.notes.push_back("workgroup tile " +
                           bracketedList(options.fusedWorkgroupTile) +
                           " from the root op this op is fused into");
  const auto serial = sizesOr(cfg.tileSizes(config::TilingLevel::Serial), rank);
  const auto reduction =
      sizesOr(cfg.tileSizes(config::TilingLevel::Reduction), rank);
  const auto partial =
      sizesOr(cfg.tileSizes(config::TilingLevel::PartialReduction), rank);
  const auto thread = sizesOr(cfg.tileSizes(config::TilingLevel::Thread), rank);

  // The workgroup grid and the bounds of one workgroup tile and iteration.
  std::vector<int64_t> bounds(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t size = space.bounds[d];
    if (!space.isReduction(d)) {
      const int64_t tile =
          workgroup[d] > 0 ? std::min(workgroup[d], size) : size;
      result.workgroupTile.push_back(tile);
      result.workgroupCounts.push_back(ceilDiv(size, tile));
      result.workgroupCount *= result.workgroupCounts.back();
      bounds[d] = tile;
    } else {
      result.workgroupTile.push_back(size);
      result.workgroupCounts.push_back(1);
      const int64_t chunk = partial[d] > 0     ? std::min(partial[d], size)
                            : reduction[d] > 0 ? std::min(reduction[d], size)
                                               : size;
      bounds[d] = chunk;
      if (chunk < size)
        result.reductionLoops.push_back(
            {d, size, chunk, ceilDiv(size, chunk),
             partial[d] > 0 ? "partial_reduction" : "reduction"});
    }
    // `serial` tiles the dimension again, in a loop inside the workgroup.
    if (serial[d] > 0 && serial[d] < bounds[d]) {
      result.notes.push_back("serial loop over d" + std::to_string(d) + ": " +
                             std::to_string(bounds[d]) + " / " +
                             std::to_string(serial[d]) + " = " +
                             std::to_string(ceilDiv(bounds[d], serial[d])) +
                             " iterations");
      bounds[d] = serial[d];
    }
  }

  std::vector<int64_t> subgroupTile, subgroupStride, laneTile, laneStride;
  basisTiles(cfg.subgroupBasis(), rank, subgroupTile, subgroupStride,
             result.notes, "subgroup_basis");
  basisTiles(cfg.laneBasis(), rank, laneTile, laneStride, result.notes,
             "lane_basis");
  if (auto basis = cfg.subgroupBasis())
    result.subgroups = basis->product();
  result.subgroupSize =
      options.subgroupSize > 0
          ? options.subgroupSize
          : (cfg.laneBasis() ? cfg.laneBasis()->product() : 1);

  // GPUPackPartialReductions (3.12+): a partially reduced dimension whose
  // thread tile T > 1 is split into (outer, inner = T): the lanes spread over
  // the outer part, each lane keeps T elements of the inner part.
  config::NestedLayoutAttr &layout = result.layout;
  auto push = [&](LayoutDimension dim, int64_t sgTile, int64_t sgStride,
                  int64_t thTile, int64_t thStride, int64_t element) {
    const int64_t batch =
        std::max<int64_t>(ceilDiv(dim.bound, sgTile * thTile * element), 1);
    layout.subgroupTile.push_back(sgTile);
    layout.batchTile.push_back(batch);
    layout.outerTile.push_back(1);
    layout.threadTile.push_back(thTile);
    layout.elementTile.push_back(element);
    // NestedLayoutAttr::get normalizes the stride of a unit tile to 0.
    layout.subgroupStrides.push_back(sgTile == 1 ? 0 : sgStride);
    layout.threadStrides.push_back(thTile == 1 ? 0 : thStride);
    result.dimensions.push_back(std::move(dim));
  };
  for (size_t d = 0; d < rank; ++d) {
    const std::string name = "d" + std::to_string(d);
    const int64_t element = std::max<int64_t>(thread[d], 1);
    const bool pack = !release311 && space.isReduction(d) && partial[d] > 0 &&
                      element > 1 && bounds[d] % element == 0;
    if (pack) {
      push({name + ".outer", d, bounds[d] / element, true}, subgroupTile[d],
           subgroupStride[d], laneTile[d], laneStride[d], 1);
      push({name + ".inner", d, element, true}, 1, 0, 1, 0, element);
      result.notes.push_back(name + " packed by GPUPackPartialReductions: " +
                             std::to_string(bounds[d]) + " = " +
                             std::to_string(bounds[d] / element) + " x " +
                             std::to_string(element));
    } else {
      push({name, d, bounds[d], space.isReduction(d)}, subgroupTile[d],
           subgroupStride[d], laneTile[d], laneStride[d], element);
    }
  }

  // The accumulator: every dimension but the reduced ones (a packed
  // dimension keeps its outer part: one partial sum per lane).
  for (size_t i = 0; i < result.dimensions.size(); ++i) {
    const LayoutDimension &dim = result.dimensions[i];
    const bool reducedAway =
        dim.reduction && dim.name.find(".outer") == std::string::npos;
    if (reducedAway)
      continue;
    appendDimension(result.accumulatorLayout, layout, i);
    result.accumulatorDimensions.push_back(dim.name);
  }

  // Along the reduction dimensions, per iteration.
  result.reductionElementsPerSubgroup = 1;
  result.reductionElementsPerThread = 1;
  bool anyReduction = false;
  for (size_t i = 0; i < result.dimensions.size(); ++i) {
    if (!result.dimensions[i].reduction)
      continue;
    anyReduction = true;
    result.reductionElementsPerSubgroup *=
        result.dimensions[i].bound /
        std::max<int64_t>(layout.subgroupTile[i], 1);
    result.reductionElementsPerThread *=
        layout.batchTile[i] * layout.outerTile[i] * layout.elementTile[i];
  }
  if (!anyReduction)
    result.reductionElementsPerSubgroup = result.reductionElementsPerThread = 0;
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
  const bool packed =
      std::any_of(derived.dimensions.begin(), derived.dimensions.end(),
                  [](const LayoutDimension &d) {
                    return d.name.find(".outer") != std::string::npos;
                  });
  const config::NestedLayoutAttr &op = derived.layout;
  for (const config::OperandAccess &operand : space.operands) {
    if (operand.isOutput && packed) {
      layouts.push_back(derived.accumulatorLayout);
      continue;
    }
    // GPUPackPartialReductions packs the operand with linalg.pack: each
    // packed dimension keeps its outer part in place and its inner tile goes
    // to the end, after every other dimension of the operand.
    config::NestedLayoutAttr projected;
    std::vector<size_t> innerParts;
    for (int loop : operand.dims) {
      bool found = false;
      for (size_t i = 0; i < derived.dimensions.size(); ++i) {
        if (loop < 0 ||
            derived.dimensions[i].source != static_cast<size_t>(loop))
          continue;
        found = true;
        if (derived.dimensions[i].name.find(".inner") != std::string::npos)
          innerParts.push_back(i);
        else
          appendDimension(projected, op, i);
      }
      if (!found)
        appendUnitDimension(projected);
    }
    for (size_t i : innerParts)
      appendDimension(projected, op, i);
    layouts.push_back(projected);
  }
  if (space.operands.empty())
    layouts.push_back(op);
  return layouts;
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
  if (intrinsic.lhs.outer.size() != 2)
    return Error{mma->intrinsic + " has no 2-D fragment layout; block and "
                                  "layout-less intrinsics are not drawn yet"};
  auto dims = config::inferContraction(space);
  if (!dims)
    return Error{"the op is not a contraction (needs LHS, RHS and ACC maps "
                 "with M, N and K dimensions)"};
  const size_t rank = space.rank();
  const auto workgroup =
      sizesOr(cfg.tileSizes(config::TilingLevel::Workgroup), rank);
  const auto reduction =
      sizesOr(cfg.tileSizes(config::TilingLevel::Reduction), rank);
  ContractionLayouts result;
  result.intrinsic = intrinsic.name;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t tile = space.isReduction(d) ? reduction[d] : workgroup[d];
    result.bounds.push_back(tile > 0 ? std::min(tile, space.bounds[d])
                                     : space.bounds[d]);
  }
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

  // Operand dimension -> which fragment dimension (0 or 1) it carries.
  auto build = [&](const config::OperandAccess &operand,
                   const FragmentLayout &fragment, int first, int second) {
    config::NestedLayoutAttr layout;
    for (int loop : operand.dims) {
      const size_t d = static_cast<size_t>(std::max(loop, 0));
      const int f = loop == first ? 0 : loop == second ? 1 : -1;
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
      layout.batchTile.push_back(std::max<int64_t>(
          ceilDiv(bound, subgroup * outer * thread * element), 1));
      layout.outerTile.push_back(outer);
      layout.threadTile.push_back(thread);
      layout.elementTile.push_back(element);
      layout.subgroupStrides.push_back(subgroup == 1 ? 0 : sgStride[d]);
      layout.threadStrides.push_back(thread == 1 ? 0 : tstride);
    }
    return layout;
  };
  auto axes = [&](const config::OperandAccess &operand) {
    std::vector<std::string> names;
    for (int loop : operand.dims) {
      const auto in = [loop](const std::vector<int> &set) {
        return std::find(set.begin(), set.end(), loop) != set.end();
      };
      names.push_back(loop < 0 ? std::string("unit")
                               : "d" + std::to_string(loop) +
                                     (in(dims->m)   ? " (M)"
                                      : in(dims->n) ? " (N)"
                                      : in(dims->k) ? " (K)"
                                                    : " (batch)"));
    }
    return names;
  };
  result.lhsAxes = axes(space.operands[0]);
  result.rhsAxes = axes(space.operands[1]);
  result.accAxes = axes(space.operands[2]);
  result.lhs = build(space.operands[0], intrinsic.lhs, m, k);
  result.rhs = build(space.operands[1], intrinsic.rhs, k, n);
  result.acc = build(space.operands[2], intrinsic.acc, m, n);
  return result;
}

} // namespace tilescope::layout
