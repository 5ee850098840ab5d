// What the operand followers (OperandFlow) keep while they walk a kernel:
// each register's bytes in each thread of the first workgroup, as places
// in the kernel's bindings; the workgroup's shared memory the same way; the
// bindings each register's address arithmetic rests on; and why a
// register's bytes were forgotten. Private to core/isa.
#pragma once

#include "core/isa/LaneValues.h"
#include "core/isa/OperandFlow.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tilescope::isa {

// A byte of a binding (binding -1: not known).
struct Source {
  int32_t binding = -1;
  bool derived = false; // computed from the byte's element (a scale)
  int64_t offset = 0;
  bool known() const { return binding >= 0; }
};
using Bytes = std::vector<Source>; // one thread's

class Contents {
public:
  explicit Contents(size_t threads) : count(threads) {}
  size_t threads() const { return count; }

  // A register's `width` bytes in `thread`: unknown where it holds none.
  Bytes read(const std::string &reg, size_t thread, int64_t width) const;
  void write(const std::string &reg, size_t thread, const Bytes &bytes);
  // Each thread's bytes of `regs`, `width` a register, in order (an
  // empty name: unknown bytes).
  std::vector<Bytes> gather(const std::vector<std::string> &regs,
                            int64_t width) const;
  // Each thread's `bytes` spread over `regs`, `each` bytes a register in
  // order (an empty name skipped), what they held before forgotten: line
  // `line` (`mnemonic`) wrote them.
  void spread(const std::vector<std::string> &regs,
              const std::vector<Bytes> &bytes, int64_t each, size_t line,
              const std::string &mnemonic);
  // Drops what a register holds: line `line` (`mnemonic`) wrote it.
  void forget(const std::string &reg, size_t line, const std::string &mnemonic);
  // Why some of these registers' bytes are unknown: "%r5 holds what line
  // 123 (cvt.rn.f16.f32) computed"; empty where all are known.
  std::string whyUnknown(const std::vector<std::string> &regs) const;

  // The bytes of the one register among `regs` that holds a binding's
  // bytes in some thread, as derived: an elementwise op of one element and
  // constants (attention's Q scaled by 1/sqrt(d)); none where no register
  // or several do.
  std::optional<std::vector<Bytes>>
  derivedFrom(const std::vector<std::string> &regs, int64_t width) const;

  Bytes sharedBytes(int64_t address, int64_t bytes) const;
  void share(int64_t address, const Bytes &bytes);

  const std::set<int> &bindingsOf(const std::string &reg) const;
  void setBindings(const std::string &reg, std::set<int> bindings);

private:
  size_t count;
  std::map<std::string, std::vector<Bytes>> registers; // [thread]
  std::map<std::string, std::string> forgotten;
  std::unordered_map<int64_t, Source> shared;
  std::map<std::string, std::set<int>> bindings;
};

// "its address rests on line 12: ...", for an address the lanes lost.
std::string lostAddressWhy(const Lanes &address);

// Adds to `kernel` a move of what each thread holds (`held[thread]`, its
// bytes in position order), as runs of consecutive bytes of one binding.
void record(KernelOperands &kernel, size_t line, const std::string &mnemonic,
            OperandMoveKind kind, const std::vector<Bytes> &held,
            int64_t elementBytes, std::string why);

} // namespace tilescope::isa
