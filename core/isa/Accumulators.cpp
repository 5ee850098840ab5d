#include "core/isa/Accumulators.h"

#include "core/isa/AmdgpuLanes.h"
#include "core/isa/Assembly.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace tilescope::isa {

namespace {

bool contains(const std::string &text, const char *part) {
  return text.find(part) != std::string::npos;
}

// One accumulator element: which MMA wrote it, which of its elements.
struct Piece {
  size_t mma = 0;
  int64_t element = 0;
  bool derived = false;
};

// What a 32-bit register holds: one element (bits 32), or two 16-bit
// halves (part[0] the low, part[1] the high).
struct Held {
  int bits = 32;
  std::optional<Piece> part[2];
  bool empty() const { return !part[0] && !part[1]; }
};

Held derivedOf(Held held) {
  for (auto &p : held.part)
    if (p)
      p->derived = true;
  return held;
}

Held wholeElement(const std::optional<Piece> &piece) {
  Held held;
  held.part[0] = piece;
  return held;
}

Held halves(const std::optional<Piece> &low, const std::optional<Piece> &high) {
  Held held;
  held.bits = 16;
  held.part[0] = low;
  held.part[1] = high;
  return held;
}

// Elementwise arithmetic: what the one operand holding elements holds,
// derived; nothing where none or several do.
Held elementwise(const std::vector<Held> &in) {
  const Held *only = nullptr;
  for (const Held &h : in)
    if (!h.empty()) {
      if (only)
        return {};
      only = &h;
    }
  return only ? derivedOf(*only) : Held{};
}

// Packed 16-bit arithmetic (add.f16x2, v_pk_fma_f16): each half on its
// own, elementwise.
Held halfByHalf(const std::vector<Held> &in) {
  Held out;
  out.bits = 16;
  for (int h = 0; h < 2; ++h) {
    std::vector<Held> halvesIn;
    for (const Held &x : in)
      halvesIn.push_back(wholeElement(x.bits == 16 ? x.part[h] : std::nullopt));
    out.part[h] = elementwise(halvesIn).part[0];
  }
  return out;
}

// The values registers hold as the kernel runs, and what each visited MMA
// and store saw.
class ValueFlow {
public:
  std::map<std::string, Held> registers;
  std::map<size_t, MmaStep> mmas; // by line
  // What each store (by statement) stores: its elements in memory order,
  // and their bytes.
  struct Stored {
    std::vector<std::optional<Piece>> elements;
    int64_t elementBytes = 4;
  };
  std::map<size_t, Stored> stored;

  Held at(const std::string &name) const {
    auto found = registers.find(name);
    return found == registers.end() ? Held{} : found->second;
  }

  // An MMA at `line` writing `destination` (elementsPerRegister elements
  // in each, low half first) from `accumulator`.
  void mma(size_t line, const std::string &mnemonic,
           const std::vector<std::string> &destination,
           const std::vector<std::string> &accumulator,
           int elementsPerRegister) {
    MmaStep &step = mmas[line];
    step.line = line;
    step.mnemonic = mnemonic;
    step.destination = destination;
    for (const std::string &c : accumulator)
      for (const auto &p : at(c).part)
        if (p &&
            std::find(step.accumulatesFrom.begin(), step.accumulatesFrom.end(),
                      p->mma) == step.accumulatesFrom.end())
          step.accumulatesFrom.push_back(p->mma);
    for (size_t r = 0; r < destination.size(); ++r) {
      const int64_t e = static_cast<int64_t>(r) * elementsPerRegister;
      registers[destination[r]] =
          elementsPerRegister == 2
              ? halves(Piece{line, e, false}, Piece{line, e + 1, false})
              : wholeElement(Piece{line, e, false});
    }
  }

