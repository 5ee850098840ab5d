// The registers live at each instruction of a kernel's AMDGPU assembly: a
// backward liveness pass over its control flow (labels, s_branch,
// s_cbranch_*, s_endpgm) with each instruction's registers read and
// written, counted per register file (VGPRs, AGPRs, SGPRs), its peak
// marked, beside what the kernel's metadata says it allocated. A register
// counts from the instruction that writes it to the last that reads it, on
// any path (through a loop's back edge too).
#pragma once

#include "core/isa/AmdgpuText.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::isa {

struct LiveCount {
  int vgprs = 0, agprs = 0, sgprs = 0;
  int vectorRegisters() const { return vgprs + agprs; }
};

struct KernelLiveness {
  std::string kernel;
  // The registers one instruction needs at once: those live into it, or
  // those live out of it with the ones it writes, whichever is more; by
  // the instruction's line.
  std::map<size_t, LiveCount> atLine;
  LiveCount peak;      // the most of VGPRs + AGPRs at one instruction
  size_t peakLine = 0; // where
  // What the metadata says the kernel allocated (-1: not stated).
  int64_t allocatedVgprs = -1, allocatedAgprs = -1, allocatedSgprs = -1;
  // What its vector registers are called: AMDGPU's "VGPRs" (beside AGPRs
  // and SGPRs), or SASS's "GPRs" (beside uniform GPRs, counted as sgprs).
  std::string registerFile = "VGPRs";
};

// The registers an instruction writes and reads (32-bit names: "v4", "a0",
// "s2"; vcc, exec, scc and literals are not registers here).
std::pair<std::vector<std::string>, std::vector<std::string>>
amdgpuWritesAndReads(const AmdgpuStatement &statement);

std::vector<KernelLiveness> livenessOfAmdgpu(const std::string &text);
// The same of kernels already read (amdgpuKernelsOf).
std::vector<KernelLiveness>
livenessOfAmdgpu(const std::vector<AmdgpuKernelText> &kernels);

// A count in the kernel's registers' words: "131 VGPRs + 0 AGPRs", or for
// SASS "93 GPRs (4 uniform)".
std::string describe(const LiveCount &count, const KernelLiveness &liveness);

// The peak of the instructions from line `first` to `last` and its line;
// none where no instruction is there.
std::optional<std::pair<LiveCount, size_t>>
peakBetween(const KernelLiveness &liveness, size_t first, size_t last);

// "peak 98 live VGPRs + 0 AGPRs at line 230 (allocated: 102 VGPRs, 0 AGPRs)".
std::string describe(const KernelLiveness &liveness);

} // namespace tilescope::isa
