#include "core/isa/SharedBanks.h"

#include "core/isa/Assembly.h"

#include "core/util/Numbers.h"
#include "core/util/Text.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

namespace tilescope::isa {

namespace {

std::string trim(std::string_view text) { return std::string(trimmed(text)); }

// A register's value in every lane at once: known exactly, or an unknown
// term that is the same in every lane (a kernel argument, a block index)
// plus a known offset per lane, or unknown (a loaded value, arithmetic not
// run here), with the line where it was lost.
struct Lanes {
  enum class Kind { Known, Uniform, Unknown };
  Kind kind = Kind::Unknown;
  std::vector<int64_t> value; // per lane: the value, or the offset
  size_t lostAt = 0;
  std::string lostWhy;

  bool known() const { return kind == Kind::Known; }
  bool unknown() const { return kind == Kind::Unknown; }
  // The same in every lane (a known constant, or a uniform term with a
  // uniform offset).
  bool sameInEveryLane() const {
    return kind != Kind::Unknown &&
           std::adjacent_find(value.begin(), value.end(),
                              std::not_equal_to<>()) == value.end();
  }
};

Lanes known(size_t lanes, int64_t v) {
  return {Lanes::Kind::Known, std::vector<int64_t>(lanes, v), 0, {}};
}
Lanes lost(size_t line, std::string why) {
  return {Lanes::Kind::Unknown, {}, line, std::move(why)};
}
Lanes uniform(size_t lanes) {
  return {Lanes::Kind::Uniform, std::vector<int64_t>(lanes, 0), 0, {}};
}

// The bits of a PTX type suffix: "u32" 32, "s64" 64; 0 for none.
int typeBits(const std::string &part) {
  if (part.size() < 2 ||
      std::string_view("usb").find(part[0]) == std::string_view::npos)
    return 0;
  auto bits = parseInt64(part.substr(1));
  return bits && (*bits == 8 || *bits == 16 || *bits == 32 || *bits == 64)
             ? static_cast<int>(*bits)
             : 0;
}

int64_t wrap(int64_t v, int bits, bool isSigned) {
  if (bits <= 0 || bits >= 64)
    return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (isSigned && (u >> (bits - 1)) & 1)
    u |= ~mask;
  return static_cast<int64_t>(u);
}

// "mad.lo.s32" -> {"mad", "lo", "s32"}.
std::vector<std::string> partsOf(const std::string &mnemonic) {
  std::vector<std::string> parts;
  std::stringstream in(mnemonic);
  std::string part;
  while (std::getline(in, part, '.'))
    parts.push_back(part);
  return parts;
}

// Operands split at the commas outside braces and brackets.
std::vector<std::string> operandsOf(const std::string &text) {
  std::vector<std::string> operands;
  std::string current;
  int depth = 0;
  for (char c : text) {
    if (c == '{' || c == '[')
      ++depth;
    if (c == '}' || c == ']')
      --depth;
    if (c == ',' && depth == 0) {
      operands.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty())
    operands.push_back(trim(current));
  return operands;
}

struct SharedSymbol {
  int64_t offset = 0;
};

class LaneMachine {
public:
  LaneMachine(size_t lanes, int64_t x, int64_t y,
              const std::map<std::string, SharedSymbol> &shared)
      : lanes(lanes), x(std::max<int64_t>(x, 1)), y(std::max<int64_t>(y, 1)),
        shared(shared) {}

  // The value of an operand: a register, a special register, an
  // immediate, a shared symbol.
  Lanes read(const std::string &operand, size_t line) const {
    if (operand.empty())
      return lost(line, "an empty operand");
    if (auto special = specialRegister(operand))
      return *special;
    if (operand[0] == '%') {
      auto found = registers.find(operand);
      if (found == registers.end())
        return lost(line, operand + " is read before this reader saw it set");
      return found->second;
    }
    if (auto number = immediate(operand))
      return known(lanes, *number);
    if (auto symbol = shared.find(operand); symbol != shared.end())
      return known(lanes, symbol->second.offset);
    // A global symbol or a kernel parameter: one value for every lane.
    return uniform(lanes);
  }

  void write(const std::string &destination, Lanes value) {
    if (destination.empty())
      return;
    if (destination[0] == '{') { // a vector of loaded registers
      for (const std::string &one :
           operandsOf(destination.substr(1, destination.size() - 2)))
        registers[one] =
            value.known() ? value : lost(value.lostAt, value.lostWhy);
      return;
    }
    registers[destination] = std::move(value);
  }

  // Runs one statement; what it writes is kept.
  void run(const std::string &mnemonic, const std::vector<std::string> &ops,
           size_t line) {
    if (ops.empty())
      return;
    const std::vector<std::string> parts = partsOf(mnemonic);
    const std::string &op = parts.front();
    if (op == "st" || op == "bar" || op == "bra" || op == "ret" ||
        op == "barrier" || op == "stmatrix" || op == "cp" || op == "mma" ||
        op == "wgmma" || op == "fence" || op == "membar" || op == "red" ||
        op == "prefetch" || op == "exit" || op == "trap" || op == "call")
      return; // no register it writes is an address part
    if (op == "ld" || op == "ldmatrix" || op == "ldu" || op == "atom" ||
        op == "shfl" || op == "vote" || op == "tex") {
      const bool param = parts.size() > 1 && parts[1] == "param";
      write(ops[0], param ? uniform(lanes)
                          : lost(line, "loaded from memory by " + mnemonic));
      return;
    }
    write(ops[0], evaluate(parts, ops, line));
  }

  const std::map<std::string, Lanes> &state() const { return registers; }

private:
  std::optional<Lanes> specialRegister(const std::string &name) const {
    auto laneValues = [&](auto of) {
      Lanes v = known(lanes, 0);
      for (size_t l = 0; l < lanes; ++l)
        v.value[l] = of(static_cast<int64_t>(l));
      return v;
    };
    if (name == "%tid.x")
      return laneValues([&](int64_t l) { return l % x; });
    if (name == "%tid.y")
      return laneValues([&](int64_t l) { return (l / x) % y; });
    if (name == "%tid.z")
      return laneValues([&](int64_t l) { return l / (x * y); });
    if (name == "%laneid")
      return laneValues([](int64_t l) { return l; });
    if (name == "%warpid")
      return known(lanes, 0);
    if (name.rfind("%ctaid", 0) == 0 || name.rfind("%nctaid", 0) == 0 ||
        name.rfind("%ntid", 0) == 0 || name.rfind("%clusterid", 0) == 0 ||
        name.rfind("%cluster_ctaid", 0) == 0)
      return uniform(lanes);
    return std::nullopt;
  }

  static std::optional<int64_t> immediate(const std::string &text) {
    if (text.size() > 2 && (text[0] == '0') &&
        (text[1] == 'f' || text[1] == 'd'))
      return std::nullopt; // a float's bits
    std::string digits = text;
    bool negative = false;
    if (!digits.empty() && digits[0] == '-') {
      negative = true;
      digits = digits.substr(1);
    }
    if (!digits.empty() && digits.back() == 'U')
      digits.pop_back();
    std::optional<int64_t> value;
    if (digits.size() > 2 && digits[0] == '0' &&
        (digits[1] == 'x' || digits[1] == 'X')) {
      try {
        size_t used = 0;
        const unsigned long long v = std::stoull(digits.substr(2), &used, 16);
        if (used == digits.size() - 2)
          value = static_cast<int64_t>(v);
      } catch (...) {
      }
    } else {
      value = parseInt64(digits);
    }
    if (value && negative)
      *value = -*value;
    return value;
  }

  Lanes evaluate(const std::vector<std::string> &parts,
                 const std::vector<std::string> &ops, size_t line) const {
    const std::string &op = parts.front();
    const std::string mnemonic = [&] {
      std::string m;
      for (const std::string &p : parts)
        m += (m.empty() ? "" : ".") + p;
      return m;
    }();
    // The result's type: the last type suffix (cvt: the first, its
    // destination's).
    int bits = 0;
    bool isSigned = false;
    bool isFloat = false;
    for (size_t i = parts.size(); i-- > 1;) {
      if (parts[i].size() > 1 && parts[i][0] == 'f' &&
          typeBits("u" + parts[i].substr(1)))
        isFloat = true;
      if (int b = typeBits(parts[i]); b && !bits) {
        bits = b;
        isSigned = parts[i][0] == 's';
      }
    }
    if (op == "cvt" && parts.size() >= 3) {
      bits = typeBits(parts[parts.size() - 2]);
      isSigned =
          !parts[parts.size() - 2].empty() && parts[parts.size() - 2][0] == 's';
      isFloat = isFloat || !bits;
    }
    const bool wide =
        std::find(parts.begin(), parts.end(), "wide") != parts.end();
    const bool high =
        std::find(parts.begin(), parts.end(), "hi") != parts.end();
    if (isFloat)
      return lost(line, mnemonic + " computes floats");
    const int resultBits = wide ? std::min(64, bits * 2) : bits;

    std::vector<Lanes> in;
    for (size_t i = 1; i < ops.size(); ++i)
      in.push_back(read(ops[i], line));
    for (const Lanes &v : in)
      if (v.unknown())
        return v;
    auto anyUniform = std::any_of(in.begin(), in.end(), [](const Lanes &v) {
      return v.kind == Lanes::Kind::Uniform;
    });
    // The unary and binary operations run here, lane by lane.
    auto apply = [&](auto f) {
      Lanes out = known(lanes, 0);
      for (size_t l = 0; l < lanes; ++l) {
        std::vector<int64_t> args;
        for (const Lanes &v : in)
          args.push_back(
              wrap(v.value[l], wide ? bits : (bits ? bits : 64), isSigned));
        out.value[l] = wrap(f(args), resultBits ? resultBits : 64, false);
      }
      return out;
    };
    const size_t arity = in.size();
    auto need = [&](size_t n) { return arity == n; };
    std::optional<Lanes> result;
    if ((op == "mov" || op == "cvta" || op == "cvt") && need(1)) {
      Lanes out = in[0];
      if (out.known())
        for (int64_t &v : out.value)
          v = wrap(v, bits ? bits : 64, isSigned);
      return out;
    }
    if (anyUniform)
      return uniformResult(op, in, line, mnemonic);
    if (op == "add" && need(2))
      result = apply([](auto a) { return a[0] + a[1]; });
    else if (op == "sub" && need(2))
      result = apply([](auto a) { return a[0] - a[1]; });
    else if (op == "mul" && need(2))
      result = apply([&](auto a) {
        if (high && bits == 32)
          return (a[0] * a[1]) >> 32;
        return a[0] * a[1];
      });
    else if (op == "mad" && need(3))
      result = apply([](auto a) { return a[0] * a[1] + a[2]; });
    else if (op == "shl" && need(2))
      result = apply([](auto a) {
        return a[1] >= 64 || a[1] < 0
                   ? 0
                   : static_cast<int64_t>(static_cast<uint64_t>(a[0]) << a[1]);
      });
    else if (op == "shr" && need(2))
      result = apply([&](auto a) {
        if (a[1] >= 64 || a[1] < 0)
          return int64_t{0};
        return isSigned ? a[0] >> a[1]
                        : static_cast<int64_t>(
                              static_cast<uint64_t>(wrap(a[0], bits, false)) >>
                              a[1]);
      });
    else if (op == "and" && need(2))
      result = apply([](auto a) { return a[0] & a[1]; });
    else if (op == "or" && need(2))
      result = apply([](auto a) { return a[0] | a[1]; });
    else if (op == "xor" && need(2))
      result = apply([](auto a) { return a[0] ^ a[1]; });
    else if (op == "not" && need(1))
      result = apply([](auto a) { return ~a[0]; });
    else if (op == "neg" && need(1))
      result = apply([](auto a) { return -a[0]; });
    else if (op == "min" && need(2))
      result = apply([](auto a) { return std::min(a[0], a[1]); });
    else if (op == "max" && need(2))
      result = apply([](auto a) { return std::max(a[0], a[1]); });
    else if ((op == "div" || op == "rem") && need(2)) {
      bool byZero = false;
      for (int64_t v : in[1].value)
        byZero |= v == 0;
      if (byZero)
        return lost(line, mnemonic + " divides by zero in some lane");
      result = op == "div" ? apply([](auto a) { return a[0] / a[1]; })
                           : apply([](auto a) { return a[0] % a[1]; });
    }
    if (result)
      return *result;
    return lost(line, mnemonic + " is not run by this reader");
  }

  // An operation on a term the same in every lane but unknown: sums keep
  // it beside their known offsets, products by a constant scale it, and
  // anything else of values the same in every lane is the same in every
  // lane; what mixes it otherwise with lanes' own values is lost.
  Lanes uniformResult(const std::string &op, const std::vector<Lanes> &in,
                      size_t line, const std::string &mnemonic) const {
    auto offsets = [&](auto f) {
      Lanes out = uniform(lanes);
      for (size_t l = 0; l < lanes; ++l) {
        std::vector<int64_t> args;
        for (const Lanes &v : in)
          args.push_back(v.value[l]);
        out.value[l] = f(args);
      }
      return out;
    };
    auto constant = [&](size_t i) {
      return in[i].known() && in[i].sameInEveryLane();
    };
    if (op == "add" && in.size() == 2)
      return offsets([](auto a) { return a[0] + a[1]; });
    if (op == "sub" && in.size() == 2)
      return offsets([](auto a) { return a[0] - a[1]; });
    if (op == "mul" && in.size() == 2 && (constant(0) || constant(1)))
      return offsets([](auto a) { return a[0] * a[1]; });
    if (op == "mad" && in.size() == 3 && (constant(0) || constant(1)))
      return offsets([](auto a) { return a[0] * a[1] + a[2]; });
    if (op == "shl" && in.size() == 2 && constant(1))
      return offsets([](auto a) {
        return a[1] >= 0 && a[1] < 63 ? a[0] * (int64_t{1} << a[1]) : 0;
      });
    if (std::all_of(in.begin(), in.end(),
                    [](const Lanes &v) { return v.sameInEveryLane(); }))
      return uniform(lanes);
    return lost(line, mnemonic +
                          " mixes a value the same in every lane but unknown "
                          "here (a kernel argument) with each lane's own");
  }

  size_t lanes;
  int64_t x, y;
  const std::map<std::string, SharedSymbol> &shared;
  std::map<std::string, Lanes> registers;
};

// "[%rd1+16904]" -> ("%rd1", 16904).
std::optional<std::pair<std::string, int64_t>>
addressOf(const std::string &operand) {
  if (operand.size() < 3 || operand.front() != '[' || operand.back() != ']')
    return std::nullopt;
  std::string inside = trim(operand.substr(1, operand.size() - 2));
  int64_t offset = 0;
  const size_t plus = inside.find('+', 1);
  if (plus != std::string::npos) {
    auto parsed = parseInt64(trim(inside.substr(plus + 1)));
    if (!parsed)
      return std::nullopt;
    offset = *parsed;
    inside = trim(inside.substr(0, plus));
  }
  return std::pair{inside, offset};
}

struct Statement {
  size_t line = 0;
  std::string mnemonic;
  std::vector<std::string> operands;
};

// One statement of PTX ("@%p1 ld.shared.b32 %r1, [%rd2+4];") as its
// mnemonic and operands; the guard is dropped (the access is taken as made
// by every lane).
std::optional<Statement> statementOf(std::string text, size_t line) {
  text = trim(text);
  if (text.empty() || text[0] == '.' || text.back() == ':' || text == "{" ||
      text == "}")
    return std::nullopt;
  if (text[0] == '@') {
    const size_t space = text.find_first_of(" \t");
    if (space == std::string::npos)
      return std::nullopt;
    text = trim(text.substr(space));
  }
  const size_t space = text.find_first_of(" \t");
  Statement statement;
  statement.line = line;
  statement.mnemonic = text.substr(0, space);
  if (space != std::string::npos)
    statement.operands = operandsOf(text.substr(space));
  return statement;
}

// The shared-memory access a statement makes: its address operand and the
// bytes a lane moves; none for other statements.
struct AccessShape {
  std::string address;
  int64_t bytes = 0;
  int64_t lanes = 0; // 0: every lane of the subgroup
  bool store = false;
};
std::optional<AccessShape> accessOf(const Statement &s) {
  const std::vector<std::string> parts = partsOf(s.mnemonic);
  if (parts.empty() || s.operands.empty())
    return std::nullopt;
  const std::string &op = parts.front();
  const bool shared =
      std::find(parts.begin(), parts.end(), "shared") != parts.end() ||
      std::find(parts.begin(), parts.end(), "shared::cta") != parts.end();
  if (!shared)
    return std::nullopt;
  AccessShape shape;
  if (op == "ldmatrix" || op == "stmatrix") {
    // Each lane of the first 8 x N gives one 16-byte row's address.
    int64_t matrices = 1;
    for (const std::string &p : parts)
      if (p == "x2")
        matrices = 2;
      else if (p == "x4")
        matrices = 4;
    shape.bytes = 16;
    shape.lanes = 8 * matrices;
    shape.store = op == "stmatrix";
    shape.address = op == "ldmatrix" ? s.operands.back() : s.operands.front();
    return shape;
  }
  if (op == "cp" && s.operands.size() >= 3) { // cp.async: shared <- global
    auto bytes = parseInt64(s.operands[2]);
    shape.bytes = bytes ? *bytes : 0;
    shape.store = true;
    shape.address = s.operands[0];
    return shape.bytes > 0 ? std::optional(shape) : std::nullopt;
  }
  if (op != "ld" && op != "st" && op != "atom" && op != "red")
    return std::nullopt;
  const int bits = widthOfPtx(s.mnemonic);
  if (bits <= 0)
    return std::nullopt;
  shape.bytes = bits / 8;
  shape.store = op != "ld";
  shape.address = op == "ld" || op == "atom" ? s.operands[1] : s.operands[0];
  return shape;
}

// A kernel's PTX body, its lines kept.
struct EntryText {
  std::string name;
  int64_t x = 0, y = 1, z = 1;
  std::vector<std::pair<size_t, std::string>> lines;
};

// `.shared .align A .b8 NAME[N]` (N empty: dynamic shared memory).
std::optional<std::pair<std::string, std::pair<int64_t, int64_t>>>
sharedDeclaration(const std::string &line) {
  if (line.find(".shared") == std::string::npos)
    return std::nullopt;
  const size_t open = line.find('[');
  if (open == std::string::npos)
    return std::nullopt;
  size_t start = line.find_last_of(" \t", open);
  if (start == std::string::npos)
    return std::nullopt;
  const std::string name = line.substr(start + 1, open - start - 1);
  const size_t close = line.find(']', open);
  int64_t size = -1; // dynamic
  if (close != std::string::npos && close > open + 1) {
    auto n = parseInt64(line.substr(open + 1, close - open - 1));
    if (!n)
      return std::nullopt;
    size = *n;
  }
  int64_t align = 1;
  if (const size_t a = line.find(".align"); a != std::string::npos)
    if (auto n = parseInt64(trim(
            line.substr(a + 6, line.find_first_of(" \t.", a + 7) - a - 6))))
      align = std::max<int64_t>(*n, 1);
  return std::pair{name, std::pair{size, align}};
}

} // namespace

std::string describeBanks(const std::vector<SharedAccess> &accesses,
                          size_t firstLine, size_t lastLine) {
  size_t total = 0, unresolved = 0;
  // degree -> mnemonic -> count
  std::map<int64_t, std::map<std::string, size_t>> byDegree;
  for (const SharedAccess &a : accesses) {
    if (a.line < firstLine || a.line > lastLine)
      continue;
    ++total;
    if (!a.resolved)
      ++unresolved;
    else
      ++byDegree[a.degrees.worst][a.mnemonic];
  }
  if (total == 0)
    return "";
  std::string text = std::to_string(total) + " shared-memory access" +
                     (total == 1 ? "" : "es") + ":";
  bool first = true;
  for (const auto &[degree, mnemonics] : byDegree) {
    size_t n = 0;
    std::string which;
    for (const auto &[mnemonic, count] : mnemonics) {
      n += count;
      which += (which.empty() ? "" : ", ") + mnemonic + " x " +
               std::to_string(count);
    }
    text += std::string(first ? " " : ", ") + std::to_string(n) + " " +
            (degree <= 1 ? std::string("without conflicts")
                         : std::to_string(degree) + "-way (" + which + ")");
    first = false;
  }
  if (unresolved > 0)
    text += std::string(first ? " " : "; ") + std::to_string(unresolved) +
            " unresolved";
  return text;
}

size_t KernelBanks::resolvedCount() const {
  return static_cast<size_t>(
      std::count_if(accesses.begin(), accesses.end(),
                    [](const SharedAccess &a) { return a.resolved; }));
}

int64_t KernelBanks::worstDegree() const {
  int64_t worst = 1;
  for (const SharedAccess &a : accesses)
    if (a.resolved)
      worst = std::max(worst, a.degrees.worst);
  return worst;
}

std::vector<KernelBanks> sharedBanksOfPtx(const std::string &text,
                                          const layout::BankModel &banks) {
  // Shared variables: static ones in declaration order, each at its
  // alignment; dynamic shared memory after them.
  std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> declared;
  std::vector<EntryText> entries;
  std::istringstream in(text);
  std::string raw;
  size_t number = 0;
  int depth = 0;
  EntryText *entry = nullptr;
  bool inEntryHeader = false;
  bool inBlockComment = false;
  std::string pending; // a statement not yet ended
  size_t pendingLine = 0;
  while (std::getline(in, raw)) {
    ++number;
    std::string line = raw.substr(0, raw.find("//"));
    if (inBlockComment) {
      const size_t close = line.find("*/");
      if (close == std::string::npos)
        continue;
      line = line.substr(close + 2);
      inBlockComment = false;
    }
    while (true) {
      const size_t open = line.find("/*");
      if (open == std::string::npos)
        break;
      const size_t close = line.find("*/", open + 2);
      if (close == std::string::npos) {
        inBlockComment = true;
        line = line.substr(0, open);
        break;
      }
      line = line.substr(0, open) + line.substr(close + 2);
    }
    line = trim(line);
    if (line.empty())
      continue;
    if (depth == 0 && line.find(".entry") != std::string::npos) {
      entries.emplace_back();
      entry = &entries.back();
      std::string rest = trim(line.substr(line.find(".entry") + 6));
      entry->name = rest.substr(0, rest.find_first_of("( \t"));
      inEntryHeader = true;
    }
    if (auto shared = sharedDeclaration(line))
      declared.push_back(*shared);
    if (inEntryHeader &&
        (line.rfind(".reqntid", 0) == 0 || line.rfind(".maxntid", 0) == 0)) {
      const std::vector<std::string> dims = operandsOf(line.substr(8));
      auto dim = [&](size_t i) {
        auto v = i < dims.size() ? parseInt64(dims[i]) : std::nullopt;
        return v && *v > 0 ? *v : int64_t{1};
      };
      entry->x = dim(0);
      entry->y = dim(1);
      entry->z = dim(2);
    }
    for (char c : line) {
      if (c == '{') {
        if (depth == 0)
          inEntryHeader = false;
        ++depth;
      } else if (c == '}') {
        --depth;
      }
    }
    if (!entry || depth == 0 || line == "{" || line.back() == ':')
      continue;
    // A statement ends at ';' (an MMA's operand lists may span lines);
    // it keeps the line it starts on.
    if (pending.empty())
      pendingLine = number;
    pending += (pending.empty() ? "" : " ") + line;
    size_t semicolon;
    while ((semicolon = pending.find(';')) != std::string::npos) {
      entry->lines.emplace_back(pendingLine, pending.substr(0, semicolon));
      pending = trim(pending.substr(semicolon + 1));
      pendingLine = number;
    }
  }
  std::map<std::string, SharedSymbol> symbols;
  int64_t next = 0;
  for (const auto &[name, shape] : declared)
    if (shape.first >= 0) {
      next = (next + shape.second - 1) / shape.second * shape.second;
      symbols[name] = {next};
      next += shape.first;
    }
  for (const auto &[name, shape] : declared)
    if (shape.first < 0)
      symbols[name] = {(next + 15) / 16 * 16};

  std::vector<KernelBanks> result;
  for (const EntryText &e : entries) {
    KernelBanks kernel;
    kernel.kernel = e.name;
    kernel.subgroupSize = banks.subgroupSize;
    kernel.workgroupX = e.x;
    kernel.workgroupY = e.y;
    kernel.workgroupZ = e.z;
    // The first subgroup's lanes: all of it, or the workgroup where it is
    // smaller (x alone unknown: taken as at least a subgroup).
    int64_t threads = e.x > 0 ? e.x * e.y * e.z : banks.subgroupSize;
    const size_t lanes = static_cast<size_t>(
        std::clamp<int64_t>(threads, 1, banks.subgroupSize));
    LaneMachine machine(lanes, e.x > 0 ? e.x : banks.subgroupSize, e.y,
                        symbols);
    for (const auto &[line, statementText] : e.lines) {
      auto statement = statementOf(statementText, line);
      if (!statement)
        continue;
      if (auto shape = accessOf(*statement)) {
        SharedAccess access;
        access.line = line;
        access.mnemonic = statement->mnemonic;
        access.store = shape->store;
        access.accessBytes = shape->bytes;
        auto address = addressOf(shape->address);
        if (!address) {
          access.why = "its address '" + shape->address + "' is not read here";
        } else {
          const Lanes base = machine.read(address->first, line);
          if (base.unknown()) {
            access.why = "its address rests on line " +
                         std::to_string(base.lostAt) + ": " + base.lostWhy;
          } else {
            access.resolved = true;
            access.uniformBaseAssumed = base.kind == Lanes::Kind::Uniform;
            const size_t taking =
                shape->lanes > 0
                    ? std::min(lanes, static_cast<size_t>(shape->lanes))
                    : lanes;
            for (size_t l = 0; l < taking; ++l)
              access.addresses.push_back(
                  {static_cast<int64_t>(l), base.value[l] + address->second});
            access.degrees = layout::conflictDegrees(access.addresses,
                                                     access.accessBytes, banks);
          }
        }
        kernel.accesses.push_back(std::move(access));
      }
      machine.run(statement->mnemonic, statement->operands, line);
    }
    result.push_back(std::move(kernel));
  }
  return result;
}

} // namespace tilescope::isa
