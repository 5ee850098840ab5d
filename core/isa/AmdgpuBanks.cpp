// The LDS banks of AMDGPU assembly's ds_* accesses: the first wave's lanes
// run in lockstep from the kernel's entry (v0 holding each lane's work-item
// ids, packed x | y << 10 | z << 20 where the kernel asks for y or z), the
// vector and scalar integer arithmetic LLVM writes for addresses run here,
// and each ds_ access's addresses (and a read2/write2's two) put through
// the bank model.
#include "core/isa/SharedBanks.h"

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

bool startsWith(const std::string &text, const char *prefix) {
  return text.rfind(prefix, 0) == 0;
}

// "v_add_u32_e32" -> "v_add_u32": the encoding suffix dropped.
std::string baseOf(std::string mnemonic) {
  for (const char *suffix : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (mnemonic.size() > std::string(suffix).size() &&
        mnemonic.compare(mnemonic.size() - std::string(suffix).size(),
                         std::string::npos, suffix) == 0)
      return mnemonic.substr(0, mnemonic.size() - std::string(suffix).size());
  return mnemonic;
}

std::optional<int64_t> immediateOf(const std::string &text) {
  std::string digits = text;
  bool negative = false;
  if (!digits.empty() && digits[0] == '-') {
    negative = true;
    digits = digits.substr(1);
  }
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

// The registers an operand names: "v12" -> {v12}; "v[4:7]" -> v4..v7;
// "s[2:3]" -> s2, s3; empty for anything else.
std::vector<std::string> registersOf(const std::string &operand) {
  if (operand.size() < 2 ||
      (operand[0] != 'v' && operand[0] != 's' && operand[0] != 'a'))
    return {};
  const char file = operand[0];
  if (operand[1] == '[') {
    const size_t colon = operand.find(':');
    const size_t close = operand.find(']');
    if (colon == std::string::npos || close == std::string::npos)
      return {};
    auto first = parseInt64(operand.substr(2, colon - 2));
    auto last = parseInt64(operand.substr(colon + 1, close - colon - 1));
    if (!first || !last || *last < *first || *last - *first > 32)
      return {};
    std::vector<std::string> names;
    for (int64_t r = *first; r <= *last; ++r)
      names.push_back(std::string(1, file) + std::to_string(r));
    return names;
  }
  if (!parseInt64(operand.substr(1)))
    return {};
  return {operand};
}

// An AMDGPU statement: its mnemonic, its operands (split at commas) and
// its modifiers ("offset:16", "offset0:4 offset1:8").
struct Statement {
  size_t line = 0;
  std::string mnemonic;
  std::vector<std::string> operands;
  std::map<std::string, int64_t> modifiers;
};

Statement statementOf(const std::string &text, size_t line) {
  Statement s;
  s.line = line;
  const size_t space = text.find_first_of(" \t");
  s.mnemonic = text.substr(0, space);
  if (space == std::string::npos)
    return s;
  std::stringstream in(text.substr(space));
  std::string part;
  while (std::getline(in, part, ',')) {
    std::stringstream words(trim(part));
    std::string word;
    bool first = true;
    while (words >> word) {
      const size_t colon = word.find(':');
      if (!first && colon != std::string::npos && word[0] != 'v' &&
          word[0] != 's') {
        if (auto value = immediateOf(word.substr(colon + 1)))
          s.modifiers[word.substr(0, colon)] = *value;
      } else if (first) {
        s.operands.push_back(word);
      }
      first = false;
    }
  }
  return s;
}

// A ds_ access: its address operand, the bytes a lane moves, and the
// offsets of its one or two accesses.
struct DsShape {
  std::string address;
  int64_t bytes = 0;
  std::vector<int64_t> offsets;
  bool store = false;
};

std::optional<DsShape> dsShapeOf(const Statement &s) {
  const std::string m = baseOf(s.mnemonic);
  if (!startsWith(m, "ds_") || s.operands.empty())
    return std::nullopt;
  // Cross-lane moves through the LDS hardware touch no LDS memory.
  for (const char *lane : {"permute", "swizzle", "bpermute", "addtid", "gws",
                           "append", "consume", "nop", "ordered"})
    if (m.find(lane) != std::string::npos)
      return std::nullopt;
  DsShape shape;
  const bool read = startsWith(m, "ds_read") || startsWith(m, "ds_load");
  const bool write = startsWith(m, "ds_write") || startsWith(m, "ds_store");
  shape.store = !read;
  // ds_read vdst, vaddr; ds_write vaddr, vdata; atomics ds_op vaddr, ...;
  // atomics returning (_rtn_) vdst, vaddr, ...
  const bool returns = read || m.find("_rtn") != std::string::npos;
  if (returns && s.operands.size() < 2)
    return std::nullopt;
  shape.address = returns ? s.operands[1] : s.operands[0];
  static const std::vector<std::pair<const char *, int64_t>> kWidths = {
      {"b128", 16}, {"b96", 12}, {"b64", 8}, {"u64", 8}, {"i64", 8}, {"f64", 8},
      {"b32", 4},   {"u32", 4},  {"i32", 4}, {"f32", 4}, {"b16", 2}, {"u16", 2},
      {"i16", 2},   {"f16", 2},  {"b8", 1},  {"u8", 1},  {"i8", 1}};
  for (const auto &[suffix, bytes] : kWidths)
    if (m.find(suffix) != std::string::npos) {
      shape.bytes = bytes;
      break;
    }
  if (shape.bytes == 0)
    return std::nullopt;
  const bool two = m.find("read2") != std::string::npos ||
                   m.find("write2") != std::string::npos ||
                   m.find("load_2") != std::string::npos ||
                   m.find("store_2") != std::string::npos;
  if (two) {
    // Offsets in elements (times 64 for the st64 forms).
    const int64_t unit =
        shape.bytes * (m.find("st64") != std::string::npos ? 64 : 1);
    auto at = [&](const char *name) {
      auto found = s.modifiers.find(name);
      return found == s.modifiers.end() ? 0 : found->second * unit;
    };
    shape.offsets = {at("offset0"), at("offset1")};
  } else {
    auto found = s.modifiers.find("offset");
    shape.offsets = {found == s.modifiers.end() ? 0 : found->second};
  }
  (void)write;
  return shape;
}

class WaveMachine {
public:
  WaveMachine(size_t lanes, int64_t x, int64_t y, bool packed) : lanes(lanes) {
    // v0: each lane's work-item ids.
    Lanes ids = knownLanes(lanes, 0);
    x = std::max<int64_t>(x, 1);
    y = std::max<int64_t>(y, 1);
    for (size_t l = 0; l < lanes; ++l) {
      const int64_t t = static_cast<int64_t>(l);
      const int64_t tx = t % x, ty = (t / x) % y, tz = t / (x * y);
      ids.value[l] = packed ? tx | (ty << 10) | (tz << 20) : tx;
    }
    registers["v0"] = ids;
  }

  Lanes read(const std::string &operand, size_t line) const {
    if (auto number = immediateOf(operand))
      return knownLanes(lanes, *number);
    const std::vector<std::string> names = registersOf(operand);
    if (names.size() == 1) {
      auto found = registers.find(names.front());
      if (found != registers.end())
        return found->second;
      // A scalar register the reader never saw set: the kernel's
      // arguments and ids, the same in every lane.
      if (operand[0] == 's')
        return uniformLanes(lanes);
      return lostLanes(line, operand + " is read before this reader saw it "
                                       "set");
    }
    // A scalar pair or m0: the same in every lane.
    if ((names.size() > 1 && operand[0] == 's') || operand == "m0" ||
        operand == "vcc_lo" || operand == "vcc_hi")
      return uniformLanes(lanes);
    return lostLanes(line, "'" + operand + "' is not read here");
  }

  void write(const std::string &operand, const Lanes &value) {
    for (const std::string &name : registersOf(operand))
      registers[name] = value;
  }

  void run(const Statement &s) {
    if (s.operands.empty())
      return;
    const std::string m = baseOf(s.mnemonic);
    if (startsWith(m, "ds_") || startsWith(m, "global_load") ||
        startsWith(m, "buffer_load") || startsWith(m, "flat_load") ||
        startsWith(m, "scratch_load") || startsWith(m, "v_mfma") ||
        startsWith(m, "v_smfmac") || startsWith(m, "v_wmma") ||
        startsWith(m, "v_readlane") || startsWith(m, "v_cndmask") ||
        startsWith(m, "v_perm") || startsWith(m, "v_accvgpr") ||
        startsWith(m, "v_cvt") || startsWith(m, "v_cmp") ||
        startsWith(m, "v_fma") || startsWith(m, "v_pk_")) {
      if (!startsWith(m, "ds_") || m.find("read") != std::string::npos ||
          m.find("load") != std::string::npos ||
          m.find("_rtn") != std::string::npos)
        if (!startsWith(m, "v_cmp")) // writes vcc or an SGPR pair
          write(s.operands[0], lostLanes(s.line, "written by " + s.mnemonic));
      return;
    }
    if (startsWith(m, "s_load") || startsWith(m, "s_buffer_load")) {
      write(s.operands[0], uniformLanes(lanes));
      return;
    }
    if (m == "v_readfirstlane_b32" && s.operands.size() == 2) {
      Lanes v = read(s.operands[1], s.line);
      if (v.isKnown())
        v = knownLanes(lanes, v.value.front());
      else if (!v.isLost())
        v = uniformLanes(lanes);
      write(s.operands[0], v);
      return;
    }
    if (!startsWith(m, "v_") && !startsWith(m, "s_"))
      return;
    const bool scalar = startsWith(m, "s_");
    auto op = operationOf(m);
    if (!op) {
      // Anything else writes its first operand with what this reader does
      // not compute (branches, waits and barriers write nothing).
      if (m.find("branch") == std::string::npos &&
          m.find("waitcnt") == std::string::npos && m != "s_barrier" &&
          m != "s_endpgm" && m != "s_nop" && !startsWith(m, "s_setprio") &&
          !startsWith(m, "s_cmp") && !startsWith(m, "s_sleep") &&
          !startsWith(m, "s_store") && !startsWith(m, "s_dcache"))
        write(s.operands[0],
              lostLanes(s.line, s.mnemonic + " is not run by this reader"));
      return;
    }
    // Sources: after the destination, and after a carry-out (vcc or an
    // SGPR pair) where the op writes one.
    size_t first = 1;
    if ((m.find("_co_") != std::string::npos ||
         m.find("addc") != std::string::npos ||
         m.find("subb") != std::string::npos) &&
        s.operands.size() > 1 &&
        (s.operands[1] == "vcc" || startsWith(s.operands[1], "s[")))
      first = 2;
    std::vector<Lanes> in;
    for (size_t i = first; i < s.operands.size(); ++i)
      in.push_back(read(s.operands[i], s.line));
    if (op->reversed && in.size() == 2)
      std::swap(in[0], in[1]);
    if (op->move) {
      if (in.size() != 1) {
        write(s.operands[0], lostLanes(s.line, s.mnemonic + " not read"));
        return;
      }
      write(s.operands[0], in[0]);
      return;
    }
    if (op->mask24)
      for (Lanes &v : in)
        if (v.isKnown())
          for (int64_t &x : v.value)
            x &= 0xffffff;
    Lanes result = applyLanes(op->op, in, op->bits, op->bits, op->isSigned,
                              s.line, s.mnemonic);
    if (scalar && result.isKnown() && !result.sameInEveryLane())
      result = lostLanes(s.line, s.mnemonic + " gave lanes different values");
    write(s.operands[0], result);
  }

private:
  struct Operation {
    LaneOp op = LaneOp::Add;
    int bits = 32;
    bool isSigned = false;
    bool reversed = false; // v_lshlrev: the shift amount first
    bool mask24 = false;   // the _u24 forms read 24 bits
    bool move = false;
  };

  static std::optional<Operation> operationOf(const std::string &m) {
    static const std::map<std::string, Operation> kOps = {
        {"v_mov_b32", {LaneOp::Add, 32, false, false, false, true}},
        {"s_mov_b32", {LaneOp::Add, 32, false, false, false, true}},
        {"s_movk_i32", {LaneOp::Add, 32, false, false, false, true}},
        {"s_mov_b64", {LaneOp::Add, 64, false, false, false, true}},
        {"v_add_u32", {LaneOp::Add}},
        {"v_add_co_u32", {LaneOp::Add}},
        {"v_add_nc_u32", {LaneOp::Add}},
        {"v_add_i32", {LaneOp::Add}},
        {"s_add_u32", {LaneOp::Add}},
        {"s_add_i32", {LaneOp::Add}},
        {"v_sub_u32", {LaneOp::Sub}},
        {"v_sub_co_u32", {LaneOp::Sub}},
        {"v_sub_nc_u32", {LaneOp::Sub}},
        {"s_sub_u32", {LaneOp::Sub}},
        {"s_sub_i32", {LaneOp::Sub}},
        {"v_subrev_u32", {LaneOp::Sub, 32, false, true}},
        {"v_subrev_co_u32", {LaneOp::Sub, 32, false, true}},
        {"v_mul_lo_u32", {LaneOp::Mul}},
        {"s_mul_i32", {LaneOp::Mul}},
        {"v_mul_u32_u24", {LaneOp::Mul, 32, false, false, true}},
        {"v_mul_hi_u32", {LaneOp::MulHi}},
        {"v_mad_u32_u24", {LaneOp::Mad, 32, false, false, true}},
        {"v_lshlrev_b32", {LaneOp::Shl, 32, false, true}},
        {"s_lshl_b32", {LaneOp::Shl}},
        {"v_lshrrev_b32", {LaneOp::Shr, 32, false, true}},
        {"s_lshr_b32", {LaneOp::Shr}},
        {"v_ashrrev_i32", {LaneOp::AShr, 32, true, true}},
        {"s_ashr_i32", {LaneOp::AShr, 32, true}},
        {"v_and_b32", {LaneOp::And}},
        {"s_and_b32", {LaneOp::And}},
        {"v_or_b32", {LaneOp::Or}},
        {"s_or_b32", {LaneOp::Or}},
        {"v_xor_b32", {LaneOp::Xor}},
        {"s_xor_b32", {LaneOp::Xor}},
        {"v_not_b32", {LaneOp::Not}},
        {"s_not_b32", {LaneOp::Not}},
        {"v_min_u32", {LaneOp::Min}},
        {"v_max_u32", {LaneOp::Max}},
        {"v_min_i32", {LaneOp::Min, 32, true}},
        {"v_max_i32", {LaneOp::Max, 32, true}},
        {"v_lshl_or_b32", {LaneOp::LshlOr}},
        {"v_lshl_add_u32", {LaneOp::LshlAdd}},
        {"s_lshl_add_u32", {LaneOp::LshlAdd}},
        {"v_add_lshl_u32", {LaneOp::AddLshl}},
        {"v_and_or_b32", {LaneOp::AndOr}},
        {"v_or3_b32", {LaneOp::Or3}},
        {"v_add3_u32", {LaneOp::Add3}},
        {"v_bfe_u32", {LaneOp::Bfe}},
        {"s_bfe_u32", {LaneOp::Bfe}},
        {"v_bfi_b32", {LaneOp::Bfi}},
        {"v_xad_u32", {LaneOp::Xad}},
    };
    auto found = kOps.find(m);
    if (found == kOps.end())
      return std::nullopt;
    return found->second;
  }

  size_t lanes;
  std::map<std::string, Lanes> registers;
};

// A kernel's text in AMDGPU assembly, its statements with their lines, and
// what its descriptor and metadata say of its lanes.
struct KernelText {
  std::string name;
  std::vector<std::pair<size_t, std::string>> statements;
  int64_t x = 0, y = 1, z = 1;
  int64_t waveSize = 0;
  int workItemIds = 0; // .amdhsa_system_vgpr_workitem_id
};

std::vector<KernelText> kernelsOf(const std::string &text, std::string &arch) {
  std::vector<KernelText> kernels;
  std::vector<std::string> functions;
  std::istringstream in(text);
  std::string raw;
  size_t number = 0;
  KernelText *current = nullptr;
  KernelText *described = nullptr; // by .amdhsa_kernel or .name
  std::string pendingList;         // a metadata list being read
  std::vector<int64_t> listed;
  while (std::getline(in, raw)) {
    ++number;
    std::string line = trim(raw.substr(0, raw.find(';')));
    if (line.empty())
      continue;
    if (startsWith(line, "- .")) // a metadata list's first key
      line = line.substr(2);
    auto named = [&](const std::string &name) -> KernelText * {
      for (KernelText &k : kernels)
        if (k.name == name)
          return &k;
      return nullptr;
    };
    if (startsWith(line, ".amdgcn_target")) {
      const size_t gfx = line.find("gfx");
      if (gfx != std::string::npos)
        arch = line.substr(gfx, line.find_first_of("\":", gfx) - gfx);
      continue;
    }
    if (startsWith(line, ".type") &&
        line.find("@function") != std::string::npos) {
      std::string name = trim(line.substr(5));
      functions.push_back(name.substr(0, name.find(',')));
      continue;
    }
    // Metadata keys end in a colon too: not labels.
    if (startsWith(line, ".reqd_workgroup_size:")) {
      pendingList = "reqd";
      listed.clear();
      continue;
    }
    if (line.back() == ':' && line.find(' ') == std::string::npos) {
      const std::string label = line.substr(0, line.size() - 1);
      if (std::find(functions.begin(), functions.end(), label) !=
          functions.end()) {
        kernels.emplace_back();
        kernels.back().name = label;
        current = &kernels.back();
      } else if (startsWith(label, ".Lfunc_end")) {
        current = nullptr;
      }
      continue;
    }
    if (startsWith(line, ".amdhsa_kernel")) {
      described = named(trim(line.substr(14)));
      continue;
    }
    if (startsWith(line, ".amdhsa_system_vgpr_workitem_id") && described) {
      if (auto n = parseInt64(trim(line.substr(31))))
        described->workItemIds = static_cast<int>(*n);
      continue;
    }
    if (startsWith(line, ".name:")) {
      described = named(trim(line.substr(6)));
      continue;
    }
    if (startsWith(line, ".wavefront_size:") && described) {
      if (auto n = parseInt64(trim(line.substr(16))))
        described->waveSize = *n;
      continue;
    }
    if (!pendingList.empty() && startsWith(line, "- ")) {
      if (auto n = parseInt64(trim(line.substr(2))))
        listed.push_back(*n);
      if (listed.size() == 3 && described) {
        described->x = listed[0];
        described->y = listed[1];
        described->z = listed[2];
        pendingList.clear();
      }
      continue;
    }
    pendingList.clear();
    if (current && line[0] != '.')
      current->statements.emplace_back(number, line);
  }
  return kernels;
}

} // namespace

std::vector<KernelBanks> sharedBanksOfAmdgpu(const std::string &text,
                                             const layout::BankModel &given) {
  std::string arch;
  std::vector<KernelText> kernels = kernelsOf(text, arch);
  std::vector<KernelBanks> result;
  for (const KernelText &k : kernels) {
    layout::BankModel banks =
        arch.empty() ? given : layout::BankModel::forArch(arch);
    if (k.waveSize > 0)
      banks.subgroupSize = k.waveSize;
    KernelBanks kernel;
    kernel.kernel = k.name;
    kernel.subgroupSize = banks.subgroupSize;
    kernel.workgroupX = k.x;
    kernel.workgroupY = k.y;
    kernel.workgroupZ = k.z;
    const int64_t threads = k.x > 0 ? k.x * k.y * k.z : banks.subgroupSize;
    const size_t lanes = static_cast<size_t>(
        std::clamp<int64_t>(threads, 1, banks.subgroupSize));
    WaveMachine machine(lanes, k.x > 0 ? k.x : banks.subgroupSize, k.y,
                        k.workItemIds > 0);
    for (const auto &[line, statementText] : k.statements) {
      const Statement statement = statementOf(statementText, line);
      if (auto shape = dsShapeOf(statement)) {
        SharedAccess access;
        access.line = line;
        access.mnemonic = statement.mnemonic;
        access.store = shape->store;
        access.accessBytes = shape->bytes;
        const Lanes base = machine.read(shape->address, line);
        if (base.isLost()) {
          access.why = "its address rests on line " +
                       std::to_string(base.lostAt) + ": " + base.lostWhy;
        } else {
          access.resolved = true;
          access.uniformBaseAssumed = base.kind == Lanes::Kind::Uniform;
          // A read2 / write2 is two accesses; its degrees are each's
          // phases in turn.
          access.degrees.worst = 0;
          access.degrees.perPhase.clear();
          for (int64_t offset : shape->offsets) {
            std::vector<layout::LaneAddress> addresses;
            for (size_t l = 0; l < lanes; ++l)
              addresses.push_back(
                  {static_cast<int64_t>(l), base.value[l] + offset});
            const layout::PhaseDegrees degrees =
                layout::conflictDegrees(addresses, shape->bytes, banks);
            access.degrees.lanesPerPhase = degrees.lanesPerPhase;
            access.degrees.perPhase.insert(access.degrees.perPhase.end(),
                                           degrees.perPhase.begin(),
                                           degrees.perPhase.end());
            access.degrees.worst =
                std::max(access.degrees.worst, degrees.worst);
            access.addresses.insert(access.addresses.end(), addresses.begin(),
                                    addresses.end());
          }
        }
        kernel.accesses.push_back(std::move(access));
      }
      machine.run(statement);
    }
    result.push_back(std::move(kernel));
  }
  return result;
}

} // namespace tilescope::isa
