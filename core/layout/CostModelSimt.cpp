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

// A contraction's tiles over its loops: the workgroup tile, the thread
// tile (0 leaves the loop whole to each thread) and the reduction step.
struct SimtTiles {
  const config::IterationSpace &space;
  std::vector<int64_t> workgroup, thread, reduction;

  double bound(size_t d) const { return static_cast<double>(space.bounds[d]); }
  double wgTile(size_t d) const {
    return workgroup[d] > 0
               ? std::min(static_cast<double>(workgroup[d]), bound(d))
               : bound(d);
  }
  double threadTile(size_t d) const {
    return thread[d] > 0 ? std::min(static_cast<double>(thread[d]), wgTile(d))
                         : wgTile(d);
  }
};

// How a subgroup's lanes lie over the thread tiles of a workgroup tile:
// consecutive lanes walk the output's contiguous loop (`inner`) first, then
// the others (IREE delinearizes the thread id over the tile counts).
struct LaneSpread {
  size_t inner = 0;
  double alongInner = 1, acrossOthers = 1;
};

LaneSpread laneSpread(const SimtTiles &tiles,
                      const std::vector<size_t> &parallel, double lanes,
                      double threadTiles) {
  const config::IterationSpace &space = tiles.space;
  LaneSpread spread;
  spread.inner = parallel.empty() ? 0 : parallel.back();
  for (const config::OperandAccess &op : space.operands)
    if (op.isOutput && !op.dims.empty() &&
        !space.isReduction(static_cast<size_t>(op.dims.back())))
      spread.inner = static_cast<size_t>(op.dims.back());
  spread.alongInner =
      std::min(lanes, ceilDivide(tiles.wgTile(spread.inner),
                                 tiles.threadTile(spread.inner)));
  spread.acrossOthers =
      std::max(1.0, std::min(lanes / spread.alongInner,
                             threadTiles / spread.alongInner));
  return spread;
}

// Sector requests of one subgroup per reduction element: for each input,
// its loads a thread issues, each touching the sectors of the lanes that do
// not share an address; and the inputs' bytes one workgroup reads per
// reduction element.
struct SectorLoads {
  double sectors = 0;
  double operandBytesPerTile = 0;
};

Result<SectorLoads> sectorLoads(const SimtTiles &tiles,
                                const LaneSpread &spread) {
  const config::IterationSpace &space = tiles.space;
  SectorLoads loads;
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
      elements *= tiles.threadTile(i);
      tileElements *= tiles.wgTile(i);
      (i == spread.inner ? usesInner : usesOthers) = true;
    }
    loads.operandBytesPerTile += tileElements * bytes;
    const double distinctOthers = usesOthers ? spread.acrossOthers : 1;
    const size_t contiguous = static_cast<size_t>(op.dims.back());
    if (space.isReduction(contiguous)) {
      // Read along the reduction loop: a load holds several of its steps.
      const double serial =
          tiles.reduction[contiguous] > 0
              ? static_cast<double>(tiles.reduction[contiguous])
              : tiles.bound(contiguous);
      const double vector = std::max(1.0, std::min(kLoadBytes / bytes, serial));
      loads.sectors += elements / vector * (usesInner ? spread.alongInner : 1) *
                       distinctOthers;
    } else {
      const double chunk = tiles.threadTile(contiguous) * bytes;
      const double issued = elements / tiles.threadTile(contiguous) *
                            ceilDivide(chunk, kLoadBytes);
      const double lanesAlong =
          contiguous == spread.inner ? spread.alongInner : 1;
      const double perLoad = chunk >= kSectorBytes
                                 ? lanesAlong
                                 : ceilDivide(lanesAlong * chunk, kSectorBytes);
      loads.sectors += issued * perLoad * distinctOthers;
    }
  }
  return loads;
}

// What a reader is told: how the lanes lie, idle threads, latency, and
// where the numbers come from.
void addSimtNotes(CostPrediction &p, const LaneSpread &spread, double sectors,
                  double threadTiles, double threads, double leastInFlight,
                  double most, const MicroArchitecture &arch,
                  const std::string &targetArch) {
  p.notes.push_back(
      format("a subgroup's lanes lie %.0f along the output's contiguous loop",
             spread.alongInner) +
      format(" and %.0f across the others; ", spread.acrossOthers) +
      format("its loads touch %.1f cache sectors per reduction element",
             sectors));
  if (threadTiles < threads)
    p.notes.push_back(format("only %.0f of the workgroup's threads hold a "
                             "thread tile",
                             threadTiles));
  if (leastInFlight < most)
    p.notes.push_back(
        format("%.0f subgroup tiles in flight per unit, ", leastInFlight) +
        format("of %.0f it could hold: latency shows", most));
  if (p.resourcesEstimated)
    p.notes.push_back("registers estimated (not compiled)");
  if (!arch.calibratedHere)
    p.notes.push_back(calibratedElsewhereNote("vector-unit", targetArch));
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
  const SimtTiles tileOf{space, tilesAt(config, TilingLevel::Workgroup, rank),
                         tilesAt(config, TilingLevel::Thread, rank),
                         tilesAt(config, TilingLevel::Reduction, rank)};
  std::vector<size_t> parallel;
  for (const auto *group : {&dims.batch, &dims.m, &dims.n})
    for (int d : *group)
      parallel.push_back(static_cast<size_t>(d));
  double reduced = 1;
  for (int d : dims.k)
    reduced *= tileOf.bound(static_cast<size_t>(d));

  const double threads = workgroupThreads(*in.translation);
  const double lanes = subgroupLanes(*in.translation, target);
  // Thread tiles in a workgroup tile, workgroups, outputs per thread tile.
  double tiles = 1, workgroups = 1, perThreadOutputs = 1;
  for (size_t d : parallel) {
    tiles *= ceilDivide(tileOf.wgTile(d), tileOf.threadTile(d));
    workgroups *= ceilDivide(tileOf.bound(d), tileOf.wgTile(d));
    perThreadOutputs *= tileOf.threadTile(d);
  }
  const LaneSpread spread = laneSpread(tileOf, parallel, lanes, tiles);
  auto loads = sectorLoads(tileOf, spread);
  if (!loads)
    return Error{loads.error()};
  const double sectors = loads->sectors;

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
                     sectors / std::max(1.0, spread.acrossOthers);
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
  const auto rounds = roundsOn(workgroups, units, resident);
  if (!rounds)
    return Error{rounds.error()};
  for (int64_t round : *rounds) {
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
  p.rounds = static_cast<int64_t>(rounds->size());
  double step = 1;
  for (int d : dims.k) {
    const size_t k = static_cast<size_t>(d);
    step *= tileOf.reduction[k] > 0
                ? std::min(tileOf.bound(k),
                           static_cast<double>(tileOf.reduction[k]))
                : tileOf.bound(k);
  }
  p.steps = static_cast<int64_t>(ceilDivide(reduced, step));
  p.globalBytes = workgroups * reduced * loads->operandBytesPerTile +
                  workgroups * tiles * perThreadOutputs * cBytes;
  if (auto floor = rooflineFloor(space, target))
    p.floorMicroseconds = floor->floorSeconds * 1e6;
  addSimtNotes(p, spread, sectors, tiles, threads, leastInFlight, most, arch,
               target.arch);
  finish(p, t, arch, total, "L1",
         "the sector requests of the threads' operand loads");
  return p;
}

} // namespace tilescope::layout::detail
