#include "core/isa/LaneValues.h"

#include <algorithm>
#include <functional>

namespace tilescope::isa {

bool Lanes::sameInEveryLane() const {
  return kind != Kind::Unknown &&
         std::adjacent_find(value.begin(), value.end(),
                            std::not_equal_to<>()) == value.end();
}

Lanes knownLanes(size_t lanes, int64_t value) {
  return {Lanes::Kind::Known, std::vector<int64_t>(lanes, value), 0, {}};
}

Lanes uniformLanes(size_t lanes) {
  return {Lanes::Kind::Uniform, std::vector<int64_t>(lanes, 0), 0, {}};
}

Lanes lostLanes(size_t line, std::string why) {
  return {Lanes::Kind::Unknown, {}, line, std::move(why)};
}

int64_t wrapBits(int64_t value, int bits, bool isSigned) {
  if (bits <= 0 || bits >= 64)
    return value;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t u = static_cast<uint64_t>(value) & mask;
  if (isSigned && ((u >> (bits - 1)) & 1))
    u |= ~mask;
  return static_cast<int64_t>(u);
}

size_t arityOf(LaneOp op) {
  switch (op) {
  case LaneOp::Not:
  case LaneOp::Neg:
    return 1;
  case LaneOp::Mad:
  case LaneOp::LshlOr:
  case LaneOp::LshlAdd:
  case LaneOp::AddLshl:
  case LaneOp::AndOr:
  case LaneOp::Or3:
  case LaneOp::Add3:
  case LaneOp::Bfe:
  case LaneOp::Bfi:
  case LaneOp::Xad:
    return 3;
  default:
    return 2;
  }
}

namespace {

// Two's-complement arithmetic, wrapping as the hardware's does (and with no
// undefined overflow, whatever numbers a hostile file writes).
int64_t add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}
int64_t sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) -
                              static_cast<uint64_t>(b));
}
int64_t mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}

int64_t shiftLeft(int64_t a, int64_t b) {
  return b < 0 || b >= 64 ? 0
                          : static_cast<int64_t>(static_cast<uint64_t>(a) << b);
}

// One lane's result; `bits` the operands' width (a logical shift reads
// its operand unsigned at that width).
int64_t compute(LaneOp op, const std::vector<int64_t> &a, int bits) {
  switch (op) {
  case LaneOp::Add:
    return add(a[0], a[1]);
  case LaneOp::Sub:
    return sub(a[0], a[1]);
  case LaneOp::Mul:
    return mul(a[0], a[1]);
  case LaneOp::MulHi:
    return static_cast<int64_t>(
        (static_cast<uint64_t>(wrapBits(a[0], 32, false)) *
         static_cast<uint64_t>(wrapBits(a[1], 32, false))) >>
        32);
  case LaneOp::Mad:
    return add(mul(a[0], a[1]), a[2]);
  case LaneOp::Shl:
    return shiftLeft(a[0], a[1]);
  case LaneOp::Shr:
    return a[1] < 0 || a[1] >= 64
               ? 0
               : static_cast<int64_t>(
                     static_cast<uint64_t>(wrapBits(a[0], bits, false)) >>
                     a[1]);
  case LaneOp::AShr:
    return a[1] < 0 || a[1] >= 64 ? (a[0] < 0 ? -1 : 0) : a[0] >> a[1];
  case LaneOp::And:
    return a[0] & a[1];
  case LaneOp::Or:
    return a[0] | a[1];
  case LaneOp::Xor:
    return a[0] ^ a[1];
  case LaneOp::Not:
    return ~a[0];
  case LaneOp::Neg:
    return sub(0, a[0]);
  case LaneOp::Min:
    return std::min(a[0], a[1]);
  case LaneOp::Max:
    return std::max(a[0], a[1]);
  case LaneOp::Div: // the smallest number over -1 wraps to itself
    return a[1] == -1 ? sub(0, a[0]) : a[0] / a[1];
  case LaneOp::Rem:
    return a[1] == -1 ? 0 : a[0] % a[1];
  case LaneOp::LshlOr:
    return shiftLeft(a[0], a[1]) | a[2];
  case LaneOp::LshlAdd:
    return add(shiftLeft(a[0], a[1]), a[2]);
  case LaneOp::AddLshl:
    return shiftLeft(add(a[0], a[1]), a[2]);
  case LaneOp::AndOr:
    return (a[0] & a[1]) | a[2];
  case LaneOp::Or3:
    return a[0] | a[1] | a[2];
  case LaneOp::Add3:
    return add(add(a[0], a[1]), a[2]);
  case LaneOp::Bfe: {
    const int64_t width = a[2] & 31, offset = a[1] & 31;
    return width == 0 ? 0
                      : static_cast<int64_t>(
                            (static_cast<uint64_t>(wrapBits(a[0], 32, false)) >>
                             offset) &
                            ((uint64_t{1} << width) - 1));
  }
  case LaneOp::Bfi:
    return (a[0] & a[1]) | (~a[0] & a[2]);
  case LaneOp::Xad:
    return add(a[0] ^ a[1], a[2]);
  }
  return 0;
}

