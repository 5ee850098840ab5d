#include "core/isa/OperandContents.h"

namespace tilescope::isa {

Bytes Contents::read(const std::string &reg, size_t thread,
                     int64_t width) const {
  Bytes bytes(static_cast<size_t>(std::max<int64_t>(width, 0)));
  auto found = registers.find(reg);
  if (found == registers.end() || thread >= found->second.size())
    return bytes;
  const Bytes &held = found->second[thread];
  for (size_t b = 0; b < bytes.size() && b < held.size(); ++b)
    bytes[b] = held[b];
  return bytes;
}

void Contents::write(const std::string &reg, size_t thread,
                     const Bytes &bytes) {
  if (reg.empty() || thread >= count)
    return;
  bool any = false;
  for (const Source &b : bytes)
    any = any || b.known();
  auto found = registers.find(reg);
  if (!any && found == registers.end())
    return;
  if (found == registers.end())
    found = registers.emplace(reg, std::vector<Bytes>(count)).first;
  found->second[thread] = bytes;
  forgotten.erase(reg);
}

std::vector<Bytes> Contents::gather(const std::vector<std::string> &regs,
                                    int64_t width) const {
  std::vector<Bytes> held(count);
  for (size_t t = 0; t < count; ++t)
    for (const std::string &reg : regs) {
      const Bytes part = read(reg, t, width);
      held[t].insert(held[t].end(), part.begin(), part.end());
    }
  return held;
}

void Contents::spread(const std::vector<std::string> &regs,
                      const std::vector<Bytes> &bytes, int64_t each,
                      size_t line, const std::string &mnemonic) {
  for (size_t r = 0; r < regs.size(); ++r) {
    if (regs[r].empty())
      continue;
    forget(regs[r], line, mnemonic);
    const auto from = static_cast<ptrdiff_t>(r) * each;
    for (size_t t = 0; t < bytes.size(); ++t)
      if (from + each <= static_cast<ptrdiff_t>(bytes[t].size()))
        write(regs[r], t,
              Bytes(bytes[t].begin() + from, bytes[t].begin() + from + each));
  }
}

void Contents::forget(const std::string &reg, size_t line,
                      const std::string &mnemonic) {
  registers.erase(reg);
  forgotten[reg] = "line " + std::to_string(line) + " (" + mnemonic + ")";
}

std::string Contents::whyUnknown(const std::vector<std::string> &regs) const {
  for (const std::string &reg : regs) {
    auto held = registers.find(reg);
    bool whole = held != registers.end();
    for (size_t t = 0; whole && t < count; ++t) {
      whole = !held->second[t].empty();
      for (const Source &b : held->second[t])
        whole = whole && b.known();
    }
    if (whole)
      continue;
    auto why = forgotten.find(reg);
    return reg + (why != forgotten.end()
                      ? " holds what " + why->second + " computed"
                      : " was not loaded from a binding");
  }
  return "";
}

std::optional<std::vector<Bytes>>
Contents::derivedFrom(const std::vector<std::string> &regs,
                      int64_t width) const {
  const std::string *from = nullptr;
  for (const std::string &reg : regs) {
    if (!registers.count(reg))
      continue;
    if (from && *from != reg)
      return std::nullopt;
    from = &reg;
  }
  if (!from)
    return std::nullopt;
  std::vector<Bytes> out(count);
  for (size_t t = 0; t < count; ++t) {
    out[t] = read(*from, t, width);
    for (Source &b : out[t])
      b.derived = b.known();
  }
  return out;
}

Bytes Contents::sharedBytes(int64_t address, int64_t bytes) const {
  Bytes out(static_cast<size_t>(std::max<int64_t>(bytes, 0)));
  for (size_t b = 0; b < out.size(); ++b)
    if (auto found = shared.find(address + static_cast<int64_t>(b));
        found != shared.end())
      out[b] = found->second;
  return out;
}

void Contents::share(int64_t address, const Bytes &bytes) {
  for (size_t b = 0; b < bytes.size(); ++b) {
    const int64_t at = address + static_cast<int64_t>(b);
    if (bytes[b].known())
      shared[at] = bytes[b];
    else
      shared.erase(at);
  }
}

const std::set<int> &Contents::bindingsOf(const std::string &reg) const {
  static const std::set<int> kNone;
  auto found = bindings.find(reg);
  return found == bindings.end() ? kNone : found->second;
}

void Contents::setBindings(const std::string &reg, std::set<int> set) {
  if (set.empty())
    bindings.erase(reg);
  else
    bindings[reg] = std::move(set);
}

void record(KernelOperands &kernel, size_t line, const std::string &mnemonic,
            OperandMoveKind kind, const std::vector<Bytes> &held,
            int64_t elementBytes, std::string why) {
  OperandMove move;
  move.line = line;
  move.mnemonic = mnemonic;
  move.kind = kind;
  move.elementBytes = elementBytes;
  for (size_t t = 0; t < held.size(); ++t) {
    const Bytes &bytes = held[t];
    move.bytes += static_cast<int64_t>(bytes.size());
    for (size_t b = 0; b < bytes.size();) {
      if (!bytes[b].known()) {
        ++b;
        continue;
      }
      size_t end = b + 1;
      while (end < bytes.size() && bytes[end].binding == bytes[b].binding &&
             bytes[end].derived == bytes[b].derived &&
             bytes[end].offset ==
                 bytes[b].offset + static_cast<int64_t>(end - b))
        ++end;
      move.moved.push_back({static_cast<int64_t>(t), bytes[b].binding,
                            bytes[b].offset, static_cast<int64_t>(end - b),
                            static_cast<int64_t>(b), bytes[b].derived});
      b = end;
    }
  }
  const bool mma =
      kind == OperandMoveKind::MmaA || kind == OperandMoveKind::MmaB;
  if (!mma && move.moved.empty())
    return; // moves nothing of a binding: not an operand's way
  if (move.followed() < move.bytes && why.empty())
    why = "some of its bytes were not loaded from a binding";
  if (move.followed() == move.bytes)
    why.clear();
  move.why = std::move(why);
  kernel.moves.push_back(std::move(move));
}

std::string lostAddressWhy(const Lanes &address) {
  return "its address rests on line " + std::to_string(address.lostAt) + ": " +
         address.lostWhy;
}

} // namespace tilescope::isa
