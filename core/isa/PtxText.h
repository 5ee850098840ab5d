// PTX as the readers of its kernels take it (the shared-memory banks, the
// accumulators' stores): each entry's statements with their lines and the
// labels among them, its workgroup shape, the shared variables' offsets,
// and a subgroup's (or a workgroup's) lanes running its integer arithmetic
// in lockstep.
#pragma once

#include "core/isa/LaneValues.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilescope::isa {

struct PtxStatement {
  size_t line = 0;     // where it starts (an MMA's operand lists span lines)
  size_t lastLine = 0; // where it ends (its ';')
  std::string mnemonic;
  std::vector<std::string> operands;
  std::string text; // as written, its guard included
};
// One statement ("@%p1 ld.shared.b32 %r1, [%rd2+4]") as its mnemonic and
// operands; the guard is dropped (taken as run by every lane). None for
// directives, labels and braces.
std::optional<PtxStatement> ptxStatementOf(std::string text, size_t line);

// "mad.lo.s32" -> {"mad", "lo", "s32"}.
std::vector<std::string> ptxPartsOf(const std::string &mnemonic);
// Operands split at the commas outside braces and brackets.
std::vector<std::string> ptxOperandsOf(const std::string &text);
// "[%rd1+16904]" -> ("%rd1", 16904).
std::optional<std::pair<std::string, int64_t>>
ptxAddressOf(const std::string &operand);

// The bits of a PTX type, the one reading of them every reader uses:
// "b32" 32, "bf16" 16, "tf32" 32, "e4m3" 8, a packed pair twice its half
// ("f16x2" 32, "e5m2x2" 16); 0 for anything else ("v4", "pred", and a
// width PTX has not: "b2000000000").
int ptxTypeBits(std::string_view type);

// The bytes one thread's cp.async copies into shared memory (4, 8 or 16);
// none for any other statement, cp.async.bulk (one thread's copy of a
// whole tile) included.
std::optional<int64_t> asyncCopyBytesOf(const PtxStatement &statement);
// The bytes a copy statement names: cp.async's 4, 8 or 16 a thread, a
// cp.async.bulk's whole copy (under 16 MiB); none for any other statement
// and for cp.async.bulk.tensor (its size is its tensor map's).
std::optional<int64_t> copiedBytesOf(const PtxStatement &statement);

// An .entry or a .func with a body.
struct PtxEntryText {
  std::string name;
  int64_t x = 0, y = 1, z = 1; // .reqntid / .maxntid (x 0: not stated)
  std::vector<PtxStatement> statements;
  // A label -> the index of the statement after it.
  std::map<std::string, size_t> labels;
  // Its workgroup's threads: x * y * z, or one subgroup where x is not
  // stated.
  int64_t threads(int64_t subgroupSize) const;
};

struct PtxText {
  std::vector<PtxEntryText> entries;
  // Each shared variable's byte offset: static ones in declaration order,
  // each at its alignment, dynamic shared memory after them.
  std::map<std::string, int64_t> sharedOffsets;
};
PtxText ptxTextOf(const std::string &text);

// The lanes of a workgroup's first threads running a PTX entry's integer
// arithmetic in lockstep: `lanes` threads of an x by y (by z) workgroup,
// `subgroupSize` to a warp. Kernel parameters and the block's ids are the
// same in every lane (unknown), or, with `firstWorkgroup`, the block's ids
// are those of block (0, 0, 0).
class PtxLanes {
public:
  struct Shape {
    size_t lanes = 32;
    int64_t x = 32, y = 1;
    int64_t subgroupSize = 32;
    bool firstWorkgroup = false;
  };
  PtxLanes(Shape shape, const std::map<std::string, int64_t> &shared);
  // Every thread of `entry`'s first workgroup (its ids 0).
  static Shape firstWorkgroupOf(const PtxEntryText &entry,
                                int64_t subgroupSize);

  // The value of an operand: a register, a special register, an immediate,
  // a shared symbol, a parameter.
  Lanes read(const std::string &operand, size_t line) const;
  // Runs one statement; what it writes is kept.
  void run(const PtxStatement &statement);

private:
  void write(const std::string &destination, Lanes value);
  std::optional<Lanes> specialRegister(const std::string &name) const;
  Lanes evaluate(const std::vector<std::string> &parts,
                 const std::vector<std::string> &ops, size_t line) const;

  Shape shape;
  const std::map<std::string, int64_t> &shared;
  std::map<std::string, Lanes> registers;
};

} // namespace tilescope::isa
