// A kernel's instructions as a reader of one dialect takes them, before
// they are cut by its loops: shared by the PTX, AMDGPU and SASS readers
// (core/isa only).
#pragma once

#include "core/isa/Assembly.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::isa {

// One kernel's statements as read, its labels by statement index, and the
// branches' targets by statement index.
struct RawKernel {
  std::string name;
  std::vector<Instruction> instructions;
  std::map<std::string, size_t> labels;              // label -> first index
  std::vector<std::pair<size_t, std::string>> jumps; // index -> target
};

// A SASS statement's mnemonic: its first word after a guard ("@P0",
// "@!PT"), without a closing ';' (nvdisasm's lines and Nsight Compute's
// source page write them alike).
std::string sassMnemonicOf(const std::string &statement);

// The kernel cut by its loops: the prologue, one pass of each outer loop's
// body, what runs between loops, the epilogue.
Kernel cutByLoops(const RawKernel &raw);

} // namespace tilescope::isa
