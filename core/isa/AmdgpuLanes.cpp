#include "core/isa/AmdgpuLanes.h"

#include "core/util/Numbers.h"

#include <algorithm>
#include <optional>

namespace tilescope::isa {

namespace {

struct Operation {
  LaneOp op = LaneOp::Add;
  int bits = 32;
  bool isSigned = false;
  bool reversed = false; // v_lshlrev: the shift amount first
  bool mask24 = false;   // the _u24 forms read 24 bits
  bool move = false;
};

std::optional<Operation> operationOf(const std::string &m) {
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

} // namespace

AmdgpuLanes::AmdgpuLanes(const Shape &shape) : lanes(shape.lanes) {
  // v0: each lane's work-item ids.
  Lanes ids = knownLanes(lanes, 0);
  const int64_t x = std::max<int64_t>(shape.x, 1);
  const int64_t y = std::max<int64_t>(shape.y, 1);
  for (size_t l = 0; l < lanes; ++l) {
    const int64_t t = static_cast<int64_t>(l);
    const int64_t tx = t % x, ty = (t / x) % y, tz = t / (x * y);
    ids.value[l] = shape.packedIds ? tx | (ty << 10) | (tz << 20) : tx;
  }
  registers["v0"] = ids;
  for (const std::string &name : shape.zeroRegisters)
    registers[name] = knownLanes(lanes, 0);
}

Lanes AmdgpuLanes::read(const std::string &operand, size_t line) const {
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

void AmdgpuLanes::write(const std::string &operand, const Lanes &value) {
  for (const std::string &name : amdgpuRegistersOf(operand))
    registers[name] = value;
}

void AmdgpuLanes::run(const AmdgpuStatement &s) {
  if (s.operands.empty())
    return;
  const std::string m = amdgpuBaseOf(s.mnemonic);
  if (m.starts_with("ds_") || m.starts_with("global_load") ||
      m.starts_with("buffer_load") || m.starts_with("flat_load") ||
      m.starts_with("scratch_load") || m.starts_with("v_mfma") ||
      m.starts_with("v_smfmac") || m.starts_with("v_wmma") ||
      m.starts_with("v_readlane") || m.starts_with("v_cndmask") ||
      m.starts_with("v_perm") || m.starts_with("v_accvgpr") ||
      m.starts_with("v_cvt") || m.starts_with("v_cmp") ||
      m.starts_with("v_fma") || m.starts_with("v_pk_")) {
    if (!m.starts_with("ds_") || m.find("read") != std::string::npos ||
        m.find("load") != std::string::npos ||
        m.find("_rtn") != std::string::npos)
      if (!m.starts_with("v_cmp")) // writes vcc or an SGPR pair
        write(s.operands[0], lostLanes(s.line, "written by " + s.mnemonic));
    return;
  }
  if (m.starts_with("s_load") || m.starts_with("s_buffer_load")) {
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
  if (!m.starts_with("v_") && !m.starts_with("s_"))
    return;
  const bool scalar = m.starts_with("s_");
  auto op = operationOf(m);
  if (!op) {
    // Anything else writes its first operand with what this reader does
    // not compute (branches, waits and barriers write nothing).
    if (m.find("branch") == std::string::npos &&
        m.find("waitcnt") == std::string::npos && m != "s_barrier" &&
        m != "s_endpgm" && m != "s_nop" && !m.starts_with("s_setprio") &&
        !m.starts_with("s_cmp") && !m.starts_with("s_sleep") &&
        !m.starts_with("s_store") && !m.starts_with("s_dcache"))
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
      (s.operands[1] == "vcc" || s.operands[1].starts_with("s[")))
    first = 2;
  std::vector<Lanes> in;
  for (size_t i = first; i < s.operands.size(); ++i)
    in.push_back(read(s.operands[i], s.line));
  // The scalar s_bfe packs its field's offset (bits 0-4) and width (bits
  // 16-22) into one operand.
  if (op->op == LaneOp::Bfe && scalar && in.size() == 2 && in[1].isConstant()) {
    const int64_t packed = in[1].value.front();
    in = {in[0], knownLanes(lanes, packed & 0x1f),
          knownLanes(lanes, (packed >> 16) & 0x7f)};
  }
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

AmdgpuLanes::Shape AmdgpuLanes::firstWorkgroupOf(const AmdgpuKernelText &k) {
  return {static_cast<size_t>(k.threads()), k.x > 0 ? k.x : k.subgroupSize(),
          k.y, k.workItemIds > 0, k.workgroupIdRegisters()};
}

Lanes amdgpuGlobalAddress(const AmdgpuStatement &s, const AmdgpuLanes &lanes,
                          size_t threads) {
  const std::string m = amdgpuBaseOf(s.mnemonic);
  const std::vector<std::string> &ops = s.operands;
  Lanes address = lostLanes(s.line, "its address is not read here");
  if (m.starts_with("buffer_")) {
    if (s.flags.count("idxen"))
      return lostLanes(s.line, "an indexed buffer access is not followed");
    address = uniformLanes(threads); // the resource's base
    if (s.flags.count("offen") && ops.size() > 1)
      address = addedAddress(address, lanes.read(ops[1], s.line), s.line);
    if (ops.size() > 3)
      address = addedAddress(address, lanes.read(ops[3], s.line), s.line);
  } else if (ops.size() > 2) {
    // global_load vdst, vaddr, saddr; global_store vaddr, vdata, saddr.
    const bool load = m.find("_load") != std::string::npos;
    const auto vaddr = amdgpuRegistersOf(ops[load ? 1 : 0]);
    if (vaddr.empty())
      return address;
    // A 64-bit address (its low half: the lanes' offsets), or a 32-bit
    // offset from a scalar base.
    address = lanes.read(vaddr.front(), s.line);
    if (ops[2] != "off")
      address = addedAddress(address, uniformLanes(threads), s.line);
  }
  if (auto offset = s.modifiers.find("offset"); offset != s.modifiers.end())
    address =
        addedAddress(address, knownLanes(threads, offset->second), s.line);
  return address;
}

} // namespace tilescope::isa
