// A profiler's reading of a kernel beside what Tilescope said of it before
// it ran: the registers, shared memory and occupancy read from the compiled
// artifacts, the cost model's time, and the batched per-dispatch time. Rows
// that disagree are marked. What `bench --profile`, `import-results` and
// the run panel's Profile show, and what the history keeps.
#pragma once

#include "core/isa/KernelResources.h"
#include "core/layout/CostModel.h"
#include "core/run/Profiler.h"
#include "core/run/RunBundle.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tilescope::tries {

struct ProfileRow {
  std::string quantity;  // "kernel time", "registers per thread", ...
  std::string tilescope; // what Tilescope said ("" where it says nothing)
  std::string profiler;  // what the profiler read
  std::string source;    // where Tilescope's figure came from
  bool differs = false;
};

struct ProfileInputs {
  const run::ProfileReading *reading = nullptr;
  const isa::KernelResources *resources = nullptr; // from the compile
  const layout::CostPrediction *prediction = nullptr;
  const run::TimingStats *perDispatch = nullptr; // the batched time
  double peakMemoryBytesPerSecond = 0;           // the target's, for AMD
};

// Kernel time (the batched per-dispatch time and the prediction against
// the profiler's), registers, shared memory, theoretical and achieved
// occupancy, DRAM throughput. A time differs past 3 % (the per-dispatch
// figure) or 25 % (the prediction); a resource differs when not equal.
std::vector<ProfileRow> profileBesideTilescope(const ProfileInputs &inputs);

nlohmann::json toJson(const std::vector<ProfileRow> &rows);
std::vector<ProfileRow> profileRowsFromJson(const nlohmann::json &rows);
// A table, one row a line, "!" before the rows that differ.
std::string profileTable(const std::vector<ProfileRow> &rows);

} // namespace tilescope::tries
