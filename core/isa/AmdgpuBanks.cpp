// The LDS banks of AMDGPU assembly's ds_* accesses: the first wave's lanes
// run in lockstep from the kernel's entry (v0 holding each lane's work-item
// ids, packed x | y << 10 | z << 20 where the kernel asks for y or z), the
// vector and scalar integer arithmetic LLVM writes for addresses run here,
// and each ds_ access's addresses (and a read2/write2's two) put through
// the bank model.
#include "core/isa/SharedBanks.h"

#include "core/isa/AmdgpuText.h"
#include "core/isa/LaneValues.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <map>
#include <optional>

namespace tilescope::isa {

namespace {

bool startsWith(const std::string &text, const char *prefix) {
  return text.rfind(prefix, 0) == 0;
}

// A ds_ access: its address operand, the bytes a lane moves, and the
// offsets of its one or two accesses.
struct DsShape {
  std::string address;
  int64_t bytes = 0;
  std::vector<int64_t> offsets;
  bool store = false;
};

std::optional<DsShape> dsShapeOf(const AmdgpuStatement &s) {
  const std::string m = amdgpuBaseOf(s.mnemonic);
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
    if (auto number = parseIntegerLiteral(operand))
      return knownLanes(lanes, *number);
    const std::vector<std::string> names = amdgpuRegistersOf(operand);
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
    for (const std::string &name : amdgpuRegistersOf(operand))
      registers[name] = value;
  }

  void run(const AmdgpuStatement &s) {
    if (s.operands.empty())
      return;
    const std::string m = amdgpuBaseOf(s.mnemonic);
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

} // namespace

std::vector<KernelBanks> sharedBanksOfAmdgpu(const std::string &text,
                                             const layout::BankModel &given) {
  std::string arch;
  const std::vector<AmdgpuKernelText> kernels = amdgpuKernelsOf(text, arch);
  return sharedBanksOfAmdgpu(kernels, arch, given);
}

std::vector<KernelBanks>
sharedBanksOfAmdgpu(const std::vector<AmdgpuKernelText> &kernels,
                    const std::string &arch, const layout::BankModel &given) {
  std::vector<KernelBanks> result;
  for (const AmdgpuKernelText &k : kernels) {
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
    const size_t lanes = kernel.firstSubgroupLanes();
    WaveMachine machine(lanes, k.x > 0 ? k.x : banks.subgroupSize, k.y,
                        k.workItemIds > 0);
    for (const AmdgpuStatement &statement : k.statements) {
      const size_t line = statement.line;
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
          // A read2 / write2 is two accesses, its phases one after the
          // other.
          resolveAccess(access, base.value, base.kind == Lanes::Kind::Uniform,
                        shape->offsets, lanes, banks);
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
