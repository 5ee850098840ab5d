// The operand follower (OperandFlow) for PTX: ld.global and cp.async, st.shared
// and ld.shared, ldmatrix (its lane shuffle, .trans), mov packs and unpacks,
// and mma.sync's A and B registers. A kernel parameter `_param_N` is IREE's
// binding N.
#include "core/isa/OperandFlow.h"

#include "core/isa/Assembly.h"
#include "core/isa/OperandContents.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

namespace tilescope::isa {

namespace {

bool has(const std::vector<std::string> &parts, const char *part) {
  return std::find(parts.begin(), parts.end(), part) != parts.end();
}

// ".shared" or ".shared::cta" (not a cluster's distributed shared memory).
bool isShared(const std::vector<std::string> &parts) {
  return has(parts, "shared") || has(parts, "shared::cta");
}

// "{%r1, %r2}" -> {"%r1", "%r2"}; "%r1" -> {"%r1"}; an immediate -> {""}.
std::vector<std::string> ptxRegistersIn(const std::string &operand) {
  std::string inside = operand;
  if (!inside.empty() && inside.front() == '{')
    inside = inside.substr(1, inside.size() - (inside.back() == '}' ? 2 : 1));
  std::vector<std::string> names;
  for (std::string name : ptxOperandsOf(inside)) {
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    names.push_back(!name.empty() && name[0] == '%' ? name : std::string());
  }
  return names;
}

// Every register named anywhere in an operand ("[%rd1+16]" -> "%rd1").
std::vector<std::string> ptxNamesIn(const std::string &operand) {
  std::vector<std::string> names;
  for (size_t at = operand.find('%'); at != std::string::npos;
       at = operand.find('%', at + 1)) {
    size_t end = at + 1;
    while (end < operand.size() &&
           (std::isalnum(static_cast<unsigned char>(operand[end])) ||
            operand[end] == '_'))
      ++end;
    names.push_back(operand.substr(at, end - at));
  }
  return names;
}

// An MMA operand's element size from its type's name ("f16", "tf32",
// "e4m3", "s8").
int64_t mmaTypeBytes(const std::string &type) {
  if (type == "tf32" || type == "f32" || type == "xf32")
    return 4;
  if (type == "f16" || type == "bf16")
    return 2;
  if (type == "s8" || type == "u8" || type == "i8" || type == "e4m3" ||
      type == "e5m2" || type == "fp8" || type == "bf8")
    return 1;
  if (type == "f64")
    return 8;
  return 0;
}

// The binding a global address rests on: the one parameter its registers
// come from.
int bindingOf(const std::set<int> &bindings) {
  return bindings.size() == 1 ? *bindings.begin() : -1;
}

std::string bindingWhy(const std::set<int> &bindings) {
  return bindings.empty()
             ? "its address comes from no kernel parameter followed here"
             : "its address mixes several kernel parameters";
}

// A global load's bytes in each thread: `bytes` from the lanes' offsets.
std::vector<Bytes> loadedBytes(int binding, const Lanes &address,
                               int64_t bytes) {
  std::vector<Bytes> loaded(address.value.size(), Bytes(bytes));
  for (size_t t = 0; t < loaded.size(); ++t)
    for (int64_t b = 0; b < bytes; ++b)
      loaded[t][b] = {binding, false, address.value[t] + b};
  return loaded;
}

class PtxFollower {
public:
  PtxFollower(KernelOperands &kernel, const PtxLanes &lanes)
      : kernel(kernel), lanes(lanes),
        contents(static_cast<size_t>(kernel.threads)) {}

  void run(const PtxStatement &s);

private:
  Lanes addressOf(const std::string &operand, size_t line) const {
    auto at = ptxAddressOf(operand);
    if (!at)
      return lostLanes(line, "its address is not read here");
    const Lanes base = lanes.read(at->first, line);
    return addedAddress(base, knownLanes(base.value.size(), at->second), line);
  }
  std::set<int> bindingsOfAddress(const std::string &operand) const {
    std::set<int> bindings;
    for (const std::string &name : ptxNamesIn(operand))
      for (int b : contents.bindingsOf(name))
        bindings.insert(b);
    return bindings;
  }
  void globalLoad(const PtxStatement &s, const std::vector<std::string> &to,
                  int64_t each);
  void sharedLoad(const PtxStatement &s, const std::vector<std::string> &to,
                  int64_t each);
  void sharedStore(const PtxStatement &s, int64_t each);
  void matrixLoad(const PtxStatement &s, const std::vector<std::string> &parts);
  void asyncCopy(const PtxStatement &s, int64_t bytes);
  void move(const PtxStatement &s, int64_t total);
  void mma(const PtxStatement &s, const std::vector<std::string> &parts);
  void forgetDestination(const PtxStatement &s);

