#include "core/isa/PtxText.h"

#include "core/isa/Assembly.h"
#include "core/isa/Workgroup.h"
#include "core/util/Numbers.h"
#include "core/util/Text.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace tilescope::isa {

namespace {

std::string trim(std::string_view text) { return std::string(trimmed(text)); }

// The bits of an integer PTX type suffix the lanes compute in: "u32" 32,
// "s64" 64; 0 for any other ("bf16", "u16x2", "f32", "b128").
int typeBits(const std::string &part) {
  const int bits = ptxTypeBits(part);
  return part.size() >= 2 &&
                 std::string_view("usb").find(part[0]) !=
                     std::string_view::npos &&
                 std::isdigit(static_cast<unsigned char>(part[1])) &&
                 part.find('x') == std::string::npos && bits <= 64
             ? bits
             : 0;
}

std::optional<int64_t> immediate(const std::string &text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'd'))
    return std::nullopt; // a float's bits
  return parseIntegerLiteral(text);
}

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

std::vector<std::string> ptxPartsOf(const std::string &mnemonic) {
  std::vector<std::string> parts;
  std::stringstream in(mnemonic);
  std::string part;
  while (std::getline(in, part, '.'))
    parts.push_back(part);
  return parts;
}

std::vector<std::string> ptxOperandsOf(const std::string &text) {
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

// "[%rd1+16904]" -> ("%rd1", 16904).
std::optional<std::pair<std::string, int64_t>>
ptxAddressOf(const std::string &operand) {
  if (operand.size() < 3 || operand.front() != '[' || operand.back() != ']')
    return std::nullopt;
  std::string inside = trim(operand.substr(1, operand.size() - 2));
  int64_t offset = 0;
  const size_t plus = inside.find('+', 1);
  if (plus != std::string::npos) {
    // PTX's address offsets are 32-bit.
    auto parsed = parseInt64(trim(inside.substr(plus + 1)));
    if (!parsed || *parsed < INT32_MIN || *parsed > INT32_MAX)
      return std::nullopt;
    offset = *parsed;
    inside = trim(inside.substr(0, plus));
  }
  return std::pair{inside, offset};
}

int ptxTypeBits(std::string_view type) {
  int pairs = 1; // a packed pair: f16x2, bf16x2, e4m3x2
  if (type.size() > 2 && type.ends_with("x2")) {
    pairs = 2;
    type.remove_suffix(2);
  }
  if (type == "bf16")
    return pairs * 16;
  if (type == "tf32")
    return pairs * 32;
  if (type == "e4m3" || type == "e5m2")
    return pairs * 8;
  if (type.size() < 2 ||
      std::string_view("bsuf").find(type[0]) == std::string_view::npos ||
      type[1] == '0')
    return 0;
  const auto bits = parseInt64(type.substr(1));
  return bits && (*bits == 8 || *bits == 16 || *bits == 32 || *bits == 64 ||
                  *bits == 128)
             ? pairs * static_cast<int>(*bits)
             : 0;
}

namespace {

// copiedBytesOf, its mnemonic's parts split once by its caller.
std::optional<int64_t> copiedBytes(const PtxStatement &statement,
                                   const std::vector<std::string> &parts,
                                   bool bulk) {
  if (parts.size() < 2 || parts[0] != "cp" || parts[1] != "async" ||
      statement.operands.size() < 3)
    return std::nullopt;
  if (bulk && std::find(parts.begin(), parts.end(), "tensor") != parts.end())
    return std::nullopt;
  const auto bytes = parseInt64(statement.operands[2]);
  if (!bytes || (bulk ? *bytes <= 0 || *bytes >= (int64_t(1) << 24)
                      : *bytes != 4 && *bytes != 8 && *bytes != 16))
    return std::nullopt;
  return bytes;
}

bool isBulk(const std::vector<std::string> &parts) {
  return std::find(parts.begin(), parts.end(), "bulk") != parts.end();
}

} // namespace

std::optional<int64_t> copiedBytesOf(const PtxStatement &statement) {
  const std::vector<std::string> parts = ptxPartsOf(statement.mnemonic);
  return copiedBytes(statement, parts, isBulk(parts));
}

std::optional<int64_t> asyncCopyBytesOf(const PtxStatement &statement) {
  const std::vector<std::string> parts = ptxPartsOf(statement.mnemonic);
  if (isBulk(parts))
    return std::nullopt;
  return copiedBytes(statement, parts, false);
}

std::optional<PtxStatement> ptxStatementOf(std::string text, size_t line) {
  text = trim(text);
  if (text.empty() || text[0] == '.' || text.back() == ':' || text == "{" ||
      text == "}")
    return std::nullopt;
  const std::string written = text;
  if (text[0] == '@') {
    const size_t space = text.find_first_of(" \t");
    if (space == std::string::npos)
      return std::nullopt;
    text = trim(text.substr(space));
  }
  const size_t space = text.find_first_of(" \t");
  PtxStatement statement;
  statement.line = line;
  statement.text = written;
  statement.mnemonic = text.substr(0, space);
  if (space != std::string::npos)
    statement.operands = ptxOperandsOf(text.substr(space));
  return statement;
}

PtxText ptxTextOf(const std::string &text) {
  // Shared variables: static ones in declaration order, each at its
  // alignment; dynamic shared memory after them.
  std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> declared;
  std::vector<PtxEntryText> entries;
  std::istringstream in(text);
  std::string raw;
  size_t number = 0;
  int depth = 0;
  PtxEntryText *entry = nullptr;
  std::vector<bool> bodied; // per entry: a body followed its header
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
    // ".visible .entry name(", ".func (.param .b32 r) name(".
    static const std::regex kEntry(
        R"(\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+))");
    std::smatch named;
    if (depth == 0 && std::regex_search(line, named, kEntry)) {
      entries.emplace_back();
      entry = &entries.back();
      entry->name = named[2].str();
      inEntryHeader = true;
      bodied.push_back(false);
    }
    if (auto shared = sharedDeclaration(line))
      declared.push_back(*shared);
    if (inEntryHeader &&
        (line.rfind(".reqntid", 0) == 0 || line.rfind(".maxntid", 0) == 0)) {
      const std::vector<std::string> dims = ptxOperandsOf(line.substr(8));
      auto dim = [&](size_t i) {
        auto v = i < dims.size() ? parseInt64(dims[i]) : std::nullopt;
        return v && *v > 0 ? *v : int64_t{1};
      };
      // Beyond what a GPU runs it is not taken (ptxas ignores it too).
      if (isRunnableWorkgroup(dim(0), dim(1), dim(2))) {
        entry->x = dim(0);
        entry->y = dim(1);
        entry->z = dim(2);
      }
    }
    for (char c : line) {
      if (c == '{') {
        if (depth == 0 && inEntryHeader)
          bodied.back() = true;
        if (depth == 0)
          inEntryHeader = false;
        ++depth;
      } else if (c == '}') {
        --depth;
      }
    }
    if (!entry || depth == 0 || line == "{")
      continue;
    // A label, alone or before the statement it names.
    static const std::regex kLabel(R"(^([$.A-Za-z_][\w$.]*):\s*)");
    std::smatch label;
    if (pending.empty() && std::regex_search(line, label, kLabel)) {
      entry->labels[label[1].str()] = entry->statements.size();
      line = trim(line.substr(label[0].length()));
      if (line.empty())
        continue;
    }
    // A statement ends at ';' (an MMA's operand lists may span lines);
    // it keeps the line it starts on.
    if (pending.empty())
      pendingLine = number;
    pending += (pending.empty() ? "" : " ") + line;
    size_t semicolon;
    while ((semicolon = pending.find(';')) != std::string::npos) {
      if (auto statement =
              ptxStatementOf(pending.substr(0, semicolon), pendingLine)) {
        statement->lastLine = number;
        entry->statements.push_back(std::move(*statement));
      }
      pending = trim(pending.substr(semicolon + 1));
      pendingLine = number;
    }
  }
  std::map<std::string, int64_t> symbols;
  int64_t next = 0;
  for (const auto &[name, shape] : declared)
    if (shape.first >= 0) {
      next = (next + shape.second - 1) / shape.second * shape.second;
      symbols[name] = next;
      next += shape.first;
    }
  for (const auto &[name, shape] : declared)
    if (shape.first < 0)
      symbols[name] = (next + 15) / 16 * 16;

  PtxText result;
  for (size_t i = 0; i < entries.size(); ++i)
    if (bodied[i]) // a prototype declares, a body defines
      result.entries.push_back(std::move(entries[i]));
  result.sharedOffsets = std::move(symbols);
  return result;
}