  // A store at statement `index` of `data`, `bits` per register stored
  // (16: a register's low half, or its high half where `highHalf`).
  void store(size_t index, const std::vector<std::string> &data, int bits,
             bool highHalf = false) {
    std::vector<std::optional<Piece>> elements;
    int64_t bytes = bits == 16 ? 2 : 4;
    for (const std::string &name : data) {
      const Held held = at(name);
      if (bits == 16) {
        elements.push_back(held.bits == 16 ? held.part[highHalf ? 1 : 0]
                           : highHalf      ? std::nullopt
                                           : held.part[0]);
      } else if (held.bits == 16) {
        bytes = 2;
        elements.push_back(held.part[0]);
        elements.push_back(held.part[1]);
      } else {
        elements.push_back(held.part[0]);
      }
    }
    // Registers of 32-bit elements beside packed halves: not one layout.
    if (bits != 16 && bytes == 2 && elements.size() != 2 * data.size())
      elements.clear();
    stored[index] = {std::move(elements), bytes};
  }
};

// Runs `visit` over a kernel's statements in order, each loop's body twice
// (a backward branch taken once), so that what a loop's last pass leaves
// reaches its first statements.
template <typename Statement, typename Target, typename Visit>
void followTwice(const std::vector<Statement> &statements,
                 const std::map<std::string, size_t> &labels,
                 Target branchTarget, Visit visit) {
  std::set<size_t> repeated;
  // A kernel's few loops repeat a few times its statements; a file of
  // thousands of backward branches (a hostile one) would repeat them
  // quadratically: past four times its statements, no branch is taken.
  size_t visits = 0;
  const size_t most = 4 * statements.size();
  size_t i = 0;
  while (i < statements.size()) {
    visit(i);
    ++visits;
    const std::string target = branchTarget(statements[i]);
    if (!target.empty() && visits < most)
      if (auto found = labels.find(target); found != labels.end() &&
                                            found->second <= i &&
                                            repeated.insert(i).second) {
        i = found->second;
        continue;
      }
    ++i;
  }
}

// ---- PTX ----

std::vector<std::string> registerList(const std::string &operand) {
  if (!operand.empty() && operand.front() == '{' && operand.back() == '}')
    return ptxOperandsOf(operand.substr(1, operand.size() - 2));
  return {operand};
}

// The PTX type of an MMA's result: its first type part after the shape.
std::string ptxResultType(const std::vector<std::string> &parts) {
  for (const std::string &p : parts)
    if (p == "f16" || p == "f32" || p == "bf16" || p == "s32" || p == "f64")
      return p;
  return "";
}

void followPtx(const PtxStatement &s, size_t index, ValueFlow &flow) {
  const std::vector<std::string> parts = ptxPartsOf(s.mnemonic);
  const std::vector<std::string> &ops = s.operands;
  if (parts.empty() || ops.empty())
    return;
  const std::string &op = parts.front();
  const bool isFloat = std::any_of(parts.begin(), parts.end(), [](auto &p) {
    return p == "f32" || p == "f16" || p == "bf16" || p == "f16x2" ||
           p == "bf16x2" || p == "f64";
  });
  const bool packed =
      std::find(parts.begin(), parts.end(), "f16x2") != parts.end() ||
      std::find(parts.begin(), parts.end(), "bf16x2") != parts.end();
  if ((op == "mma" || op == "wgmma") && ops.size() >= 4) {
    const std::string type = ptxResultType(parts);
    flow.mma(s.line, s.mnemonic, registerList(ops[0]),
             registerList(op == "mma" ? ops[3] : ops[0]),
             type == "f16" || type == "bf16" ? 2 : 1);
    return;
  }
  if (op == "st") {
    if (std::find(parts.begin(), parts.end(), "global") == parts.end() ||
        ops.size() < 2)
      return;
    const int bits =
        widthOfPtx(s.mnemonic) / static_cast<int>(registerList(ops[1]).size());
    if (bits == 16 || bits == 32)
      flow.store(index, registerList(ops[1]), bits);
    return;
  }
  if (op == "bra" || op == "bar" || op == "ret" || op == "barrier" ||
      op == "red" || op == "fence" || op == "membar" || op == "cp" ||
      op == "stmatrix" || op == "prefetch" || op == "exit")
    return;
  const std::string &to = ops[0];
  std::vector<Held> in;
  for (size_t i = 1; i < ops.size(); ++i)
    in.push_back(flow.at(ops[i]));
  auto set = [&](const std::string &name, Held held) {
    if (held.empty())
      flow.registers.erase(name);
    else
      flow.registers[name] = held;
  };
  if (op == "mov" && ops.size() == 2) {
    if (!ops[1].empty() && ops[1].front() == '{') { // pack two halves
      const auto from = registerList(ops[1]);
      if (from.size() == 2)
        set(to, halves(flow.at(from[0]).part[0], flow.at(from[1]).part[0]));
      else
        set(to, {});
      return;
    }
    if (!to.empty() && to.front() == '{') { // unpack into halves
      const auto into = registerList(to);
      const Held whole = flow.at(ops[1]);
      for (size_t h = 0; h < into.size() && h < 2; ++h) {
        Held half;
        half.bits = 16;
        half.part[0] = whole.bits == 16 ? whole.part[h] : std::nullopt;
        set(into[h], half);
      }
      return;
    }
    set(to, in[0]);
    return;
  }
  if (op == "cvt") {
    // cvt.rn.f16x2.f32 d, a, b: a to the high half, b to the low.
    if (packed && in.size() == 2) {
      set(to, halves(in[1].part[0], in[0].part[0]));
      return;
    }
    if (in.size() == 1 && isFloat) {
      const std::string &target =
          parts.size() >= 3 ? parts[parts.size() - 2] : std::string();
      Held held = wholeElement(in[0].part[0]);
      held.bits = target == "f16" || target == "bf16" ? 16 : 32;
      set(to, held);
      return;
    }
    set(to, {});
    return;
  }
  if (isFloat && op != "ld" && op != "setp" && op != "selp") {
    if (packed) {
      set(to, halfByHalf(in));
    } else {
      Held out = elementwise(in);
      set(to, out);
    }
    return;
  }
  if (!to.empty() && to.front() == '{') {
    for (const std::string &name : registerList(to))
      flow.registers.erase(name);
    return;
  }
  flow.registers.erase(to);
}

// ---- AMDGPU ----

bool isAmdgpuStore(const std::string &m) {
  return m.starts_with("global_store") || m.starts_with("buffer_store") ||
         m.starts_with("flat_store");
}

// The bits of a register an AMDGPU store takes: 32 per dword, 16 for a
// short (or its high half), 0 for what is not followed.
int amdgpuStoreBits(const std::string &m, bool &highHalf) {
  highHalf = contains(m, "d16_hi");
  if (contains(m, "short") || contains(m, "_b16"))
    return 16;
  if (contains(m, "dword") || contains(m, "_b32") || contains(m, "_b64") ||
      contains(m, "_b96") || contains(m, "_b128"))
    return 32;
  return 0;
}

void followAmdgpu(const AmdgpuStatement &s, size_t index, ValueFlow &flow) {
  const std::string m = amdgpuBaseOf(s.mnemonic);
  const std::vector<std::string> &ops = s.operands;
  if (ops.empty())
    return;
  if (m.starts_with("v_mfma") && ops.size() >= 4) {
    // 32-bit results (f32, i32) hold one element a register; f64's two.
    if (contains(m, "_f64"))
      return;
    flow.mma(s.line, s.mnemonic, amdgpuRegistersOf(ops[0]),
             amdgpuRegistersOf(ops[3]), 1);
    return;
  }
  if (isAmdgpuStore(m)) {
    bool high = false;
    const int bits = amdgpuStoreBits(m, high);
    const std::string &data = m.starts_with("buffer_") ? ops[0] : ops[1];
    if (bits > 0 && ops.size() >= 2)
      flow.store(index, amdgpuRegistersOf(data), bits, high);
    return;
  }
  const std::vector<std::string> to = amdgpuRegistersOf(ops[0]);
  if (to.empty())
    return;
  std::vector<Held> in;
  for (size_t i = 1; i < ops.size(); ++i) {
    const auto names = amdgpuRegistersOf(ops[i]);
    in.push_back(names.size() == 1 ? flow.at(names[0]) : Held{});
  }
  auto set = [&](Held held) {
    for (const std::string &name : to)
      flow.registers.erase(name);
    if (to.size() == 1 && !held.empty())
      flow.registers[to[0]] = held;
  };
  if ((m == "v_mov_b32" || m.starts_with("v_accvgpr_read") ||
       m.starts_with("v_accvgpr_write") || m.starts_with("v_accvgpr_mov")) &&
      in.size() == 1) {
    set(in[0]);
    return;
  }
  if ((m == "v_cvt_f16_f32" || m == "v_cvt_bf16_f32") && in.size() == 1) {
    set(halves(in[0].part[0], std::nullopt));
    return;
  }
  if ((m.starts_with("v_cvt_pkrtz_f16_f32") ||
       m.starts_with("v_cvt_pk_f16_f32") ||
       m.starts_with("v_cvt_pk_bf16_f32")) &&
      in.size() == 2) {
    set(halves(in[0].part[0], in[1].part[0]));
    return;
  }
  if (m == "v_pack_b32_f16" && ops.size() == 3) { // no op_sel
    auto low = [](const Held &h) {
      return h.bits == 16 ? h.part[0] : std::nullopt;
    };
    set(halves(low(in[0]), low(in[1])));
    return;
  }
  if (m == "v_perm_b32" && ops.size() == 4) {
    // Each result byte picks a byte of {src0, src1}: selector values 0-3
    // are src1's bytes, 4-7 src0's. Halves moved whole are followed.
    auto selector = parseIntegerLiteral(ops[3]);
    if (selector) {
      Held out;
      out.bits = 16;
      bool whole = true;
      for (int h = 0; h < 2; ++h) {
        const int64_t b0 = (*selector >> (16 * h)) & 0xff;
        const int64_t b1 = (*selector >> (16 * h + 8)) & 0xff;
        if (b0 > 7 || b1 != b0 + 1 || b0 % 2 != 0) {
          whole = false;
          continue;
        }
        const Held &from = b0 >= 4 ? in[0] : in[1];
        if (from.bits == 16)
          out.part[h] = from.part[(b0 % 4) / 2];
      }
      set(whole ? out : Held{});
      return;
    }
  }
  // Packed f32 arithmetic (v_pk_mul_f32 v[0:1], v[2:3], v[4:5]): each
  // register of the pair its own element; the pair that holds elements
  // carries them, derived.
  if (m.starts_with("v_pk_") && contains(m, "_f32") && to.size() == 2 &&
      ops.size() >= 3) {
    const auto a = amdgpuRegistersOf(ops[1]), b = amdgpuRegistersOf(ops[2]);
    for (size_t r = 0; r < 2; ++r) {
      std::vector<Held> pair;
      for (const auto *from : {&a, &b})
        pair.push_back(from->size() == 2 ? flow.at((*from)[r]) : Held{});
      const Held out = elementwise(pair);
      if (out.empty())
        flow.registers.erase(to[r]);
      else
        flow.registers[to[r]] = out;
    }
    return;
  }
  const bool isFloatOp =
      m.starts_with("v_") && !m.starts_with("v_cvt") &&
      !m.starts_with("v_cmp") &&
      (contains(m, "_f32") || contains(m, "_f16") || contains(m, "_bf16"));
  if (isFloatOp) {
    if (m.starts_with("v_pk_")) {
      set(halfByHalf(in));
    } else {
      set(elementwise(in));
    }
    return;
  }
  set({});
}

// The elements a store writes, with each thread's offset, from what the
// value flow saw at its statement and the lanes' address.
AccumulatorStore storeOf(size_t line, const std::string &mnemonic,
                         const std::vector<std::optional<Piece>> &elements,
                         int64_t elementBytes, const Lanes &address) {
  AccumulatorStore store;
  store.line = line;
  store.mnemonic = mnemonic;
  store.elementBytes = elementBytes;
  if (address.isLost()) {
    store.why = "its address rests on line " + std::to_string(address.lostAt) +
                ": " + address.lostWhy;
    return store;
  }
  store.resolved = true;
  size_t missing = 0;
  for (size_t t = 0; t < address.value.size(); ++t)
    for (size_t e = 0; e < elements.size(); ++e) {
      if (!elements[e]) {
        missing += t == 0;
        continue;
      }
      StoredElement element;
      element.thread = static_cast<int64_t>(t);
      element.offset =
          address.value[t] + static_cast<int64_t>(e) * elementBytes;
      element.mma = elements[e]->mma;
      element.element = elements[e]->element;
      element.derived = elements[e]->derived;
      store.elements.push_back(element);
    }
  if (missing > 0)
    store.why = std::to_string(missing) + " of its " +
                std::to_string(elements.size()) +
                " elements are not an MMA's result";
  return store;
}

bool carriesResults(const std::vector<std::optional<Piece>> &elements) {
  return std::any_of(elements.begin(), elements.end(),
                     [](const auto &p) { return p.has_value(); });
}

void collectMmas(KernelAccumulators &kernel, const ValueFlow &flow) {
  for (const auto &[line, step] : flow.mmas)
    kernel.mmas.push_back(step);
}

} // namespace

