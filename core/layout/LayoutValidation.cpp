#include "core/layout/LayoutValidation.h"

#include "core/layout/AttentionLayouts.h"
#include "core/layout/Basis.h"
#include "core/layout/ThreadDistribution.h"
#include "core/util/Numbers.h"

namespace tilescope::layout {
namespace {

int64_t roundUp(int64_t value, int64_t unit) {
  return unit <= 0 || value < 0 ? value : roundUpToMultiple(value, unit);
}

// VectorDistribute copies each promoted operand's tile into shared memory
// with a layout IREE derives from the workgroup's threads
// (GPUVectorAlloc.cpp: deriveThreadTileSizes, then getDerivedThreadLayout):
// 128-bit vectors, threads filling the tile innermost first. Where they
// cannot be spread over the tile, IREE fails ("failed to derive layout for
// promoted read-like op").
void checkPromotedCopies(const config::LoweringConfig &config,
                         const config::ValidationContext &context,
                         std::vector<config::Problem> &problems) {
  if (!context.iterationSpace || !context.translationInfo ||
      context.translationInfo->pipelineName() != "VectorDistribute" ||
      !context.translationInfo->workgroupSize)
    return;
  auto promoted = config.promoteOperands();
  auto mma = config.mmaKind();
  if (!promoted || !mma)
    return;
  const config::IterationSpace &space = *context.iterationSpace;
  auto dims = config::inferContraction(space);
  auto shape = config::intrinsicShape(mma->intrinsic);
  auto workgroup = config.tileSizes(config::TilingLevel::Workgroup);
  auto reduction = config.tileSizes(config::TilingLevel::Reduction);
  if (!dims || !shape || !workgroup || workgroup->size() != space.rank())
    return;
  std::vector<int64_t> subgroups(space.rank(), 1);
  if (auto basis = config.subgroupBasis();
      basis && basis->mapping.size() == space.rank())
    for (size_t d = 0; d < space.rank(); ++d)
      if (basis->mapping[d] >= 0 &&
          basis->mapping[d] < static_cast<int64_t>(basis->counts.size()))
        subgroups[d] = basis->counts[static_cast<size_t>(basis->mapping[d])];
  // The tile of each loop the copies cover: workgroup tiles rounded up to
  // whole intrinsics per subgroup, the K step.
  std::vector<int64_t> tile(space.rank(), 1);
  for (size_t d = 0; d < space.rank(); ++d) {
    const int loop = static_cast<int>(d);
    int64_t size =
        space.isReduction(d)
            ? (reduction && d < reduction->size() && (*reduction)[d] > 0
                   ? (*reduction)[d]
                   : space.bounds[d])
            : ((*workgroup)[d] > 0 ? (*workgroup)[d] : space.bounds[d]);
    if (loop == dims->m.back())
      size = roundUp(size, shape->m * subgroups[d]);
    else if (loop == dims->n.back())
      size = roundUp(size, shape->n * subgroups[d]);
    else if (loop == dims->k.back())
      size = roundUp(size, shape->k);
    tile[d] = size;
  }
  const std::vector<int64_t> &workgroupSize =
      *context.translationInfo->workgroupSize;
  const int64_t threads = saturatingProduct(workgroupSize);
  for (int64_t operand : *promoted) {
    if (operand < 0 || operand > 1 ||
        static_cast<size_t>(operand) >= space.operands.size())
      continue;
    const config::OperandAccess &access =
        space.operands[static_cast<size_t>(operand)];
    std::vector<int64_t> copy;
    for (int loop : access.dims)
      copy.push_back(loop < 0 ? 1 : tile[static_cast<size_t>(loop)]);
    const int64_t bits = config::elementBits(access.elementType);
    if (bits <= 0)
      continue;
    const std::vector<config::LoopKind> kinds(copy.size(),
                                              config::LoopKind::Parallel);
    const auto elementTile = derivedThreadTileSizes(copy, kinds, threads, bits);
    auto layout = derivedThreadLayout(workgroupSize, copy, elementTile);
    if (layout)
      continue;
    std::string shapeText;
    for (size_t i = 0; i < copy.size(); ++i)
      shapeText += (i ? " x " : "") + std::to_string(copy[i]);
    problems.push_back(config::makeProblem(
        "promote_operands",
        std::string(operand == 0 ? "LHS" : "RHS") + " is promoted, but IREE " +
            "cannot spread the workgroup's " + std::to_string(threads) +
            " threads over its " + shapeText + " tile in " +
            std::to_string(128 / bits) + "-element vectors (" + layout.error() +
            "): IREE fails with 'failed to derive layout for promoted "
            "read-like op'",
        "promoted-copy-layout"));
  }
}

// Attention under VectorDistribute: IREE lays its Q.K^T and P.V
// contractions out from the qk and pv configs inside the op's tiles
// (AttentionLayouts); where that cannot be done, IREE fails. Each
// contraction's subgroup basis should cover the workgroup's subgroups:
// IREE compiles one that covers fewer, and the others repeat its work.
void checkAttention(const config::LoweringConfig &config,
                    const config::ValidationContext &context,
                    std::vector<config::Problem> &problems) {
  if (!context.decomposition || !context.iterationSpace ||
      !context.translationInfo ||
      context.translationInfo->pipelineName() != "VectorDistribute")
    return;
  auto attention = deriveAttentionLayouts(config, *context.iterationSpace,
                                          *context.decomposition);
  if (!attention) {
    problems.push_back(config::makeProblem(
        "decomposition_config",
        "IREE cannot lay attention's contractions out: " + attention.error(),
        "attention-layout"));
    return;
  }
  // Intrinsics of two shapes: IREE's tile-size analysis fails on the
  // output's fill ("tile size analysis did not determine a valid tile
  // size"): gfx942's 32x32x8 against 16x16x16 either way round, col_major
  // or not; the same shape with col_major on one side only compiles.
  const auto qkShape = config::intrinsicShape(attention->qk.layouts.intrinsic);
  const auto pvShape = config::intrinsicShape(attention->pv.layouts.intrinsic);
  if (qkShape && pvShape &&
      (qkShape->m != pvShape->m || qkShape->n != pvShape->n))
    problems.push_back(config::makeProblem(
        "pv_attrs.mma_kind",
        "Q.K^T runs " + attention->qk.layouts.intrinsic + " and P.V " +
            attention->pv.layouts.intrinsic +
            ": intrinsics of two shapes, where IREE's tile-size analysis "
            "fails on the output's fill ('tile size analysis did not "
            "determine a valid tile size')",
        "attention-intrinsics"));
  const auto &workgroupSize = context.translationInfo->workgroupSize;
  const auto subgroupSize = context.translationInfo->subgroupSize;
  if (!workgroupSize || !subgroupSize || *subgroupSize <= 0)
    return;
  const int64_t subgroups = saturatingProduct(*workgroupSize) / *subgroupSize;
  for (const AttentionContraction *part : {&attention->qk, &attention->pv}) {
    const std::string half = part == &attention->qk ? "qk_attrs" : "pv_attrs";
    // The basis's counts on the contraction's loops (its mapping); the
    // layouts above were derived from it, so it reads.
    const auto basis = part->config.subgroupBasis();
    if (!basis)
      continue;
    auto map = BasisMap::create(*basis);
    if (!map)
      continue;
    const int64_t used = saturatingProduct(map->sizes());
    if (used == subgroups)
      continue;
    problems.push_back(config::makeProblem(
        half + ".subgroup_basis",
        part->name + " is spread over " + std::to_string(used) + " subgroup" +
            (used == 1 ? "" : "s") + " where the workgroup (" +
            bracketedList(*workgroupSize) + " threads, subgroups of " +
            std::to_string(*subgroupSize) + ") has " +
            std::to_string(subgroups) +
            (used < subgroups ? ": the others repeat its work"
                              : ": IREE distributes to subgroups that do not "
                                "exist"),
        "attention-subgroups"));
  }
}

} // namespace

std::vector<config::Problem>
validate(const config::LoweringConfig &config,
         const config::ValidationContext &context) {
  std::vector<config::Problem> problems = config::validate(config, context);
  checkPromotedCopies(config, context, problems);
  checkAttention(config, context, problems);
  return problems;
}

} // namespace tilescope::layout
