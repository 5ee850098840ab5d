// What a vendor profiler read from a running kernel: Nsight Compute (ncu) on
// NVIDIA, rocprofv3 on AMD. A run bundle's run.sh runs the profiler beside
// the timed runs and keeps its output; these read that output, so a kernel
// profiled on another machine is read here the same way.
//
// The ncu metrics run.sh asks for (--page raw --print-units base):
//   gpu__time_duration.sum                               kernel duration
//   sm__warps_active.avg.pct_of_peak_sustained_active    achieved occupancy
//   sm__maximum_warps_per_active_cycle_pct               theoretical occupancy
//   dram__throughput.avg.pct_of_peak_sustained_elapsed   DRAM, % of peak
//   launch__registers_per_thread
//   launch__shared_mem_per_block_static / _dynamic
//   launch__block_size, launch__grid_size
// rocprofv3's kernel trace gives the duration (End - Start), the VGPRs,
// AGPRs, SGPRs and LDS of each dispatch; its counter pass FETCH_SIZE and
// WRITE_SIZE (KB) and MeanOccupancyPerActiveCU.
#pragma once

#include "core/util/Result.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::run {

struct ProfileReading {
  std::string tool;              // "ncu", "rocprofv3"
  std::string kernel;            // the kernel's name as the profiler gives it
  int launches = 0;              // launches read (the median is over them)
  double kernelMicroseconds = 0; // median duration of one launch
  double minimumMicroseconds = 0, maximumMicroseconds = 0;
  std::optional<double> achievedOccupancyPercent;
  std::optional<double> theoreticalOccupancyPercent;
  std::optional<double> dramThroughputPercent; // of the device's peak
  std::optional<double> dramBytes;             // read + written (AMD)
  std::optional<int> registersPerThread;       // NVIDIA
  std::optional<int> vgprs, agprs, sgprs;      // AMD
  std::optional<long long> sharedMemoryBytes;  // per workgroup, all of it
  std::optional<int> workgroupSize;            // threads
  std::vector<std::string> notes;
};

// ncu --csv --page raw output (the application's own output may be mixed
// in; lines before ncu's header are skipped). Numbers may carry thousands
// separators. An Error when no kernel row is found.
Result<ProfileReading> parseNsightComputeCsv(const std::string &text);

// rocprofv3's CSV output under `directory` (it nests the files in folders
// of host and process): the kernel trace, and counters where present.
Result<ProfileReading>
readRocprofOutput(const std::filesystem::path &directory);
// One kernel trace CSV (and an optional counter collection CSV).
Result<ProfileReading> parseRocprofKernelTrace(const std::string &trace,
                                               const std::string &counters);

nlohmann::json toJson(const ProfileReading &reading);
// The inverse of toJson (for readings kept in the history).
std::optional<ProfileReading> profileFromJson(const nlohmann::json &json);

} // namespace tilescope::run
