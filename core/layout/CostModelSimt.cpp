// The cost model of a contraction on the vector units: no mma_kind, each
// thread holding a thread tile of the output (TileAndFuse's f32 matmuls and
// the like). Such a kernel keeps its operands in registers and reads them
// through L1 every reduction step, so what it costs is how many cache
// sectors a subgroup's loads touch, which the thread tile and how the
// threads lie over the workgroup tile decide, not the bytes it moves: the
// same instructions run at 1.4 ms with a 128x32 workgroup tile and 4.3 ms
// with a 32x128 one (an H100's 2048^3 f32 matmul, tests/data/gpu/).
#include "core/layout/CostModel.h"
#include "core/layout/Occupancy.h"
#include "core/layout/Roofline.h"
#include "core/layout/detail/CostModelParts.h"

#include <algorithm>
#include <cmath>

namespace tilescope::layout::detail {
namespace {

using config::TilingLevel;

// An SM's cycles per sector request of a subgroup's load, and how the time
// grows as fewer thread tiles are in flight than the unit holds subgroups
// (time / (in flight / most)^exponent). Calibrated on sm_90: an H100's
// 2048^3 f32 TileAndFuse matmul over 32 workgroup and K tiles
// (docs/cost-model.md, tests/data/gpu/).
constexpr double kSectorCycles = 1.54;
constexpr double kLatencyExponent = 0.15;
constexpr double kSectorBytes = 32;
constexpr double kLoadBytes = 16; // the widest load a thread issues

// The subgroups a unit can hold at once, at best.
double mostSubgroupsPerUnit(const config::GpuTarget &target, int64_t lanes) {
  if (target.backend == "cuda") {
    if (auto o = nvidiaOccupancy(target.arch, {16, 0, static_cast<int>(lanes)}))
      return o->maximum;
    return 64;
  }
  if (auto o = amdOccupancy(target.arch, {16, 0, 32, 0, static_cast<int>(lanes),
                                          static_cast<int>(lanes)}))
    return o->maximum * 4.0;
  return 32;
}

} // namespace

Result<CostPrediction>
predictSimtContraction(const CostModelInput &in,
                       const config::ContractionDims &dims,
                       const MicroArchitecture &arch) {
  const config::IterationSpace &space = *in.space;
  const config::LoweringConfig &config = *in.config;
  const config::GpuTarget &target = *in.target;
  const size_t rank = space.rank();
  if (!config.tileSizes(TilingLevel::Thread))
    return Error{"a contraction without an mma_kind needs thread tiles"};
  if (!target.wgpCount || target.peakVectorF32OpsPerSecond <= 0)
    return Error{"no unit count or vector peak is known for " + target.arch};
  const auto workgroup = tilesAt(config, TilingLevel::Workgroup, rank);
  const auto thread = tilesAt(config, TilingLevel::Thread, rank);
  const auto reduction = tilesAt(config, TilingLevel::Reduction, rank);

  auto bound = [&space](size_t d) {
    return static_cast<double>(space.bounds[d]);
  };
  auto wgTile = [&](size_t d) {
    return workgroup[d] > 0
               ? std::min(static_cast<double>(workgroup[d]), bound(d))
               : bound(d);
  };
  // A thread tile of 0 leaves the loop whole to each thread.
  auto threadTile = [&](size_t d) {
    return thread[d] > 0 ? std::min(static_cast<double>(thread[d]), wgTile(d))
                         : wgTile(d);
  };
  std::vector<size_t> parallel;
  for (const auto *group : {&dims.batch, &dims.m, &dims.n})
    for (int d : *group)
      parallel.push_back(static_cast<size_t>(d));
  double reduced = 1;
  for (int d : dims.k)
    reduced *= bound(static_cast<size_t>(d));

  const double threads = workgroupThreads(*in.translation);
  const double lanes = subgroupLanes(*in.translation, target);

  // Thread tiles in a workgroup tile, and how a subgroup's lanes lie over
  // them: consecutive lanes walk the output's contiguous loop first, then
  // the others (IREE delinearizes the thread id over the tile counts).
  double tiles = 1, workgroups = 1, perThreadOutputs = 1;
  for (size_t d : parallel) {
    tiles *= ceilDivide(wgTile(d), threadTile(d));
    workgroups *= ceilDivide(bound(d), wgTile(d));
    perThreadOutputs *= threadTile(d);
  }
  size_t inner = parallel.empty() ? 0 : parallel.back();
  for (const config::OperandAccess &op : space.operands)
    if (op.isOutput && !op.dims.empty() &&
        !space.isReduction(static_cast<size_t>(op.dims.back())))
      inner = static_cast<size_t>(op.dims.back());
  const double alongInner =
      std::min(lanes, ceilDivide(wgTile(inner), threadTile(inner)));
  const double acrossOthers =
      std::max(1.0, std::min(lanes / alongInner, tiles / alongInner));

  // Sector requests of one subgroup per reduction element: for each input,
  // its loads a thread issues, each touching the sectors of the lanes that
  // do not share an address.
  double sectors = 0;
  double operandBytesPerTile = 0; // per reduction element, one workgroup
  for (const config::OperandAccess &op : space.operands) {
    if (op.isOutput || op.dims.empty())
      continue;
    const double bytes = bytesOf(op.elementType);
    if (bytes <= 0)
      return Error{"the cost model needs known element types"};
    bool usesInner = false, usesOthers = false;
    double elements = 1, tileElements = 1;
    for (int d : op.dims) {
      const size_t i = static_cast<size_t>(d);
      if (space.isReduction(i))
        continue;
      elements *= threadTile(i);
      tileElements *= wgTile(i);
      (i == inner ? usesInner : usesOthers) = true;
    }
    operandBytesPerTile += tileElements * bytes;
    const double distinctOthers = usesOthers ? acrossOthers : 1;
    const size_t contiguous = static_cast<size_t>(op.dims.back());
    if (space.isReduction(contiguous)) {
      // Read along the reduction loop: a load holds several of its steps.
      const double serial = reduction[contiguous] > 0
                                ? static_cast<double>(reduction[contiguous])
                                : bound(contiguous);
      const double vector = std::max(1.0, std::min(kLoadBytes / bytes, serial));
      sectors +=
          elements / vector * (usesInner ? alongInner : 1) * distinctOthers;
    } else {
      const double chunk = threadTile(contiguous) * bytes;
      const double loads =
          elements / threadTile(contiguous) * ceilDivide(chunk, kLoadBytes);
      const double lanesAlong = contiguous == inner ? alongInner : 1;
      const double perLoad = chunk >= kSectorBytes
                                 ? lanesAlong
                                 : ceilDivide(lanesAlong * chunk, kSectorBytes);
      sectors += loads * perLoad * distinctOthers;
    }
  }

  const double units = static_cast<double>(*target.wgpCount);
  const double vectorOpsPerClock =
      target.peakVectorF32OpsPerSecond / units / arch.clockHz;
  const double subgroupTiles = ceilDivide(tiles, lanes);
  const double perSubgroupStep =
      std::max(kSectorCycles * sectors,
               2 * lanes * perThreadOutputs / vectorOpsPerClock);
  const double tilesPerThread = ceilDivide(tiles, std::max(1.0, threads));

  const double cBytes =
      space.operands.empty() ? 4 : bytesOf(space.operands.back().elementType);
  double registers = 24 + perThreadOutputs * tilesPerThread * cBytes / 4 +
                     sectors / std::max(1.0, acrossOthers);
  double sharedBytes = 0;
  if (in.compiled) {
    if (in.compiled->registersPerThread > 0)
      registers = in.compiled->registersPerThread;
    sharedBytes = static_cast<double>(in.compiled->sharedMemoryBytes);
  }
  CostPrediction p;
  p.model = "SIMT contraction (" + in.translation->pipelineName() + ")";
  const int64_t resident = residentPerCu(in, static_cast<int64_t>(threads),
                                         static_cast<int64_t>(lanes), registers,
                                         sharedBytes, p.resourcesEstimated);
  const double most = mostSubgroupsPerUnit(target, static_cast<int64_t>(lanes));

  Terms t;
  double total = 0, leastInFlight = most;
  const auto rounds = roundsOn(static_cast<int64_t>(workgroups),
                               static_cast<int64_t>(units), resident);
  for (int64_t round : rounds) {
    const double c = static_cast<double>(round);
    const double work = c * subgroupTiles * reduced;
    const double l1 = work * kSectorCycles * sectors;
    const double vector =
        work * 2 * lanes * perThreadOutputs / vectorOpsPerClock;
    const double inFlight = c * subgroupTiles;
    leastInFlight = std::min(leastInFlight, inFlight);
    const double hidden =
        std::min(1.0, std::pow(inFlight / most, kLatencyExponent));
    const double stores =
        c * tiles * perThreadOutputs * cBytes / arch.l2BytesPerClock +
        arch.memoryLatencyCycles;
    total += work * perSubgroupStep / hidden + stores;
    t.l2 += l1;
    t.vector += vector;
    t.latency += work * perSubgroupStep * (1 / hidden - 1);
    t.fixed += stores;
  }
  p.workgroups = static_cast<int64_t>(workgroups);
  p.residentPerCu = resident;
  p.rounds = static_cast<int64_t>(rounds.size());
  double step = 1;
  for (int d : dims.k)
    step *=
        reduction[static_cast<size_t>(d)] > 0
            ? std::min(bound(static_cast<size_t>(d)),
                       static_cast<double>(reduction[static_cast<size_t>(d)]))
            : bound(static_cast<size_t>(d));
  p.steps = static_cast<int64_t>(ceilDivide(reduced, step));
  p.globalBytes = workgroups * reduced * operandBytesPerTile +
                  workgroups * tiles * perThreadOutputs * cBytes;
  if (auto floor = rooflineFloor(space, target))
    p.floorMicroseconds = floor->floorSeconds * 1e6;
  p.notes.push_back(
      format("a subgroup's lanes lie %.0f along the output's contiguous loop",
             alongInner) +
      format(" and %.0f across the others; ", acrossOthers) +
      format("its loads touch %.1f cache sectors per reduction element",
             sectors));
  if (tiles < threads)
    p.notes.push_back(format("only %.0f of the workgroup's threads hold a "
                             "thread tile",
                             tiles));
  if (leastInFlight < most)
    p.notes.push_back(
        format("%.0f subgroup tiles in flight per unit, ", leastInFlight) +
        format("of %.0f it could hold: latency shows", most));
  if (p.resourcesEstimated)
    p.notes.push_back("registers estimated (not compiled)");
  if (!arch.calibratedHere)
    p.notes.push_back(calibratedElsewhereNote("vector-unit", target.arch));
  finish(p, t, arch, total, "L1",
         "the sector requests of the threads' operand loads");
  return p;
}

} // namespace tilescope::layout::detail
