#include "core/layout/AttentionCost.h"

#include "core/layout/AttentionLayouts.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/detail/CostModelParts.h"

#include <algorithm>
#include <cmath>

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
  auto arch = microArchitecture(in.target->arch);
  if (!arch)
    return Error{"the cost model has no figures for " + in.target->arch};
  if (in.translation->pipelineName() != "VectorDistribute")
    return Error{"attention is predicted as VectorDistribute lowers it, not " +
                 in.translation->pipelineName()};
  if (!decomposition.qk || !decomposition.pv)
    return Error{"attention without a decomposition_config's qk and pv "
                 "configs is not predicted"};
  const auto kind = decomposition.qk->mmaKind();
  const MmaIntrinsic *intrinsic =
      kind ? findMmaIntrinsic(kind->intrinsic) : nullptr;
  if (!intrinsic || intrinsic->m <= 0)
    return Error{"attention's qk config has no mma_kind the model knows: "
                 "only attention on the matrix cores is predicted"};
  auto dims = attentionDims(space);
  if (!dims)
    return Error{dims.error()};

  const size_t rank = space.rank();
  const auto workgroup =
      tilesAt(*in.config, config::TilingLevel::Workgroup, rank);
  const auto reduction =
      tilesAt(*in.config, config::TilingLevel::Reduction, rank);
  auto bound = [&space](int d) {
    return static_cast<double>(space.bounds[static_cast<size_t>(d)]);
  };
  auto tileOf = [&bound](const std::vector<int64_t> &tiles, int d) {
    const int64_t t = tiles[static_cast<size_t>(d)];
    return t > 0 ? std::min(static_cast<double>(t), bound(d)) : bound(d);
  };
  double workgroups = 1, tb = 1, tm = 1, tn = 1, tk2 = 1, N = 1, K1 = 1, K2 = 1;
  for (int d : dims->batch) {
    tb *= tileOf(workgroup, d);
    workgroups *= ceilDivide(bound(d), tileOf(workgroup, d));
  }
  for (int d : dims->m) {
    tm *= tileOf(workgroup, d);
    workgroups *= ceilDivide(bound(d), tileOf(workgroup, d));
  }
  for (int d : dims->n) {
    N *= bound(d);
    tn *= tileOf(workgroup, d);
    workgroups *= ceilDivide(bound(d), tileOf(workgroup, d));
  }
  for (int d : dims->k1)
    K1 *= bound(d);
  for (int d : dims->k2) {
    K2 *= bound(d);
    tk2 *= tileOf(reduction, d);
  }
  const double steps = ceilDivide(K2, tk2);

  const double threads = workgroupThreads(*in.translation);
  const double lanes = subgroupLanes(*in.translation, *in.target);
  const double subgroups = std::max(1.0, threads / lanes);
  // Subgroups along the query rows: the qk basis's count for M, else all.
  // IREE writes the decomposition's bases over the attention op's loops
  // ([[1, 4, 1, 1, 1], [0, 1, 2, 3]]: counts per attention loop, the
  // mapping from the qk contraction's loops to them), so M's count is the
  // one at M's own loop.
  double alongM = subgroups;
  if (auto basis = decomposition.qk->subgroupBasis();
      basis && basis->counts.size() == rank) {
    alongM = 1;
    for (int d : dims->m)
      alongM *= static_cast<double>(
          std::max<int64_t>(1, basis->counts[static_cast<size_t>(d)]));
  }
  const double rowsPerSubgroup =
      std::max(tm / std::max(1.0, alongM), static_cast<double>(intrinsic->m));
  const double paddedRows = rowsPerSubgroup * std::max(1.0, alongM);

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
  const double flops = 2 * perStep * paddedRows * tk2 * (K1 + tn);
  const double sharedBytes =
      perStep * subgroups * tk2 * (K1 + tn) * elementBytes;
  const double scores = perStep * tm * tk2;

  Terms t;
  t.matrix = flops / (peak->second * arch->matrixFraction) * clock;
  t.shared = sharedBytes / (arch->sharedBytesPerClock * units);
  t.vector =
      scores * kSoftmaxCyclesPerScore / (lanes * arch->simdsPerCu * units);
  const double total = (t.matrix + t.shared + t.vector) * kAttentionCalibration;
  for (double *term : {&t.matrix, &t.shared, &t.vector})
    *term *= kAttentionCalibration;

  CostPrediction p;
  p.model = "attention (VectorDistribute, " + intrinsic->name + ")";
  // Residency, for the summary: the compiled kernel's, else estimated from
  // the step's K and V tiles and the Q tile in shared memory and a full
  // register file's share (its scores and accumulators).
  const double estimatedShared =
      (tk2 * (K1 + tn) + tm * K1) * tb * elementBytes;
  const bool compiled = in.compiled && in.compiled->registersPerThread > 0;
  p.residentPerCu = residentPerCu(
      in, static_cast<int64_t>(threads), static_cast<int64_t>(lanes),
      compiled ? in.compiled->registersPerThread : 128,
      compiled && in.compiled->sharedMemoryBytes > 0
          ? static_cast<double>(in.compiled->sharedMemoryBytes)
          : estimatedShared,
      p.resourcesEstimated);
  p.rounds = static_cast<int64_t>(roundsOn(static_cast<int64_t>(workgroups),
                                           static_cast<int64_t>(units),
                                           p.residentPerCu)
                                      .size());
  p.workgroups = static_cast<int64_t>(workgroups);
  p.steps = static_cast<int64_t>(steps);
  p.globalBytes = workgroups * steps * tb * tk2 * (K1 + tn) * elementBytes;
  if (tn < N)
    p.notes.push_back(
        format("each workgroup holds %.0f of the value columns: ", tn) +
        "Q.K^T and the softmax run once per column tile");
  if (rowsPerSubgroup > tm / std::max(1.0, alongM))
    p.notes.push_back(
        format("a subgroup holds %.0f query rows, ", tm / alongM) +
        "fewer than the intrinsic's M: the rest of its tiles is padding");
  if (in.target->arch.rfind("sm_90", 0) != 0)
    p.notes.push_back(calibratedElsewhereNote("attention", in.target->arch));
  finish(p, t, *arch, total, "L2");
  return p;
}

} // namespace tilescope::layout
