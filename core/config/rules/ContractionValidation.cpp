// Validation rules for contractions with mma_kind: the intrinsic's element
// types, IREE's VectorDistribute and TileAndFuse constraint generators
// (LLVMGPUConstraintGenerator.cpp), and the shared memory the promoted
// operands take.
#include "core/config/rules/detail/ValidationReporter.h"
#include "core/config/syntax/MmaIntrinsicTable.h"

#include "core/util/Numbers.h"

#include <algorithm>
#include <sstream>

namespace tilescope::config::detail {
namespace {

// "1056": a size rounded up to a multiple, or words where that multiple is
// past what 64 bits hold.
std::string paddedTo(int64_t size, int64_t multiple) {
  const int64_t padded = roundUpToMultiple(size, multiple);
  return padded % multiple == 0
             ? std::to_string(padded)
             : "the next multiple of " + std::to_string(multiple);
}

std::string list(const std::vector<int64_t> &values) {
  return bracketedList(values);
}

std::string kib(int64_t bytes) {
  std::ostringstream out;
  if (bytes % 1024 == 0)
    out << bytes / 1024 << " KiB";
  else
    out << static_cast<double>(bytes) / 1024.0 << " KiB";
  return out.str();
}

// The intrinsic reads LHS and RHS of its own element types (IREE only
// offers an intrinsic whose A and B types are the operands' types; the
// accumulator may differ, e.g. convert_acc_gemm).
// A scaled intrinsic's input types are the attribute's lhs_elem_type and
// rhs_elem_type (IREE's ScaledMMAAttr), not part of its name.
void checkIntrinsicInputTypes(Reporter &r, const IterationSpace &s,
                              const IntrinsicShape &shape, const MmaKind &mma) {
  if (s.operands.size() < 2)
    return;
  const std::string &lhs = s.operands[0].elementType;
  const std::string &rhs = s.operands[1].elementType;
  const std::string &a = mma.isScaled() ? mma.lhsElementType : shape.aType;
  const std::string &b = mma.isScaled() ? mma.rhsElementType : shape.bType;
  if (lhs.empty() || rhs.empty() || (lhs == a && rhs == b))
    return;
  r.add("mma_kind",
        mma.intrinsic + (mma.isScaled() ? " as given reads " : " reads ") + a +
            " x " + b + "; the op's LHS and RHS are " + lhs + " x " + rhs,
        "mma-element-types");
}

// TileAndFuse (LLVMGPUConstraintGenerator.cpp, emitTileAndFuseConstraints):
// each of M and N runs workgroup / (subgroup x intrinsic) subgroups,
// workgroup_size is [subgroups x subgroup_size, 1, 1], and the K dimension
// (aligned up to the intrinsic's K) is a multiple of reduction x mma K.
// Outer M and N loops (an IGEMM's output height beside its width) are not
// in intrinsics: along each, workgroup / subgroup tiles run one subgroup
// each (`outer`, with `outerText` saying which).
void checkTileAndFuseStructure(
    Reporter &r, const IterationSpace &s, int k, int64_t wgM, int64_t wgN,
    int64_t sgM, int64_t sgN, const IntrinsicShape &shape,
    const std::string &intrinsic, bool scaled,
    const std::optional<std::vector<int64_t>> &reduction, int64_t outer,
    const std::string &outerText) {
  const int64_t unitM = saturatingMultiply(sgM, shape.m);
  const int64_t unitN = saturatingMultiply(sgN, shape.n);
  const TranslationInfo *info =
      r.context.translationInfo ? &*r.context.translationInfo : nullptr;
  if (info && info->workgroupSize && r.subgroupSize() && unitM > 0 &&
      unitN > 0 && wgM > 0 && wgN > 0 && wgM % unitM == 0 && wgN % unitN == 0) {
    const int64_t countM = wgM / unitM, countN = wgN / unitN;
    std::vector<int64_t> expected = {
        saturatingMultiply(
            saturatingMultiply(saturatingMultiply(countM, countN), outer),
            *r.subgroupSize()),
        1, 1};
    std::vector<int64_t> actual = *info->workgroupSize;
    actual.resize(3, 1);
    if (actual != expected)
      r.add("translation_info.workgroup_size",
            "workgroup_size " + list(*info->workgroupSize) + " is not " +
                list(expected) + ": TileAndFuse runs (" + std::to_string(wgM) +
                " / (" + std::to_string(sgM) + " x " + intrinsic + " M " +
                std::to_string(shape.m) + ") = " + std::to_string(countM) +
                ") x (" + std::to_string(wgN) + " / (" + std::to_string(sgN) +
                " x N " + std::to_string(shape.n) +
                ") = " + std::to_string(countN) + ")" + outerText +
                " subgroups x subgroup_size " +
                std::to_string(*r.subgroupSize()) +
                "; the workgroup's accumulator tile then goes to shared "
                "memory as well (the shared-memory estimate counts it)",
            "tile-and-fuse-workgroup-size")
          .implied = list(expected);
  }
  if (!reduction || reduction->size() != s.rank())
    return;
  const int64_t redK = (*reduction)[static_cast<size_t>(k)];
  const int64_t boundK = s.bounds[static_cast<size_t>(k)];
  if (redK <= 0 || boundK == kDynamicSize || boundK <= 0 || shape.k <= 0)
    return;
  const int64_t alignedK = roundUpToMultiple(boundK, shape.k);
  const int64_t packedK = saturatingMultiply(redK, shape.k);
  // A padded reduction loop compiles as long as it runs once (the step
  // covers all of K); with more steps and a partial last one IREE 3.13
  // fails, scaled or not (measured: property_validation's scaled family,
  // property_compile_claims with the pinned iree-compile).
  if (alignedK % packedK != 0 && packedK < alignedK)
    r.add("reduction[" + std::to_string(k) + "]",
          "reduction[" + std::to_string(k) + "]=" + std::to_string(redK) +
              " x " + intrinsic + (scaled ? " K/block " : " K ") +
              std::to_string(shape.k) + " = " + std::to_string(packedK) +
              (scaled ? " scale blocks" : "") + " does not divide d" +
              std::to_string(k) + " = " + std::to_string(alignedK) +
              ": IREE 3.13 fails to compile a TileAndFuse reduction loop "
              "that runs more than once with a padded last step "
              "(bufferization: 'Yield operand #0 is not equivalent to the "
              "corresponding iter bbArg')",
          "tile-and-fuse-padded-reduction-loop");
  else if (alignedK % packedK != 0)
    r.add("reduction[" + std::to_string(k) + "]",
          "reduction[" + std::to_string(k) + "]=" + std::to_string(redK) +
              " x " + intrinsic + " K " + std::to_string(shape.k) + " = " +
              std::to_string(packedK) + " does not divide d" +
              std::to_string(k) + " = " + std::to_string(alignedK) +
              (alignedK != boundK ? " (" + std::to_string(boundK) +
                                        " aligned to the intrinsic's K)"
                                  : std::string()) +
              " (TileAndFuse counts reduction in intrinsic tiles), in one "
              "step: IREE compiles it, padding d" +
              std::to_string(k) + " to " + paddedTo(alignedK, packedK),
          "tile-and-fuse-reduction-multiple");
}

// A workgroup tile that leaves a partial last tile under TileAndFuse with an
// intrinsic: IREE 3.13 compiles it only when every partial dimension gives
// each subgroup one intrinsic tile and the reduction runs in one step;
// otherwise the partial tile fails to bufferize ('op was not bufferized') or
// leaves a vector.scatter to shared memory outside any lane context. This
// is measured, not read from one check in IREE: 160 seeded cases with the
// pinned IREE agree (tests/property/property_validation covers it on every
// run).
void checkTileAndFusePartialTile(
    Reporter &r, const IterationSpace &s, const ContractionDims &dims,
    const IntrinsicShape &shape, const std::vector<int64_t> &workgroup,
    const std::vector<int64_t> &subgroupTiles,
    const std::optional<std::vector<int64_t>> &reduction) {
  // Steps of the reduction loop: each K dimension's bound over its tile (the
  // innermost one counted in intrinsic K's).
  int64_t steps = 1;
  std::string stepsWhy;
  for (int k : dims.k) {
    const int64_t bound = s.bounds[static_cast<size_t>(k)];
    int64_t tile = reduction && reduction->size() == s.rank()
                       ? (*reduction)[static_cast<size_t>(k)]
                       : 0;
    if (k == dims.k.back())
      tile = saturatingMultiply(tile, shape.k);
    if (bound == kDynamicSize || bound <= 0 || tile <= 0 || tile >= bound)
      continue;
    const int64_t count = ceilDivide(bound, tile);
    steps = saturatingMultiply(steps, count);
    if (stepsWhy.empty())
      stepsWhy = "the reduction over d" + std::to_string(k) + " runs in " +
                 std::to_string(count) + " steps of " + std::to_string(tile);
  }
  std::vector<int> parallel = dims.m;
  parallel.insert(parallel.end(), dims.n.begin(), dims.n.end());
  // A dimension the config pads (`padding`, as IREE's own configs for
  // shapes that do not divide do: GPUPadOperands) is padded to whole tiles
  // before it is tiled: its last tile is not partial.
  const auto padding = r.config.padding();
  for (int d : parallel) {
    const auto index = static_cast<size_t>(d);
    const int64_t bound = s.bounds[index], wg = workgroup[index];
    if (bound == kDynamicSize || wg <= 0 || bound % wg == 0)
      continue;
    if (padding && padding->size() == s.rank() && (*padding)[index] > 0)
      continue;
    const int64_t perSubgroup = subgroupTiles[index];
    std::string why;
    if (perSubgroup > 1)
      why = "subgroup[" + std::to_string(d) +
            "]=" + std::to_string(perSubgroup) +
            " gives each subgroup several intrinsic tiles of it";
    else if (steps > 1)
      why = stepsWhy;
    if (why.empty())
      continue;
    r.add("workgroup[" + std::to_string(d) + "]",
          "workgroup[" + std::to_string(d) + "]=" + std::to_string(wg) +
              " leaves a partial last tile of d" + std::to_string(d) + " (" +
              std::to_string(bound % wg) + " of " + std::to_string(bound) +
              ") and " + why + ": TileAndFuse in IREE " +
              r.context.ireeRelease +
              " then fails ('op was not bufferized' or a vector.scatter to "
              "shared memory); pick a tile that divides " +
              std::to_string(bound) +
              ", or one intrinsic tile per subgroup and one reduction step",
          "tile-and-fuse-mma-partial-tile");
  }
}

// Contractions with mma_kind: IREE's constraint generators
// (LLVMGPUConstraintGenerator.cpp) for VectorDistribute (tiles in elements)
// and TileAndFuse (subgroup/reduction in intrinsic tiles).
// What IREE 3.13's pipelines cannot do with an intrinsic, whatever the tile
// sizes (measured with the pinned IREE: `property_validation
// --intrinsic-matrix` runs every intrinsic of gfx942 and sm_90 under both
// pipelines).
void checkIntrinsicPipeline(Reporter &r, const MmaKind &mma) {
  const std::string pipeline = r.pipeline();
  if (pipeline == "VectorDistribute" && mma.intrinsic.rfind("VDMFMA_", 0) == 0)
    r.add("mma_kind",
          mma.intrinsic + " cannot run under VectorDistribute in IREE " +
              r.context.ireeRelease +
              ": each lane's LHS fragment of a VDMFMA holds twice the "
              "elements iree_codegen.inner_tiled expects ('operand #0 inner "
              "tile ... is incompatible with expected MMA tile type'); use "
              "TileAndFuse, or an MFMA or VMFMA intrinsic",
          "mma-pipeline");
  if (pipeline == "TileAndFuse" && mma.intrinsic == "VMFMA_F32_32x32x16_F16")
    r.add("mma_kind",
          mma.intrinsic + " cannot run under TileAndFuse in IREE " +
              r.context.ireeRelease +
              ": distributing it to lanes fails ('inner_tiled op failed to "
              "populate offsets for operand 2'); use VectorDistribute, or "
              "VMFMA_F32_16x16x32_F16 or an MFMA intrinsic",
          "mma-pipeline");
}

// col_major transposes an intrinsic's accumulator fragment; outside
// TileAndFuse, IREE's layout counts batches by the untransposed shape.
void checkColMajorShape(Reporter &r, const MmaKind &mma) {
  auto shape = intrinsicShape(mma.intrinsic);
  if (!shape || !mma.colMajor || shape->m == shape->n ||
      r.pipeline() == "TileAndFuse")
    return;
  r.add("mma_kind",
        mma.intrinsic +
            " with col_major = true: its accumulator fragment "
            "is transposed to " +
            std::to_string(shape->n) + " x " + std::to_string(shape->m) +
            " but getContractionLayout counts "
            "batches by the intrinsic's " +
            std::to_string(shape->m) + " x " + std::to_string(shape->n) +
            ", so the accumulator's layout does not cover its tile and "
            "IREE's tile size analysis fails ('did not determine a valid "
            "tile size')",
        "mma-col-major-shape");
}

// A contraction's tiles as the rules below read them: its innermost M, N
// and K loops, the intrinsic's shape along them, the workgroup tile along
// M and N, one reduction step's K (in elements), subgroups per loop.
struct ContractionTiles {
  const IterationSpace *space = nullptr;
  ContractionDims dims;
  int m = 0, n = 0, k = 0;
  IntrinsicShape shape;
  std::string intrinsic;
  bool tileAndFuse = false;
  std::vector<int64_t> workgroup;
  std::optional<std::vector<int64_t>> reduction, subgroupTiles;
  int64_t wgM = 0, wgN = 0, redK = 0;
  std::vector<int64_t> subgroupCounts;
};

// The intrinsic's M x N x K along the op's loops: a scaled intrinsic's K
// runs along the op's k dim in scale blocks (its kB dim holds the block),
// so along k it covers K / block.
std::optional<IntrinsicShape> shapeAlongLoops(const MmaKind &mma) {
  auto shape = intrinsicShape(mma.intrinsic);
  if (shape && mma.isScaled())
    for (const ScaledMmaTableEntry &entry : scaledMmaIntrinsicTable())
      if (entry.name == mma.intrinsic && entry.blockSize > 0)
        shape->k /= entry.blockSize;
  return shape;
}

// The tiles, where the op is a contraction with a workgroup tile of its
// rank and the intrinsic is known.
std::optional<ContractionTiles> contractionTilesOf(const Reporter &r,
                                                   const MmaKind &mma) {
  const IterationSpace *s = r.space();
  auto dims = inferContraction(*s);
  auto shape = shapeAlongLoops(mma);
  if (!dims || !shape)
    return std::nullopt;
  auto workgroup = r.config.tileSizes(TilingLevel::Workgroup);
  if (!workgroup || workgroup->size() != s->rank())
    return std::nullopt;
  ContractionTiles t;
  t.space = s;
  t.dims = *dims;
  t.m = dims->m.back();
  t.n = dims->n.back();
  t.k = dims->k.back();
  t.shape = *shape;
  t.intrinsic = mma.intrinsic;
  t.tileAndFuse = r.pipeline() == "TileAndFuse";
  t.workgroup = *workgroup;
  t.reduction = r.config.tileSizes(TilingLevel::Reduction);
  t.subgroupTiles = r.config.tileSizes(TilingLevel::Subgroup);
  t.wgM = t.workgroup[static_cast<size_t>(t.m)];
  t.wgN = t.workgroup[static_cast<size_t>(t.n)];
  if (t.reduction && t.reduction->size() == s->rank())
    t.redK = saturatingMultiply((*t.reduction)[static_cast<size_t>(t.k)],
                                t.tileAndFuse ? shape->k : 1);
  t.subgroupCounts.assign(s->rank(), 1);
  if (auto basis = r.config.subgroupBasis();
      basis && basis->mapping.size() == s->rank()) {
    for (size_t d = 0; d < s->rank(); ++d) {
      const int64_t axis = basis->mapping[d];
      if (axis >= 0 && axis < static_cast<int64_t>(basis->counts.size()))
        t.subgroupCounts[d] = basis->counts[static_cast<size_t>(axis)];
    }
  }
  return t;
}

// A workgroup tile that is not whole intrinsics: IREE pads it up to whole
// intrinsic tiles (VectorDistribute: per subgroup).
void checkPadded(Reporter &r, const char *name, int dim, int64_t wg,
                 int64_t unit, const std::string &why) {
  if (wg <= 0 || unit <= 0 || wg % unit == 0)
    return;
  r.add(std::string("workgroup[") + std::to_string(dim) + "]",
        std::string("workgroup[") + std::to_string(dim) +
            "]=" + std::to_string(wg) + " (" + name +
            ") is not a multiple of " + std::to_string(unit) + " = " + why +
            ": IREE compiles it, " + "padding the tile to " +
            paddedTo(wg, unit) + " and masking the rest",
        "contraction-workgroup-padded");
}

// TileAndFuse packs the tile into whole intrinsics and hands them to
// subgroups in equal shares: a share that is not whole fails.
void checkSubgroupShare(Reporter &r, const std::string &intrinsic,
                        const char *name, int dim, int64_t wg,
                        int64_t intrinsicSize, int64_t subgroups) {
  if (wg <= 0 || intrinsicSize <= 0 || subgroups <= 0)
    return;
  const int64_t tiles = ceilDivide(wg, intrinsicSize);
  if (tiles % subgroups == 0) {
    checkPadded(r, name, dim, wg, intrinsicSize,
                intrinsic + " " + name + " " + std::to_string(intrinsicSize));
    return;
  }
  // Fewer tiles than one subgroup takes: one subgroup runs them all
  // (measured with the pinned iree-compile: property_compile_claims).
  if (tiles < subgroups) {
    r.add(std::string("subgroup[") + std::to_string(dim) + "]",
          std::string("subgroup[") + std::to_string(dim) +
              "]=" + std::to_string(subgroups) +
              " intrinsic tiles a "
              "subgroup, but workgroup[" +
              std::to_string(dim) + "]=" + std::to_string(wg) + " (" + name +
              ") holds " + std::to_string(tiles) + " " + intrinsic + " tile" +
              (tiles == 1 ? "" : "s") + " of " + std::to_string(intrinsicSize) +
              ": one subgroup runs all of them",
          "tile-and-fuse-subgroup-tile-over");
    return;
  }
  r.add(std::string("workgroup[") + std::to_string(dim) + "]",
        std::string("workgroup[") + std::to_string(dim) +
            "]=" + std::to_string(wg) + " (" + name + ") is " +
            std::to_string(tiles) + " " + intrinsic + " tiles of " +
            std::to_string(intrinsicSize) + ", which subgroup[" +
            std::to_string(dim) + "]=" + std::to_string(subgroups) +
            " cannot share out (more tiles than one subgroup takes, not a "
            "multiple of it): IREE cannot tile it to subgroups",
        "tile-and-fuse-subgroup-share");
}

// TileAndFuse: the subgroups' shares of M and N, the other M and N loops
// (workgroup / subgroup tiles each), the structure IREE builds.
void checkTileAndFuseTiles(Reporter &r, const ContractionTiles &t,
                           bool scaled) {
  const IterationSpace &s = *t.space;
  const std::vector<int64_t> &subgroupTiles = *t.subgroupTiles;
  const int64_t sgM = subgroupTiles[static_cast<size_t>(t.m)];
  const int64_t sgN = subgroupTiles[static_cast<size_t>(t.n)];
  checkSubgroupShare(r, t.intrinsic, "M", t.m, t.wgM, t.shape.m, sgM);
  checkSubgroupShare(r, t.intrinsic, "N", t.n, t.wgN, t.shape.n, sgN);
  int64_t outer = 1;
  std::string outerText;
  for (const std::vector<int> *group : {&t.dims.m, &t.dims.n})
    for (int d : *group) {
      if (d == t.m || d == t.n)
        continue;
      const int64_t wg = t.workgroup[static_cast<size_t>(d)];
      const int64_t sg = subgroupTiles[static_cast<size_t>(d)];
      if (wg <= 0 || sg <= 0 || wg % sg != 0 || wg == sg)
        continue;
      outer = saturatingMultiply(outer, wg / sg);
      outerText += " x (d" + std::to_string(d) + " " + std::to_string(wg) +
                   " / " + std::to_string(sg) + " = " +
                   std::to_string(wg / sg) + ")";
    }
  checkTileAndFuseStructure(r, s, t.k, t.wgM, t.wgN, sgM, sgN, t.shape,
                            t.intrinsic, scaled, t.reduction, outer, outerText);
  checkTileAndFusePartialTile(r, s, t.dims, t.shape, t.workgroup, subgroupTiles,
                              t.reduction);
}

// VectorDistribute: each subgroup's tile is whole intrinsics, and a K step
// whole intrinsic K's; IREE pads what is not.
void checkDistributedPadding(Reporter &r, const ContractionTiles &t) {
  const int64_t countM = t.subgroupCounts[static_cast<size_t>(t.m)];
  const int64_t countN = t.subgroupCounts[static_cast<size_t>(t.n)];
  checkPadded(r, "M", t.m, t.wgM, saturatingMultiply(t.shape.m, countM),
              t.intrinsic + " M " + std::to_string(t.shape.m) + " x " +
                  std::to_string(countM) + " subgroups");
  checkPadded(r, "N", t.n, t.wgN, saturatingMultiply(t.shape.n, countN),
              t.intrinsic + " N " + std::to_string(t.shape.n) + " x " +
                  std::to_string(countN) + " subgroups");
  if (t.redK > 0 && t.redK % t.shape.k != 0)
    r.add("reduction[" + std::to_string(t.k) + "]",
          "reduction[" + std::to_string(t.k) + "]=" + std::to_string(t.redK) +
              " is not a multiple of " + t.intrinsic + " K " +
              std::to_string(t.shape.k) + ": IREE compiles it, padding " +
              "each K step to " +
              std::to_string((t.redK + t.shape.k - 1) / t.shape.k * t.shape.k),
          "contraction-reduction-multiple");
}

// TileAndFuse with a workgroup size that is not its subgroups' keeps the
// accumulator tile in shared memory too (measured with the pinned IREE: the
// gfx942 matmul's [64, 128] tile with workgroup_size [128, 1, 1] takes
// 32 KiB more); its bytes, 0 where it does not. (Only for a subgroup size
// the target has: with another, IREE's subgroups are not the ones the
// config counts, and it compiles the gfx942 matmul with subgroup_size 32 in
// 48 KiB.)
int64_t sharedAccumulatorBytes(const Reporter &r, const ContractionTiles &t) {
  const IterationSpace &s = *t.space;
  const TranslationInfo *info =
      r.context.translationInfo ? &*r.context.translationInfo : nullptr;
  if (!t.tileAndFuse || !t.subgroupTiles ||
      t.subgroupTiles->size() != s.rank() || !info || !info->workgroupSize ||
      !r.subgroupSize() ||
      !r.context.target->allowsSubgroupSize(*r.subgroupSize()))
    return 0;
  const int64_t unitM = saturatingMultiply(
      (*t.subgroupTiles)[static_cast<size_t>(t.m)], t.shape.m);
  const int64_t unitN = saturatingMultiply(
      (*t.subgroupTiles)[static_cast<size_t>(t.n)], t.shape.n);
  if (unitM <= 0 || unitN <= 0 || t.wgM <= 0 || t.wgN <= 0 ||
      t.wgM % unitM != 0 || t.wgN % unitN != 0 ||
      saturatingProduct(*info->workgroupSize) ==
          saturatingMultiply(saturatingMultiply(t.wgM / unitM, t.wgN / unitN),
                             *r.subgroupSize()))
    return 0;
  const int64_t accBytes =
      s.operands.size() > 2
          ? std::max<int64_t>(1, elementBytes(s.operands.back().elementType))
          : 4;
  return saturatingMultiply(saturatingMultiply(t.wgM, t.wgN), accBytes);
}

// Shared memory: promoted LHS and RHS tiles of one reduction step (and the
// accumulator where IREE keeps it there) against the target's limit.
void checkSharedMemory(Reporter &r, const ContractionTiles &t) {
  const IterationSpace &s = *t.space;
  int64_t redK = t.redK;
  if (!r.context.target || redK <= 0 || s.operands.size() < 2)
    return;
  auto promoted = r.config.promoteOperands().value_or(std::vector<int64_t>{});
  auto isPromoted = [&](int64_t operand) {
    return std::find(promoted.begin(), promoted.end(), operand) !=
           promoted.end();
  };
  // A K step past the dimension is clamped to it (aligned up to the
  // intrinsic's K, which IREE pads to).
  const int64_t boundK = s.bounds[static_cast<size_t>(t.k)];
  if (boundK != kDynamicSize && boundK > 0)
    redK = std::min(redK, saturatingMultiply(
                              (boundK + t.shape.k - 1) / t.shape.k, t.shape.k));
  // The rows as IREE allocates them before it pads them against bank
  // conflicts (8 bytes a row, which it leaves out where they would not fit:
  // a 16 x 1024 f16 pair at 64.25 KiB padded compiles on gfx942).
  auto rows = [&](int64_t count, int64_t elementBytes) {
    return saturatingMultiply(count, saturatingMultiply(elementBytes, redK));
  };
  int64_t bytes = 0;
  if (isPromoted(0))
    bytes = saturatingAdd(bytes,
                          rows(t.wgM, elementBytes(s.operands[0].elementType)));
  if (isPromoted(1))
    bytes = saturatingAdd(bytes,
                          rows(t.wgN, elementBytes(s.operands[1].elementType)));
  std::string accumulator;
  if (const int64_t acc = sharedAccumulatorBytes(r, t); acc > 0) {
    bytes = saturatingAdd(bytes, acc);
    accumulator = " + the accumulator " + std::to_string(t.wgM) + "x" +
                  std::to_string(t.wgN) +
                  ", which IREE keeps in shared memory when workgroup_size "
                  "is not the subgroups'";
  }
  const int64_t limit = r.context.target->maxWorkgroupMemoryBytes;
  if (limit > 0 && bytes > limit)
    r.add("promote_operands",
          "estimated shared memory " + kib(bytes) + " > " + kib(limit) +
              " on " + r.context.target->arch + " (LHS " +
              std::to_string(t.wgM) + "x" + std::to_string(redK) + " + RHS " +
              std::to_string(t.wgN) + "x" + std::to_string(redK) +
              " per reduction step" + accumulator + ")",
          "shared-memory");
}

void checkContractionRules(Reporter &r) {
  auto mma = r.config.mmaKind();
  if (!mma)
    return;
  checkIntrinsicPipeline(r, *mma);
  checkColMajorShape(r, *mma);
  // An intrinsic the target does not have: how IREE would tile it is moot
  // (IREE's answers on such configs are whatever its code happens to do).
  if (!r.space() || r.fired("target-mma"))
    return;
  auto shape = shapeAlongLoops(*mma);
  if (!inferContraction(*r.space()) || !shape)
    return;
  checkIntrinsicInputTypes(r, *r.space(), *shape, *mma);
  auto tiles = contractionTilesOf(r, *mma);
  if (!tiles)
    return;
  if (tiles->tileAndFuse && tiles->subgroupTiles &&
      tiles->subgroupTiles->size() == r.space()->rank())
    checkTileAndFuseTiles(r, *tiles, mma->isScaled());
  else if (!tiles->tileAndFuse)
    checkDistributedPadding(r, *tiles);
  checkSharedMemory(r, *tiles);
}
} // namespace

void checkContraction(Reporter &r) { checkContractionRules(r); }

} // namespace tilescope::config::detail
