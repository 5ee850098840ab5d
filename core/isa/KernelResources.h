// What a compiled kernel uses, read from the text of its artifacts: the
// kernel metadata of AMDGPU assembly (.rocmasm), `ptxas -v`'s report, a PTX
// file's target and block sizes, each export's workgroup_local_memory in IR
// printed after executable translation; and the occupancy those figures
// allow on the target. Pure text reading: running ptxas and iree-compile
// for them is core/service's (Resources.h).
#pragma once

#include "core/layout/Occupancy.h"
#include "core/util/Result.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::isa {

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

// The occupancy the kernel's registers, shared memory and workgroup allow
// on its arch (or why none).
void addOccupancy(KernelResources &kernel);

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
// A PTX file's target ("sm_90") alone, from its `.target` line (no parse
// of its statements); empty where it has none.
std::string ptxTarget(std::string_view ptx);

// A kernel's name as the PTX (and so ptxas -v) spells it: NVPTX writes the
// characters a PTX name does not take ('$' of a program's dispatch names,
// "main_graph$async_dispatch_1_...", '.', '@') as '_'.
std::string ptxName(std::string name);

// Each hal.executable.export's workgroup_local_memory in IR printed after
// executable translation, keyed by ptxName of the export.
std::map<std::string, long long>
parseWorkgroupLocalMemory(std::string_view translated);

// A kernel's resources in words, a few indented lines: registers, spills,
// shared memory, scratch, workgroup and occupancy with its limits.
std::string describe(const KernelResources &kernel);

} // namespace tilescope::isa