const MmaStep *KernelAccumulators::mmaAt(size_t line) const {
  // By line, as collected.
  auto at = std::lower_bound(
      mmas.begin(), mmas.end(), line,
      [](const MmaStep &step, size_t l) { return step.line < l; });
  return at != mmas.end() && at->line == line ? &*at : nullptr;
}

size_t KernelAccumulators::resolvedStores() const {
  return static_cast<size_t>(
      std::count_if(stores.begin(), stores.end(),
                    [](const AccumulatorStore &s) { return s.resolved; }));
}

std::vector<KernelAccumulators> accumulatorsOfPtx(const PtxText &ptx,
                                                  int64_t subgroupSize) {
  std::vector<KernelAccumulators> result;
  for (const PtxEntryText &entry : ptx.entries) {
    KernelAccumulators kernel;
    kernel.kernel = entry.name;
    kernel.subgroupSize = subgroupSize;
    kernel.threads = entry.threads(subgroupSize);
    ValueFlow flow;
    followTwice(
        entry.statements, entry.labels,
        [](const PtxStatement &s) {
          return s.mnemonic.starts_with("bra") && !s.operands.empty()
                     ? s.operands.back()
                     : std::string();
        },
        [&](size_t i) { followPtx(entry.statements[i], i, flow); });
    collectMmas(kernel, flow);
    PtxLanes lanes(PtxLanes::firstWorkgroupOf(entry, subgroupSize),
                   ptx.sharedOffsets);
    for (size_t i = 0; i < entry.statements.size(); ++i) {
      const PtxStatement &s = entry.statements[i];
      if (auto data = flow.stored.find(i);
          data != flow.stored.end() && carriesResults(data->second.elements)) {
        Lanes address = lostLanes(s.line, "its address is not read here");
        if (auto at = ptxAddressOf(s.operands[0]))
          address = addedAddress(
              lanes.read(at->first, s.line),
              knownLanes(static_cast<size_t>(kernel.threads), at->second),
              s.line);
        kernel.stores.push_back(storeOf(s.line, s.mnemonic,
                                        data->second.elements,
                                        data->second.elementBytes, address));
      }
      lanes.run(s);
    }
    result.push_back(std::move(kernel));
  }
  return result;
}

