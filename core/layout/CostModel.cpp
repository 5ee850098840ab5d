#include "core/layout/CostModel.h"

#include "core/layout/detail/CostModelParts.h"

#include "core/layout/MmaLayouts.h"
#include "core/layout/Occupancy.h"
#include "core/layout/Roofline.h"
#include "core/layout/ThreadDistribution.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace tilescope::layout {
namespace {

using config::LoopKind;
using config::TilingLevel;

// The figures per architecture. Clocks are the sustained boost clocks the
// vendors state (H100 SXM5: 1.755 GHz base boost in NVIDIA's H100
// whitepaper table; A100: 1.41 GHz; MI300X: 2.1 GHz; MI355X: 2.4 GHz).
// Shared memory moves 128 bytes per clock per SM / CU on all of them (32
// banks of 4 bytes; 64 banks of 2 dwords per two clocks on CDNA). The L2
// figure per unit, the latencies and the per-instruction costs are
// calibrated against kernels measured on an H100 (docs/cost-model.md,
// tests/data/gpu/) and carried to the other architectures by their L2 and
// memory systems; sm_90's matrix fraction is the share of the (wgmma) peak
// that the mma.sync intrinsics IREE emits reach.
const MicroArchitecture kArchitectures[] = {
    // arch, clock, SIMDs, shared B/clk, L2 B/clk, mem lat, barrier, copy,
    // shared read, matrix fraction, register overhead, launch us,
    // contraction calibration, calibrated on this architecture, last-level
    // cache bytes (L2 on NVIDIA, Infinity Cache on AMD; 0: not stated here,
    // global loads priced from DRAM)
    {"sm_80", 1.41e9, 4, 128, 48, 600, 50, 3, 1, 1.0, 22, 3, 2.1, false, 40e6},
    {"sm_86", 1.70e9, 4, 128, 32, 600, 50, 3, 1, 1.0, 22, 3, 2.1, false, 6e6},
    {"sm_89", 2.52e9, 4, 128, 32, 600, 50, 3, 1, 1.0, 22, 3, 2.1, false, 72e6},
    {"sm_90", 1.755e9, 4, 128, 60, 600, 50, 3, 1, 0.65, 22, 3, 2.1, true, 50e6},
    {"sm_100", 1.965e9, 4, 128, 60, 600, 50, 3, 1, 0.65, 22, 3, 2.1, false, 0},
    {"gfx942", 2.1e9, 4, 128, 54, 800, 50, 3, 1, 0.8, 24, 3, 2.1, false, 256e6},
    {"gfx950", 2.4e9, 4, 128, 54, 800, 50, 3, 1, 0.8, 24, 3, 2.1, false, 256e6},
    {"gfx1100", 2.5e9, 4, 128, 64, 600, 50, 3, 1, 0.8, 24, 3, 2.1, false, 96e6},
};
// A contraction's step is bound by its largest term, but the matrix cores
// and shared memory do not overlap perfectly: a share of the lesser of the
// two stays exposed (a subgroup waits on its fragment reads before its
// intrinsics), and each step pays its loop, address arithmetic and
// barriers. Both calibrated on sm_90 (an H200's 4096^3 f16 matmul, 49
// candidates: without them the model ordered those at 0.79 and priced K
// steps of one intrinsic too cheap and of four too dear; tests/data/gpu/)
// and carried over.
constexpr double kExposedShare = 0.3;
constexpr double kStepCycles = 100;
// With prefetch_num_stages >= 2, the share of the lesser of a step's
// global round trip and its compute that the overlap does not hide; an L2
// hit's latency against a loaded DRAM round trip; and how much of L2 a
// dispatch's operands and result may fill and still be found there. Fitted
// on sm_90 to the H100's and H200's per-dispatch times (back to back) of
// the 1024^3 and 4096^3 f16 matmuls (tests/data/gpu/).
constexpr double kPrefetchExposedShare = 0.5;
constexpr double kL2HitShare = 0.5;
constexpr double kL2ResidentShare = 0.8;
// DRAM latency under a streaming load, in clocks, against the L2-hit
// figure above: what a streaming kernel must cover with bytes in flight.
constexpr double kDramLatencyFactor = 1.7;

} // namespace

