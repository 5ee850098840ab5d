#include "core/isa/Liveness.h"

#include <algorithm>
#include <deque>
#include <unordered_map>

namespace tilescope::isa {

namespace {

bool has(const std::string &text, const char *part) {
  return text.find(part) != std::string::npos;
}

// Whether an instruction's first operand is what it writes.
bool writesFirstOperand(const std::string &m,
                        const std::map<std::string, int64_t> &modifiers,
                        const std::string &text) {
  if (m.starts_with("s_")) {
    for (const char *none :
         {"s_cmp",     "s_bitcmp",       "s_branch", "s_cbranch", "s_waitcnt",
          "s_barrier", "s_endpgm",       "s_nop",    "s_sleep",   "s_setprio",
          "s_store",   "s_buffer_store", "s_dcache", "s_sendmsg", "s_trap",
          "s_setpc",   "s_set_gpr_idx",  "s_icache", "s_ttrace",  "s_sethalt",
          "s_setreg",  "s_denorm",       "s_round"})
      if (m.starts_with(none))
        return false;
    return true;
  }
  if (m.starts_with("v_"))
    return true;
  if (m.starts_with("ds_"))
    return has(m, "read") || has(m, "load") || has(m, "_rtn") ||
           has(m, "permute") || has(m, "swizzle");
  if (m.starts_with("global_") || m.starts_with("buffer_") ||
      m.starts_with("flat_") || m.starts_with("scratch_")) {
    if (has(m, "load"))
      return true;
    // An atomic that returns its old value: sc0 on gfx94x, glc before.
    if (has(m, "atomic"))
      return modifiers.count("sc0") || has(text, " sc0") || has(text, " glc");
    return false;
  }
  return false;
}

} // namespace

std::pair<std::vector<std::string>, std::vector<std::string>>
amdgpuWritesAndReads(const AmdgpuStatement &s) {
  std::vector<std::string> writes, reads;
  const std::string m = amdgpuBaseOf(s.mnemonic);
  if (s.operands.empty())
    return {writes, reads};
  size_t first = 0;
  if (writesFirstOperand(m, s.modifiers, s.mnemonic)) {
    writes = amdgpuRegistersOf(s.operands[0]);
    first = 1;
    // A carry-out the op writes beside its result (v_add_co_u32 v1, vcc,
    // ... or an SGPR pair).
    if ((has(m, "_co_") || has(m, "addc") || has(m, "subb") ||
         has(m, "v_mad_u64") || has(m, "v_mad_i64") || has(m, "v_div_scale")) &&
        s.operands.size() > 2) {
      for (const std::string &r : amdgpuRegistersOf(s.operands[1]))
        writes.push_back(r);
      first = 2;
    }
  }
  for (size_t i = first; i < s.operands.size(); ++i)
    for (const std::string &r : amdgpuRegistersOf(s.operands[i]))
      reads.push_back(r);
  return {writes, reads};
}

std::vector<KernelLiveness> livenessOfAmdgpu(const std::string &text) {
  std::string arch;
  return livenessOfAmdgpu(amdgpuKernelsOf(text, arch));
}

std::vector<KernelLiveness>
livenessOfAmdgpu(const std::vector<AmdgpuKernelText> &kernels) {
  std::vector<KernelLiveness> result;
  for (const AmdgpuKernelText &k : kernels) {
    KernelLiveness kernel;
    kernel.kernel = k.name;
    kernel.allocatedVgprs = k.vgprCount;
    kernel.allocatedAgprs = k.agprCount;
    kernel.allocatedSgprs = k.sgprCount;
    const size_t n = k.statements.size();
    // Registers as indices, and each instruction's writes and reads.
    std::unordered_map<std::string, size_t> index;
    std::vector<char> file; // 'v', 'a', 's' per index
    auto id = [&](const std::string &name) {
      auto [it, added] = index.emplace(name, index.size());
      if (added)
        file.push_back(name[0]);
      return it->second;
    };
    std::vector<std::vector<size_t>> writes(n), reads(n);
    for (size_t i = 0; i < n; ++i) {
      auto [w, r] = amdgpuWritesAndReads(k.statements[i]);
      for (const std::string &name : w)
        writes[i].push_back(id(name));
      for (const std::string &name : r)
        reads[i].push_back(id(name));
    }
    // Where control goes after each instruction.
    std::vector<std::vector<size_t>> next(n);
    for (size_t i = 0; i < n; ++i) {
      const AmdgpuStatement &s = k.statements[i];
      const std::string m = amdgpuBaseOf(s.mnemonic);
      auto target = [&]() -> std::optional<size_t> {
        if (s.operands.empty())
          return std::nullopt;
        auto found = k.labels.find(s.operands[0]);
        if (found == k.labels.end() || found->second >= n)
          return std::nullopt;
        return found->second;
      };
      if (m == "s_endpgm" || m.starts_with("s_setpc") || m == "s_trap")
        continue;
      if (m == "s_branch") {
        if (auto to = target())
          next[i].push_back(*to);
        continue;
      }
      if (m.starts_with("s_cbranch"))
        if (auto to = target())
          next[i].push_back(*to);
      if (i + 1 < n)
        next[i].push_back(i + 1);
    }
    // Backward to a fixed point: live into an instruction is what it reads
    // and what is live out of it that it does not write.
    const size_t registers = index.size();
    std::vector<std::vector<bool>> in(n, std::vector<bool>(registers)),
        out(n, std::vector<bool>(registers));
    // A worklist, last statement first: an instruction is looked at again
    // only when what is live into one it goes to grew (each set only
    // grows), so a chain of branches costs its length, not its square.
    std::vector<std::vector<size_t>> previous(n);
    for (size_t i = 0; i < n; ++i)
      for (size_t j : next[i])
        previous[j].push_back(i);
    std::deque<size_t> work;
    std::vector<bool> queued(n, true);
    for (size_t i = n; i-- > 0;)
      work.push_back(i);
    while (!work.empty()) {
      const size_t i = work.front();
      work.pop_front();
      queued[i] = false;
      std::vector<bool> o(registers);
      for (size_t j : next[i])
        for (size_t r = 0; r < registers; ++r)
          o[r] = o[r] || in[j][r];
      std::vector<bool> live = o;
      for (size_t r : writes[i])
        live[r] = false;
      for (size_t r : reads[i])
        live[r] = true;
      out[i] = std::move(o);
      if (live != in[i]) {
        in[i] = std::move(live);
        for (size_t p : previous[i])
          if (!queued[p]) {
            queued[p] = true;
            work.push_back(p);
          }
      }
    }
    auto count = [&](const std::vector<bool> &set) {
      LiveCount c;
      for (size_t r = 0; r < registers; ++r)
        if (set[r]) {
          c.vgprs += file[r] == 'v';
          c.agprs += file[r] == 'a';
          c.sgprs += file[r] == 's';
        }
      return c;
    };
    for (size_t i = 0; i < n; ++i) {
      std::vector<bool> after = out[i];
      for (size_t r : writes[i])
        after[r] = true;
      const LiveCount before = count(in[i]), needed = count(after);
      const LiveCount at = before.vectorRegisters() >= needed.vectorRegisters()
                               ? before
                               : needed;
      kernel.atLine[k.statements[i].line] = at;
      if (at.vectorRegisters() > kernel.peak.vectorRegisters()) {
        kernel.peak = at;
        kernel.peakLine = k.statements[i].line;
      }
    }
    result.push_back(std::move(kernel));
  }
  return result;
}

std::optional<std::pair<LiveCount, size_t>>
peakBetween(const KernelLiveness &liveness, size_t first, size_t last) {
  std::optional<std::pair<LiveCount, size_t>> peak;
  for (auto it = liveness.atLine.lower_bound(first);
       it != liveness.atLine.end() && it->first <= last; ++it)
    if (!peak || it->second.vectorRegisters() > peak->first.vectorRegisters())
      peak = std::pair{it->second, it->first};
  return peak;
}

std::string describe(const LiveCount &count, const KernelLiveness &liveness) {
  if (liveness.registerFile != "VGPRs")
    return std::to_string(count.vgprs) + " " + liveness.registerFile + " (" +
           std::to_string(count.sgprs) + " uniform)";
  return std::to_string(count.vgprs) + " VGPRs + " +
         std::to_string(count.agprs) + " AGPRs";
}

std::string describe(const KernelLiveness &liveness) {
  if (liveness.registerFile != "VGPRs")
    return "peak " + std::to_string(liveness.peak.vgprs) + " live " +
           liveness.registerFile + " (and " +
           std::to_string(liveness.peak.sgprs) + " uniform) at line " +
           std::to_string(liveness.peakLine) + ", as nvdisasm counts them";
  std::string text = "peak " + std::to_string(liveness.peak.vgprs) +
                     " live VGPRs + " + std::to_string(liveness.peak.agprs) +
                     " AGPRs at line " + std::to_string(liveness.peakLine);
  if (liveness.allocatedVgprs >= 0)
    text += " (allocated: " + std::to_string(liveness.allocatedVgprs) +
            " VGPRs" +
            (liveness.allocatedAgprs >= 0
                 ? ", " + std::to_string(liveness.allocatedAgprs) + " AGPRs"
                 : std::string()) +
            ")";
  return text;
}

} // namespace tilescope::isa