int64_t PtxEntryText::threads(int64_t subgroupSize) const {
  return x > 0 ? x * std::max<int64_t>(y, 1) * std::max<int64_t>(z, 1)
               : subgroupSize;
}

PtxLanes::Shape PtxLanes::firstWorkgroupOf(const PtxEntryText &entry,
                                           int64_t subgroupSize) {
  return {static_cast<size_t>(entry.threads(subgroupSize)),
          entry.x > 0 ? entry.x : subgroupSize, entry.y, subgroupSize,
          /*firstWorkgroup=*/true};
}

PtxLanes::PtxLanes(Shape shape, const std::map<std::string, int64_t> &shared)
    : shape(shape), shared(shared) {
  this->shape.x = std::max<int64_t>(shape.x, 1);
  this->shape.y = std::max<int64_t>(shape.y, 1);
  this->shape.subgroupSize = std::max<int64_t>(shape.subgroupSize, 1);
}

Lanes PtxLanes::read(const std::string &operand, size_t line) const {
  const size_t lanes = shape.lanes;
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
    return knownLanes(lanes, symbol->second);
  // A global symbol or a kernel parameter: one value for every lane.
  return uniformLanes(lanes);
}

void PtxLanes::write(const std::string &destination, Lanes value) {
  if (destination.empty())
    return;
  if (destination[0] == '{') { // a vector of loaded registers
    for (const std::string &one :
         ptxOperandsOf(destination.substr(1, destination.size() - 2)))
      registers[one] =
          value.isKnown() ? value : lostLanes(value.lostAt, value.lostWhy);
    return;
  }
  registers[destination] = std::move(value);
}

