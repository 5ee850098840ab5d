// How many waves (AMD) or warps (NVIDIA) of a kernel can be resident at once,
// given the registers, shared memory and workgroup size it was compiled to:
// each limit on its own, and the one that binds. The hardware figures are
// per architecture, from AMD's CDNA ISA guides and LLVM's AMDGPU
// subtarget (GCNSubtarget::getOccupancyWith*), and NVIDIA's CUDA occupancy
// calculator tables.
#pragma once

#include "core/util/Result.h"

#include <string>
#include <vector>

namespace tilescope::layout {

struct OccupancyLimit {
  std::string resource; // "VGPRs", "SGPRs", "LDS", "registers", ...
  int active = 0;       // what that resource alone allows, in `unit`s
};

struct Occupancy {
  std::string unit; // "waves per SIMD" or "warps per SM"
  int active = 0;   // the smallest of the limits
  int maximum = 0;  // what the hardware allows at best
  std::string limitedBy;
  std::vector<OccupancyLimit> limits;
  double fraction() const {
    return maximum > 0 ? static_cast<double>(active) / maximum : 0;
  }
};

struct AmdKernelUsage {
  int vgprs = 0; // architected VGPRs (.vgpr_count)
  int agprs = 0; // accumulation VGPRs (.agpr_count)
  int sgprs = 0; // .sgpr_count
  long long ldsBytes = 0;
  int workgroupSize = 0; // threads
  int wavefrontSize = 64;
};
// CDNA targets: gfx908, gfx90a, gfx940, gfx941, gfx942, gfx950.
Result<Occupancy> amdOccupancy(const std::string &arch,
                               const AmdKernelUsage &usage);

struct NvidiaKernelUsage {
  int registersPerThread = 0;
  long long sharedMemoryBytes = 0; // static + dynamic, per block
  int blockSize = 0;               // threads
};
// sm_70, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120.
Result<Occupancy> nvidiaOccupancy(const std::string &arch,
                                  const NvidiaKernelUsage &usage);

} // namespace tilescope::layout