std::vector<KernelAccumulators>
accumulatorsOfAmdgpu(const std::vector<AmdgpuKernelText> &kernels) {
  std::vector<KernelAccumulators> result;
  for (const AmdgpuKernelText &k : kernels) {
    KernelAccumulators kernel;
    kernel.kernel = k.name;
    kernel.subgroupSize = k.subgroupSize();
    kernel.threads = k.threads();
    ValueFlow flow;
    followTwice(
        k.statements, k.labels,
        [](const AmdgpuStatement &s) {
          return (s.mnemonic.starts_with("s_branch") ||
                  s.mnemonic.starts_with("s_cbranch")) &&
                         !s.operands.empty()
                     ? s.operands.back()
                     : std::string();
        },
        [&](size_t i) { followAmdgpu(k.statements[i], i, flow); });
    collectMmas(kernel, flow);
    const size_t threads = static_cast<size_t>(kernel.threads);
    AmdgpuLanes lanes(AmdgpuLanes::firstWorkgroupOf(k));
    for (size_t i = 0; i < k.statements.size(); ++i) {
      const AmdgpuStatement &s = k.statements[i];
      if (auto data = flow.stored.find(i);
          data != flow.stored.end() && carriesResults(data->second.elements))
        kernel.stores.push_back(storeOf(
            s.line, s.mnemonic, data->second.elements,
            data->second.elementBytes, amdgpuGlobalAddress(s, lanes, threads)));
      lanes.run(s);
    }
    result.push_back(std::move(kernel));
  }
  return result;
}

