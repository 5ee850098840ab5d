// Where a kernel's MMA operands come from: each byte an MMA's A and B
// registers hold, followed back through the shared-memory loads and stores
// and the global loads that moved it, to its place in one of the kernel's
// bindings. The link from a layout's LHS and RHS cells to the instructions
// that load, stage and consume them, and back.
//
// One pass over each kernel's statements in program order (a loop's body
// once: the reduction's first pass), the whole first workgroup's threads
// in lockstep (PtxLanes, AmdgpuLanes, the workgroup's ids 0) for the
// addresses, and each register's bytes per thread: a global load fills
// them with the bytes of the binding it reads (the kernel parameter its
// address comes from), a shared store puts them in a model of the
// workgroup's shared memory, a shared load (ld.shared, ldmatrix with its
// lane shuffle, ds_read) takes them back, moves, packs and permutes carry
// them, elementwise f16 arithmetic of one such register and constants
// carries them as derived; anything else forgets them. Bytes not followed
// are counted and the reason kept.
#pragma once

#include "core/config/configs/ImplicitGemm.h"
#include "core/config/configs/IterationSpace.h"
#include "core/isa/AmdgpuText.h"
#include "core/isa/CellLink.h"
#include "core/isa/PtxText.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::isa {

// A run of bytes one thread moves of one binding.
struct MovedBytes {
  int64_t thread = 0;
  int binding = -1;   // the kernel's binding: its parameter's index
  int64_t offset = 0; // from the binding's base (the first workgroup's)
  int64_t bytes = 0;
  // Where in what the statement moves for the thread: an MMA operand's
  // byte (its register's index times 4, and the byte in it).
  int64_t position = 0;
  // Computed from these bytes' elements by elementwise arithmetic with
  // constants (a scale), not the bytes themselves.
  bool derived = false;
};

enum class OperandMoveKind { GlobalLoad, SharedStore, SharedLoad, MmaA, MmaB };
// "global load", "shared store", "shared load", "MMA A", "MMA B".
std::string nameOf(OperandMoveKind kind);

struct OperandMove {
  size_t line = 0;
  std::string mnemonic;
  OperandMoveKind kind = OperandMoveKind::GlobalLoad;
  std::vector<MovedBytes> moved; // thread-major
  int64_t bytes = 0;             // all it moves, followed or not
  int64_t elementBytes = 0;      // an MMA operand's element (2 for f16)
  std::string why;               // where some bytes are not followed
  int64_t followed() const;
};

struct KernelOperands {
  std::string kernel;
  int64_t threads = 0, subgroupSize = 0;
  std::vector<OperandMove> moves; // in program order; an MMA twice (A, B)
};

std::vector<KernelOperands> operandsOfPtx(const PtxText &ptx,
                                          int64_t subgroupSize = 32);
std::vector<KernelOperands>
operandsOfAmdgpu(const std::vector<AmdgpuKernelText> &kernels);

// "8192 of 8192 bytes of the MMAs' A and B followed to bindings 0, 1
// through 16 global loads, 32 shared stores and 64 shared loads"; empty
// where the kernel has no MMA.
std::string describe(const KernelOperands &kernel);

// The input cells of a layout picture linked to the lines that move them:
// the op's i-th input is the kernel's binding i, laid out row-major as its
// type's shape, which must be its loops' bounds in its own dimension order
// (an operand indexed otherwise, or without a shape, is left out and said
// so in `why`). A cell leaves the loops its operand does not index open
// (-1). With `igemm` (`space` its IGEMM loops), binding 0 is the
// convolution's input and binding 1 its filter, laid out as their types'
// shapes, and an element is a cell at every IGEMM point that reads it
// (ImplicitGemm::gemmPointsOf: an input pixel under each filter tap that
// lands on it).
CellLink linkOperandCells(const KernelOperands &kernel,
                          const config::IterationSpace &space,
                          std::string *why = nullptr,
                          const config::ImplicitGemm *igemm = nullptr);

// Bytes of one element of an MLIR element type ("f16" 2, "f32" 4, "i8" 1);
// 0 for one it does not know or below a byte.
int64_t elementBytesOf(const std::string &type);

} // namespace tilescope::isa
