// The cost model of attention IREE configures without an intrinsic (its
// SIMT attention config, setAttentionReductionConfig: K2 stepped by
// partial_reduction, Q.K^T and P.V laid out by lane and subgroup bases and
// thread tiles; a text encoder's 77 keys, heads of 40/72/80, a decode
// step's single query row). Both contractions and the online softmax run on
// the vector units, spread over the lanes the bases name: a basis naming
// fewer lanes than the workgroup has leaves the others repeating its work,
// which costs issue slots and does no more. The model counts, for the
// whole grid:
//   - vector units: each subgroup's instruction stream (its share of the
//     step's multiply-adds, as f16 operands widened to f32, and of the
//     softmax's per-score work), issued by every subgroup of every
//     workgroup, over the units' SIMDs;
//   - latency: one workgroup's chain of steps (each step's global loads of
//     its K and V rows, its instructions in order and the cross-lane
//     merges of the partial max and sum), per round of resident
//     workgroups;
//   - L2: every workgroup's reads of K and V (all of K2) and its Q rows;
// the greatest of the three, never under the roofline floor (the bytes at
// DRAM bandwidth, the multiply-adds at the vector peak). No GPU measurement
// calibrates it yet: it ranks configs; its absolute times are a first
// estimate, and the prediction says so.
#include "core/layout/AttentionCost.h"
#include "core/layout/AttentionLayouts.h"
#include "core/layout/Roofline.h"
#include "core/layout/detail/CostModelParts.h"

#include <algorithm>
#include <cmath>

