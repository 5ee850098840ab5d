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

// The product of a loop set's entries of `values`.
int64_t productAt(const std::vector<int64_t> &values,
                  const std::vector<int> &loops) {
  int64_t product = 1;
  for (int d : loops)
    product = saturatingMultiply(product, values[static_cast<size_t>(d)]);
  return product;
}

// The subgroups P.V's basis counts on the query rows (1 without a basis
// over the attention's loops).
int64_t subgroupsOnRows(const AttentionLayouts &attention) {
  const auto basis = attention.pv.config.subgroupBasis();
  if (!basis || basis->counts.size() != attention.tile.size())
    return 1;
  return std::max<int64_t>(1, productAt(basis->counts, attention.dims.m));
}

// What one workgroup's step of attention needs, checked against what IREE
// builds (each found by the pinned iree-compile on gfx942,
// property_compile_claims):
//  - the K2 step is Q.K^T's N and P.V's K: a step that is not a multiple of
//    both intrinsics' sizes leaves IREE's tile-size analysis without a tile
//    for the packed operands ("'linalg.pack' op tile size analysis did not
//    determine a valid tile size");
//  - shared memory holds the step's Q, K and V tiles, and P where S's
//    accumulator layout is not P.V's LHS layout, the query rows padded to
//    the intrinsic's M per subgroup; past the target's limit the compile
//    fails ("uses N bytes of shared memory; exceeded the limit").
void checkAttentionTiles(const AttentionLayouts &attention,
                         const config::IntrinsicShape &qk,
                         const config::IntrinsicShape &pv,
                         const config::ValidationContext &context,
                         std::vector<config::Problem> &problems) {
  const AttentionDims &dims = attention.dims;
  const int64_t step = productAt(attention.tile, dims.k2);
  for (const auto &[size, what] : {std::pair{qk.n, "Q.K^T's intrinsic N"},
                                   std::pair{pv.k, "P.V's intrinsic K"}})
    if (size > 0 && step % size != 0) {
      problems.push_back(config::makeProblem(
          "reduction",
          "the K2 step (" + std::to_string(step) + ") is not a multiple of " +
              what + " (" + std::to_string(size) +
              "): IREE's tile-size analysis finds no tile for the packed "
              "operands ('tile size analysis did not determine a valid tile "
              "size')",
          "attention-k2-step"));
      return;
    }
  if (!context.target || context.target->maxWorkgroupMemoryBytes <= 0 ||
      !context.iterationSpace || context.iterationSpace->operands.size() < 3)
    return;
  // Query rows as the subgroups hold them: each subgroup's share at least
  // the intrinsic's M.
  const int64_t along = subgroupsOnRows(attention);
  const int64_t rows = std::max(productAt(attention.tile, dims.m) / along,
                                std::max(qk.m, pv.m)) *
                       along;
  const int64_t k1 = productAt(attention.tile, dims.k1);
  const int64_t columns = productAt(attention.tile, dims.n);
  const int64_t bytesOf = std::max<int64_t>(
      1, config::elementBytes(context.iterationSpace->operands[0].elementType));
  const int64_t q = saturatingMultiply(rows, k1);
  const int64_t k = saturatingMultiply(step, k1);
  const int64_t v = saturatingMultiply(step, columns);
  const int64_t p =
      attention.pChangesLayout ? saturatingMultiply(rows, step) : 0;
  const int64_t bytes = saturatingMultiply(
      saturatingAdd(saturatingAdd(q, k), saturatingAdd(v, p)), bytesOf);
  const int64_t limit = context.target->maxWorkgroupMemoryBytes;
  if (bytes <= limit)
    return;
  problems.push_back(config::makeProblem(
      "workgroup",
      "shared memory for one step " + std::to_string(bytes) + " B > " +
          std::to_string(limit) + " B on " + context.target->arch + " (Q " +
          std::to_string(rows) + "x" + std::to_string(k1) + " + K " +
          std::to_string(step) + "x" + std::to_string(k1) + " + V " +
          std::to_string(step) + "x" + std::to_string(columns) +
          (p ? " + P " + std::to_string(rows) + "x" + std::to_string(step) +
                   ", which changes layout between the contractions"
             : std::string()) +
          ")",
      "attention-shared-memory"));
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
  // Intrinsics of two M x N shapes: IREE builds them where each
  // subgroup's query rows are a multiple of both intrinsics' M; where one
  // must pad, its tile-size analysis fails on the output's fill (gfx942,
  // 16 rows a subgroup: 32x32x8 against 16x16x16 either way round fails,
  // 32 rows compile; one shape padded on both sides compiles;
  // property_compile_claims).
  const auto qkShape = config::intrinsicShape(attention->qk.layouts.intrinsic);
  const auto pvShape = config::intrinsicShape(attention->pv.layouts.intrinsic);
  if (qkShape && pvShape &&
      (qkShape->m != pvShape->m || qkShape->n != pvShape->n)) {
    const int64_t rows = productAt(attention->tile, attention->dims.m) /
                         subgroupsOnRows(*attention);
    if (rows % qkShape->m != 0 || rows % pvShape->m != 0)
      problems.push_back(config::makeProblem(
          "pv_attrs.mma_kind",
          "Q.K^T runs " + attention->qk.layouts.intrinsic + " and P.V " +
              attention->pv.layouts.intrinsic +
              ": intrinsics of two shapes, and a subgroup's " +
              std::to_string(rows) + " query rows are not a multiple of " +
              "both intrinsics' M, where IREE's tile-size analysis fails on "
              "the output's fill ('tile size analysis did not determine a "
              "valid tile size')",
          "attention-intrinsics"));
  }
  if (qkShape && pvShape)
    checkAttentionTiles(*attention, *qkShape, *pvShape, context, problems);
  const auto &workgroupSize = context.translationInfo->workgroupSize;
  const auto subgroupSize = context.translationInfo->subgroupSize;
  if (!workgroupSize || !subgroupSize || *subgroupSize <= 0)
    return;
  const int64_t subgroups = saturatingProduct(*workgroupSize) / *subgroupSize;
  // A contraction without an intrinsic is spread over lanes by its
  // lane_basis (IREE's SIMT attention config); lanes past the basis's
  // product wrap onto the same elements.
  for (const AttentionContraction *part : {&attention->qk, &attention->pv}) {
    const auto lanes = part->config.laneBasis();
    if (!lanes || !part->layouts.intrinsic.empty())
      continue;
    const int64_t used = lanes->product();
    if (used <= 0 || used >= *subgroupSize)
      continue;
    const std::string half = part == &attention->qk ? "qk_attrs" : "pv_attrs";
    problems.push_back(config::makeProblem(
        half + ".lane_basis",
        config::lanesWrapMessage(part->name + "'s lane_basis", used,
                                 *subgroupSize),
        "basis-product"));
  }
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
