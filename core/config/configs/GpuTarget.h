// What a GPU target offers a dispatch: the limits IREE's #iree_gpu.target
// carries, plus the peak figures a roofline needs.
//
// Built-in descriptions cover files that carry no target; a target read from a
// file (#iree_gpu.target inside #hal.executable.target) wins over them.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::config {

struct GpuTarget {
  std::string arch;     // "gfx942", "sm_90"
  std::string features; // as IREE prints it, e.g. "" or "+ptx80"
  std::string product;  // "AMD Instinct MI300X", "NVIDIA H100 SXM5"
  std::string backend;  // "rocm" or "cuda"

  std::vector<int64_t> subgroupSizeChoices; // [64] or [32, 64]
  std::array<int64_t, 3> maxWorkgroupSizes{0, 0, 0};
  int64_t maxThreadCountPerWorkgroup = 0;
  int64_t maxWorkgroupMemoryBytes = 0;    // LDS / shared memory per workgroup
  std::vector<std::string> mmaIntrinsics; // IREE names, in IREE's order
  std::vector<std::string> scaledMmaIntrinsics; // IREE names, may be empty
  // Workgroup processors as IREE counts them: CUs on CDNA, WGPs (two CUs
  // each) on RDNA, SMs on NVIDIA.
  std::optional<int64_t> wgpCount;
  std::optional<int64_t> simdsPerWgp;
  std::optional<int64_t> workgroupMemoryBankCount;
  std::optional<int64_t> maxLoadInstructionBits;
  std::optional<int64_t> vgprSpaceBits;

  // Peaks for the roofline: bytes per second of device memory, and dense
  // matrix-core operations per second (2 per multiply-add) per input
  // element type: keys "f64", "f32", "tf32", "f16", "bf16", "f8", "i8".
  double peakMemoryBytesPerSecond = 0;
  std::map<std::string, double> peakMatrixOpsPerSecond;
  // Non-matrix (vector ALU) peak, f32 operations per second.
  double peakVectorF32OpsPerSecond = 0;

  // Where this description came from: "built-in (gfx942, MI300X)" or the
  // file it was read from.
  std::string source;

  bool offersMma(std::string_view intrinsic) const;
  bool allowsSubgroupSize(int64_t size) const;
};

// The built-in descriptions: at least gfx942 (MI300X), gfx950 (MI355X),
// gfx1100 (RX 7900 XTX), sm_80 (A100) and sm_90 (H100). Looked up by arch
// ("gfx942") or product short name ("mi300x", "h100"), case-insensitively.
std::optional<GpuTarget> builtinTarget(std::string_view archOrProduct);
std::vector<std::string> builtinTargetArchs();

} // namespace tilescope::config
