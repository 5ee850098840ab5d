// A compiled kernel's instructions, read from what IREE's backends write:
// NVIDIA PTX (the CUDA backend's .ptx) and AMDGPU assembly (the ROCm
// backend's .rocmasm). Each instruction is classed (global, shared and
// matrix loads and stores with their width, MMA / MFMA, barriers, waits,
// shuffles, arithmetic), and each kernel is cut by its loops: the prologue,
// one pass of each loop's body (what one reduction step issues, or several
// where LLVM unrolled the loop), what runs between loops, and the epilogue.
// Plain text in, plain data out: no IREE, no Qt.
#pragma once

#include "core/isa/Accumulators.h"
#include "core/isa/CellLink.h"
#include "core/isa/Liveness.h"
#include "core/isa/OperandFlow.h"
#include "core/isa/SharedBanks.h"
#include "core/util/Result.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::isa {

enum class InstructionClass {
  GlobalLoad,  // ld.global, global_load_*, buffer_load_*
  GlobalStore, // st.global, global_store_*, buffer_store_*
  SharedLoad,  // ld.shared, ds_read*
  SharedStore, // st.shared, ds_write*
  MatrixLoad,  // ldmatrix (shared memory to an MMA fragment)
  AsyncCopy,   // cp.async, cp.async.bulk (global to shared memory)
  Mma,         // mma.sync, wgmma, v_mfma_*, v_wmma_*
  Barrier,     // bar.sync, barrier, s_barrier
  Wait,        // cp.async.wait_*, s_waitcnt
  Shuffle,     // shfl.sync, ds_swizzle, ds_bpermute, v_permlane*, DPP
  Branch,      // bra, ret, s_branch, s_cbranch_*, s_endpgm
  Arithmetic,  // everything that computes (add, fma, cvt, v_*, s_* ALU)
  Other,       // moves of parameters, declarations kept as statements
};
inline constexpr size_t kInstructionClasses = 13;
// Every class, in the order a region is reported: what it computes, what
// it moves, how it waits.
inline constexpr InstructionClass kReportOrder[] = {
    InstructionClass::Mma,         InstructionClass::GlobalLoad,
    InstructionClass::GlobalStore, InstructionClass::AsyncCopy,
    InstructionClass::SharedStore, InstructionClass::SharedLoad,
    InstructionClass::MatrixLoad,  InstructionClass::Barrier,
    InstructionClass::Wait,        InstructionClass::Shuffle,
    InstructionClass::Branch,      InstructionClass::Arithmetic,
    InstructionClass::Other};
// "global load", "mma", ...
const char *toString(InstructionClass kind);

struct Instruction {
  size_t line = 0;     // 1-based, in the file read
  size_t lastLine = 0; // where its statement ends (PTX: an MMA's operand
                       // lists span lines); `line` elsewhere
  // SASS: the line of the PTX it was compiled from, as ptxas's line table
  // says (`ptxas -lineinfo`, `nvdisasm -gp`); 0 where the SASS has none.
  size_t ptxLine = 0;
  // SASS: its byte offset in the kernel's code (nvdisasm's "/*0560*/"), by
  // which a profiler's per-instruction counters find it; 0 elsewhere.
  uint64_t address = 0;
  std::string mnemonic; // "ld.global.nc.v4.b32", "v_mfma_f32_16x16x16_f16"
  std::string text;     // the whole statement, as written (one line)
  InstructionClass kind = InstructionClass::Other;
  // Bits one lane moves (loads, stores, copies): 128 for ld.global.v4.b32
  // and global_load_dwordx4; 0 where it moves none.
  int widthBits = 0;
};

struct Region {
  enum class Kind { Prologue, Loop, Between, Epilogue };
  Kind kind = Kind::Prologue;
  std::string label; // a loop's label ("$L__BB0_1", ".LBB0_1")
  size_t firstLine = 0, lastLine = 0;
  std::vector<Instruction> instructions;
  std::array<size_t, kInstructionClasses> counts{};
  size_t count(InstructionClass kind) const {
    return counts[static_cast<size_t>(kind)];
  }
};
// "prologue", "loop", "between loops", "epilogue"
const char *toString(Region::Kind kind);

