#include "core/isa/SharedBanks.h"

#include "core/isa/Assembly.h"
#include "core/isa/LaneValues.h"

#include "core/util/Numbers.h"
#include "core/util/Text.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

namespace tilescope::isa {

namespace {

std::string trim(std::string_view text) { return std::string(trimmed(text)); }

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
      return lostLanes(line, "an empty operand");
    if (auto special = specialRegister(operand))
      return *special;
    if (operand[0] == '%') {
      auto found = registers.find(operand);
      if (found == registers.end())
        return lostLanes(line,
                         operand + " is read before this reader saw it set");
      return found->second;
    }
    if (auto number = immediate(operand))
      return knownLanes(lanes, *number);
    if (auto symbol = shared.find(operand); symbol != shared.end())
      return knownLanes(lanes, symbol->second.offset);
    // A global symbol or a kernel parameter: one value for every lane.
    return uniformLanes(lanes);
  }

  void write(const std::string &destination, Lanes value) {
    if (destination.empty())
      return;
    if (destination[0] == '{') { // a vector of loaded registers
      for (const std::string &one :
           operandsOf(destination.substr(1, destination.size() - 2)))
        registers[one] =
            value.isKnown() ? value : lostLanes(value.lostAt, value.lostWhy);
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
      write(ops[0], param
                        ? uniformLanes(lanes)
                        : lostLanes(line, "loaded from memory by " + mnemonic));
      return;
    }
    write(ops[0], evaluate(parts, ops, line));
  }

  const std::map<std::string, Lanes> &state() const { return registers; }

private:
  std::optional<Lanes> specialRegister(const std::string &name) const {
    auto laneValues = [&](auto of) {
      Lanes v = knownLanes(lanes, 0);
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
      return knownLanes(lanes, 0);
    if (name.rfind("%ctaid", 0) == 0 || name.rfind("%nctaid", 0) == 0 ||
        name.rfind("%ntid", 0) == 0 || name.rfind("%clusterid", 0) == 0 ||
        name.rfind("%cluster_ctaid", 0) == 0)
      return uniformLanes(lanes);
    return std::nullopt;
  }

  static std::optional<int64_t> immediate(const std::string &text) {
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'd'))
      return std::nullopt; // a float's bits
    return parseIntegerLiteral(text);
  }

  Lanes evaluate(const std::vector<std::string> &parts,
                 const std::vector<std::string> &ops, size_t line) const {
    const std::string &op = parts.front();
    std::string mnemonic;
    for (const std::string &p : parts)
      mnemonic += (mnemonic.empty() ? "" : ".") + p;
    // The operands' type: the last type suffix (cvt: its destination's,
    // the one before last).
    int bits = 0;
    bool isSigned = false, isFloat = false;
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
      const std::string &to = parts[parts.size() - 2];
      bits = typeBits(to);
      isSigned = !to.empty() && to[0] == 's';
      isFloat = isFloat || !bits;
    }
    if (isFloat)
      return lostLanes(line, mnemonic + " computes floats");
    auto has = [&](const char *part) {
      return std::find(parts.begin(), parts.end(), part) != parts.end();
    };
    const bool wide = has("wide");
    std::vector<Lanes> in;
    for (size_t i = 1; i < ops.size(); ++i)
      in.push_back(read(ops[i], line));
    if ((op == "mov" || op == "cvta" || op == "cvt") && in.size() == 1) {
      Lanes out = in[0];
      if (out.isKnown())
        for (int64_t &v : out.value)
          v = wrapBits(v, bits ? bits : 64, isSigned);
      return out;
    }
    static const std::map<std::string, LaneOp> kOps = {
        {"add", LaneOp::Add}, {"sub", LaneOp::Sub}, {"mul", LaneOp::Mul},
        {"mad", LaneOp::Mad}, {"shl", LaneOp::Shl}, {"shr", LaneOp::Shr},
        {"and", LaneOp::And}, {"or", LaneOp::Or},   {"xor", LaneOp::Xor},
        {"not", LaneOp::Not}, {"neg", LaneOp::Neg}, {"min", LaneOp::Min},
        {"max", LaneOp::Max}, {"div", LaneOp::Div}, {"rem", LaneOp::Rem}};
    auto found = kOps.find(op);
    if (found == kOps.end())
      return lostLanes(line, mnemonic + " is not run by this reader");
    LaneOp laneOp = found->second;
    if (laneOp == LaneOp::Shr && isSigned)
      laneOp = LaneOp::AShr;
    if (laneOp == LaneOp::Mul && has("hi") && bits == 32)
      laneOp = LaneOp::MulHi;
    const int width = bits ? bits : 64;
    return applyLanes(laneOp, in, width, wide ? std::min(64, 2 * width) : width,
                      isSigned, line, mnemonic);
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

void resolveAccess(SharedAccess &access, const std::vector<int64_t> &base,
                   bool uniformBase, const std::vector<int64_t> &offsets,
                   size_t lanes, const layout::BankModel &banks) {
  access.resolved = true;
  access.uniformBaseAssumed = uniformBase;
  access.addresses.clear();
  access.degrees = {};
  lanes = std::min(lanes, base.size());
  for (int64_t offset : offsets) {
    std::vector<layout::LaneAddress> addresses;
    for (size_t l = 0; l < lanes; ++l)
      addresses.push_back({static_cast<int64_t>(l), base[l] + offset});
    const layout::PhaseDegrees degrees =
        layout::conflictDegrees(addresses, access.accessBytes, banks);
    access.degrees.lanesPerPhase = degrees.lanesPerPhase;
    access.degrees.perPhase.insert(access.degrees.perPhase.end(),
                                   degrees.perPhase.begin(),
                                   degrees.perPhase.end());
    access.degrees.worst = std::max(access.degrees.worst, degrees.worst);
    access.addresses.insert(access.addresses.end(), addresses.begin(),
                            addresses.end());
  }
}

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

size_t KernelBanks::firstSubgroupLanes() const {
  const int64_t threads =
      workgroupX > 0 ? workgroupX * workgroupY * workgroupZ : subgroupSize;
  return static_cast<size_t>(
      std::clamp<int64_t>(threads, 1, std::max<int64_t>(subgroupSize, 1)));
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
    std::string line = withoutPtxComments(raw, inBlockComment);
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
    const size_t lanes = kernel.firstSubgroupLanes();
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
          if (base.isLost()) {
            access.why = "its address rests on line " +
                         std::to_string(base.lostAt) + ": " + base.lostWhy;
          } else {
            resolveAccess(
                access, base.value, base.kind == Lanes::Kind::Uniform,
                {address->second},
                shape->lanes > 0
                    ? std::min(lanes, static_cast<size_t>(shape->lanes))
                    : lanes,
                banks);
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
