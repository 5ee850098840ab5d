// A subgroup's integer registers run in lockstep, for the bank readers of
// PTX and AMDGPU assembly (SharedBanks.h): every lane's value of a register
// at once, known exactly, or an unknown term the same in every lane (a
// kernel argument) beside a known offset per lane, or lost (a loaded value,
// arithmetic not run here), with the line and the reason it was lost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::isa {

struct Lanes {
  enum class Kind { Known, Uniform, Unknown };
  Kind kind = Kind::Unknown;
  std::vector<int64_t> value; // per lane: the value, or the offset
  size_t lostAt = 0;
  std::string lostWhy;

  bool isKnown() const { return kind == Kind::Known; }
  bool isLost() const { return kind == Kind::Unknown; }
  // The same in every lane: a known constant, or a uniform term with a
  // uniform offset.
  bool sameInEveryLane() const;
  // Known, and the same in every lane.
  bool isConstant() const { return isKnown() && sameInEveryLane(); }
};

Lanes knownLanes(size_t lanes, int64_t value);
Lanes uniformLanes(size_t lanes);
Lanes lostLanes(size_t line, std::string why);

// `value` kept to `bits` bits (64: as it is), sign-extended where `isSigned`.
int64_t wrapBits(int64_t value, int bits, bool isSigned);

enum class LaneOp {
  Add,     // a + b
  Sub,     // a - b
  Mul,     // a * b
  MulHi,   // the high 32 bits of a 32-bit a * b
  Mad,     // a * b + c
  Shl,     // a << b
  Shr,     // a >> b, logical
  AShr,    // a >> b, arithmetic
  And,     // a & b
  Or,      // a | b
  Xor,     // a ^ b
  Not,     // ~a
  Neg,     // -a
  Min,     // min(a, b)
  Max,     // max(a, b)
  Div,     // a / b
  Rem,     // a % b
  LshlOr,  // (a << b) | c
  LshlAdd, // (a << b) + c
  AddLshl, // (a + b) << c
  AndOr,   // (a & b) | c
  Or3,     // a | b | c
  Add3,    // a + b + c
  Bfe,     // (a >> b) & ((1 << c) - 1)
  Bfi,     // (a & b) | (~a & c)
  Xad,     // (a ^ b) + c
};
// How many operands `op` takes.
size_t arityOf(LaneOp op);

// `in` run through `op` in every lane, the operands read as `bits`-bit
// integers (sign-extended where `isSigned`) and the result kept to
// `resultBits`. A term the same in every lane but unknown is kept through
// sums, through products and shifts by a constant, and through anything of
// values the same in every lane; what mixes it otherwise with the lanes'
// own values is lost, as is a division by zero. `what` names the
// instruction in the reason.
Lanes applyLanes(LaneOp op, const std::vector<Lanes> &in, int bits,
                 int resultBits, bool isSigned, size_t line,
                 const std::string &what);

// `a` + `b` as a 64-bit address, lost at `line` where either is.
Lanes addedAddress(const Lanes &a, const Lanes &b, size_t line);

} // namespace tilescope::isa