namespace tilescope::layout::detail {
namespace {

// Vector instructions per multiply-add of f16 operands: the widening of
// each operand to f32 and the fma, less the reuse of a widened row across
// a thread tile; and per score of the online softmax (max, exp, sum,
// rescale, conversions).
constexpr double kInstructionsPerFma = 2;
constexpr double kSoftmaxInstructionsPerScore = 8;
// Cycles of one instruction's result reaching the next in a lane's chain,
// and of one cross-lane shuffle of a partial max or sum.
constexpr double kDependentCycles = 4;
constexpr double kShuffleCycles = 30;

// How many distinct lanes a contraction's config names (its lane basis's
// counts times its subgroup basis's), at most the workgroup's threads.
double namedThreads(const config::LoweringConfig &part, double threads) {
  double named = 1;
  if (const auto lanes = part.laneBasis())
    named *= static_cast<double>(std::max<int64_t>(1, lanes->product()));
  if (const auto subgroups = part.subgroupBasis())
    named *= static_cast<double>(std::max<int64_t>(1, subgroups->product()));
  return std::clamp(named, 1.0, threads);
}

// The product of `sizes` (a tile, the loop bounds) at the loops `dims`.
double productAt(const std::vector<int64_t> &sizes,
                 const std::vector<int> &dims) {
  double product = 1;
  for (int d : dims)
    product *= static_cast<double>(
        std::max<int64_t>(1, sizes[static_cast<size_t>(d)]));
  return product;
}

} // namespace

Result<CostPrediction> predictSimtAttention(const CostModelInput &in,
                                            const AttentionLayouts &layouts,
                                            const MicroArchitecture &arch) {
  const config::IterationSpace &space = *in.space;
  const config::GpuTarget &target = *in.target;
  if (!target.wgpCount || target.peakVectorF32OpsPerSecond <= 0 ||
      target.peakMemoryBytesPerSecond <= 0)
    return Error{"no unit count, vector peak or bandwidth is known for " +
                 target.arch};
  if (space.operands.size() < 3)
    return Error{"the cost model needs the operands' element types"};
  const double elementBytes = bytesOf(space.operands[1].elementType);
  if (elementBytes <= 0)
    return Error{"the cost model needs known element types"};
  auto floor = rooflineFloor(space, target, config::OpKind::Attention);
  if (!floor)
    return Error{floor.error()};

  const AttentionDims &dims = layouts.dims;
  const auto workgroup =
      tilesAt(*in.config, config::TilingLevel::Workgroup, space.rank());
  double workgroups = 1;
  for (const std::vector<int> *loops : {&dims.batch, &dims.m, &dims.n})
    for (int d : *loops) {
      const double b =
          static_cast<double>(space.bounds[static_cast<size_t>(d)]);
      const int64_t t = workgroup[static_cast<size_t>(d)];
      workgroups *=
          ceilDivide(b, t > 0 ? std::min(b, static_cast<double>(t)) : b);
    }
  // One workgroup's step: its batch, query rows and value columns, one
  // K2 chunk, the head whole.
  const double tb = productAt(layouts.tile, dims.batch),
               tm = productAt(layouts.tile, dims.m),
               tn = productAt(layouts.tile, dims.n),
               chunk = productAt(layouts.tile, dims.k2);
  const double K1 = productAt(space.bounds, dims.k1),
               K2 = productAt(space.bounds, dims.k2);
  const double steps =
      static_cast<double>(std::max<int64_t>(1, layouts.k2Steps));

  const double threads = workgroupThreads(*in.translation);
  const double lanes = subgroupLanes(*in.translation, target);
  const double subgroups = std::max(1.0, threads / lanes);
  const double qkThreads = namedThreads(layouts.qk.config, threads);
  const double pvThreads = namedThreads(layouts.pv.config, threads);

  // A step's work, as one thread's share of it: every lane of every
  // subgroup issues the same stream, named or repeating.
  const double scores = tb * tm * chunk;
  const double qkInstructions = scores * K1 / qkThreads * kInstructionsPerFma;
  const double pvInstructions = scores * tn / pvThreads * kInstructionsPerFma;
  const double softmaxInstructions =
      scores / qkThreads * kSoftmaxInstructionsPerScore;
  const double perThreadStep =
      qkInstructions + pvInstructions + softmaxInstructions;
  const double units = static_cast<double>(*target.wgpCount);

  CostPrediction p;
  p.model = "attention (VectorDistribute, SIMT: no intrinsic)";
  const double registers =
      in.compiled && in.compiled->registersPerThread > 0
          ? in.compiled->registersPerThread
          : 32 + (tm * tn + tm * K1) * elementBytes / 4 / qkThreads;
  const double sharedBytes =
      in.compiled && in.compiled->sharedMemoryBytes > 0
          ? static_cast<double>(in.compiled->sharedMemoryBytes)
          : (subgroups > 1 ? subgroups * tb * tm * (tn + 2) * 4 : 0);
  p.residentPerCu = residentPerCu(in, static_cast<int64_t>(threads),
                                  static_cast<int64_t>(lanes), registers,
                                  sharedBytes, p.resourcesEstimated);
  const auto rounds = roundsOn(workgroups, units, p.residentPerCu);
  if (!rounds)
    return Error{rounds.error()};

  Terms t;
  // Issue: every subgroup's stream over the SIMDs of every unit.
  t.vector = workgroups * subgroups * steps * perThreadStep /
             (arch.simdsPerCu * units);
  // One workgroup's chain: each step waits on its loads and its dependent
  // instructions; the partial max and sum merge across lanes at the end.
  const double merge =
      std::log2(std::max(2.0, std::min(qkThreads, lanes))) * kShuffleCycles +
      (subgroups > 1 ? 2 * arch.barrierCycles : 0);
  const double stepCycles =
      arch.memoryLatencyCycles +
      perThreadStep * std::max(1.0, kDependentCycles / arch.simdsPerCu);
  t.latency = static_cast<double>(rounds->size()) * steps * stepCycles;
  t.fixed = merge * static_cast<double>(rounds->size());
  const double readBytes =
      workgroups * tb * (K2 * (K1 + tn) + tm * K1) * elementBytes;
  t.l2 = readBytes / (arch.l2BytesPerClock * units);
  const double total = std::max({t.vector, t.latency, t.l2}) + t.fixed;

  p.workgroups = static_cast<int64_t>(workgroups);
  p.rounds = static_cast<int64_t>(rounds->size());
  p.steps = static_cast<int64_t>(steps);
  p.globalBytes = readBytes;
  // The roofline's operations (both contractions' multiply-adds) at the
  // vector peak, not its matrix peak: nothing here runs on matrix cores.
  p.floorMicroseconds =
      std::max(floor->memorySeconds,
               floor->operations / target.peakVectorF32OpsPerSecond) *
      1e6;
  if (qkThreads < threads)
    p.notes.push_back(
        format("Q.K^T's bases name %.0f ", qkThreads) +
        format("of the workgroup's %.0f threads: the others ", threads) +
        "repeat their work");
  if (pvThreads < threads && pvThreads != qkThreads)
    p.notes.push_back(format("P.V's bases name %.0f threads", pvThreads));
  if (p.resourcesEstimated)
    p.notes.push_back("registers estimated (not compiled)");
  p.notes.push_back("no GPU measurement calibrates attention on the vector "
                    "units yet: the model ranks its configs, and its times "
                    "are a first estimate");
  finish(p, t, arch, total, "L2", "every workgroup's K and V rows and Q rows");
  return p;
}

} // namespace tilescope::layout::detail