namespace detail {

double ceilDivide(double a, double b) { return std::ceil(a / b); }

std::string format(const char *pattern, double value) {
  char text[96];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

double bytesOf(const std::string &type) {
  const int64_t bits = config::elementBits(type);
  return bits > 0 ? static_cast<double>(bits) / 8 : 0;
}

std::vector<int64_t> tilesAt(const config::LoweringConfig &config,
                             TilingLevel level, size_t rank) {
  std::vector<int64_t> tiles =
      config.tileSizes(level).value_or(std::vector<int64_t>{});
  tiles.resize(rank, 0);
  return tiles;
}

std::string calibratedElsewhereNote(const std::string &model,
                                    const std::string &arch) {
  return "the model's " + model +
         " calibration was measured on sm_90, not on " + arch +
         ": its order holds better than its microseconds";
}

double workgroupThreads(const config::TranslationInfo &translation) {
  double threads = 1;
  if (translation.workgroupSize)
    for (int64_t s : *translation.workgroupSize)
      threads *= static_cast<double>(std::max<int64_t>(s, 1));
  return threads;
}

double subgroupLanes(const config::TranslationInfo &translation,
                     const config::GpuTarget &target) {
  return static_cast<double>(translation.subgroupSize.value_or(
      target.subgroupSizeChoices.empty() ? 64 : target.subgroupSizeChoices[0]));
}

std::optional<std::string> withoutUnitsOrLanes(const CostModelInput &in) {
  if (in.target->wgpCount && *in.target->wgpCount <= 0)
    return "the target's wgp_count is " + std::to_string(*in.target->wgpCount) +
           ": no compute units to predict on";
  if (const double lanes = subgroupLanes(*in.translation, *in.target);
      lanes <= 0)
    return "the subgroup size is " +
           std::to_string(static_cast<int64_t>(lanes)) +
           ": no lanes to predict";
  return std::nullopt;
}

int64_t residentPerCu(const CostModelInput &in, int64_t threads,
                      int64_t subgroupSize, double registers,
                      double sharedBytes, bool &estimated) {
  if (in.compiled && in.compiled->workgroupsPerCu > 0) {
    estimated = false;
    return in.compiled->workgroupsPerCu;
  }
  estimated = true;
  const config::GpuTarget &target = *in.target;
  const int64_t subgroups = std::max<int64_t>(1, threads / subgroupSize);
  const int regs = static_cast<int>(std::clamp(registers, 16.0, 255.0));
  if (target.backend == "cuda") {
    auto occupancy =
        nvidiaOccupancy(target.arch, {regs, static_cast<long long>(sharedBytes),
                                      static_cast<int>(threads)});
    if (occupancy)
      return std::max<int64_t>(1, occupancy->active / subgroups);
  } else {
    auto occupancy = amdOccupancy(
        target.arch,
        {regs, 0, 32, static_cast<long long>(sharedBytes),
         static_cast<int>(threads), static_cast<int>(subgroupSize)});
    if (occupancy)
      return std::max<int64_t>(1, occupancy->active * 4 / subgroups);
  }
  // An architecture without occupancy tables: what shared memory allows.
  if (sharedBytes > 0 && target.maxWorkgroupMemoryBytes > 0)
    return std::max<int64_t>(
        1,
        static_cast<int64_t>(
            static_cast<double>(target.maxWorkgroupMemoryBytes) / sharedBytes));
  return 2;
}

Result<std::vector<int64_t>> roundsOn(double workgroups, double units,
                                      int64_t resident) {
  constexpr double kMostRounds = 1 << 20;
  if (!(units >= 1) || units > 1e9 || resident < 1 || !(workgroups >= 0))
    return Error{format("%.0f", workgroups) + " workgroups on " +
                 format("%.0f", units) + " units holding " +
                 std::to_string(resident) + " each: not priced"};
  if (std::ceil(workgroups / units) / static_cast<double>(resident) >
      kMostRounds)
    return Error{format("%.0f", workgroups) + " workgroups over " +
                 format("%.0f", units) +
                 " units run more than 2^20 rounds a unit: not priced"};
  const auto whole = static_cast<int64_t>(workgroups);
  const auto count = static_cast<int64_t>(units);
  std::vector<int64_t> rounds;
  int64_t left = (whole + count - 1) / count;
  while (left > 0) {
    rounds.push_back(std::min(resident, left));
    left -= rounds.back();
  }
  return rounds;
}

void finish(CostPrediction &p, const Terms &t, const MicroArchitecture &arch,
            double totalCycles, const std::string &memoryName,
            const std::string &memoryDetail) {
  const double us = 1e6 / arch.clockHz;
  p.microseconds = arch.launchMicroseconds + totalCycles * us;
  struct Named {
    const char *name;
    double cycles;
    const char *detail;
  };
  const Named named[] = {
      {"matrix cores", t.matrix,
       "intrinsics issued, or a subgroup's chain of them"},
      {"vector units", t.vector, "the threads' multiply-adds issued"},
      {"shared memory", t.shared, "fragment reads and tile writes"},
      {memoryName.c_str(), t.l2, memoryDetail.c_str()},
      {"latency", t.latency,
       "one workgroup's step: global round trips, copy, barrier, compute"},
      {"step overhead", t.stepOverhead,
       "each step's loop and barriers, and the share of the lesser of matrix "
       "and shared-memory time that does not overlap the greater"},
      {"DRAM", t.memory, "bytes over the bandwidth in flight"},
      {"prologue and epilogue", t.fixed, "first loads, result stores"},
  };
  double most = 0;
  for (const Named &n : named) {
    if (n.cycles <= 0)
      continue;
    p.terms.push_back({n.name, n.cycles * us, n.detail});
    if (n.cycles > most) {
      most = n.cycles;
      p.boundBy = n.name;
    }
  }
  if (p.floorMicroseconds > p.microseconds) {
    p.microseconds = p.floorMicroseconds;
    p.boundBy = "roofline floor";
  }
}

} // namespace detail

namespace {

using namespace detail;

//===----------------------------------------------------------------------===//
// Contractions with an mma_kind
//===----------------------------------------------------------------------===//

// A contraction's extents per role: the problem's, a workgroup's tile (K:
// one step's), a subgroup's, and the workgroups over the loops.
struct ContractionTiles {
  double M = 1, N = 1, K = 1, B = 1;
  double tm = 1, tn = 1, tk = 1, tb = 1;
  double sm = 1, sn = 1, sb = 1;
  double workgroups = 1;
};

Result<ContractionTiles> contractionTiles(const CostModelInput &in,
                                          const config::ContractionDims &dims,
                                          const MmaIntrinsic &intrinsic,
                                          const std::string &pipeline) {
  const config::IterationSpace &space = *in.space;
  const config::LoweringConfig &config = *in.config;
  const size_t rank = space.rank();
  // Units: TileAndFuse counts subgroup and reduction tiles in intrinsics.
  std::vector<int64_t> unit(rank, 1);
  if (pipeline == "TileAndFuse") {
    auto units = tileAndFuseIntrinsicUnits(config, space);
    if (!units)
      return Error{units.error()};
    unit = units->unit;
    unit.resize(rank, 1);
  }
  const auto workgroup = tilesAt(config, TilingLevel::Workgroup, rank);
  const auto reduction = tilesAt(config, TilingLevel::Reduction, rank);
  const auto subgroup = tilesAt(config, TilingLevel::Subgroup, rank);
  const auto basis = config.subgroupBasis();

  auto bound = [&space](int d) {
    return static_cast<double>(space.bounds[static_cast<size_t>(d)]);
  };
  auto wgTile = [&](int d) {
    const int64_t t = workgroup[static_cast<size_t>(d)];
    return t > 0 ? std::min(static_cast<double>(t), bound(d)) : bound(d);
  };
  // Subgroups along a loop: the basis digit it walks (VectorDistribute), or
  // the workgroup tile over the subgroup tile (TileAndFuse).
  auto subgroupTile = [&](int d) {
    const size_t i = static_cast<size_t>(d);
    if (pipeline == "TileAndFuse")
      return subgroup[i] > 0
                 ? std::min(wgTile(d), static_cast<double>(subgroup[i]) *
                                           static_cast<double>(unit[i]))
                 : wgTile(d);
    if (basis && i < basis->mapping.size()) {
      const int64_t digit = basis->mapping[i];
      if (digit >= 0 && static_cast<size_t>(digit) < basis->counts.size() &&
          basis->counts[static_cast<size_t>(digit)] > 0)
        return wgTile(d) /
               static_cast<double>(basis->counts[static_cast<size_t>(digit)]);
    }
    return wgTile(d);
  };
  ContractionTiles t;
  for (int d : dims.m) {
    t.M *= bound(d);
    t.tm *= wgTile(d);
    t.sm *= subgroupTile(d);
  }
  for (int d : dims.n) {
    t.N *= bound(d);
    t.tn *= wgTile(d);
    t.sn *= subgroupTile(d);
  }
  // A subgroup's share of the workgroup's batch: all of it where the
  // subgroup tile leaves the batch whole (TileAndFuse's 0), its intrinsics
  // and accumulators repeated per batch element it holds.
  for (int d : dims.batch) {
    t.B *= bound(d);
    t.tb *= wgTile(d);
    t.sb *= subgroupTile(d);
  }
  for (int d : dims.k) {
    t.K *= bound(d);
    const size_t i = static_cast<size_t>(d);
    t.tk *= reduction[i] > 0
                ? std::min(bound(d), static_cast<double>(reduction[i]) *
                                         static_cast<double>(unit[i]))
                : bound(d);
  }
  t.sm = std::max(t.sm, static_cast<double>(intrinsic.m));
  t.sn = std::max(t.sn, static_cast<double>(intrinsic.n));
  // Per loop: an output height of 28 in tiles of 16 takes 2 workgroups,
  // not 28x28 / 16 of the flattened loops (explain counts the same way).
  for (const std::vector<int> *group : {&dims.m, &dims.n, &dims.batch})
    for (int d : *group)
      t.workgroups *= ceilDivide(bound(d), wgTile(d));
  return t;
}

// What one step of one workgroup costs and moves.
struct ContractionStep {
  double subgroups = 1, lanes = 1, threads = 1;
  double intrinsicCycles = 0, intrinsicLatency = 0, fragmentBytes = 0;
  double chains = 0, intrinsics = 0, fragmentReads = 0;
  double copyBytes = 0, fetchedBytes = 0, copyLoads = 0, steps = 1;
  double cBytes = 0;
  double trips = 1;     // global round trips a step's loads need
  double roundTrip = 0; // cycles of one
  bool prefetched = false;
};

// The model's total over the rounds of resident workgroups, its terms
// added into `t`.
double priceRounds(const ContractionStep &s, const ContractionTiles &tiles,
                   const std::vector<int64_t> &rounds,
                   const MicroArchitecture &arch, Terms &t) {
  double total = 0;
  const double simds = arch.simdsPerCu;
  for (int64_t round : rounds) {
    const double c = static_cast<double>(round);
    const double perSimd = std::max(1.0, c * s.subgroups / simds);
    const double ownPerSimd = std::max(1.0, s.subgroups / simds);
    const double matrix =
        std::max(perSimd * s.intrinsics * s.intrinsicCycles,
                 s.intrinsics * s.intrinsicLatency / std::max(1.0, s.chains));
    const double memory = s.roundTrip * s.trips +
                          s.copyLoads * arch.copyIssueCycles * ownPerSimd +
                          arch.barrierCycles;
    const double compute =
        ownPerSimd * s.fragmentReads * arch.sharedReadCycles +
        matrix / perSimd * ownPerSimd;
    // Prefetching the next step's tiles overlaps its loads with this
    // step's compute, though not wholly (the loads' issue and the
    // barrier stay in line).
    const double latency =
        s.prefetched ? std::max(memory, compute) +
                           kPrefetchExposedShare * std::min(memory, compute)
                     : memory + compute;
    const double shared =
        (c * s.subgroups * s.fragmentReads * s.lanes * s.fragmentBytes +
         c * s.copyBytes) /
        arch.sharedBytesPerClock;
    const double l2 = c * s.fetchedBytes / arch.l2BytesPerClock;
    const double top = std::max({matrix, shared, l2, latency});
    // The matrix cores and shared memory are two pipes a subgroup feeds in
    // turn: the lesser is not wholly hidden under the greater. (The latency
    // term already sums one workgroup's serial parts.)
    const double exposed =
        kExposedShare * std::min(matrix, shared) + kStepCycles;
    const double step = top + exposed;
    // With prefetching, the prologue (below) loads the first step's tiles
    // and the last step has no next tiles to wait for: its workgroup's path
    // is its compute alone (a one-step workgroup makes one round trip, not
    // two).
    const double lastLatency = s.prefetched ? compute : latency;
    const double last = std::max({matrix, shared, l2, lastLatency}) + exposed;
    const double fixed = s.roundTrip * s.trips + c * tiles.tm * tiles.tn *
                                                     tiles.tb * s.cBytes /
                                                     arch.l2BytesPerClock;
    total += (s.steps - 1) * step + last + fixed;
    t.matrix += s.steps * matrix;
    t.shared += s.steps * shared;
    t.l2 += s.steps * l2;
    t.latency += (s.steps - 1) * latency + lastLatency;
    t.stepOverhead += s.steps * exposed;
    t.fixed += fixed;
  }
  return total;
}

// The intrinsic's cost on one SIMD, from the target's matrix peak, into
// `s` (its cycles, latency, the bytes of a fragment read); the target's
// compute units, or why the peak is not known.
Result<double> intrinsicTiming(const config::IterationSpace &space,
                               const config::GpuTarget &target,
                               const MicroArchitecture &arch,
                               const MmaIntrinsic &intrinsic, double aBytes,
                               ContractionStep &s) {
  std::string type = space.operands[0].elementType;
  if (type.rfind("f8", 0) == 0)
    type = "f8";
  auto peak = target.peakMatrixOpsPerSecond.find(type);
  if (peak == target.peakMatrixOpsPerSecond.end() || !target.wgpCount)
    return Error{"no matrix peak or unit count is known for " + type + " on " +
                 target.arch};
  const double units = static_cast<double>(*target.wgpCount);
  const double opsPerClockPerSimd = peak->second * arch.matrixFraction /
                                    (units * arch.simdsPerCu * arch.clockHz);
  const double intrinsicOps = 2.0 * static_cast<double>(intrinsic.m) *
                              static_cast<double>(intrinsic.n) *
                              static_cast<double>(intrinsic.k);
  s.intrinsicCycles = intrinsicOps / opsPerClockPerSimd;
  s.intrinsicLatency = std::max(64.0, 4 * s.intrinsicCycles);
  s.fragmentBytes = std::min(
      16.0, static_cast<double>(
                intrinsic.lhs.element.empty()
                    ? 4
                    : std::accumulate(intrinsic.lhs.element.begin(),
                                      intrinsic.lhs.element.end(), int64_t{1},
                                      std::multiplies<int64_t>())) *
                aBytes);
  return units;
}

// Per step of one workgroup: its intrinsics and their chains, fragment
// reads, the bytes copied to shared memory and fetched, the copies' loads,
// and the steps, into `s`.
void stepQuantities(const ContractionTiles &tiles,
                    const MmaIntrinsic &intrinsic, double aBytes, double bBytes,
                    bool promoteA, bool promoteB, ContractionStep &s) {
  s.chains = tiles.sb * (tiles.sm / static_cast<double>(intrinsic.m)) *
             (tiles.sn / static_cast<double>(intrinsic.n));
  s.intrinsics =
      s.chains * std::max(1.0, tiles.tk / static_cast<double>(intrinsic.k));
  s.fragmentReads = tiles.sb * (tiles.sm * aBytes + tiles.sn * bBytes) *
                    tiles.tk / (s.lanes * s.fragmentBytes);
  s.copyBytes = ((promoteA ? tiles.tm * aBytes : 0) +
                 (promoteB ? tiles.tn * bBytes : 0)) *
                tiles.tk * tiles.tb;
  s.fetchedBytes =
      (tiles.tm * aBytes + tiles.tn * bBytes) * tiles.tk * tiles.tb;
  s.copyLoads = s.copyBytes / (s.threads * 16);
  s.steps = ceilDivide(tiles.K, tiles.tk);
}

// A contraction's notes: the cache its loads are priced from, round trips
// the registers force, estimates, and where the model was calibrated.
// `warm`: the operands and result (`bytes`) fit in the last-level cache.
void noteContraction(CostPrediction &p, bool warm, double bytes, double trips,
                     const MicroArchitecture &arch,
                     const config::GpuTarget &target) {
  if (warm)
    p.notes.push_back(
        format("its operands and result (%.1f MB) fit in the last-level "
               "cache: ",
               bytes / 1e6) +
        "global loads are priced as cache hits, as back-to-back dispatches "
        "find them (a profiler that flushes caches before each launch "
        "measures them from DRAM)");
  if (trips > 1.01)
    p.notes.push_back(format("a step's loads need %.1f global round trips: "
                             "the registers cannot hold them all",
                             trips));
  if (p.resourcesEstimated)
    p.notes.push_back("registers and shared memory estimated (not compiled)");
  if (!arch.calibratedHere)
    p.notes.push_back(calibratedElsewhereNote("MMA", target.arch));
}

Result<CostPrediction> predictContraction(const CostModelInput &in,
                                          const config::ContractionDims &dims,
                                          const MicroArchitecture &arch) {
  const config::IterationSpace &space = *in.space;
  const config::LoweringConfig &config = *in.config;
  const config::GpuTarget &target = *in.target;
  const std::string pipeline = in.translation->pipelineName();
  const auto kind = config.mmaKind();
  const MmaIntrinsic *intrinsic =
      kind ? findMmaIntrinsic(kind->intrinsic) : nullptr;
  if (!intrinsic || intrinsic->m <= 0)
    return Error{"the cost model knows no intrinsic " +
                 (kind ? kind->intrinsic : std::string("(none)"))};
  const auto tiled = contractionTiles(in, dims, *intrinsic, pipeline);
  if (!tiled)
    return Error{tiled.error()};
  const ContractionTiles &tiles = *tiled;

  ContractionStep s;
  s.threads =
      in.translation->workgroupSize ? workgroupThreads(*in.translation) : 0;
  s.lanes = static_cast<double>(
      in.translation->subgroupSize.value_or(intrinsic->subgroupSize));
  if (s.threads <= 0 || s.lanes <= 0)
    return Error{"the cost model needs the workgroup and subgroup sizes"};
  s.subgroups = std::max(1.0, s.threads / s.lanes);
  if (space.operands.size() < 3)
    return Error{"the cost model needs the operands' element types"};
  const double aBytes = bytesOf(space.operands[0].elementType);
  const double bBytes = bytesOf(space.operands[1].elementType);
  s.cBytes = bytesOf(space.operands.back().elementType);
  if (aBytes <= 0 || bBytes <= 0 || s.cBytes <= 0)
    return Error{"the cost model needs known element types"};
  const auto promoted =
      config.promoteOperands().value_or(std::vector<int64_t>{});
  const bool promoteA =
      std::find(promoted.begin(), promoted.end(), 0) != promoted.end();
  const bool promoteB =
      std::find(promoted.begin(), promoted.end(), 1) != promoted.end();

  const auto units =
      intrinsicTiming(space, target, arch, *intrinsic, aBytes, s);
  if (!units)
    return Error{units.error()};
  stepQuantities(tiles, *intrinsic, aBytes, bBytes, promoteA, promoteB, s);

  // Registers and shared memory: compiled, or estimated (accumulators,
  // the step's loads held for prefetch, and the overhead).
  const double accumulatorRegisters =
      tiles.sb * tiles.sm * tiles.sn * 4 / (4 * s.lanes);
  double registers = accumulatorRegisters + s.copyLoads * 4 +
                     static_cast<double>(arch.registerOverhead);
  double sharedBytes = ((promoteA ? tiles.tm * aBytes : 0) +
                        (promoteB ? tiles.tn * bBytes : 0)) *
                       (tiles.tk + 4) * tiles.tb;
  if (in.compiled) {
    if (in.compiled->registersPerThread > 0)
      registers = in.compiled->registersPerThread;
    if (in.compiled->sharedMemoryBytes > 0)
      sharedBytes = static_cast<double>(in.compiled->sharedMemoryBytes);
  }
  CostPrediction p;
  p.model = "MMA contraction (" + pipeline + ")";
  const int64_t resident = residentPerCu(
      in, static_cast<int64_t>(s.threads), static_cast<int64_t>(s.lanes),
      registers, sharedBytes, p.resourcesEstimated);
  // The registers a step's loads can wait in: what the kernel holds beyond
  // its accumulators and overhead, and at least four 16-byte loads' worth
  // (the compiler keeps that many in flight however tight its registers:
  // the H200's batch matmuls at 56 registers ran as fast as at 90).
  const double staging =
      std::max(16.0, registers - accumulatorRegisters - arch.registerOverhead);
  s.trips = std::max(1.0, s.copyLoads * 4 / staging);
  const auto options = in.translation->pipelineOptions();
  s.prefetched = options && (options->prefetchNumStages.value_or(0) >= 2 ||
                             options->prefetchSharedMemory.value_or(false));
  // A global round trip: from L2 where the operands and result fit in it
  // (a dispatch in a program, or timed back to back, finds them there),
  // from DRAM where they do not.
  const auto floor = rooflineFloor(space, target);
  const bool warm = floor && arch.l2Bytes > 0 &&
                    floor->bytes <= kL2ResidentShare * arch.l2Bytes;
  s.roundTrip = arch.memoryLatencyCycles * (warm ? kL2HitShare : 1.0);
  const auto rounds = roundsOn(tiles.workgroups, *units, resident);
  if (!rounds)
    return Error{rounds.error()};
  Terms t;
  const double total = priceRounds(s, tiles, *rounds, arch, t);
  p.workgroups = static_cast<int64_t>(tiles.workgroups);
  p.residentPerCu = resident;
  p.rounds = static_cast<int64_t>(rounds->size());
  p.steps = static_cast<int64_t>(s.steps);
  p.globalBytes = tiles.workgroups * s.steps * s.fetchedBytes +
                  tiles.M * tiles.N * tiles.B * s.cBytes;
  if (floor)
    p.floorMicroseconds = floor->floorSeconds * 1e6;
  noteContraction(p, warm, warm ? floor->bytes : 0, s.trips, arch, target);
  // The calibration scales every term alike: the order is the model's.
  const double scale = arch.contractionCalibration;
  for (double *term :
       {&t.matrix, &t.shared, &t.l2, &t.latency, &t.stepOverhead, &t.fixed})
    *term *= scale;
  finish(p, t, arch, total * scale, "L2");
  return p;
}

//===----------------------------------------------------------------------===//
// Reductions and other streaming ops
//===----------------------------------------------------------------------===//

Result<CostPrediction> predictStreaming(const CostModelInput &in,
                                        const MicroArchitecture &arch) {
  const config::IterationSpace &space = *in.space;
  const config::LoweringConfig &config = *in.config;
  const config::GpuTarget &target = *in.target;
  const size_t rank = space.rank();
  auto floor = rooflineFloor(space, target);
  if (!floor)
    return Error{floor.error()};
  if (!target.wgpCount || target.peakMemoryBytesPerSecond <= 0)
    return Error{"no unit count or bandwidth is known for " + target.arch};
  const double threads = workgroupThreads(*in.translation);
  const double lanes = subgroupLanes(*in.translation, target);
  const double subgroups = std::max(1.0, threads / lanes);
  const double inBytes =
      space.operands.empty() ? 4 : bytesOf(space.operands[0].elementType);

  const auto workgroup = tilesAt(config, TilingLevel::Workgroup, rank);
  const auto partial = tilesAt(config, TilingLevel::PartialReduction, rank);
  const auto thread = tilesAt(config, TilingLevel::Thread, rank);
  double workgroups = 1, rows = 1, reduced = 1, chunk = 1, perLoad = 1;
  for (size_t d = 0; d < rank; ++d) {
    const double b = static_cast<double>(space.bounds[d]);
    if (space.isReduction(d)) {
      reduced *= b;
      chunk *=
          partial[d] > 0 ? std::min(b, static_cast<double>(partial[d])) : b;
      if (thread[d] > 0)
        perLoad *= static_cast<double>(thread[d]);
    } else {
      const double tile =
          workgroup[d] > 0 ? std::min(b, static_cast<double>(workgroup[d])) : b;
      workgroups *= ceilDivide(b, tile);
      rows *= tile;
    }
  }
  const double loadBytes = std::clamp(perLoad * inBytes, inBytes, 16.0);
  const double steps = ceilDivide(reduced, chunk);
  const double loadsPerStep =
      std::max(1.0, rows * chunk * inBytes / (threads * loadBytes));
  const double bytesPerWorkgroup = rows * reduced * inBytes;
  const double registers = in.compiled && in.compiled->registersPerThread > 0
                               ? in.compiled->registersPerThread
                               : 24 + loadsPerStep * loadBytes / 4 * 2;
  const double sharedBytes = subgroups > 1 ? subgroups * rows * 4 : 0;

  CostPrediction p;
  p.model = config.tileSizes(TilingLevel::PartialReduction)
                ? "reduction (partial_reduction steps)"
                : "streaming";
  const int64_t resident = residentPerCu(in, static_cast<int64_t>(threads),
                                         static_cast<int64_t>(lanes), registers,
                                         sharedBytes, p.resourcesEstimated);
  const double units = static_cast<double>(*target.wgpCount);
  const double clock = arch.clockHz;
  const double bytesPerClock = target.peakMemoryBytesPerSecond / units / clock;
  const double dramLatency = arch.memoryLatencyCycles * kDramLatencyFactor;
  const double stepCycles = dramLatency + loadsPerStep * arch.copyIssueCycles +
                            rows * chunk / threads * 0.5;
  const double finalReduce = std::log2(std::max(2.0, lanes)) * 30 +
                             (subgroups > 1 ? 2 * arch.barrierCycles + 60 : 0);
  Terms t;
  double total = 0;
  const auto rounds = roundsOn(workgroups, units, resident);
  if (!rounds)
    return Error{rounds.error()};
  for (int64_t round : *rounds) {
    const double c = static_cast<double>(round);
    const double inFlight = c * threads * loadsPerStep * loadBytes;
    const double achieved = std::min(bytesPerClock, inFlight / dramLatency);
    const double streaming = c * bytesPerWorkgroup / achieved;
    const double latency = steps * stepCycles;
    total += std::max(streaming, latency) + finalReduce;
    t.memory += streaming;
    t.latency += latency;
    t.fixed += finalReduce;
  }
  p.workgroups = static_cast<int64_t>(workgroups);
  p.residentPerCu = resident;
  p.rounds = static_cast<int64_t>(rounds->size());
  p.steps = static_cast<int64_t>(steps);
  p.globalBytes = floor->bytes;
  p.floorMicroseconds = floor->floorSeconds * 1e6;
  if (p.resourcesEstimated)
    p.notes.push_back("registers estimated (not compiled)");
  finish(p, t, arch, total, "L2");
  return p;
}

} // namespace

std::optional<MicroArchitecture> microArchitecture(const std::string &arch) {
  for (const MicroArchitecture &a : kArchitectures)
    if (a.arch == arch)
      return a;
  // gfx940 and gfx941 are CDNA3 like gfx942; sm_87 and sm_120 take their
  // closest relatives.
  if (arch == "gfx940" || arch == "gfx941")
    return microArchitecture("gfx942");
  if (arch == "sm_87")
    return microArchitecture("sm_80");
  if (arch == "sm_120")
    return microArchitecture("sm_89");
  return std::nullopt;
}

Result<CostPrediction> predictKernelTime(const CostModelInput &in) {
  if (!in.space || !in.config || !in.translation || !in.target)
    return Error{"the cost model needs the op's loops, configs and target"};
  for (int64_t bound : in.space->bounds)
    if (bound == config::kDynamicSize)
      return Error{"the cost model needs static loop bounds"};
  if (auto why = withoutUnitsOrLanes(in))
    return Error{*why};
  auto arch = microArchitecture(in.target->arch);
  if (!arch)
    return Error{"the cost model has no figures for " + in.target->arch};
  if (in.config->mmaKind()) {
    auto dims = config::inferContraction(*in.space);
    if (!dims)
      return Error{"an mma_kind on an op that is not a contraction"};
    return predictContraction(in, *dims, *arch);
  }
  // A contraction on the vector units: thread tiles of the output, no
  // partial-reduction steps (those read as reductions).
  if (in.config->tileSizes(TilingLevel::Thread) &&
      !in.config->tileSizes(TilingLevel::PartialReduction))
    if (auto dims = config::inferContraction(*in.space))
      return detail::predictSimtContraction(in, *dims, *arch);
  return predictStreaming(in, *arch);
}

std::string CostPrediction::summary() const {
  std::string out = format("%.1f us predicted", microseconds);
  if (!boundBy.empty())
    out += ", bound by " + boundBy;
  if (workgroups == 0) // a model that does not follow the grid
    return out;
  out += " (" + std::to_string(workgroups) + " workgroups, " +
         std::to_string(residentPerCu) + " per unit at once in " +
         std::to_string(rounds) + (rounds == 1 ? " round" : " rounds");
  if (steps > 1)
    out += ", " + std::to_string(steps) + " steps";
  out += ")";
  return out;
}

double rankCorrelation(const std::vector<double> &a,
                       const std::vector<double> &b) {
  const size_t n = a.size();
  if (n < 2 || b.size() != n)
    return 0;
  auto ranks = [n](const std::vector<double> &x) {
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&x](size_t i, size_t j) { return x[i] < x[j]; });
    std::vector<double> r(n);
    for (size_t i = 0; i < n;) {
      size_t j = i;
      while (j + 1 < n && x[order[j + 1]] == x[order[i]])
        ++j;
      for (size_t k = i; k <= j; ++k)
        r[order[k]] = (static_cast<double>(i) + static_cast<double>(j)) / 2;
      i = j + 1;
    }
    return r;
  };
  const auto ra = ranks(a), rb = ranks(b);
  const double mean = (static_cast<double>(n) - 1) / 2;
  double num = 0, da = 0, db = 0;
  for (size_t i = 0; i < n; ++i) {
    num += (ra[i] - mean) * (rb[i] - mean);
    da += (ra[i] - mean) * (ra[i] - mean);
    db += (rb[i] - mean) * (rb[i] - mean);
  }
  return da > 0 && db > 0 ? num / std::sqrt(da * db) : 0;
}

} // namespace tilescope::layout