std::string describe(const KernelAccumulators &kernel) {
  if (kernel.stores.empty())
    return "";
  size_t elements = 0, unresolved = 0;
  std::set<size_t> mmas;
  std::map<std::string, size_t> byMnemonic;
  for (const AccumulatorStore &store : kernel.stores) {
    ++byMnemonic[store.mnemonic];
    if (!store.resolved)
      ++unresolved;
    elements += store.elements.size();
    for (const StoredElement &e : store.elements)
      mmas.insert(e.mma);
  }
  std::string which;
  for (const auto &[mnemonic, count] : byMnemonic)
    which +=
        (which.empty() ? "" : ", ") + mnemonic + " x " + std::to_string(count);
  std::string text = std::to_string(elements) + " elements of " +
                     std::to_string(mmas.size()) + " MMAs' results stored by " +
                     std::to_string(kernel.stores.size()) + " global store" +
                     (kernel.stores.size() == 1 ? "" : "s") + " (" + which +
                     ") for " + std::to_string(kernel.threads) + " threads";
  if (unresolved > 0)
    text += "; " + std::to_string(unresolved) + " unresolved";
  return text;
}

std::vector<AccumulatorCell> cellsOf(const KernelAccumulators &kernel,
                                     const std::vector<int64_t> &shape) {
  std::vector<AccumulatorCell> cells;
  for (const AccumulatorStore &store : kernel.stores)
    for (const StoredElement &element : store.elements) {
      std::vector<int64_t> at =
          coordinatesOf(element.offset, store.elementBytes, shape);
      if (!at.empty())
        cells.push_back({std::move(at), element, store.line});
    }
  return cells;
}

