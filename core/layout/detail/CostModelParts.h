#pragma once
// What the cost model's per-kind models share (core/layout/CostModel*.cpp):
// the grid's rounds on a unit, residency, the terms and how a prediction is
// finished. Internal to core/layout; not installed.

#include "core/layout/CostModel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::layout {
struct AttentionLayouts;
}

namespace tilescope::layout::detail {

double ceilDivide(double a, double b);
std::string format(const char *pattern, double value);
// An element type's bytes ("f16": 2); 0 for an unknown type.
double bytesOf(const std::string &type);
// A tiling level's sizes, padded with 0 to the op's rank.
std::vector<int64_t> tilesAt(const config::LoweringConfig &config,
                             config::TilingLevel level, size_t rank);

// The note a prediction carries on an architecture the model (`model`:
// "MMA", "vector-unit") was not calibrated on.
std::string calibratedElsewhereNote(const std::string &model,
                                    const std::string &arch);

// The workgroup's threads (1 where the translation states no size), and a
// subgroup's lanes (the translation's, else the target's first choice).
double workgroupThreads(const config::TranslationInfo &translation);
double subgroupLanes(const config::TranslationInfo &translation,
                     const config::GpuTarget &target);

// Why the model cannot divide by the target's unit count or a subgroup's
// lanes (a file that states 0 or less for either); none where it can.
std::optional<std::string> withoutUnitsOrLanes(const CostModelInput &in);

// Workgroups a unit holds at once, from the compiled kernel or estimated
// with the occupancy tables from estimated registers and shared memory
// (`estimated` says which).
int64_t residentPerCu(const CostModelInput &in, int64_t threads,
                      int64_t subgroupSize, double registers,
                      double sharedBytes, bool &estimated);

// How a unit's share of the grid runs: rounds of at most `resident`
// workgroups; the busiest unit holds ceil(workgroups / units). An Error
// for no unit, or past 2^20 rounds a unit (a grid of 2^48 workgroups from a
// hostile file's loops and tiles is said, not listed round by round).
Result<std::vector<int64_t>> roundsOn(double workgroups, double units,
                                      int64_t resident);

// Each term's cycles over the whole kernel (the sum of its rounds).
struct Terms {
  double matrix = 0, shared = 0, l2 = 0, latency = 0, stepOverhead = 0,
         memory = 0, vector = 0, fixed = 0;
};

// Sets the prediction's time (launch + totalCycles), its terms in
// microseconds and what binds it (the largest term), and lifts it to the
// roofline floor where the model came out under it.
void finish(CostPrediction &p, const Terms &t, const MicroArchitecture &arch,
            double totalCycles, const std::string &memoryName,
            const std::string &memoryDetail = "operand tiles fetched per step");

// The model of a contraction without an mma_kind whose threads each hold a
// thread tile of the output (TileAndFuse on the vector units).
Result<CostPrediction>
predictSimtContraction(const CostModelInput &in,
                       const config::ContractionDims &dims,
                       const MicroArchitecture &arch);

// The model of attention without an intrinsic (IREE's SIMT attention
// config): both contractions and the softmax on the vector units, over the
// lanes the decomposition's bases name (AttentionSimtCost.cpp).
Result<CostPrediction> predictSimtAttention(const CostModelInput &in,
                                            const AttentionLayouts &layouts,
                                            const MicroArchitecture &arch);

} // namespace tilescope::layout::detail
