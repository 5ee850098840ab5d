// The operand follower (OperandFlow) for AMDGPU assembly: buffer and
// global loads, ds_write and ds_read (their read2/write2 and 16-bit
// halves), v_mov, v_pack_b32_f16 and v_perm_b32, and the MFMA's A and B
// VGPRs. A kernel argument's binding is its pointer's place in the kernarg
// segment (IREE puts the bindings' 64-bit pointers first, in order).
#include "core/isa/OperandFlow.h"

#include "core/isa/AmdgpuLanes.h"
#include "core/isa/OperandContents.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <optional>
#include <set>

namespace tilescope::isa {

namespace {

// "dwordx4" 16, "dwordx2" 8, "dword" 4; 0 for the sub-dword loads.
int64_t dwordBytes(const std::string &m) {
  for (const auto &[suffix, bytes] :
       std::vector<std::pair<const char *, int64_t>>{{"dwordx4", 16},
                                                     {"dwordx3", 12},
                                                     {"dwordx2", 8},
                                                     {"dword", 4},
                                                     {"b128", 16},
                                                     {"b96", 12},
                                                     {"b64", 8},
                                                     {"b32", 4}})
    if (m.ends_with(suffix))
      return bytes;
  return 0;
}

// v_mfma_f32_16x16x16_f16 -> 2, ..._bf16_1k -> 2, ..._i8 -> 1,
// ..._xf32 -> 4, ..._fp8_fp8 -> 1.
int64_t mfmaElementBytes(const std::string &m) {
  std::string rest = m;
  if (rest.ends_with("_1k"))
    rest.resize(rest.size() - 3);
  const std::string last = rest.substr(rest.rfind('_') + 1);
  if (last == "f16" || last == "bf16")
    return 2;
  if (last == "i8" || last == "fp8" || last == "bf8")
    return 1;
  if (last == "f32" || last == "xf32")
    return 4;
  if (last == "f64")
    return 8;
  return 0;
}

class AmdgpuFollower {
public:
  AmdgpuFollower(KernelOperands &kernel, const AmdgpuLanes &lanes)
      : kernel(kernel), lanes(lanes),
        contents(static_cast<size_t>(kernel.threads)) {}

  void run(const AmdgpuStatement &s);

private:
  std::set<int> bindingsOf(const std::vector<std::string> &regs) const {
    std::set<int> out;
    for (const std::string &r : regs)
      for (int b : contents.bindingsOf(r))
        out.insert(b);
    return out;
  }
  void scalarLoad(const AmdgpuStatement &s);
  void globalLoad(const AmdgpuStatement &s, int64_t bytes);
  void dsAccess(const AmdgpuStatement &s, const DsShape &shape);
  bool repack(const AmdgpuStatement &s, const std::string &m);
  void mfma(const AmdgpuStatement &s, const std::string &m);
  void forgetDestination(const AmdgpuStatement &s, const std::string &m);
  // Each thread's bytes of `regs`, 4 a register, in order.
  std::vector<Bytes> heldBy(const std::vector<std::string> &regs) const {
    return contents.gather(regs, 4);
  }
  // `bytes[thread]` written into `regs`, 4 bytes a register, from byte
  // `from` of each register on (a d16 half: 2), keeping the register's
  // other bytes or not.
  void put(const std::vector<std::string> &regs,
           const std::vector<Bytes> &bytes, const AmdgpuStatement &s,
           int64_t from = 0, bool keep = false) {
    for (size_t r = 0; r < regs.size(); ++r) {
      std::vector<Bytes> old(contents.threads());
      for (size_t t = 0; t < old.size(); ++t)
        old[t] = contents.read(regs[r], t, 4);
      contents.forget(regs[r], s.line, s.mnemonic);
      for (size_t t = 0; t < bytes.size(); ++t) {
        Bytes reg = keep ? old[t] : Bytes(4);
        for (int64_t b = from; b < 4; ++b) {
          const size_t at = 4 * r + static_cast<size_t>(b - from);
          if (at < bytes[t].size())
            reg[static_cast<size_t>(b)] = bytes[t][at];
        }
        contents.write(regs[r], t, reg);
      }
    }
  }

