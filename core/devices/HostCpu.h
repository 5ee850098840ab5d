// The roofline of the CPU this machine runs llvm-cpu modules on: its f32
// vector peak from what /proc/cpuinfo says (cores, clock, the widest vector
// unit its flags name, two FMA pipes a core: an assumption, said), and its
// memory bandwidth measured here (a copy through a buffer larger than the
// caches, the best of a few). What a CPU bench sets its time against.
#pragma once

#include "core/config/configs/GpuTarget.h"
#include "core/util/Result.h"

#include <string>

namespace tilescope::devices {

struct HostCpu {
  std::string model; // "AMD EPYC"
  int cores = 0;
  double clockHz = 0;
  int f32Lanes = 0; // 16 with AVX-512, 8 with AVX2, 4 otherwise
  double vectorF32OpsPerSecond = 0;
  double memoryBytesPerSecond = 0; // measured
  std::string how;                 // how each figure was found, in words
};

// Reads /proc/cpuinfo and measures the bandwidth once per process (~30 ms).
Result<HostCpu> hostCpu();

// The host's figures in the form the roofline reads (backend "llvm-cpu",
// no matrix peak).
config::GpuTarget rooflineTargetOf(const HostCpu &cpu);

} // namespace tilescope::devices