  KernelOperands &kernel;
  const PtxLanes &lanes;
  Contents contents;
};

void PtxFollower::run(const PtxStatement &s) {
  const std::vector<std::string> parts = ptxPartsOf(s.mnemonic);
  if (parts.empty() || s.operands.empty())
    return;
  const std::string &op = parts.front();
  if (op == "ld" && s.operands.size() >= 2) {
    if (has(parts, "param")) {
      // IREE's kernel parameters are its bindings, in order.
      const std::string &from = s.operands[1];
      const size_t at = from.rfind("_param_");
      std::set<int> binding;
      if (at != std::string::npos)
        if (auto index = parseInt64(from.substr(
                at + 7, from.find_first_not_of("0123456789", at + 7) - at - 7)))
          binding.insert(static_cast<int>(*index));
      for (const std::string &to : ptxRegistersIn(s.operands[0])) {
        contents.forget(to, s.line, s.mnemonic);
        contents.setBindings(to, binding);
      }
      return;
    }
    const std::vector<std::string> to = ptxRegistersIn(s.operands[0]);
    const int64_t total = widthOfPtx(s.mnemonic) / 8;
    const int64_t each =
        to.empty() ? 0 : total / static_cast<int64_t>(to.size());
    if (each > 0 && has(parts, "global"))
      return globalLoad(s, to, each);
    if (each > 0 && isShared(parts))
      return sharedLoad(s, to, each);
  } else if (op == "st" && isShared(parts) && s.operands.size() >= 2) {
    const int64_t total = widthOfPtx(s.mnemonic) / 8;
    const auto from = ptxRegistersIn(s.operands[1]);
    if (total > 0 && !from.empty())
      return sharedStore(s, total / static_cast<int64_t>(from.size()));
    return;
  } else if (op == "ldmatrix") {
    return matrixLoad(s, parts);
  } else if (auto bytes = asyncCopyBytesOf(s)) {
    return asyncCopy(s, *bytes);
  } else if (op == "mov" && s.operands.size() >= 2) {
    return move(s, ptxTypeBits(parts.back()) / 8);
  } else if (op == "mma") {
    return mma(s, parts);
  }
  forgetDestination(s);
}

void PtxFollower::forgetDestination(const PtxStatement &s) {
  const std::string op = ptxPartsOf(s.mnemonic).front();
  if (op == "st" || op == "red" || op == "bar" || op == "bra" || op == "ret" ||
      op == "cp" || op == "fence" || op == "membar")
    return;
  // What the destination is computed from: the bindings of an address's
  // arithmetic carry through.
  std::set<int> bindings;
  std::vector<std::string> sources;
  for (size_t i = 1; i < s.operands.size(); ++i)
    for (const std::string &name : ptxNamesIn(s.operands[i])) {
      sources.push_back(name);
      for (int b : contents.bindingsOf(name))
        bindings.insert(b);
    }
  // Elementwise f16 arithmetic of one operand register and constants
  // (mul.rn.f16x2 by a scale): its elements, derived.
  const std::vector<std::string> parts = ptxPartsOf(s.mnemonic);
  const std::string &type = parts.back();
  const int64_t width = type == "f16x2" || type == "bf16x2" ? 4
                        : type == "f16" || type == "bf16"   ? 2
                                                            : 0;
  std::optional<std::vector<Bytes>> derived;
  if (width > 0 && (op == "mul" || op == "fma" || op == "add" || op == "sub" ||
                    op == "neg" || op == "abs"))
    derived = contents.derivedFrom(sources, width);
  const auto to = ptxRegistersIn(s.operands[0]);
  for (const std::string &reg : to) {
    contents.forget(reg, s.line, s.mnemonic);
    contents.setBindings(reg, bindings);
  }
  if (derived && to.size() == 1)
    for (size_t t = 0; t < derived->size(); ++t)
      contents.write(to[0], t, (*derived)[t]);
}

void PtxFollower::globalLoad(const PtxStatement &s,
                             const std::vector<std::string> &to, int64_t each) {
  const std::set<int> bindings = bindingsOfAddress(s.operands[1]);
  const int binding = bindingOf(bindings);
  const Lanes address = addressOf(s.operands[1], s.line);
  const int64_t total = each * static_cast<int64_t>(to.size());
  std::vector<Bytes> loaded;
  std::string why;
  if (binding < 0)
    why = bindingWhy(bindings);
  else if (address.isLost())
    why = lostAddressWhy(address);
  else
    loaded = loadedBytes(binding, address, total);
  if (loaded.empty())
    loaded.assign(contents.threads(), Bytes(total));
  contents.spread(to, loaded, each, s.line, s.mnemonic);
  record(kernel, s.line, s.mnemonic, OperandMoveKind::GlobalLoad, loaded, 0,
         why);
}

void PtxFollower::sharedLoad(const PtxStatement &s,
                             const std::vector<std::string> &to, int64_t each) {
  const Lanes address = addressOf(s.operands[1], s.line);
  const int64_t total = each * static_cast<int64_t>(to.size());
  std::vector<Bytes> loaded(contents.threads(), Bytes(total));
  std::string why;
  if (address.isLost())
    why = lostAddressWhy(address);
  else
    for (size_t t = 0; t < loaded.size(); ++t)
      loaded[t] = contents.sharedBytes(address.value[t], total);
  contents.spread(to, loaded, each, s.line, s.mnemonic);
  record(kernel, s.line, s.mnemonic, OperandMoveKind::SharedLoad, loaded, 0,
         why);
}

void PtxFollower::sharedStore(const PtxStatement &s, int64_t each) {
  const Lanes address = addressOf(s.operands[0], s.line);
  const auto from = ptxRegistersIn(s.operands[1]);
  const std::vector<Bytes> stored = contents.gather(from, each);
  std::string why;
  if (address.isLost())
    why = lostAddressWhy(address);
  else
    for (size_t t = 0; t < stored.size(); ++t)
      contents.share(address.value[t], stored[t]);
  record(kernel, s.line, s.mnemonic, OperandMoveKind::SharedStore, stored, 0,
         why);
}

// ldmatrix: lanes 8j..8j+7 of each warp give the row addresses of matrix
// j (8 rows of 16 bytes); lane l receives, in its register j, row l / 4's
// 16-bit elements 2 (l % 4) and 2 (l % 4) + 1, or with .trans column
// l / 4's rows 2 (l % 4) and 2 (l % 4) + 1.
void PtxFollower::matrixLoad(const PtxStatement &s,
                             const std::vector<std::string> &parts) {
  const std::vector<std::string> to = ptxRegistersIn(s.operands.front());
  // .x1, .x2, .x4: one to four registers (more is no ldmatrix, and each
  // would cost every thread's bytes).
  if (to.empty() || to.size() > 4)
    return forgetDestination(s);
  const bool trans = has(parts, "trans");
  const Lanes address = addressOf(s.operands.back(), s.line);
  const size_t threads = contents.threads();
  const int64_t warp = kernel.subgroupSize;
  std::vector<Bytes> loaded(threads, Bytes(4 * to.size()));
  std::string why;
  if (address.isLost() || warp != 32) {
    why = address.isLost() ? lostAddressWhy(address)
                           : "ldmatrix is followed for 32-lane warps";
  } else {
    for (size_t t = 0; t < threads; ++t) {
      const size_t first = t - t % 32, l = t % 32;
      for (size_t j = 0; j < to.size(); ++j)
        for (size_t h = 0; h < 2; ++h) {
          const size_t row = trans ? 2 * (l % 4) + h : l / 4;
          const size_t source = first + 8 * j + row;
          if (source >= threads)
            continue;
          const int64_t at =
              address.value[source] + (trans ? 2 * static_cast<int64_t>(l / 4)
                                             : 4 * static_cast<int64_t>(l % 4) +
                                                   2 * static_cast<int64_t>(h));
          const Bytes two = contents.sharedBytes(at, 2);
          std::copy(two.begin(), two.end(), loaded[t].begin() + 4 * j + 2 * h);
        }
    }
  }
  contents.spread(to, loaded, 4, s.line, s.mnemonic);
  record(kernel, s.line, s.mnemonic, OperandMoveKind::SharedLoad, loaded, 0,
         why);
}

// cp.async [shared], [global], bytes: a global load into shared memory,
// `bytes` a thread (asyncCopyBytesOf).
void PtxFollower::asyncCopy(const PtxStatement &s, int64_t bytes) {
  const std::set<int> bindings = bindingsOfAddress(s.operands[1]);
  const int binding = bindingOf(bindings);
  const Lanes from = addressOf(s.operands[1], s.line);
  const Lanes to = addressOf(s.operands[0], s.line);
  std::vector<Bytes> loaded;
  std::string why;
  if (binding < 0)
    why = bindingWhy(bindings);
  else if (from.isLost() || to.isLost())
    why = "its addresses are not followed";
  else
    loaded = loadedBytes(binding, from, bytes);
  if (loaded.empty())
    loaded.assign(contents.threads(), Bytes(bytes));
  for (size_t t = 0; t < loaded.size() && !to.isLost(); ++t)
    contents.share(to.value[t], loaded[t]);
  record(kernel, s.line, s.mnemonic, OperandMoveKind::GlobalLoad, loaded, 0,
         why);
}

// mov: a copy, a pack ("mov.b32 %r1, {%rs1, %rs2}") or an unpack.
void PtxFollower::move(const PtxStatement &s, int64_t total) {
  const auto to = ptxRegistersIn(s.operands[0]);
  const auto from = ptxRegistersIn(s.operands[1]);
  if (total <= 0 || to.empty() || from.empty()) {
    forgetDestination(s);
    return;
  }
  const int64_t in = total / static_cast<int64_t>(from.size());
  const int64_t out = total / static_cast<int64_t>(to.size());
  const std::set<int> bindings =
      from.size() == 1 ? contents.bindingsOf(from[0]) : std::set<int>{};
  contents.spread(to, contents.gather(from, in), out, s.line, s.mnemonic);
  for (const std::string &reg : to)
    if (!reg.empty())
      contents.setBindings(reg, bindings);
}

// mma.sync...{d}, {a}, {b}, {c}: the A and B registers, 32 bits each.
void PtxFollower::mma(const PtxStatement &s,
                      const std::vector<std::string> &parts) {
  if (s.operands.size() >= 3 && parts.size() >= 4) {
    const int64_t aBytes = mmaTypeBytes(parts[parts.size() - 3]);
    const int64_t bBytes = mmaTypeBytes(parts[parts.size() - 2]);
    for (int which = 0; which < 2; ++which) {
      const auto regs = ptxRegistersIn(s.operands[1 + which]);
      record(kernel, s.line, s.mnemonic,
             which == 0 ? OperandMoveKind::MmaA : OperandMoveKind::MmaB,
             contents.gather(regs, 4), which == 0 ? aBytes : bBytes,
             contents.whyUnknown(regs));
    }
  }
  forgetDestination(s);
}

} // namespace

std::vector<KernelOperands> operandsOfPtx(const PtxText &ptx,
                                          int64_t subgroupSize) {
  std::vector<KernelOperands> result;
  for (const PtxEntryText &entry : ptx.entries) {
    KernelOperands kernel;
    kernel.kernel = entry.name;
    kernel.subgroupSize = subgroupSize;
    kernel.threads = entry.threads(subgroupSize);
    PtxLanes lanes(PtxLanes::firstWorkgroupOf(entry, subgroupSize),
                   ptx.sharedOffsets);
    PtxFollower follower(kernel, lanes);
    for (const PtxStatement &s : entry.statements) {
      follower.run(s);
      lanes.run(s);
    }
    result.push_back(std::move(kernel));
  }
  return result;
}

} // namespace tilescope::isa