  KernelOperands &kernel;
  const AmdgpuLanes &lanes;
  Contents contents;
  std::set<std::string> written; // the SGPRs some statement set
};

void AmdgpuFollower::run(const AmdgpuStatement &s) {
  const std::string m = amdgpuBaseOf(s.mnemonic);
  if (s.operands.empty())
    return;
  if (m.starts_with("s_load_") || m.starts_with("s_buffer_load_"))
    return scalarLoad(s);
  if ((m.starts_with("buffer_load_") || m.starts_with("global_load_")) &&
      m.find("lds") == std::string::npos) {
    if (const int64_t bytes = dwordBytes(m); bytes > 0)
      return globalLoad(s, bytes);
  }
  if (auto shape = dsShapeOf(s))
    return dsAccess(s, *shape);
  if (m.starts_with("v_mfma") || m.starts_with("v_smfmac") ||
      m.starts_with("v_wmma"))
    return mfma(s, m);
  if (repack(s, m))
    return;
  forgetDestination(s, m);
}

// s_load_dwordx4 s[4:7], s[0:1], 0x8 from the kernarg segment (a base no
// statement set): register i holds the binding at (0x8 + 4 i) / 8.
void AmdgpuFollower::scalarLoad(const AmdgpuStatement &s) {
  const auto to = amdgpuRegistersOf(s.operands[0]);
  const auto base =
      s.operands.size() > 1 ? amdgpuRegistersOf(s.operands[1]) : to;
  const bool kernarg =
      !base.empty() &&
      std::none_of(base.begin(), base.end(),
                   [&](const std::string &r) { return written.count(r) > 0; });
  const auto offset = s.operands.size() > 2 ? parseIntegerLiteral(s.operands[2])
                                            : std::optional<int64_t>();
  for (size_t i = 0; i < to.size(); ++i) {
    contents.forget(to[i], s.line, s.mnemonic);
    contents.setBindings(to[i],
                         kernarg && offset
                             ? std::set<int>{static_cast<int>(
                                   (*offset + 4 * static_cast<int64_t>(i)) / 8)}
                             : std::set<int>{});
    written.insert(to[i]);
  }
}

void AmdgpuFollower::globalLoad(const AmdgpuStatement &s, int64_t bytes) {
  const std::string m = amdgpuBaseOf(s.mnemonic);
  const auto to = amdgpuRegistersOf(s.operands[0]);
  std::set<int> bindings;
  if (m.starts_with("buffer_") && s.operands.size() > 2) {
    const auto resource = amdgpuRegistersOf(s.operands[2]);
    if (!resource.empty())
      bindings = bindingsOf({resource.front()});
  } else if (s.operands.size() > 2) {
    bindings = bindingsOf(amdgpuRegistersOf(
        s.operands[2] != "off" ? s.operands[2] : s.operands[1]));
  }
  const int binding = bindings.size() == 1 ? *bindings.begin() : -1;
  const Lanes address =
      amdgpuGlobalAddress(s, lanes, static_cast<size_t>(kernel.threads));
  std::vector<Bytes> loaded(contents.threads(), Bytes(bytes));
  std::string why;
  if (binding < 0)
    why = bindings.empty()
              ? "its address comes from no kernel argument followed here"
              : "its address mixes several kernel arguments";
  else if (address.isLost())
    why = lostAddressWhy(address);
  else
    for (size_t t = 0; t < loaded.size(); ++t)
      for (int64_t b = 0; b < bytes; ++b)
        loaded[t][static_cast<size_t>(b)] = {binding, false,
                                             address.value[t] + b};
  put(to, loaded, s);
  record(kernel, s.line, s.mnemonic, OperandMoveKind::GlobalLoad, loaded, 0,
         why);
}

// ds_write vaddr, vdata (write2: vdata0, vdata1 at the two offsets);
// ds_read vdst, vaddr (read2: the first half of vdst from the first
// offset). A 16-bit access moves a register's low half, or with d16_hi its
// high half.
void AmdgpuFollower::dsAccess(const AmdgpuStatement &s, const DsShape &shape) {
  const std::string m = amdgpuBaseOf(s.mnemonic);
  const Lanes address = lanes.read(shape.address, s.line);
  const bool high = m.find("d16_hi") != std::string::npos;
  const bool half = m.find("d16") != std::string::npos;
  std::string why;
  if (address.isLost())
    why = lostAddressWhy(address);
  const size_t threads = contents.threads();
  if (shape.store) {
    std::vector<Bytes> stored(threads);
    for (size_t o = 0; o < shape.offsets.size(); ++o) {
      const size_t data = 1 + (shape.offsets.size() > 1 ? o : 0);
      if (data >= s.operands.size())
        break;
      std::vector<Bytes> held = heldBy(amdgpuRegistersOf(s.operands[data]));
      for (size_t t = 0; t < threads; ++t) {
        Bytes bytes(static_cast<size_t>(shape.bytes));
        for (size_t b = 0; b < bytes.size(); ++b) {
          const size_t at = b + (high ? 2 : 0);
          if (at < held[t].size())
            bytes[b] = held[t][at];
        }
        if (!address.isLost())
          contents.share(address.value[t] + shape.offsets[o], bytes);
        stored[t].insert(stored[t].end(), bytes.begin(), bytes.end());
      }
    }
    record(kernel, s.line, s.mnemonic, OperandMoveKind::SharedStore, stored, 0,
           why);
    return;
  }
  const auto to = amdgpuRegistersOf(s.operands[0]);
  std::vector<Bytes> loaded(threads);
  for (size_t t = 0; t < threads; ++t)
    for (int64_t offset : shape.offsets) {
      const Bytes bytes =
          address.isLost()
              ? Bytes(static_cast<size_t>(shape.bytes))
              : contents.sharedBytes(address.value[t] + offset, shape.bytes);
      loaded[t].insert(loaded[t].end(), bytes.begin(), bytes.end());
    }
  // A d16 read keeps the register's other half; a zero- or sign-extended
  // one is known in its low bytes only.
  put(to, loaded, s, high ? 2 : 0, half);
  record(kernel, s.line, s.mnemonic, OperandMoveKind::SharedLoad, loaded, 0,
         why);
}

// The moves that keep bytes: v_mov_b32, v_accvgpr_read/write, the 16-bit
// pack v_pack_b32_f16 (without op_sel) and the byte permute v_perm_b32
// with a constant selector.
bool AmdgpuFollower::repack(const AmdgpuStatement &s, const std::string &m) {
  const auto &ops = s.operands;
  if (ops.size() < 2)
    return false;
  const auto to = amdgpuRegistersOf(ops[0]);
  if (to.size() != 1 || to[0][0] == 's')
    return false;
  std::vector<Bytes> out(contents.threads(), Bytes(4));
  if ((m == "v_mov_b32" || m.starts_with("v_accvgpr_read") ||
       m.starts_with("v_accvgpr_write") || m == "v_accvgpr_mov_b32") &&
      ops.size() == 2) {
    const auto from = amdgpuRegistersOf(ops[1]);
    if (from.size() == 1)
      out = heldBy(from);
  } else if (m == "v_pack_b32_f16" && ops.size() == 3) {
    const auto a = heldBy(amdgpuRegistersOf(ops[1]));
    const auto b = heldBy(amdgpuRegistersOf(ops[2]));
    for (size_t t = 0; t < out.size(); ++t)
      if (a[t].size() == 4 && b[t].size() == 4)
        out[t] = {a[t][0], a[t][1], b[t][0], b[t][1]};
  } else if (m == "v_perm_b32" && ops.size() == 4) {
    // Selector byte k: 0-3 the second source's bytes, 4-7 the first's.
    // A literal, or a register the lanes hold one constant in.
    std::optional<int64_t> selector = parseIntegerLiteral(ops[3]);
    if (const Lanes held = lanes.read(ops[3], s.line);
        !selector && held.isConstant() && !held.value.empty())
      selector = held.value.front();
    const auto a = heldBy(amdgpuRegistersOf(ops[1]));
    const auto b = heldBy(amdgpuRegistersOf(ops[2]));
    for (size_t t = 0; selector && t < out.size(); ++t)
      for (size_t k = 0; k < 4; ++k) {
        const int64_t pick = (*selector >> (8 * k)) & 0xff;
        const Bytes &from = pick >= 4 ? a[t] : b[t];
        if (pick < 8 && from.size() == 4)
          out[t][k] = from[static_cast<size_t>(pick % 4)];
      }
  } else {
    return false;
  }
  put(to, out, s);
  return true;
}

void AmdgpuFollower::mfma(const AmdgpuStatement &s, const std::string &m) {
  const int64_t bytes = mfmaElementBytes(m);
  for (int which = 0; which < 2 && s.operands.size() > 2; ++which) {
    const auto regs = amdgpuRegistersOf(s.operands[1 + which]);
    record(kernel, s.line, s.mnemonic,
           which == 0 ? OperandMoveKind::MmaA : OperandMoveKind::MmaB,
           heldBy(regs), bytes, contents.whyUnknown(regs));
  }
  forgetDestination(s, m);
}

void AmdgpuFollower::forgetDestination(const AmdgpuStatement &s,
                                       const std::string &m) {
  for (const char *store :
       {"buffer_store", "global_store", "flat_store", "scratch_store",
        "s_waitcnt", "s_barrier", "s_branch", "s_cbranch", "s_endpgm", "s_nop",
        "s_setprio", "s_sleep", "s_dcache", "buffer_atomic", "global_atomic"})
    if (m.starts_with(store))
      return;
  // What the destination is computed from: the bindings of an address's
  // arithmetic (a buffer resource built from a kernel argument) carry.
  std::set<int> from;
  std::vector<std::string> sources;
  for (size_t i = 1; i < s.operands.size(); ++i)
    for (const std::string &r : amdgpuRegistersOf(s.operands[i])) {
      sources.push_back(r);
      for (int b : contents.bindingsOf(r))
        from.insert(b);
    }
  // Packed f16 arithmetic of one operand register and constants
  // (v_pk_mul_f16 by a scale): its elements, derived.
  std::optional<std::vector<Bytes>> derived;
  if ((m == "v_pk_mul_f16" || m == "v_pk_fma_f16" || m == "v_pk_add_f16") &&
      s.operands.size() <= 4)
    derived = contents.derivedFrom(sources, 4);
  const auto to = amdgpuRegistersOf(s.operands[0]);
  for (const std::string &r : to) {
    contents.forget(r, s.line, s.mnemonic);
    contents.setBindings(r, from);
    if (r[0] == 's')
      written.insert(r);
  }
  if (derived && to.size() == 1)
    for (size_t t = 0; t < derived->size(); ++t)
      contents.write(to[0], t, (*derived)[t]);
}

} // namespace

std::vector<KernelOperands>
operandsOfAmdgpu(const std::vector<AmdgpuKernelText> &kernels) {
  std::vector<KernelOperands> result;
  for (const AmdgpuKernelText &k : kernels) {
    KernelOperands kernel;
    kernel.kernel = k.name;
    kernel.subgroupSize = k.subgroupSize();
    kernel.threads = k.threads();
    AmdgpuLanes lanes(AmdgpuLanes::firstWorkgroupOf(k));
    AmdgpuFollower follower(kernel, lanes);
    for (const AmdgpuStatement &s : k.statements) {
      follower.run(s);
      lanes.run(s);
    }
    result.push_back(std::move(kernel));
  }
  return result;
}

} // namespace tilescope::isa
