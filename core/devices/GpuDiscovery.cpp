// GPU discovery through the HIP runtime and the CUDA driver, loaded with
// dlopen.
//
// No vendor header is included: the few types, enum values and the one struct
// layout used are declared here, each with the place its value comes from.
// Every entry point is looked up with dlsym and checked before it is called.
#include "core/devices/GpuDiscovery.h"

#include <dlfcn.h>

#include <array>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::devices {
namespace {

constexpr const char *kUnknownArch = "unknown";

//===----------------------------------------------------------------------===//
// Small string helpers
//===----------------------------------------------------------------------===//

void appendPart(std::string &text, const std::string &part,
                const char *separator = "; ") {
  if (part.empty())
    return;
  if (!text.empty())
    text += separator;
  text += part;
}

std::string joined(const std::vector<std::string> &parts,
                   const char *separator) {
  std::string text;
  for (const std::string &part : parts)
    appendPart(text, part, separator);
  return text;
}

// A C string from a fixed-size buffer that the callee may not have
// terminated.
std::string boundedString(const char *buffer, std::size_t capacity) {
  const void *end = std::memchr(buffer, '\0', capacity);
  const std::size_t length =
      end ? static_cast<std::size_t>(static_cast<const char *>(end) - buffer)
          : capacity;
  return std::string(buffer, length);
}

std::string callFailed(const std::string &call, const std::string &error) {
  return call + " failed: " + error;
}

//===----------------------------------------------------------------------===//
// Loading libraries and resolving symbols
//===----------------------------------------------------------------------===//

struct Library {
  void *handle = nullptr;
  std::string path;
};

std::string lastDlError() {
  const char *message = dlerror();
  return message ? message : "unknown dlerror";
}

// The override named by envVar, when set and not empty, then the defaults.
std::vector<std::string>
libraryCandidates(const char *envVar,
                  std::initializer_list<const char *> defaults) {
  std::vector<std::string> candidates;
  const char *overridePath = std::getenv(envVar);
  if (overridePath && *overridePath)
    candidates.emplace_back(overridePath);
  for (const char *name : defaults)
    candidates.emplace_back(name);
  return candidates;
}

// dlopens the first candidate that loads, and records the outcome in probe:
// the file loaded, or every file tried and why each failed.
Library openFirst(const std::vector<std::string> &candidates,
                  RuntimeProbe &probe) {
  std::string failures;
  for (const std::string &candidate : candidates) {
    dlerror(); // clear any stale error
    if (void *handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      probe.library = candidate;
      probe.loaded = true;
      return {handle, candidate};
    }
    appendPart(failures, lastDlError());
  }
  probe.library = joined(candidates, ", ");
  probe.detail = "not loaded: " + failures;
  return {};
}

// A runtime that reported devices stays loaded for the life of the process:
// those devices are about to be used, and unloading an initialised GPU runtime
// runs its teardown at an arbitrary point.
// Looks up name in handle; function stays null when the symbol is absent.
// The address is copied rather than cast: converting an object pointer to a
// function pointer is only conditionally supported in ISO C++.
template <typename Function>
bool resolve(void *handle, const char *name, Function &function) {
  static_assert(sizeof(Function) == sizeof(void *));
  function = nullptr;
  dlerror();
  void *symbol = dlsym(handle, name);
  if (!symbol)
    return false;
  std::memcpy(&function, &symbol, sizeof function);
  return true;
}

// Like resolve, but records name in missing when the symbol is absent.
template <typename Function>
void require(void *handle, const char *name, Function &function,
             std::vector<std::string> &missing) {
  if (!resolve(handle, name, function))
    missing.emplace_back(name);
}

//===----------------------------------------------------------------------===//
// HIP
//===----------------------------------------------------------------------===//

// hipError_t is a C enum (ABI: a 32-bit integer); hipSuccess = 0.
// Source: include/hip/hip_runtime_api.h, HIP 6.x/7.x (ROCm/rocm-systems).
using HipError = int;
constexpr HipError kHipSuccess = 0;

// hipDeviceAttribute_t values for HIP >= 6.0, where the enum starts with a
// CUDA-compatible block at hipDeviceAttributeCudaCompatibleBegin = 0.
// Source: include/hip/hip_runtime_api.h (ROCm/rocm-systems), counted from
// hipDeviceAttributeEccEnabled = 0; the same values are published in
// docs.rs/cubecl-hip-sys (hipDeviceAttribute_t_* constants) and hipfort.
constexpr int kHipAttributeMultiprocessorCount = 63;
constexpr int kHipAttributeMaxSharedMemoryPerBlock = 74;
constexpr int kHipAttributeWarpSize = 87;

// hipDeviceProp_tR0600: the struct that hipGetDevicePropertiesR0600 fills in
// HIP 6.x and 7.x (hip_runtime_api.h: `#define hipDeviceProp_t
// hipDeviceProp_tR0600`, `#define hipGetDeviceProperties
// hipGetDevicePropertiesR0600`). Declared here field by field for LP64
// Linux; only the fields asserted below are read.
//
// Why this route for the arch name: HIP has no device attribute for it any
// more (hipDeviceAttributeGcnArchName became hipDeviceAttributeUnused5 in HIP
// 6.0), so gcnArchName is only available from the properties struct. The
// unversioned dlsym("hipGetDeviceProperties") binds the legacy R0000 entry
// point with a different layout (gcnArchName at 396, not 1160), so the
// versioned R0600 symbol is resolved by name; it is the ABI-stable entry point
// that HIP 6.x and 7.x export (LLVM's offload-arch, AMDGPUArchByHIP.cpp, reads
// gcnArchName the same way since llvm/llvm-project#167695). As a guard against
// a layout this code does not know, the result is used only when the struct's
// totalGlobalMem, warpSize and multiProcessorCount agree with what the
// separate API calls returned, and the name looks like "gfx..."; otherwise the
// arch is reported as "unknown".
struct HipDevicePropR0600 {
  char name[256];
  char uuid[16]; // hipUUID
  char luid[8];
  unsigned luidDeviceNodeMask;
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  std::size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  std::size_t totalConstMem;
  int major;
  int minor;
  std::size_t textureAlignment;
  std::size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  std::size_t surfaceAlignment;
  int concurrentKernels;
  int eccEnabled;
  int pciBusId;
  int pciDeviceId;
  int pciDomainId;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupId;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  std::size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  std::size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseHipArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRdmaSupported;
  unsigned gpuDirectRdmaFlushWritesOptions;
  int gpuDirectRdmaWritesOrdering;
  unsigned memoryPoolSupportedHandleTypes;
  int deferredMappingHipArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int reserved[63];
  int hipReserved[32];
  char gcnArchName[256];
  std::size_t maxSharedMemoryPerMultiProcessor;
  int clockInstructionRate;
  unsigned archFlags; // hipDeviceArch_t: 17 one-bit fields in one unsigned
  unsigned *hdpMemFlushCntl;
  unsigned *hdpRegFlushCntl;
  int cooperativeMultiDeviceUnmatchedFunc;
  int cooperativeMultiDeviceUnmatchedGridDim;
  int cooperativeMultiDeviceUnmatchedBlockDim;
  int cooperativeMultiDeviceUnmatchedSharedMem;
  int isLargeBar;
  int asicRevision;
};
// gcnArchName at 1160 and sizeof 1472: llvm/llvm-project
// clang/tools/offload-arch/AMDGPUArchByHIP.cpp (R0600 layout: padding[1160],
// gcnArchName[256], padding2[56]). The other offsets follow from the field
// list above (hip_runtime_api.h) and pin the fields used as cross-checks.
static_assert(offsetof(HipDevicePropR0600, totalGlobalMem) == 288);
static_assert(offsetof(HipDevicePropR0600, warpSize) == 308);
static_assert(offsetof(HipDevicePropR0600, multiProcessorCount) == 388);
static_assert(offsetof(HipDevicePropR0600, gcnArchName) == 1160);
static_assert(sizeof(HipDevicePropR0600) == 1472);

// The HIP entry points used, with the signatures from hip_runtime_api.h.
// hipDevice_t is int and, per the HIP API reference, hipDeviceGetName and
// hipDeviceTotalMem take the device ordinal, as hipDeviceGetAttribute does.
struct HipApi {
  HipError (*init)(unsigned flags) = nullptr;
  HipError (*getDeviceCount)(int *count) = nullptr;
  HipError (*deviceGetName)(char *name, int length, int device) = nullptr;
  HipError (*deviceGetAttribute)(int *value, int attribute,
                                 int device) = nullptr;
  HipError (*deviceTotalMem)(std::size_t *bytes, int device) = nullptr;
  // Optional: used when present.
  HipError (*runtimeGetVersion)(int *version) = nullptr;
  HipError (*driverGetVersion)(int *version) = nullptr;
  const char *(*getErrorName)(HipError error) = nullptr;
  HipError (*getDevicePropertiesR0600)(void *properties, int device) = nullptr;
};

// Resolves the HIP entry points; returns the names of required ones missing.
std::vector<std::string> loadHipApi(void *handle, HipApi &hip) {
  std::vector<std::string> missing;
  require(handle, "hipInit", hip.init, missing);
  require(handle, "hipGetDeviceCount", hip.getDeviceCount, missing);
  require(handle, "hipDeviceGetName", hip.deviceGetName, missing);
  require(handle, "hipDeviceGetAttribute", hip.deviceGetAttribute, missing);
  require(handle, "hipDeviceTotalMem", hip.deviceTotalMem, missing);
  resolve(handle, "hipRuntimeGetVersion", hip.runtimeGetVersion);
  resolve(handle, "hipDriverGetVersion", hip.driverGetVersion);
  resolve(handle, "hipGetErrorName", hip.getErrorName);
  resolve(handle, "hipGetDevicePropertiesR0600", hip.getDevicePropertiesR0600);
  return missing;
}

// "hipErrorNoDevice (100)", or "HIP error 100" without hipGetErrorName.
std::string hipErrorText(const HipApi &hip, HipError error) {
  const char *name = hip.getErrorName ? hip.getErrorName(error) : nullptr;
  const std::string code = std::to_string(error);
  return name && *name ? std::string(name) + " (" + code + ")"
                       : "HIP error " + code;
}

// HIP versions are HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000
// + HIP_VERSION_PATCH (hipDriverGetVersion / hipRuntimeGetVersion in the HIP
// API reference), e.g. 60342134 is 6.3.42134.
std::string formatHipVersion(int version) {
  return std::to_string(version / 10000000) + "." +
         std::to_string(version / 100000 % 100) + "." +
         std::to_string(version % 100000);
}

std::string hipVersions(const HipApi &hip) {
  std::string text;
  int version = 0;
  if (hip.runtimeGetVersion && hip.runtimeGetVersion(&version) == kHipSuccess)
    appendPart(text, "HIP runtime " + formatHipVersion(version), ", ");
  if (hip.driverGetVersion && hip.driverGetVersion(&version) == kHipSuccess)
    appendPart(text, "driver " + formatHipVersion(version), ", ");
  return text;
}

// The struct's values for fields also known from separate API calls agree
// with them, so the layout declared above is the one the runtime wrote.
bool hipLayoutMatches(const HipDevicePropR0600 &props, const GpuInfo &gpu) {
  return static_cast<long long>(props.totalGlobalMem) ==
             gpu.globalMemoryBytes &&
         props.warpSize == gpu.subgroupSize &&
         props.multiProcessorCount == gpu.computeUnits;
}

// gcnArchName up to the first ':' ("gfx90a:sramecc+:xnack-" -> "gfx90a"), or
// "unknown" when it cannot be read safely.
std::string hipArchName(const HipApi &hip, const GpuInfo &gpu) {
  if (!hip.getDevicePropertiesR0600)
    return kUnknownArch;
  // Zeroed and oversized, so that even a runtime writing a larger struct
  // stays inside the buffer.
  alignas(HipDevicePropR0600) std::array<unsigned char, 4096> scratch{};
  if (hip.getDevicePropertiesR0600(scratch.data(), gpu.index) != kHipSuccess)
    return kUnknownArch;
  HipDevicePropR0600 props;
  std::memcpy(&props, scratch.data(), sizeof props);
  if (!hipLayoutMatches(props, gpu))
    return kUnknownArch;
  std::string arch = boundedString(props.gcnArchName, sizeof props.gcnArchName);
  arch = arch.substr(0, arch.find(':'));
  const bool looksLikeGfx = arch.size() > 3 && arch.compare(0, 3, "gfx") == 0;
  return looksLikeGfx ? arch : kUnknownArch;
}

// One HIP device, or nothing (with the reason added to problems) when a
// required query fails.
std::optional<GpuInfo> queryHipDevice(const HipApi &hip, int ordinal,
                                      std::string &problems) {
  const std::string prefix = "device " + std::to_string(ordinal) + ": ";
  auto failed = [&](const char *call, HipError status) {
    appendPart(problems, prefix + callFailed(call, hipErrorText(hip, status)));
    return std::nullopt;
  };
  GpuInfo gpu;
  gpu.vendor = GpuVendor::Amd;
  gpu.index = ordinal;

  std::array<char, 256> name{};
  if (HipError s = hip.deviceGetName(name.data(), static_cast<int>(name.size()),
                                     ordinal))
    return failed("hipDeviceGetName", s);
  gpu.name = boundedString(name.data(), name.size());

  int value = 0;
  if (HipError s = hip.deviceGetAttribute(
          &value, kHipAttributeMultiprocessorCount, ordinal))
    return failed("hipDeviceGetAttribute(MultiprocessorCount)", s);
  gpu.computeUnits = value;
  if (HipError s = hip.deviceGetAttribute(
          &value, kHipAttributeMaxSharedMemoryPerBlock, ordinal))
    return failed("hipDeviceGetAttribute(MaxSharedMemoryPerBlock)", s);
  gpu.sharedMemoryPerWorkgroupBytes = value;
  if (HipError s =
          hip.deviceGetAttribute(&value, kHipAttributeWarpSize, ordinal))
    return failed("hipDeviceGetAttribute(WarpSize)", s);
  gpu.subgroupSize = value;

  std::size_t bytes = 0;
  if (HipError s = hip.deviceTotalMem(&bytes, ordinal))
    return failed("hipDeviceTotalMem", s);
  gpu.globalMemoryBytes = static_cast<long long>(bytes);

  gpu.arch = hipArchName(hip, gpu);
  if (gpu.arch == kUnknownArch)
    appendPart(problems, prefix + "gcnArchName unavailable");
  return gpu;
}

// Initialises HIP, appends its devices to gpus, and returns the probe detail.
std::string enumerateHip(void *handle, std::vector<GpuInfo> &gpus) {
  HipApi hip;
  const std::vector<std::string> missing = loadHipApi(handle, hip);
  if (!missing.empty())
    return "missing symbols: " + joined(missing, ", ");

  std::string detail = hipVersions(hip);
  if (HipError s = hip.init(0)) {
    appendPart(detail, callFailed("hipInit(0)", hipErrorText(hip, s)));
    return detail;
  }
  int count = 0;
  if (HipError s = hip.getDeviceCount(&count)) {
    appendPart(detail, callFailed("hipGetDeviceCount", hipErrorText(hip, s)));
    return detail;
  }
  appendPart(detail, std::to_string(count) + " device(s)");
  for (int ordinal = 0; ordinal < count; ++ordinal)
    if (std::optional<GpuInfo> gpu = queryHipDevice(hip, ordinal, detail))
      gpus.push_back(std::move(*gpu));
  return detail;
}

RuntimeProbe probeHip(std::vector<GpuInfo> &gpus) {
  RuntimeProbe probe;
  probe.runtime = "HIP";
  const Library library =
      openFirst(libraryCandidates(
                    "TILESCOPE_HIP_LIBRARY",
                    {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.7"}),
                probe);
  if (!library.handle)
    return probe;
  probe.detail = enumerateHip(library.handle, gpus);
  // A runtime once opened stays loaded: unloading libamdhip64 after hipInit
  // crashed some ROCm builds, and keeping it costs nothing.
  return probe;
}

//===----------------------------------------------------------------------===//
// CUDA driver
//===----------------------------------------------------------------------===//

// CUresult is a C enum (ABI: a 32-bit integer); CUDA_SUCCESS = 0.
// Source: cuda.h, CUDA Driver API reference, "Data types used by CUDA
// driver" (cudaError_enum).
using CuResult = int;
constexpr CuResult kCudaSuccess = 0;

// CUdevice_attribute values. Source: cuda.h / CUDA Driver API reference,
// "Data types used by CUDA driver", enum CUdevice_attribute (also listed in
// cuda-python's cuda.bindings.driver.CUdevice_attribute).
constexpr int kCuAttributeMaxSharedMemoryPerBlock = 8;
constexpr int kCuAttributeWarpSize = 10;
constexpr int kCuAttributeMultiprocessorCount = 16;
constexpr int kCuAttributeComputeCapabilityMajor = 75;
constexpr int kCuAttributeComputeCapabilityMinor = 76;
constexpr int kCuAttributeMaxSharedMemoryPerBlockOptin = 97;

// The driver entry points used, with the signatures from cuda.h (CUdevice is
// int). cuDeviceTotalMem_v2 is the size_t variant that cuda.h maps
// cuDeviceTotalMem to.
struct CudaApi {
  CuResult (*init)(unsigned flags) = nullptr;
  CuResult (*driverGetVersion)(int *version) = nullptr;
  CuResult (*deviceGetCount)(int *count) = nullptr;
  CuResult (*deviceGet)(int *device, int ordinal) = nullptr;
  CuResult (*deviceGetName)(char *name, int length, int device) = nullptr;
  CuResult (*deviceGetAttribute)(int *value, int attribute,
                                 int device) = nullptr;
  CuResult (*deviceTotalMem)(std::size_t *bytes, int device) = nullptr;
  // Optional: used when present.
  CuResult (*getErrorName)(CuResult error, const char **name) = nullptr;
};

// Resolves the driver entry points; returns the names of required ones
// missing.
std::vector<std::string> loadCudaApi(void *handle, CudaApi &cuda) {
  std::vector<std::string> missing;
  require(handle, "cuInit", cuda.init, missing);
  require(handle, "cuDriverGetVersion", cuda.driverGetVersion, missing);
  require(handle, "cuDeviceGetCount", cuda.deviceGetCount, missing);
  require(handle, "cuDeviceGet", cuda.deviceGet, missing);
  require(handle, "cuDeviceGetName", cuda.deviceGetName, missing);
  require(handle, "cuDeviceGetAttribute", cuda.deviceGetAttribute, missing);
  require(handle, "cuDeviceTotalMem_v2", cuda.deviceTotalMem, missing);
  resolve(handle, "cuGetErrorName", cuda.getErrorName);
  return missing;
}

// "CUDA_ERROR_NO_DEVICE (100)", or "CUresult 100" when the name is unknown.
std::string cudaErrorText(const CudaApi &cuda, CuResult error) {
  const char *name = nullptr;
  if (cuda.getErrorName && cuda.getErrorName(error, &name) != kCudaSuccess)
    name = nullptr;
  const std::string code = std::to_string(error);
  return name && *name ? std::string(name) + " (" + code + ")"
                       : "CUresult " + code;
}

// Driver versions are 1000 * major + 10 * minor (cuDriverGetVersion in the
// CUDA Driver API reference), e.g. 12040 is 12.4.
std::string formatCudaVersion(int version) {
  return std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10);
}

// One CUDA device, or nothing (with the reason added to problems) when a
// required query fails.
std::optional<GpuInfo> queryCudaDevice(const CudaApi &cuda, int ordinal,
                                       std::string &problems) {
  const std::string prefix = "device " + std::to_string(ordinal) + ": ";
  auto failed = [&](const char *call, CuResult status) {
    appendPart(problems,
               prefix + callFailed(call, cudaErrorText(cuda, status)));
    return std::nullopt;
  };
  int device = 0;
  if (CuResult s = cuda.deviceGet(&device, ordinal))
    return failed("cuDeviceGet", s);
  auto attribute = [&](int which, int &value) {
    return cuda.deviceGetAttribute(&value, which, device);
  };
  GpuInfo gpu;
  gpu.vendor = GpuVendor::Nvidia;
  gpu.index = ordinal;

  std::array<char, 256> name{};
  if (CuResult s = cuda.deviceGetName(name.data(),
                                      static_cast<int>(name.size()), device))
    return failed("cuDeviceGetName", s);
  gpu.name = boundedString(name.data(), name.size());

  int major = 0;
  int minor = 0;
  if (CuResult s = attribute(kCuAttributeComputeCapabilityMajor, major))
    return failed("cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)", s);
  if (CuResult s = attribute(kCuAttributeComputeCapabilityMinor, minor))
    return failed("cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)", s);
  gpu.arch = "sm_" + std::to_string(major) + std::to_string(minor);

  if (CuResult s = attribute(kCuAttributeMultiprocessorCount, gpu.computeUnits))
    return failed("cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)", s);
  if (CuResult s = attribute(kCuAttributeWarpSize, gpu.subgroupSize))
    return failed("cuDeviceGetAttribute(WARP_SIZE)", s);

  int sharedPerBlock = 0;
  if (CuResult s =
          attribute(kCuAttributeMaxSharedMemoryPerBlock, sharedPerBlock))
    return failed("cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK)", s);
  int sharedOptin = 0; // absent on old drivers; then the default limit stands
  if (attribute(kCuAttributeMaxSharedMemoryPerBlockOptin, sharedOptin) !=
      kCudaSuccess)
    sharedOptin = 0;
  gpu.sharedMemoryPerWorkgroupBytes =
      sharedOptin > sharedPerBlock ? sharedOptin : sharedPerBlock;

  std::size_t bytes = 0;
  if (CuResult s = cuda.deviceTotalMem(&bytes, device))
    return failed("cuDeviceTotalMem_v2", s);
  gpu.globalMemoryBytes = static_cast<long long>(bytes);
  return gpu;
}

// Initialises the driver, appends its devices to gpus, and returns the probe
// detail.
std::string enumerateCuda(void *handle, std::vector<GpuInfo> &gpus) {
  CudaApi cuda;
  const std::vector<std::string> missing = loadCudaApi(handle, cuda);
  if (!missing.empty())
    return "missing symbols: " + joined(missing, ", ");

  std::string detail;
  int version = 0;
  if (cuda.driverGetVersion(&version) == kCudaSuccess)
    detail = "CUDA driver " + formatCudaVersion(version);
  if (CuResult s = cuda.init(0)) {
    appendPart(detail, callFailed("cuInit(0)", cudaErrorText(cuda, s)));
    return detail;
  }
  int count = 0;
  if (CuResult s = cuda.deviceGetCount(&count)) {
    appendPart(detail, callFailed("cuDeviceGetCount", cudaErrorText(cuda, s)));
    return detail;
  }
  appendPart(detail, std::to_string(count) + " device(s)");
  for (int ordinal = 0; ordinal < count; ++ordinal)
    if (std::optional<GpuInfo> gpu = queryCudaDevice(cuda, ordinal, detail))
      gpus.push_back(std::move(*gpu));
  return detail;
}

RuntimeProbe probeCuda(std::vector<GpuInfo> &gpus) {
  RuntimeProbe probe;
  probe.runtime = "CUDA";
  const Library library =
      openFirst(libraryCandidates("TILESCOPE_CUDA_LIBRARY",
                                  {"libcuda.so.1", "libcuda.so"}),
                probe);
  if (!library.handle)
    return probe;
  probe.detail = enumerateCuda(library.handle, gpus);
  // A runtime once opened stays loaded: unloading libamdhip64 after hipInit
  // crashed some ROCm builds, and keeping it costs nothing.
  return probe;
}

//===----------------------------------------------------------------------===//
// Putting it together
//===----------------------------------------------------------------------===//

// Runs one probe; an exception (only std::bad_alloc can get here) becomes
// the probe's detail instead of leaving discoverGpus.
template <typename Probe>
RuntimeProbe runProbe(const char *runtime, Probe probe,
                      std::vector<GpuInfo> &gpus) {
  try {
    return probe(gpus);
  } catch (const std::exception &error) {
    RuntimeProbe failed;
    failed.runtime = runtime;
    failed.detail = std::string("unexpected error: ") + error.what();
    return failed;
  } catch (...) {
    RuntimeProbe failed;
    failed.runtime = runtime;
    failed.detail = "unexpected error";
    return failed;
  }
}

} // namespace

std::string GpuInfo::iree_device() const {
  return (vendor == GpuVendor::Amd ? "hip://" : "cuda://") +
         std::to_string(index);
}

std::string toString(GpuVendor vendor) {
  switch (vendor) {
  case GpuVendor::Amd:
    return "AMD";
  case GpuVendor::Nvidia:
    return "NVIDIA";
  }
  return "unknown";
}

GpuDiscovery discoverGpus() {
  GpuDiscovery discovery;
  discovery.probes.push_back(runProbe("HIP", probeHip, discovery.gpus));
  discovery.probes.push_back(runProbe("CUDA", probeCuda, discovery.gpus));
  return discovery;
}

} // namespace tilescope::devices