// Where an operand is a uniform unknown term plus offsets: the ops that
// keep the term (sums; products and shifts by a constant) give the
// offsets' result; nullopt for any other.
bool keepsUniform(LaneOp op, const std::vector<Lanes> &in) {
  auto constant = [&](size_t i) { return in[i].isConstant(); };
  switch (op) {
  case LaneOp::Add:
  case LaneOp::Sub:
  case LaneOp::Add3:
    return true;
  case LaneOp::Mul:
  case LaneOp::Mad:
    return constant(0) || constant(1);
  case LaneOp::Shl:
  case LaneOp::LshlAdd:
    return constant(1);
  case LaneOp::AddLshl:
    return constant(2);
  default:
    return false;
  }
}

} // namespace

Lanes applyLanes(LaneOp op, const std::vector<Lanes> &in, int bits,
                 int resultBits, bool isSigned, size_t line,
                 const std::string &what) {
  if (in.size() != arityOf(op))
    return lostLanes(line, what + " has operands this reader does not take");
  for (const Lanes &v : in)
    if (v.isLost())
      return v;
  const size_t lanes = in.front().value.size();
  for (const Lanes &v : in)
    if (v.value.size() != lanes)
      return lostLanes(line, what + " mixes values of different lane counts");
  const bool anyUniform = std::any_of(in.begin(), in.end(), [](const Lanes &v) {
    return v.kind == Lanes::Kind::Uniform;
  });
  if (anyUniform && !keepsUniform(op, in)) {
    if (std::all_of(in.begin(), in.end(),
                    [](const Lanes &v) { return v.sameInEveryLane(); }))
      return uniformLanes(lanes);
    return lostLanes(line, what + " mixes a value the same in every lane but "
                                  "unknown here (a kernel argument) with each "
                                  "lane's own");
  }
  if ((op == LaneOp::Div || op == LaneOp::Rem) &&
      std::count(in[1].value.begin(), in[1].value.end(), 0) > 0)
    return lostLanes(line, what + " divides by zero in some lane");
  // A kept uniform term: the offsets go through the op as plain values
  // (not wrapped: the term's own bits are unknown).
  Lanes out = anyUniform ? uniformLanes(lanes) : knownLanes(lanes, 0);
  std::vector<int64_t> args(in.size());
  for (size_t l = 0; l < lanes; ++l) {
    for (size_t i = 0; i < in.size(); ++i)
      args[i] = anyUniform ? in[i].value[l]
                           : wrapBits(in[i].value[l], bits, isSigned);
    const int64_t result = compute(op, args, bits);
    out.value[l] = anyUniform ? result : wrapBits(result, resultBits, false);
  }
  return out;
}

Lanes addedAddress(const Lanes &a, const Lanes &b, size_t line) {
  return applyLanes(LaneOp::Add, {a, b}, 64, 64, false, line, "an address");
}

} // namespace tilescope::isa
