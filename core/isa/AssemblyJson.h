// A listing as JSON, the form `tilescope-cli isa --json` prints and Python's
// tilescope.instructions returns.
#pragma once

#include "core/isa/Assembly.h"
#include "core/isa/SourceCounters.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace tilescope::isa {

// {"kind", "label", "first_line", "last_line", "counts": {class: n},
//  "width_bits": {class: {bits: n}}, "banks": words, "peak_live": {vgprs,
//  agprs, line} (AMDGPU), "instructions": [...] (when asked; with
//  "live_vgprs"/"live_agprs" on AMDGPU, "address" on SASS (its offset in
//  the kernel's code), a shared-memory access with its
//  "bank_conflict" degree or why it is "bank_unresolved")}
nlohmann::json toJson(const Kernel &kernel, const Region &region,
                      bool withInstructions);
// {"line", "mnemonic", "store", "bytes", "resolved", "degree",
//  "lanes_per_phase", "phases", "uniform_base_assumed"} or, unresolved,
//  {"line", "mnemonic", "resolved": false, "why"}.
nlohmann::json toJson(const SharedAccess &access);
// {"threads", "subgroup_size", "summary", "mmas": [{"line", "mnemonic",
//  "destination": [registers], "accumulates_from": [lines]}], "stores":
//  [{"line", "mnemonic", "element_bytes", "resolved", "why", "elements":
//  [[thread, byte offset, MMA line, register, derived 0/1], ...] (when
//  asked)}]}.
nlohmann::json toJson(const KernelAccumulators &kernel, bool withElements);
// {"summary", "moves": [{"line", "mnemonic", "kind" ("global load",
//  "shared store", "shared load", "MMA A", "MMA B"), "bytes",
//  "followed_bytes", "element_bytes" (MMAs), "why", "runs": [[thread,
//  binding, byte offset, bytes, position, derived 0/1], ...] (when
//  asked)}]}.
nlohmann::json toJson(const KernelOperands &kernel, bool withRuns);
// [{"file", "dialect", "kernel", "regions": [...], "shared_accesses": [...],
//   "accumulators": {...}, "operands": {...}, "live_registers": {peak and
//   allocated, AMDGPU}}, ...] a kernel each; the accumulators' elements and
//   the operands' runs with the instructions; a SASS kernel with Nsight
//   Compute's `counters` has them as "profile" (below).
nlohmann::json toJson(const std::filesystem::path &file, const Listing &listing,
                      bool withInstructions,
                      const std::vector<KernelCounters> &counters = {});

// Nsight Compute's counters over a SASS kernel: {"tool": "ncu", "kernel",
//  "profiled_instructions", "sass_instructions", "matched", "same_code",
//  "stall_samples", "note", "regions": [{"first_line", "last_line",
//  "summary"}], "top_lines": [the ten with the most stall samples: {"line",
//  "mnemonic", "stall_samples", "stalls": {reason: samples}}], "banks":
//  [{"line", "ptx_line", "mnemonic", "predicted_degree",
//  "predicted_wavefronts", "measured_wavefronts", "ideal_wavefronts"}],
//  "instructions": [{"line", "address", "mnemonic", "executed",
//  "stall_samples", "stalls", "shared_wavefronts", "shared_wavefronts_ideal",
//  "global_sectors", "global_sectors_ideal"}] (when asked)}.
nlohmann::json toJson(const CounterOverlay &overlay,
                      const std::vector<BankCheck> &banks, const Kernel &sass,
                      bool withInstructions);

} // namespace tilescope::isa