std::vector<size_t> chainOf(const KernelAccumulators &kernel, size_t line) {
  std::set<size_t> chain;
  std::vector<size_t> pending{line};
  while (!pending.empty()) {
    const size_t next = pending.back();
    pending.pop_back();
    const MmaStep *step = kernel.mmaAt(next);
    if (!step || !chain.insert(next).second)
      continue;
    pending.insert(pending.end(), step->accumulatesFrom.begin(),
                   step->accumulatesFrom.end());
  }
  return {chain.begin(), chain.end()};
}

CellLink linkCells(const KernelAccumulators &kernel,
                   const config::IterationSpace &space) {
  CellLink link;
  const config::OperandAccess *output = nullptr;
  for (const config::OperandAccess &operand : space.operands)
    if (operand.isOutput && !output) // the first result's
      output = &operand;
  if (!output || output->dims.empty())
    return link;
  std::vector<int64_t> shape;
  for (int d : output->dims) {
    if (d < 0 || static_cast<size_t>(d) >= space.rank() ||
        space.bounds[static_cast<size_t>(d)] <= 0)
      return link; // a dynamic or unknown bound: no layout to place
    shape.push_back(space.bounds[static_cast<size_t>(d)]);
  }
  std::map<size_t, std::vector<size_t>> chains;
  for (const AccumulatorCell &cell : cellsOf(kernel, shape)) {
    std::vector<int64_t> at(space.rank(), -1);
    for (size_t d = 0; d < output->dims.size(); ++d)
      at[static_cast<size_t>(output->dims[d])] = cell.coordinates[d];
    auto chain = chains.find(cell.element.mma);
    if (chain == chains.end())
      chain =
          chains.emplace(cell.element.mma, chainOf(kernel, cell.element.mma))
              .first;
    for (size_t line : chain->second)
      link.add(at, line);
    link.add(at, cell.store);
  }
  link.finish();
  return link;
}

std::vector<int64_t> coordinatesOf(int64_t offset, int64_t elementBytes,
                                   const std::vector<int64_t> &shape) {
  if (elementBytes <= 0 || offset < 0 || offset % elementBytes != 0)
    return {};
  int64_t index = offset / elementBytes;
  std::vector<int64_t> coordinates(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] <= 0)
      return {};
    coordinates[d] = index % shape[d];
    index /= shape[d];
  }
  if (index != 0)
    return {};
  return coordinates;
}

} // namespace tilescope::isa