void PtxLanes::run(const PtxStatement &statement) {
  const std::vector<std::string> &ops = statement.operands;
  const std::string &mnemonic = statement.mnemonic;
  const size_t line = statement.line;
  if (ops.empty())
    return;
  const std::vector<std::string> parts = ptxPartsOf(mnemonic);
  const std::string &op = parts.front();
  if (op == "st" || op == "bar" || op == "bra" || op == "ret" ||
      op == "barrier" || op == "stmatrix" || op == "cp" || op == "mma" ||
      op == "wgmma" || op == "fence" || op == "membar" || op == "red" ||
      op == "prefetch" || op == "exit" || op == "trap" || op == "call")
    return; // no register it writes is an address part
  if (op == "ld" || op == "ldmatrix" || op == "ldu" || op == "atom" ||
      op == "shfl" || op == "vote" || op == "tex") {
    const bool param = parts.size() > 1 && parts[1] == "param";
    write(ops[0], param ? uniformLanes(shape.lanes)
                        : lostLanes(line, "loaded from memory by " + mnemonic));
    return;
  }
  write(ops[0], evaluate(parts, ops, line));
}

std::optional<Lanes> PtxLanes::specialRegister(const std::string &name) const {
  const int64_t x = shape.x, y = shape.y, sub = shape.subgroupSize;
  auto laneValues = [&](auto of) {
    Lanes v = knownLanes(shape.lanes, 0);
    for (size_t l = 0; l < shape.lanes; ++l)
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
    return laneValues([&](int64_t l) { return l % sub; });
  if (name == "%warpid")
    return laneValues([&](int64_t l) { return l / sub; });
  if (shape.firstWorkgroup &&
      (name.rfind("%ctaid", 0) == 0 || name.rfind("%cluster_ctaid", 0) == 0))
    return knownLanes(shape.lanes, 0);
  if (name.rfind("%ctaid", 0) == 0 || name.rfind("%nctaid", 0) == 0 ||
      name.rfind("%ntid", 0) == 0 || name.rfind("%clusterid", 0) == 0 ||
      name.rfind("%cluster_ctaid", 0) == 0)
    return uniformLanes(shape.lanes);
  return std::nullopt;
}

Lanes PtxLanes::evaluate(const std::vector<std::string> &parts,
                         const std::vector<std::string> &ops,
                         size_t line) const {
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

} // namespace tilescope::isa
