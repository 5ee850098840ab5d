// What a compiled kernel uses, read from the real artifacts of a compile:
// for AMD, the kernel metadata in the ISA IREE dumps (.rocmasm); for NVIDIA,
// ptxas -v on the PTX IREE dumps, and the dynamic shared memory IREE gives
// each export (its workgroup_local_memory, which ptxas cannot see). With it,
// the occupancy those figures allow on the target.
#pragma once

#include "core/layout/CostModel.h"
#include "core/layout/Occupancy.h"
#include "core/service/CompileJob.h"
#include "core/util/Result.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::service {

struct KernelResources {
  std::string kernel;
  std::string backend; // "rocm" or "cuda"
  std::string arch;    // "gfx942", "sm_90"
  std::filesystem::path readFrom;

  // AMD: per-wave register counts and spills, from the kernel metadata.
  std::optional<int> vgprs, agprs, sgprs;
  std::optional<int> vgprSpills, sgprSpills;
  // NVIDIA: registers per thread and spill traffic, from ptxas.
  std::optional<int> registers;
  std::optional<long long> spillStoreBytes, spillLoadBytes;

  long long scratchBytes = 0;      // private segment / stack frame, per thread
  long long sharedMemoryBytes = 0; // LDS / shared memory, per workgroup
  int workgroupSize = 0;           // threads
  int subgroupSize = 0;            // wave or warp size

  std::optional<layout::Occupancy> occupancy;
  std::string occupancyNote; // why there is none

  bool spills() const;
};

struct ResourceReport {
  std::vector<KernelResources> kernels;
  std::vector<std::string> commands; // each helper run, as a shell command
  std::vector<std::string> notes;    // what could not be read, and why
};

// What the cost model takes from a compiled kernel (registers, shared
// memory, workgroups resident per unit): the first GPU kernel of the
// report, or nullopt when it has none.
std::optional<layout::CompiledKernel>
compiledKernelOf(const ResourceReport &report);

// The kernels of an AMDGPU assembly file's metadata (.amdgpu_metadata).
Result<std::vector<KernelResources>> parseAmdgpuAssembly(std::string_view text);

// One entry per kernel of `ptxas -v` output (registers, spills, stack,
// static shared memory).
Result<std::vector<KernelResources>> parsePtxasVerbose(std::string_view text);

// A PTX file's target ("sm_90") and each entry's threads per block (its
// .reqntid or .maxntid).
struct PtxFacts {
  std::string target;
  std::map<std::string, int> blockSize;
};
PtxFacts parsePtx(std::string_view ptx);

// A kernel's name as the PTX (and so ptxas -v) spells it: NVPTX writes the
// characters a PTX name does not take ('$' of a program's dispatch names,
// "main_graph$async_dispatch_1_...", '.', '@') as '_'.
std::string ptxName(std::string name);

// Each hal.executable.export's workgroup_local_memory in IR printed after
// executable translation, keyed by ptxName of the export.
std::map<std::string, long long>
parseWorkgroupLocalMemory(std::string_view translated);

// ptxas: $TILESCOPE_PTXAS, then the one the set-up installs into .deps/,
// then `ptxas` on PATH and /usr/local/cuda/bin/ptxas.
Result<std::filesystem::path> locatePtxas();
// A CUDA tool: the file $`variable` names, then `installed` (the set-up's;
// "" for none), then `name` on PATH and in /usr/local/cuda/bin.
std::optional<std::filesystem::path>
locateCudaTool(const char *variable, const std::string &installed,
               const std::string &name);

struct ResourceOptions {
  std::chrono::milliseconds timeout{std::chrono::minutes(2)};
  const std::atomic<bool> *cancel = nullptr;
};

// The resources of every kernel a successful compile made. ROCm needs only
// the dumped ISA; CUDA runs ptxas on the PTX and, for the shared memory,
// iree-compile once more up to executable targets (in the try folder).
// Anything that cannot be read (no ptxas, a CPU compile) is a note.
Result<ResourceReport> readResources(const CompileJobResult &compiled,
                                     const ResourceOptions &options = {});

// A kernel's resources in words, a few indented lines: registers, spills,
// shared memory, scratch, workgroup and occupancy with its limits.
std::string describe(const KernelResources &kernel);

} // namespace tilescope::service
