#include "core/layout/Occupancy.h"

#include <algorithm>
#include <array>

namespace tilescope::layout {
namespace {

int alignUp(int value, int granule) {
  return (value + granule - 1) / granule * granule;
}

int ceilDivide(long long value, long long by) {
  return static_cast<int>((value + by - 1) / by);
}

void finish(Occupancy &occupancy) {
  occupancy.active = occupancy.maximum;
  occupancy.limitedBy = "the hardware's maximum";
  for (OccupancyLimit &limit : occupancy.limits) {
    limit.active = std::min(limit.active, occupancy.maximum);
    if (limit.active < occupancy.active) {
      occupancy.active = limit.active;
      occupancy.limitedBy = limit.resource;
    }
  }
}

struct AmdFacts {
  const char *arch;
  bool unifiedRegisterFile; // VGPRs and AGPRs share 512 (gfx90a on)
  int vgprGranule;
  int maxWavesPerSimd;
  long long ldsBytesPerCu;
};
constexpr std::array kAmd{
    AmdFacts{"gfx908", false, 4, 10, 64 * 1024},
    AmdFacts{"gfx90a", true, 8, 8, 64 * 1024},
    AmdFacts{"gfx940", true, 8, 8, 64 * 1024},
    AmdFacts{"gfx941", true, 8, 8, 64 * 1024},
    AmdFacts{"gfx942", true, 8, 8, 64 * 1024},
    AmdFacts{"gfx950", true, 8, 8, 160 * 1024},
};
constexpr int kSimdsPerCu = 4;
constexpr int kSgprsPerSimd = 800; // GFX9
constexpr int kSgprGranule = 16;

struct NvidiaFacts {
  const char *arch;
  int maxWarpsPerSm;
  int maxBlocksPerSm;
  long long sharedBytesPerSm;      // the most a kernel can be given
  long long reservedBytesPerBlock; // the driver's own share per block
};
constexpr std::array kNvidia{
    NvidiaFacts{"sm_70", 64, 32, 96 * 1024, 0},
    NvidiaFacts{"sm_75", 32, 16, 64 * 1024, 0},
    NvidiaFacts{"sm_80", 64, 32, 164 * 1024, 1024},
    NvidiaFacts{"sm_86", 48, 16, 100 * 1024, 1024},
    NvidiaFacts{"sm_87", 48, 16, 164 * 1024, 1024},
    NvidiaFacts{"sm_89", 48, 24, 100 * 1024, 1024},
    NvidiaFacts{"sm_90", 64, 32, 228 * 1024, 1024},
    NvidiaFacts{"sm_100", 64, 32, 228 * 1024, 1024},
    NvidiaFacts{"sm_120", 48, 32, 100 * 1024, 1024},
};
constexpr int kRegistersPerSm = 64 * 1024;
constexpr int kRegisterGranulePerWarp = 256;
constexpr int kWarpSize = 32;

std::string archList(auto const &table) {
  std::string list;
  for (const auto &facts : table)
    list += (list.empty() ? "" : ", ") + std::string(facts.arch);
  return list;
}

} // namespace

Result<Occupancy> amdOccupancy(const std::string &arch,
                               const AmdKernelUsage &usage) {
  const auto facts =
      std::find_if(kAmd.begin(), kAmd.end(),
                   [&](const AmdFacts &f) { return arch == f.arch; });
  if (facts == kAmd.end())
    return Error{"no occupancy model for " + arch +
                 " (known: " + archList(kAmd) + ")"};
  Occupancy occupancy;
  occupancy.unit = "waves per SIMD";
  occupancy.maximum = facts->maxWavesPerSimd;

  // Registers: each wave holds its VGPRs (and AGPRs) for its whole life.
  int vgprWaves = facts->maxWavesPerSimd;
  if (facts->unifiedRegisterFile) {
    const int total = alignUp(
        alignUp(std::max(usage.vgprs, 1), 4) + usage.agprs, facts->vgprGranule);
    vgprWaves = 512 / total;
  } else {
    vgprWaves = 256 / alignUp(std::max(usage.vgprs, 1), facts->vgprGranule);
    if (usage.agprs > 0)
      vgprWaves =
          std::min(vgprWaves, 256 / alignUp(usage.agprs, facts->vgprGranule));
  }
  occupancy.limits.push_back(
      {usage.agprs > 0 ? "VGPRs and AGPRs" : "VGPRs", vgprWaves});
  occupancy.limits.push_back(
      {"SGPRs",
       kSgprsPerSimd / alignUp(std::max(usage.sgprs, 1), kSgprGranule)});

  // Workgroups are resident whole: their waves spread over the CU's SIMDs.
  const int wavesPerGroup = std::max(
      1, ceilDivide(std::max(usage.workgroupSize, 1), usage.wavefrontSize));
  const int groupsByWaves =
      facts->maxWavesPerSimd * kSimdsPerCu / wavesPerGroup;
  occupancy.limits.push_back(
      {"workgroup size", groupsByWaves * wavesPerGroup / kSimdsPerCu});
  if (usage.ldsBytes > 0) {
    const long long groups = facts->ldsBytesPerCu / usage.ldsBytes;
    occupancy.limits.push_back({"LDS", static_cast<int>(std::min<long long>(
                                           groups * wavesPerGroup / kSimdsPerCu,
                                           facts->maxWavesPerSimd))});
    // A workgroup alone on a CU still runs, below one wave per SIMD.
    if (groups >= 1 && occupancy.limits.back().active == 0)
      occupancy.limits.back().active = 1;
  }
  finish(occupancy);
  return occupancy;
}

Result<Occupancy> nvidiaOccupancy(const std::string &arch,
                                  const NvidiaKernelUsage &usage) {
  const auto facts =
      std::find_if(kNvidia.begin(), kNvidia.end(),
                   [&](const NvidiaFacts &f) { return arch == f.arch; });
  if (facts == kNvidia.end())
    return Error{"no occupancy model for " + arch +
                 " (known: " + archList(kNvidia) + ")"};
  Occupancy occupancy;
  occupancy.unit = "warps per SM";
  occupancy.maximum = facts->maxWarpsPerSm;
  const int warpsPerBlock =
      std::max(1, ceilDivide(std::max(usage.blockSize, 1), kWarpSize));
  auto warps = [&](long long blocks) {
    blocks = std::min<long long>(blocks, facts->maxBlocksPerSm);
    return static_cast<int>(
        std::min<long long>(blocks * warpsPerBlock, facts->maxWarpsPerSm));
  };
  occupancy.limits.push_back(
      {"threads per block", warps(facts->maxWarpsPerSm / warpsPerBlock)});
  occupancy.limits.push_back({"blocks per SM", warps(facts->maxBlocksPerSm)});
  if (usage.registersPerThread > 0) {
    const int perWarp =
        alignUp(usage.registersPerThread * kWarpSize, kRegisterGranulePerWarp);
    occupancy.limits.push_back(
        {"registers", warps((kRegistersPerSm / perWarp) / warpsPerBlock)});
  }
  if (usage.sharedMemoryBytes > 0) {
    const long long perBlock =
        usage.sharedMemoryBytes + facts->reservedBytesPerBlock;
    occupancy.limits.push_back(
        {"shared memory", warps(facts->sharedBytesPerSm / perBlock)});
  }
  finish(occupancy);
  return occupancy;
}

} // namespace tilescope::layout
