// The workgroup shapes and subgroup sizes a GPU runs, for the readers that
// take them from a kernel's text (PTX's .reqntid / .maxntid, AMDGPU's
// reqd_workgroup_size and .wavefront_size) and run its lanes: a value beyond
// them is not taken (ptxas too ignores a .maxntid out of range), so a
// hostile file cannot ask for a million lanes.
#pragma once

#include <cstdint>

namespace tilescope::isa {

// CUDA's threads per block and AMDGPU's largest flat workgroup.
inline constexpr int64_t kMostWorkgroupThreads = 1024;

// Each size at least 1 and their product at most kMostWorkgroupThreads.
constexpr bool isRunnableWorkgroup(int64_t x, int64_t y, int64_t z) {
  return x >= 1 && y >= 1 && z >= 1 && x <= kMostWorkgroupThreads &&
         y <= kMostWorkgroupThreads && z <= kMostWorkgroupThreads &&
         x * y * z <= kMostWorkgroupThreads;
}

// NVIDIA's 32-lane warps, AMDGPU's wave32 and wave64.
constexpr bool isSubgroupSize(int64_t lanes) {
  return lanes == 32 || lanes == 64;
}

} // namespace tilescope::isa
