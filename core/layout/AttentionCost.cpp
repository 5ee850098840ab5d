#include "core/layout/AttentionCost.h"

#include "core/layout/AttentionLayouts.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/detail/CostModelParts.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace tilescope::layout {
namespace {

using namespace detail;

// Cycles of vector work per score of the online softmax per lane: the
// running max, the exponent, the running sum, the rescale of the
// accumulator and the conversions between them.
constexpr double kSoftmaxCyclesPerScore = 8;
// Measured kernel time over the model's (the issue stalls and the
// serialisation between the two contractions and the softmax the model
// does not follow): the H200's 13 configs of the Llama-3-8B attention
// (32 x 2048 x 128, f16), 1.6x-2.1x; their median.
constexpr double kAttentionCalibration = 1.8;

// A tile of `tile` elements over `count` subgroups, each subgroup's share
// padded to the intrinsic's `unit`.
struct Extent {
  double used = 0, perSubgroup = 0, padded = 0;
};
Extent padded(double tile, double count, int64_t unit) {
  count = std::max(1.0, count);
  const double share = tile / count;
  return {tile, share, std::max(share, static_cast<double>(unit)) * count};
}

// The config's intrinsic, when the model knows its shape.
const MmaIntrinsic *intrinsicOf(const config::LoweringConfig &part) {
  const auto kind = part.mmaKind();
  const MmaIntrinsic *intrinsic =
      kind ? findMmaIntrinsic(kind->intrinsic) : nullptr;
  return intrinsic && intrinsic->m > 0 && intrinsic->n > 0 ? intrinsic
                                                           : nullptr;
}

// The attention's extents over its loops: workgroups, one workgroup's
// batch, query-row and value-column tiles, one step's keys (tk2), and the
// whole N, K1 and K2.
struct AttentionTiles {
  double workgroups = 1, tb = 1, tm = 1, tn = 1, tk2 = 1, N = 1, K1 = 1, K2 = 1;
};

AttentionTiles attentionTiles(const config::IterationSpace &space,
                              const AttentionDims &dims,
                              const std::vector<int64_t> &workgroup,
                              const std::vector<int64_t> &reduction) {
  auto bound = [&space](int d) {
    return static_cast<double>(space.bounds[static_cast<size_t>(d)]);
  };
  auto tileOf = [&bound](const std::vector<int64_t> &tiles, int d) {
    const int64_t t = tiles[static_cast<size_t>(d)];
    return t > 0 ? std::min(static_cast<double>(t), bound(d)) : bound(d);
  };
  AttentionTiles t;
  for (int d : dims.batch) {
    t.tb *= tileOf(workgroup, d);
    t.workgroups *= ceilDivide(bound(d), tileOf(workgroup, d));
  }
  for (int d : dims.m) {
    t.tm *= tileOf(workgroup, d);
    t.workgroups *= ceilDivide(bound(d), tileOf(workgroup, d));
  }
  for (int d : dims.n) {
    t.N *= bound(d);
    t.tn *= tileOf(workgroup, d);
    t.workgroups *= ceilDivide(bound(d), tileOf(workgroup, d));
  }
  for (int d : dims.k1)
    t.K1 *= bound(d);
  for (int d : dims.k2) {
    t.K2 *= bound(d);
    t.tk2 *= tileOf(reduction, d);
  }
  return t;
}

// Each contraction's rows and columns as its subgroups share them. IREE
// writes the decomposition's bases over the attention op's loops ([[1, 4,
// 1, 1, 1], [0, 1, 2, 3]]: counts per attention loop, the mapping from the
// contraction's loops to them), so a loop's count is the one at its own
// position; without such a basis, every subgroup along the rows.
struct SubgroupExtents {
  Extent qkRows, qkColumns, pvRows, pvColumns;
};

SubgroupExtents
subgroupExtents(const config::DecompositionConfig &decomposition,
                const AttentionDims &dims, const AttentionTiles &tiles,
                size_t rank, double subgroups, const MmaIntrinsic &qk,
                const MmaIntrinsic &pv) {
  auto along = [&](const config::LoweringConfig &part,
                   const std::vector<int> &loops, bool rows) {
    const auto basis = part.subgroupBasis();
    if (!basis || basis->counts.size() != rank)
      return rows ? subgroups : 1.0;
    double count = 1;
    for (int d : loops)
      count *= static_cast<double>(
          std::max<int64_t>(1, basis->counts[static_cast<size_t>(d)]));
    return count;
  };
  return {padded(tiles.tm, along(*decomposition.qk, dims.m, true), qk.m),
          padded(tiles.tk2, along(*decomposition.qk, dims.k2, false), qk.n),
          padded(tiles.tm, along(*decomposition.pv, dims.m, true), pv.m),
          padded(tiles.tn, along(*decomposition.pv, dims.n, false), pv.n)};
}

// Residency, for the summary: the compiled kernel's, else estimated from
// `estimatedShared` (the step's K and V tiles and the Q tile in shared
// memory) and a full register file's share (its scores and accumulators).
void residency(CostPrediction &p, const CostModelInput &in, double threads,
               double lanes, double units, double workgroups,
               double estimatedShared) {
  const bool compiled = in.compiled && in.compiled->registersPerThread > 0;
  p.residentPerCu = residentPerCu(
      in, static_cast<int64_t>(threads), static_cast<int64_t>(lanes),
      compiled ? in.compiled->registersPerThread : 128,
      compiled && in.compiled->sharedMemoryBytes > 0
          ? static_cast<double>(in.compiled->sharedMemoryBytes)
          : estimatedShared,
      p.resourcesEstimated);
  // Rounds for the summary (none said past what roundsOn lists).
  if (const auto rounds = roundsOn(workgroups, units, p.residentPerCu))
    p.rounds = static_cast<int64_t>(rounds->size());
}

// One contraction's rows or columns, for the padding note.
struct NamedExtent {
  const char *contraction;
  Extent extent;
  const char *what;
};

// What a reader is told: value columns split over workgroups (`splitColumns`
// of them per workgroup; 0: not split), padding in a subgroup's share, P's
// relayout, where the calibration comes from.
void addAttentionNotes(CostPrediction &p, double splitColumns,
                       const std::vector<NamedExtent> &extents, bool relayout,
                       const std::string &arch) {
  if (splitColumns > 0)
    p.notes.push_back(format("each workgroup holds %.0f of the value columns: ",
                             splitColumns) +
                      "Q.K^T and the softmax run once per column tile");
  for (const NamedExtent &e : extents)
    if (e.extent.padded > e.extent.used)
      p.notes.push_back(std::string(e.contraction) + ": " +
                        format("a subgroup holds %.0f ", e.extent.perSubgroup) +
                        e.what +
                        ", fewer than its intrinsic's: the rest is "
                        "padding");
  if (relayout)
    p.notes.push_back("P changes layout between the contractions every step "
                      "(S's accumulator is not P.V's LHS layout): counted as "
                      "a round trip through shared memory");
  if (arch.rfind("sm_90", 0) != 0)
    p.notes.push_back(calibratedElsewhereNote("attention", arch));
}

} // namespace

