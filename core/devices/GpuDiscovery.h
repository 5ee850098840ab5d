// Finds the GPUs that IREE can run on here: AMD devices through the HIP
// runtime and NVIDIA devices through the CUDA driver.
//
// Both runtimes are loaded at run time with dlopen, never linked, so Tilescope
// builds and runs on machines that have neither. Every failure (no library, a
// missing symbol, a runtime error) is reported as data in a RuntimeProbe.
#pragma once

#include <string>
#include <vector>

namespace tilescope::devices {

enum class GpuVendor { Amd, Nvidia };

struct GpuInfo {
  GpuVendor vendor;
  /// Device ordinal in its runtime.
  int index = 0;
  /// Marketing name, e.g. "AMD Instinct MI300X" / "NVIDIA H100 80GB HBM3".
  std::string name;
  /// "gfx942" (HIP gcnArchName up to the first ':'), or "sm_90" (CUDA compute
  /// capability); "unknown" where HIP's arch name could not be read safely.
  std::string arch;
  /// CUs (AMD) or SMs (NVIDIA).
  int computeUnits = 0;
  /// LDS per workgroup / max shared memory per block (the opt-in maximum on
  /// CUDA when larger).
  long long sharedMemoryPerWorkgroupBytes = 0;
  /// Wavefront or warp size.
  int subgroupSize = 0;
  long long globalMemoryBytes = 0;

  /// "hip://<index>" or "cuda://<index>".
  std::string iree_device() const;
};

struct RuntimeProbe {
  /// "HIP" or "CUDA".
  std::string runtime;
  /// The file that was loaded, e.g. "libamdhip64.so" or "libcuda.so.1"; when
  /// none loaded, every file tried, separated by ", ".
  std::string library;
  /// dlopen succeeded.
  bool loaded = false;
  /// Why not, or the driver/runtime version and device count, or an API error
  /// (with the error name and code).
  std::string detail;
};

struct GpuDiscovery {
  std::vector<GpuInfo> gpus;
  /// One per runtime tried, always both: HIP first, then CUDA.
  std::vector<RuntimeProbe> probes;
};

// Loads the HIP runtime (libamdhip64.so, then libamdhip64.so.6/.7, also
// honouring $TILESCOPE_HIP_LIBRARY if set) and the CUDA driver (libcuda.so.1,
// then libcuda.so; $TILESCOPE_CUDA_LIBRARY if set) at run time with
// dlopen(RTLD_NOW|RTLD_LOCAL); never links them. An override named by an
// environment variable is tried first, then the default names. Where neither
// exists it returns no GPUs and two probes saying why. Never throws, never
// crashes on a missing symbol (each symbol resolved with dlsym and checked).
// A runtime library once loaded stays loaded for the life of the process.
GpuDiscovery discoverGpus();

std::string toString(GpuVendor);

} // namespace tilescope::devices
