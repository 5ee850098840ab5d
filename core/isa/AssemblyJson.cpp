#include "core/isa/AssemblyJson.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

namespace tilescope::isa {

using json = nlohmann::json;

json toJson(const SharedAccess &access) {
  json out = {{"line", access.line},
              {"mnemonic", access.mnemonic},
              {"store", access.store},
              {"bytes", access.accessBytes},
              {"resolved", access.resolved}};
  if (!access.resolved) {
    out["why"] = access.why;
    return out;
  }
  out["degree"] = access.degrees.worst;
  out["lanes_per_phase"] = access.degrees.lanesPerPhase;
  out["phases"] = access.degrees.perPhase;
  out["uniform_base_assumed"] = access.uniformBaseAssumed;
  return out;
}

json toJson(const KernelAccumulators &kernel, bool withElements) {
  json mmas = json::array();
  for (const MmaStep &step : kernel.mmas)
    mmas.push_back({{"line", step.line},
                    {"mnemonic", step.mnemonic},
                    {"destination", step.destination},
                    {"accumulates_from", step.accumulatesFrom}});
  json stores = json::array();
  for (const AccumulatorStore &store : kernel.stores) {
    json entry = {{"line", store.line},
                  {"mnemonic", store.mnemonic},
                  {"element_bytes", store.elementBytes},
                  {"resolved", store.resolved}};
    if (!store.why.empty())
      entry["why"] = store.why;
    if (withElements) {
      json elements = json::array();
      for (const StoredElement &e : store.elements)
        elements.push_back(
            {e.thread, e.offset, e.mma, e.element, e.derived ? 1 : 0});
      entry["elements"] = elements;
    }
    stores.push_back(entry);
  }
  return {{"threads", kernel.threads},
          {"subgroup_size", kernel.subgroupSize},
          {"summary", describe(kernel)},
          {"mmas", mmas},
          {"stores", stores}};
}

json toJson(const KernelOperands &kernel, bool withRuns) {
  json moves = json::array();
  for (const OperandMove &move : kernel.moves) {
    json entry = {{"line", move.line},
                  {"mnemonic", move.mnemonic},
                  {"kind", nameOf(move.kind)},
                  {"bytes", move.bytes},
                  {"followed_bytes", move.followed()}};
    if (move.elementBytes > 0)
      entry["element_bytes"] = move.elementBytes;
    if (!move.why.empty())
      entry["why"] = move.why;
    if (withRuns) {
      json runs = json::array();
      for (const MovedBytes &m : move.moved)
        runs.push_back({m.thread, m.binding, m.offset, m.bytes, m.position,
                        m.derived ? 1 : 0});
      entry["runs"] = runs;
    }
    moves.push_back(entry);
  }
  return {{"summary", describe(kernel)}, {"moves", moves}};
}

json toJson(const Kernel &kernel, const Region &region, bool withInstructions) {
  json counts = json::object();
  json widths = json::object();
  for (InstructionClass kind : kReportOrder) {
    if (region.count(kind) == 0)
      continue;
    counts[toString(kind)] = region.count(kind);
    std::map<int, size_t> byWidth;
    for (const Instruction &i : region.instructions)
      if (i.kind == kind && i.widthBits > 0)
        ++byWidth[i.widthBits];
    for (const auto &[bits, count] : byWidth)
      widths[toString(kind)][std::to_string(bits)] = count;
  }
  json out = {{"kind", toString(region.kind)},
              {"label", region.label},
              {"first_line", region.firstLine},
              {"last_line", region.lastLine},
              {"counts", counts},
              {"width_bits", widths}};
  if (const std::string banks = describeBanks(
          kernel.sharedAccesses, region.firstLine, region.lastLine);
      !banks.empty())
    out["banks"] = banks;
  if (kernel.liveness)
    if (auto peak =
            peakBetween(*kernel.liveness, region.firstLine, region.lastLine))
      out["peak_live"] = {{"vgprs", peak->first.vgprs},
                          {"agprs", peak->first.agprs},
                          {"line", peak->second}};
  if (withInstructions) {
    json list = json::array();
    for (const Instruction &i : region.instructions) {
      json entry = {{"line", i.line},
                    {"class", toString(i.kind)},
                    {"mnemonic", i.mnemonic},
                    {"width_bits", i.widthBits}};
      if (i.ptxLine > 0)
        entry["ptx_line"] = i.ptxLine;
      if (kernel.liveness)
        if (auto live = kernel.liveness->atLine.find(i.line);
            live != kernel.liveness->atLine.end()) {
          entry["live_vgprs"] = live->second.vgprs;
          entry["live_agprs"] = live->second.agprs;
        }
      if (const SharedAccess *access = kernel.sharedAccessAt(i.line)) {
        if (access->resolved)
          entry["bank_conflict"] = access->degrees.worst;
        else
          entry["bank_unresolved"] = access->why;
      }
      list.push_back(entry);
    }
    out["instructions"] = list;
  }
  return out;
}

json toJson(const std::filesystem::path &file, const Listing &listing,
            bool withInstructions,
            const std::vector<KernelCounters> &counters) {
  json out = json::array();
  for (const Kernel &kernel : listing.kernels) {
    json regions = json::array();
    for (const Region &region : kernel.regions) {
      regions.push_back(toJson(kernel, region, withInstructions));
      // SASS: each instruction's offset, by which a profiler's counters
      // find it.
      if (withInstructions && listing.dialect == "sass")
        for (size_t i = 0; i < region.instructions.size(); ++i)
          regions.back()["instructions"][i]["address"] =
              region.instructions[i].address;
    }
    json accesses = json::array();
    for (const SharedAccess &access : kernel.sharedAccesses)
      accesses.push_back(toJson(access));
    json entry = {
        {"file", file.string()},
        {"dialect", listing.dialect},
        {"kernel", kernel.name},
        {"regions", regions},
        {"shared_accesses", accesses},
        {"accumulators", toJson(kernel.accumulators, withInstructions)},
        {"operands", toJson(kernel.operands, withInstructions)}};
    if (kernel.liveness) {
      const KernelLiveness &live = *kernel.liveness;
      entry["live_registers"] = {{"register_file", live.registerFile},
                                 {"peak_vgprs", live.peak.vgprs},
                                 {"peak_agprs", live.peak.agprs},
                                 {"peak_sgprs", live.peak.sgprs},
                                 {"peak_line", live.peakLine},
                                 {"allocated_vgprs", live.allocatedVgprs},
                                 {"allocated_agprs", live.allocatedAgprs},
                                 {"allocated_sgprs", live.allocatedSgprs}};
    }
    out.push_back(entry);
  }
  for (const KernelCounters &kernel : counters)
    if (kernel.kernel < out.size())
      out[kernel.kernel]["profile"] =
          toJson(kernel.overlay, kernel.banks, listing.kernels[kernel.kernel],
                 withInstructions);
  return out;
}

namespace {

json stallsOf(const CountedInstruction &counted) {
  json stalls = json::object();
  for (const auto &[reason, samples] : counted.stalls)
    stalls[reason] = samples;
  return stalls;
}

void putNumber(json &out, const char *key, const std::optional<double> &value) {
  if (value)
    out[key] = *value;
}

} // namespace

json toJson(const CounterOverlay &overlay, const std::vector<BankCheck> &banks,
            const Kernel &sass, bool withInstructions) {
  json regions = json::array();
  for (const Region &region : sass.regions)
    if (std::string summary =
            describeCounters(overlay, region.firstLine, region.lastLine);
        !summary.empty())
      regions.push_back({{"first_line", region.firstLine},
                         {"last_line", region.lastLine},
                         {"summary", summary}});
  json top = json::array();
  for (const auto &[line, counted] : hottestLines(overlay, 10))
    top.push_back({{"line", line},
                   {"mnemonic", counted->mnemonic},
                   {"stall_samples", *counted->stallSamples},
                   {"stalls", stallsOf(*counted)}});
  json checks = json::array();
  for (const BankCheck &check : banks)
    checks.push_back({{"line", check.line},
                      {"ptx_line", check.ptxLine},
                      {"mnemonic", check.mnemonic},
                      {"predicted_degree", check.predictedDegree},
                      {"predicted_wavefronts", check.predictedWavefronts},
                      {"measured_wavefronts", check.measuredWavefronts},
                      {"ideal_wavefronts", check.idealWavefronts}});
  json out = {{"tool", "ncu"},
              {"kernel", overlay.kernel},
              {"profiled_instructions", overlay.profiledInstructions},
              {"sass_instructions", overlay.sassInstructions},
              {"matched", overlay.matched},
              {"same_code", overlay.sameCode},
              {"stall_samples", overlay.stallSamples},
              {"note", overlay.note},
              {"regions", regions},
              {"top_lines", top},
              {"banks", checks}};
  if (withInstructions) {
    json list = json::array();
    for (const auto &[line, counted] : overlay.atLine) {
      json entry = {{"line", line},
                    {"address", counted.address},
                    {"mnemonic", counted.mnemonic},
                    {"stalls", stallsOf(counted)}};
      putNumber(entry, "executed", counted.executed);
      putNumber(entry, "stall_samples", counted.stallSamples);
      putNumber(entry, "shared_wavefronts", counted.sharedWavefronts);
      putNumber(entry, "shared_wavefronts_ideal",
                counted.sharedWavefrontsIdeal);
      putNumber(entry, "global_sectors", counted.globalSectors);
      putNumber(entry, "global_sectors_ideal", counted.globalSectorsIdeal);
      list.push_back(entry);
    }
    out["instructions"] = list;
  }
  return out;
}

} // namespace tilescope::isa