// What a region issues, in words: "64 mma (mma.sync.aligned.m16n8k16...),
// 16 global load (16 x 128-bit), 2 barrier, ...".
std::string describe(const Region &region);

struct Kernel {
  std::string name;
  std::vector<Region> regions; // in order; loops nested in loops are inside
  // Its shared-memory (LDS) accesses, in program order, with the banks the
  // first subgroup's lanes land on (SharedBanks.h).
  std::vector<SharedAccess> sharedAccesses;
  // The registers live at each instruction and their peak (Liveness.h):
  // AMDGPU assembly's, where registers are the hardware's; PTX's virtual
  // registers say nothing of what ptxas allocates, so none for PTX.
  std::optional<KernelLiveness> liveness;
  // Where its MMAs' results are stored, thread by thread (Accumulators.h).
  KernelAccumulators accumulators;
  // Where its MMAs' A and B operands come from, through shared memory to
  // the global loads (OperandFlow.h).
  KernelOperands operands;
  // The access at `line`, if there is one.
  const SharedAccess *sharedAccessAt(size_t line) const;
};

struct Listing {
  std::string dialect; // "ptx", "sass" or "amdgpu"
  std::vector<Kernel> kernels;
};

Result<Listing> readPtx(const std::string &text);
// A line of PTX without its comments (// to the end, /* ... */ within and
// across lines: `inBlockComment` carries an open one to the next line).
std::string withoutPtxComments(std::string line, bool &inBlockComment);
Result<Listing> readAmdgpu(const std::string &text);
// nvdisasm's SASS of a cubin, printed with its life ranges counted
// (`nvdisasm -c -lrm count`): each instruction classed, and the registers
// live at it (GPRs; uniform ones as the scalar file) from nvdisasm's
// columns (SassText.cpp).
Result<Listing> readSass(const std::string &text);
// By the file's extension: .ptx, .sass, .rocmasm or .s (AMDGPU); an
// Error names the file and why.
Result<Listing> readAssemblyFile(const std::filesystem::path &path);

// Classes one mnemonic, and the bits it moves per lane.
InstructionClass classOfPtx(const std::string &mnemonic);
InstructionClass classOfAmdgpu(const std::string &mnemonic);
InstructionClass classOfSass(const std::string &mnemonic);
int widthOfPtx(const std::string &mnemonic);
int widthOfAmdgpu(const std::string &mnemonic);
// Loads, stores, matrix loads and async copies: the classes with a width.
bool movesMemory(InstructionClass kind);
int widthOfSass(const std::string &mnemonic);

// nvdisasm prints either the registers' life ranges (`-lrm count`) or the
// PTX line of each instruction (`-gp`), never both: the first's text with
// the second's line markers ("//## File \".nv_debug_ptx_txt\", line N")
// put before the same instructions (by section and address), as readSass
// reads them. Lines of the second that match no instruction of the first
// are left out.
std::string sassWithPtxLines(const std::string &lifeRanges,
                             const std::string &ptxLines);
// Whether a SASS text carries PTX line markers.
bool sassHasPtxLines(const std::string &sass);

// A PTX kernel's statements by the lines they span: the statement a SASS
// instruction's `ptxLine` falls in (ptxas names an MMA by the line of its
// ';', the statement by its first). Holds its own copies: it outlives the
// listing it was made from.
class PtxStatements {
public:
  explicit PtxStatements(const Kernel &ptx);
  // The statement `ptxLine` falls in; null where it is in none (a brace, a
  // declaration, 0).
  const Instruction *of(size_t ptxLine) const;

private:
  std::map<size_t, Instruction> byLastLine;
};

// A SASS kernel's cells through its PTX: each SASS instruction gets the
// cells `ptxCells` gives the PTX statement it was compiled from, where the
// two are of one class (an HMMA of an mma.sync, an LDG of an ld.global, an
// LDSM of an ldmatrix, ...): address arithmetic ptxas credits to a load's
// line moves no cell.
CellLink sassCells(const Kernel &sass, const PtxStatements &ptx,
                   const CellLink &ptxCells);

} // namespace tilescope::isa