Result<CostPrediction>
predictAttentionTime(const CostModelInput &in,
                     const config::DecompositionConfig &decomposition) {
  if (!in.space || !in.config || !in.translation || !in.target)
    return Error{"the cost model needs the op's loops, configs and target"};
  const config::IterationSpace &space = *in.space;
  for (int64_t bound : space.bounds)
    if (bound == config::kDynamicSize)
      return Error{"the cost model needs static loop bounds"};
  if (auto why = withoutUnitsOrLanes(in))
    return Error{*why};
  auto arch = microArchitecture(in.target->arch);
  if (!arch)
    return Error{"the cost model has no figures for " + in.target->arch};
  if (in.translation->pipelineName() != "VectorDistribute")
    return Error{"attention is predicted as VectorDistribute lowers it, not " +
                 in.translation->pipelineName()};
  if (!decomposition.qk || !decomposition.pv)
    return Error{"attention without a decomposition_config's qk and pv "
                 "configs is not predicted"};
  const MmaIntrinsic *qkIntrinsic = intrinsicOf(*decomposition.qk);
  const MmaIntrinsic *pvIntrinsic = intrinsicOf(*decomposition.pv);
  if (!decomposition.qk->mmaKind() && !decomposition.pv->mmaKind()) {
    // IREE's SIMT attention config: both contractions on the vector units.
    auto layouts = deriveAttentionLayouts(*in.config, space, decomposition);
    if (!layouts)
      return Error{"attention without an intrinsic is predicted as IREE lays "
                   "it out, and here it cannot: " +
                   layouts.error()};
    return predictSimtAttention(in, *layouts, *arch);
  }
  if (!qkIntrinsic || !pvIntrinsic)
    return Error{"attention's qk and pv configs need an mma_kind the model "
                 "knows, or neither has one (IREE's SIMT config)"};
  auto dims = attentionDims(space);
  if (!dims)
    return Error{dims.error()};

  const size_t rank = space.rank();
  const AttentionTiles tiles = attentionTiles(
      space, *dims, tilesAt(*in.config, config::TilingLevel::Workgroup, rank),
      tilesAt(*in.config, config::TilingLevel::Reduction, rank));
  const double workgroups = tiles.workgroups, tb = tiles.tb, tm = tiles.tm,
               tn = tiles.tn, tk2 = tiles.tk2, K1 = tiles.K1;
  const double steps = ceilDivide(tiles.K2, tk2);

  const double threads = workgroupThreads(*in.translation);
  const double lanes = subgroupLanes(*in.translation, *in.target);
  const double subgroups = std::max(1.0, threads / lanes);
  const SubgroupExtents extents = subgroupExtents(
      decomposition, *dims, tiles, rank, subgroups, *qkIntrinsic, *pvIntrinsic);
  const Extent &qkRows = extents.qkRows, &qkColumns = extents.qkColumns,
               &pvRows = extents.pvRows, &pvColumns = extents.pvColumns;
  // P moved between lanes each step where S's accumulator layout is not
  // P.V's LHS layout (IREE marks both intrinsics col_major to avoid it).
  const auto layouts = deriveAttentionLayouts(*in.config, space, decomposition);
  const bool relayout = layouts && layouts->pChangesLayout;

  if (space.operands.size() < 3)
    return Error{"the cost model needs the operands' element types"};
  const double elementBytes = bytesOf(space.operands[1].elementType);
  if (elementBytes <= 0)
    return Error{"the cost model needs known element types"};
  std::string type = space.operands[0].elementType;
  auto peak = in.target->peakMatrixOpsPerSecond.find(type);
  if (peak == in.target->peakMatrixOpsPerSecond.end() || !in.target->wgpCount)
    return Error{"no matrix peak or unit count is known for " + type + " on " +
                 in.target->arch};
  const double units = static_cast<double>(*in.target->wgpCount);
  const double clock = arch->clockHz;

  // Over the grid: both contractions' multiply-adds (rows padded), each
  // subgroup's reads of the step's K and V tiles, and the softmax's scores.
  const double perStep = workgroups * steps * tb;
  const double flops = 2 * perStep *
                       (qkRows.padded * qkColumns.padded * K1 +
                        pvRows.padded * pvColumns.padded * tk2);
  const double scores = perStep * tm * tk2;
  const double sharedBytes =
      perStep * subgroups * tk2 * (K1 + tn) * elementBytes +
      (relayout ? 2 * scores * elementBytes : 0);

  Terms t;
  t.matrix = flops / (peak->second * arch->matrixFraction) * clock;
  t.shared = sharedBytes / (arch->sharedBytesPerClock * units);
  t.vector =
      scores * kSoftmaxCyclesPerScore / (lanes * arch->simdsPerCu * units);
  const double total = (t.matrix + t.shared + t.vector) * kAttentionCalibration;
  for (double *term : {&t.matrix, &t.shared, &t.vector})
    *term *= kAttentionCalibration;

  CostPrediction p;
  p.model = "attention (VectorDistribute, " + qkIntrinsic->name +
            (pvIntrinsic == qkIntrinsic ? "" : " and " + pvIntrinsic->name) +
            ")";
  residency(p, in, threads, lanes, units, workgroups,
            (tk2 * (K1 + tn) + tm * K1) * tb * elementBytes);
  p.workgroups = static_cast<int64_t>(workgroups);
  p.steps = static_cast<int64_t>(steps);
  p.globalBytes = workgroups * steps * tb * tk2 * (K1 + tn) * elementBytes;
  addAttentionNotes(p, tn < tiles.N ? tn : 0,
                    {{"Q.K^T", qkRows, "query rows"},
                     {"Q.K^T", qkColumns, "keys of the step"},
                     {"P.V", pvRows, "query rows"},
                     {"P.V", pvColumns, "value columns"}},
                    relayout, in.target->arch);
  finish(p, t, *arch, total, "L2");
  return p;
}

} // namespace tilescope::layout
