// A prediction of a dispatch's kernel time on a GPU, for ranking configs
// where nothing can be timed. It is a model, stated here and in
// docs/cost-model.md, never a measurement: every order it makes is labelled
// "predicted", and a measured time of the same config always wins over it.
//
// Contractions with an mma_kind (TileAndFuse and VectorDistribute) are
// modelled as IREE lowers them: workgroups of tm x tn output tiles walk K in
// steps of tk; each step copies the step's operand tiles from global memory
// into shared memory (promote_operands) and each subgroup reads its fragments
// back and issues its intrinsics. Per compute unit (CU / SM) the model takes
// the workgroups resident at once (occupancy: registers, shared memory,
// threads; from the compiled kernel where there is one), hands the unit its
// share of the grid in rounds of that many (wave quantisation), and gives
// each step the longest of:
//   - matrix-core time: the intrinsics of all resident subgroups on the
//     unit's SIMDs, or one subgroup's chain of dependent intrinsics when too
//     few independent accumulator tiles hide their latency;
//   - shared-memory time: fragment reads and tile writes at the unit's bytes
//     per clock;
//   - L2 time: the step's operand tiles (global traffic, set by the
//     workgroup tile: smaller tiles re-read operands more often);
//   - one workgroup's latency: a global round trip (more than one where the
//     registers cannot hold a step's loads), issuing the copy, a barrier,
//     and its subgroups' fragment reads and intrinsics.
// plus the loop's prologue and the epilogue's stores.
//
// Reductions (VectorDistribute with partial_reduction) are streaming reads:
// the bytes over the DRAM bandwidth the resident workgroups can keep busy
// (bytes in flight per unit against bandwidth x latency, Little's law), and
// at least one memory round trip per partial-reduction step per workgroup
// round, plus the final subgroup and workgroup reduction.
//
// Other ops get the roofline floor stretched by the same bytes-in-flight
// argument; CPU targets get no prediction.
#pragma once

#include "core/config/configs/GpuTarget.h"
#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/util/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::layout {

// What a compile says about a kernel, when there is a compiled one.
struct CompiledKernel {
  int registersPerThread = 0; // NVIDIA registers; AMD VGPRs + AGPRs
  long long sharedMemoryBytes = 0;
  int workgroupsPerCu = 0; // resident at once (the occupancy); 0: unknown
};

struct CostModelInput {
  const config::IterationSpace *space = nullptr;
  const config::LoweringConfig *config = nullptr;
  const config::TranslationInfo *translation = nullptr;
  const config::GpuTarget *target = nullptr;
  std::optional<CompiledKernel> compiled;
};

struct CostTerm {
  std::string name;        // "matrix cores", "shared memory", "L2", "latency"
  double microseconds = 0; // over the whole kernel
  std::string detail;
};

struct CostPrediction {
  double microseconds = 0; // the predicted kernel time
  std::string model;       // "MMA contraction", "reduction", "roofline"
  std::string boundBy;     // the term that sets most of the time
  int64_t workgroups = 0;
  int64_t residentPerCu = 0; // workgroups a unit holds at once
  int64_t rounds = 0;        // rounds of resident workgroups per unit
  int64_t steps = 0;         // reduction-loop trips per workgroup
  double globalBytes = 0;    // operand bytes the workgroups fetch
  double floorMicroseconds = 0;
  bool resourcesEstimated = true; // registers / shared memory not compiled
  std::vector<CostTerm> terms;
  std::vector<std::string> notes;

  // "31.2 us predicted, bound by L2 traffic (256 workgroups, 2 per SM at
  // once in 1 round, 8 steps)".
  std::string summary() const;
};

Result<CostPrediction> predictKernelTime(const CostModelInput &input);

// The figures the model assumes for a GPU architecture: clock, per-unit
// bandwidths and latencies (see CostModel.cpp for their sources).
struct MicroArchitecture {
  std::string arch;
  double clockHz = 0;
  int simdsPerCu = 4;             // SMSPs per SM, SIMDs per CU
  double sharedBytesPerClock = 0; // per CU
  double l2BytesPerClock = 0;     // per CU
  double memoryLatencyCycles = 0; // a global load under load
  double barrierCycles = 0;
  double copyIssueCycles = 0;  // per 16-byte load and its shared store
  double sharedReadCycles = 0; // per fragment read instruction per subgroup
  double matrixFraction = 1;   // of the peak the intrinsics reach
  int registerOverhead = 0;    // registers a kernel holds besides tiles
  double launchMicroseconds = 0;
  // Measured MMA kernels over the model's cycles (the issue stalls, bank
  // conflicts and scheduling the model does not follow), and whether that
  // figure was measured on this architecture or carried over from another.
  double contractionCalibration = 1;
  bool calibratedHere = false;
  // The last-level cache a dispatch's operands stay in between dispatches
  // (L2; AMD's Infinity Cache); 0 where not stated.
  double l2Bytes = 0;
};
std::optional<MicroArchitecture> microArchitecture(const std::string &arch);

// Spearman's rank correlation of two equally long series (ties share their
// mean rank); 0 when either is constant or shorter than 2.
double rankCorrelation(const std::vector<double> &a,
                       const std::vector<double> &b);

} // namespace tilescope::layout
