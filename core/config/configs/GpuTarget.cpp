// Built-in GPU target descriptions.
//
// Two kinds of figures live here, from two kinds of source:
//
// - The IREE-side limits (subgroup sizes, workgroup limits, shared memory,
//   MMA intrinsics in the order IREE prints them, SIMDs, banks, load width,
//   VGPR space, WGP count) are copied from the `#iree_gpu.target` that the
//   pinned IREE 3.13.0 prints for each chip:
//     iree-compile x.mlir --compile-to=executable-sources
//       --iree-hal-target-device=hip --iree-rocm-target=<gfx942|mi300x|...>
//       --iree-hal-target-device=cuda --iree-cuda-target=<sm_80|a100>
//   IREE 3.13 has no sm_90 entry; that one follows the explicit target in
//   examples/targets/cuda_sm_90.device.mlir.
//
// - The roofline peaks come from the vendors' own documents, each cited next
//   to its number as the vendor states it. Matrix peaks are dense (no
//   structured sparsity). A key is left out where the product has no matrix
//   path for that type or where the vendor figure could not be confirmed.
#include "core/config/configs/GpuTarget.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>

namespace tilescope::config {

bool GpuTarget::offersMma(std::string_view intrinsic) const {
  auto isIntrinsic = [intrinsic](const std::string &name) {
    return name == intrinsic;
  };
  return std::ranges::any_of(mmaIntrinsics, isIntrinsic) ||
         std::ranges::any_of(scaledMmaIntrinsics, isIntrinsic);
}

bool GpuTarget::allowsSubgroupSize(int64_t size) const {
  return std::ranges::find(subgroupSizeChoices, size) !=
         subgroupSizeChoices.end();
}

namespace {

constexpr double kGiga = 1e9;
constexpr double kTera = 1e12;
constexpr double kPeta = 1e15;

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

void describe(GpuTarget &target, std::string arch, std::string features,
              std::string product, std::string_view shortProduct,
              std::string backend) {
  target.source = "built-in (" + arch + ", " + std::string(shortProduct) + ")";
  target.arch = std::move(arch);
  target.features = std::move(features);
  target.product = std::move(product);
  target.backend = std::move(backend);
}

// The limits IREE 3.13 prints alike for gfx942, gfx950 and gfx1100.
void setAmdLimits(GpuTarget &target) {
  target.maxWorkgroupSizes = {1024, 1024, 1024};
  target.maxThreadCountPerWorkgroup = 1024;
  target.maxLoadInstructionBits = 128;
  target.simdsPerWgp = 4;
}

// The wgp description IREE 3.13 prints for sm_80 (and that the sm_90 example
// target reuses). IREE prints no SIMD, bank, load-width or VGPR fields for
// CUDA targets, so those stay empty.
void setAmpereLimits(GpuTarget &target) {
  target.subgroupSizeChoices = {32};
  target.maxWorkgroupSizes = {1024, 1024, 1024};
  target.maxThreadCountPerWorkgroup = 1024;
  target.mmaIntrinsics = {
      "NV_MMA_SYNC_F32_16x8x16_F16",  "NV_MMA_SYNC_F16_16x8x16_F16",
      "NV_MMA_SYNC_F32_16x8x16_BF16", "NV_WMMA_F32_16x16x16_F16",
      "NV_WMMA_F16_16x16x16_F16",
  };
}

// The MFMA intrinsics CDNA3 and CDNA4 share, as IREE lists them after the
// 8-bit ones: i8, f64, f32, f16 and the multi-block forms.
std::vector<std::string> cdnaCommonMfmaTail() {
  return {
      "MFMA_I32_16x16x32_I8",     "MFMA_I32_32x32x16_I8",
      "MFMA_F64_16x16x4_F64",     "MFMA_F32_16x16x4_F32",
      "MFMA_F32_16x16x16_F16",    "MFMA_F32_32x32x8_F16",
      "MFMA_F32_4x4x4x16B_F16",   "MFMA_F32_16x16x4x4B_F16",
      "MFMA_F32_32x32x4x2B_F16",  "MFMA_F32_4x4x4x16B_BF16",
      "MFMA_F32_16x16x4x4B_BF16", "MFMA_F32_32x32x4x2B_BF16",
      "MFMA_F32_4x4x1x16B_F32",   "MFMA_F32_16x16x1x4B_F32",
      "MFMA_F32_32x32x1x2B_F32",  "MFMA_F64_4x4x4x4B_F64",
      "MFMA_I32_4x4x4x16B_I8",    "MFMA_I32_16x16x4x4B_I8",
      "MFMA_I32_32x32x4x2B_I8",
  };
}

std::vector<std::string> concat(std::vector<std::string> head,
                                const std::vector<std::string> &tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

//===----------------------------------------------------------------------===//
// gfx942: AMD Instinct MI300X
//===----------------------------------------------------------------------===//

std::vector<std::string> gfx942MmaIntrinsics() {
  return concat(
      {
          "MFMA_F32_16x16x16_BF16",
          "MFMA_F32_32x32x8_BF16",
          "MFMA_F32_16x16x32_F8E5M2FNUZ",
          "MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ",
          "MFMA_F32_16x16x32_F8E4M3FNUZ",
          "MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ",
          "MFMA_F32_32x32x16_F8E5M2FNUZ",
          "MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ",
          "MFMA_F32_32x32x16_F8E4M3FNUZ",
          "MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ",
      },
      cdnaCommonMfmaTail());
}

// Peaks: "AMD Instinct MI300 series microarchitecture" (ROCm documentation),
// table "Peak-performance capabilities of the MI300X for different data
// types", which also states "peak memory bandwidth of the GPU is 5.3 TB per
// second"; the same dense figures are in footnote MI300-17 of the AMD
// Instinct MI300X product page / data sheet.
void setMi300xPeaks(GpuTarget &target) {
  target.peakMemoryBytesPerSecond = 5.3 * kTera; // "5.3 TB/s"
  target.peakMatrixOpsPerSecond = {
      {"f64", 163.4 * kTera},   // Matrix FP64 163.4 TFLOPS
      {"f32", 163.4 * kTera},   // Matrix FP32 163.4 TFLOPS
      {"tf32", 653.7 * kTera},  // TF32 653.7 TFLOPS
      {"f16", 1307.4 * kTera},  // Matrix FP16 1307.4 TFLOPS
      {"bf16", 1307.4 * kTera}, // Matrix BF16 1307.4 TFLOPS
      {"f8", 2614.9 * kTera},   // Matrix FP8 2614.9 TFLOPS
      {"i8", 2614.9 * kTera},   // Matrix INT8 2614.9 TOPS
  };
  target.peakVectorF32OpsPerSecond = 163.4 * kTera; // Vector FP32 163.4
}

GpuTarget mi300x() {
  GpuTarget target;
  describe(target, "gfx942", "", "AMD Instinct MI300X", "MI300X", "rocm");
  setAmdLimits(target);
  target.subgroupSizeChoices = {64};
  target.maxWorkgroupMemoryBytes = 65536;
  target.mmaIntrinsics = gfx942MmaIntrinsics();
  // IREE prints wgp_count = 304 for --iree-rocm-target=mi300x (none for
  // gfx942); AMD's data sheet likewise gives 304 CUs.
  target.wgpCount = 304;
  target.workgroupMemoryBankCount = 32;
  target.vgprSpaceBits = 16384;
  setMi300xPeaks(target);
  return target;
}

//===----------------------------------------------------------------------===//
// gfx950: AMD Instinct MI355X
//===----------------------------------------------------------------------===//

std::vector<std::string> gfx950MmaIntrinsics() {
  return concat(
      {
          "MFMA_F32_16x16x32_F16",       "MFMA_F32_32x32x16_F16",
          "MFMA_F32_16x16x32_BF16",      "MFMA_F32_32x32x16_BF16",
          "MFMA_F32_16x16x128_F8E5M2",   "MFMA_F32_16x16x128_F8E5M2_F8E4M3FN",
          "MFMA_F32_16x16x128_F8E4M3FN", "MFMA_F32_16x16x128_F8E4M3FN_F8E5M2",
          "MFMA_F32_32x32x64_F8E5M2",    "MFMA_F32_32x32x64_F8E5M2_F8E4M3FN",
          "MFMA_F32_32x32x64_F8E4M3FN",  "MFMA_F32_32x32x64_F8E4M3FN_F8E5M2",
          "MFMA_I32_16x16x64_I8",        "MFMA_I32_32x32x32_I8",
          "MFMA_F32_16x16x16_BF16",      "MFMA_F32_32x32x8_BF16",
          "MFMA_F32_16x16x32_F8E5M2",    "MFMA_F32_16x16x32_F8E5M2_F8E4M3FN",
          "MFMA_F32_16x16x32_F8E4M3FN",  "MFMA_F32_16x16x32_F8E4M3FN_F8E5M2",
          "MFMA_F32_32x32x16_F8E5M2",    "MFMA_F32_32x32x16_F8E5M2_F8E4M3FN",
          "MFMA_F32_32x32x16_F8E4M3FN",  "MFMA_F32_32x32x16_F8E4M3FN_F8E5M2",
      },
      cdnaCommonMfmaTail());
}

// IREE prints each scaled intrinsic once per element type (f8E8M0FNU,
// f8E5M2, f8E5M2FNUZ, f8E4M3FN, f8E4M3FNUZ, f4E2M1FN); these are the
// distinct intrinsic names in the order they first appear.
std::vector<std::string> gfx950ScaledMmaIntrinsics() {
  return {"MFMA_SCALE_F32_16x16x128_B32", "MFMA_SCALE_F32_32x32x64_B32"};
}

// Peaks: AMD Instinct MI355X product page (amd.com, specifications), dense
// figures as AMD rounds them there (the page prints sparse ones separately).
// IREE 3.13's own mi355x chip entry carries the same numbers
// (memory_bandwidth_tbps = 8.0, fp16 = 2500, fp32 = 157.3, fp8 = 5000,
// int8 = 5000). No "tf32": CDNA 4 has no TF32 matrix path (AMD: "TF32
// support through software emulation").
void setMi355xPeaks(GpuTarget &target) {
  target.peakMemoryBytesPerSecond = 8.0 * kTera; // 8 TB/s HBM3E
  target.peakMatrixOpsPerSecond = {
      {"f64", 78.6 * kTera},  // FP64 matrix 78.6 TFLOPS
      {"f32", 157.3 * kTera}, // FP32 matrix 157.3 TFLOPS
      {"f16", 2.5 * kPeta},   // FP16 2.5 PFLOPS
      {"bf16", 2.5 * kPeta},  // BF16 2.5 PFLOPS
      {"f8", 5.0 * kPeta},    // OCP FP8 5.0 PFLOPS
      {"i8", 5.0 * kPeta},    // INT8 5.0 POPS
  };
  target.peakVectorF32OpsPerSecond = 157.3 * kTera; // FP32 vector 157.3
}

GpuTarget mi355x() {
  GpuTarget target;
  describe(target, "gfx950", "", "AMD Instinct MI355X", "MI355X", "rocm");
  setAmdLimits(target);
  target.subgroupSizeChoices = {64};
  target.maxWorkgroupMemoryBytes = 163840;
  target.mmaIntrinsics = gfx950MmaIntrinsics();
  target.scaledMmaIntrinsics = gfx950ScaledMmaIntrinsics();
  // IREE prints wgp_count = 256 for --iree-rocm-target=mi355x (none for
  // gfx950); AMD's specifications likewise give 256 CUs.
  target.wgpCount = 256;
  target.workgroupMemoryBankCount = 64;
  target.vgprSpaceBits = 16384;
  setMi355xPeaks(target);
  return target;
}

//===----------------------------------------------------------------------===//
// gfx1100: AMD Radeon RX 7900 XTX
//===----------------------------------------------------------------------===//

// Peaks: AMD Radeon RX 7900 XTX product page (amd.com, "Specifications"):
// "Peak Half Precision (FP16) Performance 122.8 TFLOPs", "Peak Single
// Precision (FP32) Performance 61.4 TFLOPs", memory bandwidth "960 GB/s".
// AMD's page gives no separate BF16 or INT8 matrix figure, so those keys are
// left out (IREE's own rx7900xtx entry lists int8 = 123, not used here).
void setRx7900xtxPeaks(GpuTarget &target) {
  target.peakMemoryBytesPerSecond = 960 * kGiga;
  target.peakMatrixOpsPerSecond = {
      {"f16", 122.8 * kTera}, // WMMA FP16: 96 CUs x 512 FLOP/clk at 2.5 GHz
  };
  target.peakVectorF32OpsPerSecond = 61.4 * kTera; // dual-issue FP32
}

GpuTarget rx7900xtx() {
  GpuTarget target;
  describe(target, "gfx1100", "", "AMD Radeon RX 7900 XTX", "RX 7900 XTX",
           "rocm");
  setAmdLimits(target);
  target.subgroupSizeChoices = {32, 64};
  target.maxWorkgroupMemoryBytes = 65536;
  target.mmaIntrinsics = {
      "WMMAR3_F32_16x16x16_F16",  "WMMAR3_F16_16x16x16_F16",
      "WMMAR3_F32_16x16x16_BF16", "WMMAR3_BF16_16x16x16_BF16",
      "WMMAR3_I32_16x16x16_I8",
  };
  // IREE prints wgp_count = 48 for --iree-rocm-target=rx7900xtx (none for
  // gfx1100): on RDNA 3 a WGP is two CUs, and AMD's 96 CUs make 48 WGPs.
  // IREE's count is kept so that it matches files compiled for rx7900xtx.
  target.wgpCount = 48;
  target.workgroupMemoryBankCount = 64;
  target.vgprSpaceBits = 8192;
  setRx7900xtxPeaks(target);
  return target;
}

//===----------------------------------------------------------------------===//
// sm_80: NVIDIA A100 SXM4 80GB
//===----------------------------------------------------------------------===//

// Peaks: "NVIDIA A100 Tensor Core GPU" data sheet, A100 80GB SXM column;
// dense values (the sheet marks the doubled sparse ones with "*"). No "f32"
// key: FP32 matmuls run on the CUDA cores (peakVectorF32OpsPerSecond) unless
// lowered to TF32. No "f8": Ampere has no FP8 tensor cores.
void setA100Peaks(GpuTarget &target) {
  target.peakMemoryBytesPerSecond = 2039 * kGiga; // "2,039GB/s"
  target.peakMatrixOpsPerSecond = {
      {"f64", 19.5 * kTera}, // FP64 Tensor Core 19.5 TFLOPS
      {"tf32", 156 * kTera}, // Tensor Float 32 (TF32) 156 TFLOPS
      {"f16", 312 * kTera},  // FP16 Tensor Core 312 TFLOPS
      {"bf16", 312 * kTera}, // BFLOAT16 Tensor Core 312 TFLOPS
      {"i8", 624 * kTera},   // INT8 Tensor Core 624 TOPS
  };
  target.peakVectorF32OpsPerSecond = 19.5 * kTera; // FP32 19.5 TFLOPS
}

GpuTarget a100() {
  GpuTarget target;
  describe(target, "sm_80", "+ptx76", "NVIDIA A100 SXM4 80GB", "A100 SXM4 80GB",
           "cuda");
  setAmpereLimits(target);
  target.maxWorkgroupMemoryBytes = 166912;
  // IREE prints wgp_count = 108 for --iree-cuda-target=a100 (none for
  // sm_80); NVIDIA's A100 has 108 SMs.
  target.wgpCount = 108;
  setA100Peaks(target);
  return target;
}

//===----------------------------------------------------------------------===//
// sm_90: NVIDIA H100 SXM5
//===----------------------------------------------------------------------===//

// Peaks: "NVIDIA H100 Tensor Core GPU Architecture" whitepaper, H100 SXM5
// column of its data-center GPU comparison table, dense values (the H100 data
// sheet prints the sparse ones: 1,979 TFLOPS FP16 "with sparsity"); memory
// bandwidth from the H100 data sheet, "3.35TB/s". No "f32" key, as on A100.
void setH100Peaks(GpuTarget &target) {
  target.peakMemoryBytesPerSecond = 3.35 * kTera;
  target.peakMatrixOpsPerSecond = {
      {"f64", 66.9 * kTera},   // Peak FP64 Tensor Core 66.9 TFLOPS
      {"tf32", 494.7 * kTera}, // Peak TF32 Tensor 494.7 TFLOPS
      {"f16", 989.4 * kTera},  // Peak FP16 Tensor 989.4 TFLOPS
      {"bf16", 989.4 * kTera}, // Peak BF16 Tensor 989.4 TFLOPS
      {"f8", 1978.9 * kTera},  // Peak FP8 Tensor 1978.9 TFLOPS
      {"i8", 1978.9 * kTera},  // Peak INT8 Tensor 1978.9 TOPS
  };
  target.peakVectorF32OpsPerSecond = 66.9 * kTera; // Peak FP32 66.9 TFLOPS
}

GpuTarget h100() {
  GpuTarget target;
  describe(target, "sm_90", "+ptx80", "NVIDIA H100 SXM5", "H100 SXM5", "cuda");
  // IREE 3.13 knows no sm_90; examples/targets/cuda_sm_90.device.mlir gives
  // Ampere's wgp with 227 KiB of shared memory and wgp_count = 132 (NVIDIA's
  // H100 SXM5 has 132 SMs).
  setAmpereLimits(target);
  target.maxWorkgroupMemoryBytes = 232448;
  target.wgpCount = 132;
  setH100Peaks(target);
  return target;
}

//===----------------------------------------------------------------------===//
// Lookup
//===----------------------------------------------------------------------===//

struct BuiltinEntry {
  std::string_view arch;
  std::array<std::string_view, 2> productShortNames; // "" when unused
  GpuTarget (*make)();
};

constexpr std::array kBuiltins{
    BuiltinEntry{"gfx942", {"mi300x", ""}, mi300x},
    BuiltinEntry{"gfx950", {"mi355x", ""}, mi355x},
    BuiltinEntry{"gfx1100", {"rx7900xtx", "7900xtx"}, rx7900xtx},
    BuiltinEntry{"sm_80", {"a100", ""}, a100},
    BuiltinEntry{"sm_90", {"h100", ""}, h100},
};

// Lower case, without spaces, '-' or '_': "RX 7900 XTX" and "rx7900xtx", or
// "SM_90" and "sm90", compare equal.
std::string normalized(std::string_view name) {
  std::string result;
  for (char c : name) {
    if (c == ' ' || c == '-' || c == '_')
      continue;
    result += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return result;
}

bool entryIsNamed(const BuiltinEntry &entry, const std::string &name) {
  if (normalized(entry.arch) == name)
    return true;
  return std::ranges::any_of(
      entry.productShortNames, [&name](std::string_view shortName) {
        return !shortName.empty() && normalized(shortName) == name;
      });
}

} // namespace

std::optional<GpuTarget> builtinTarget(std::string_view archOrProduct) {
  const std::string name = normalized(archOrProduct);
  if (name.empty())
    return std::nullopt;
  for (const BuiltinEntry &entry : kBuiltins) {
    if (entryIsNamed(entry, name))
      return entry.make();
  }
  // The full product name, "AMD Instinct MI300X" or "NVIDIA H100 SXM5".
  for (const BuiltinEntry &entry : kBuiltins) {
    GpuTarget target = entry.make();
    if (normalized(target.product) == name)
      return target;
  }
  return std::nullopt;
}

std::vector<std::string> builtinTargetArchs() {
  std::vector<std::string> archs;
  archs.reserve(kBuiltins.size());
  for (const BuiltinEntry &entry : kBuiltins)
    archs.emplace_back(entry.arch);
  return archs;
}

} // namespace tilescope::config
