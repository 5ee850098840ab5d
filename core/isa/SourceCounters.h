// Nsight Compute's per-instruction counters laid over a kernel's SASS: what
// a profiled launch measured at each instruction (warp stall samples and
// their reasons, instructions executed, shared-memory wavefronts, global
// sectors), read from its source page,
//
//   ncu --section SourceCounters -o REPORT APP...
//   ncu --import REPORT.ncu-rep --page source --print-source sass --csv
//
// and matched to the SASS Tilescope read from the try's cubin. The GPU's
// driver may have compiled the kernel's PTX itself (IREE's CUDA modules
// carry PTX), with a ptxas other than the one here: the two are matched by
// offset where their instructions are the same, and otherwise by aligning
// their mnemonics, saying how many matched. Plain text in, plain data out.
#pragma once

#include "core/isa/Assembly.h"
#include "core/util/Result.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::isa {

// One SASS instruction of a profiled kernel, as Nsight Compute's source
// page gives it.
struct CountedInstruction {
  uint64_t address = 0;                  // its program counter on the GPU
  std::string text;                      // "@P0 LDG.E.128 R4, desc[UR6][R2.64]"
  std::string mnemonic;                  // "LDG.E.128"
  std::optional<double> executed;        // warp-level, all launches profiled
  std::optional<double> threadsExecuted; // thread-level
  std::optional<double> stallSamples;    // warp stall samples, all of them
  std::optional<double> notIssuedSamples;
  // Samples by stall reason ("long_sb", "barrier", ...), the most first;
  // reasons with none left out.
  std::vector<std::pair<std::string, double>> stalls;
  // Shared memory: wavefronts the L1 served, and the fewest it could have
  // (the accesses of each warp instruction without conflicts).
  std::optional<double> sharedWavefronts, sharedWavefrontsIdeal;
  // Global memory: L2 sectors asked for, and the fewest possible.
  std::optional<double> globalSectors, globalSectorsIdeal;

  // Shared-memory wavefronts one warp instruction took on average.
  std::optional<double> wavefrontsPerExecution() const;
  std::optional<double> idealWavefrontsPerExecution() const;
};

struct ProfiledKernel {
  std::string name;                             // as Nsight Compute names it
  std::vector<CountedInstruction> instructions; // in address order
  double stallSamples() const; // the kernel's, over its instructions
};

// Every kernel of a source page (`--page source --print-source sass --csv`;
// ncu's own lines before it are skipped). An Error when it holds no
// instruction row or more than a million, or a row's address is not one. A
// page without the sampling's total takes the sum of its stall reasons.
Result<std::vector<ProfiledKernel>>
readNsightSourceCounters(const std::string &text);

// A profiled kernel laid over the SASS read here.
struct CounterOverlay {
  std::string kernel; // the profiled kernel's name
  size_t profiledInstructions = 0;
  size_t sassInstructions = 0;
  size_t matched = 0; // instructions linked to a profiled one
  // Whether the profiled code is the SASS read here, instruction by
  // instruction (the same mnemonics at the same offsets).
  bool sameCode = false;
  double stallSamples = 0; // the profiled kernel's, all its instructions
  // The counters at each SASS line that matched.
  std::map<size_t, CountedInstruction> atLine;
  // What to know before reading it: how it was matched.
  std::string note;
};

// `profiled` over `sass`. Where the two hold the same instructions they are
// linked by offset; otherwise by the longest common sequence of their
// mnemonics (a driver's ptxas may schedule or allocate otherwise), and
// `note` says how many matched. Kernels of more than about 5,000
// instructions each are linked only where they are the same code.
CounterOverlay overlayCounters(const Kernel &sass,
                               const ProfiledKernel &profiled);

// The profiled kernel of `kernels` for the SASS kernel `name`: the one of
// that name (or of a signature of it), or with `onlyOne` the page's only
// kernel; null where there is none to choose.
const ProfiledKernel *
profiledKernelFor(const std::vector<ProfiledKernel> &kernels,
                  const std::string &name, bool onlyOne = true);

// A shared-memory SASS instruction's banks, predicted and counted: the
// prediction is its PTX statement's (SharedBanks.h: the first subgroup's
// lanes, the first pass), the count Nsight Compute's over every warp of
// the launch.
struct BankCheck {
  size_t line = 0;    // the SASS instruction's
  size_t ptxLine = 0; // its PTX statement's first line
  std::string mnemonic;
  int64_t predictedDegree = 1;    // the worst phase's
  double predictedWavefronts = 0; // one warp instruction's, all phases
  double measuredWavefronts = 0;  // per warp instruction executed
  double idealWavefronts = 0;     // the same without conflicts
};
// Every shared-memory instruction of `sass` with counters and a resolved
// prediction (through `statements`, the PTX kernel `ptx`'s).
std::vector<BankCheck> checkBanks(const CounterOverlay &overlay,
                                  const Kernel &sass, const Kernel &ptx,
                                  const PtxStatements &statements);

// The counters over each SASS kernel of `sass` that has a profiled kernel
// (profiledKernelFor: the page's only kernel stands for the listing's only
// one, and the note says so), with its banks checked against the PTX it was
// compiled from (`ptx`, a listing of the same kernels; null: no checks).
struct KernelCounters {
  size_t kernel = 0; // its index in the SASS listing
  CounterOverlay overlay;
  std::vector<BankCheck> banks;
};
std::vector<KernelCounters>
overlayListing(const Listing &sass, const Listing *ptx,
               const std::vector<ProfiledKernel> &profiled);

// The counters over each file's SASS kernels (`listings` read from
// `files`, in turn), each SASS file's banks checked against the PTX beside
// it (X.ptx for X.sass, where it is one of the files); none for others.
std::vector<std::vector<KernelCounters>>
overlayFiles(const std::vector<std::filesystem::path> &files,
             const std::vector<Listing> &listings,
             const std::vector<ProfiledKernel> &profiled);

// What the counters of one region say, in words: "41 % of the kernel's
// 12,345 stall samples (long_sb 52 %, barrier 20 %); 1,024 warp
// instructions executed"; empty where none of its lines matched.
std::string describeCounters(const CounterOverlay &overlay,
                             size_t firstLine = 0, size_t lastLine = SIZE_MAX);

// The `most` lines with the most stall samples (none without), the most
// first, ties by line: what `isa` prints and its JSON's "top_lines".
std::vector<std::pair<size_t, const CountedInstruction *>>
hottestLines(const CounterOverlay &overlay, size_t most);

} // namespace tilescope::isa
