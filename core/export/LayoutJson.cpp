#include "core/export/LayoutJson.h"

#include "core/layout/TileMeaning.h"

using nlohmann::json;

namespace tilescope::exporting {

json tileMeaningsJson(const config::LoweringConfig &config,
                      const config::IterationSpace &space,
                      const std::string &pipeline) {
  json levels = json::object();
  for (config::TilingLevel level : config::kAllTilingLevels) {
    const std::string key = config::keyOf(level);
    auto values = config.tileSizes(level);
    if (!values)
      continue;
    auto meaning =
        layout::describeTileLevel(key, *values, config, space, pipeline);
    if (!meaning)
      continue; // a level tiles do not count (lane)
    json entries = json::array();
    for (const layout::TileEntryMeaning &entry : meaning->entries)
      entries.push_back({{"dim", entry.dim},
                         {"value", entry.value},
                         {"unit", entry.unit},
                         {"unit_name", entry.unitName},
                         {"elements", entry.elements},
                         {"count", entry.count},
                         {"text", entry.text}});
    levels[key] = {{"pieces", meaning->pieces}, {"entries", entries}};
  }
  return {{"pipeline", pipeline}, {"tiles", levels}};
}

json toJson(const layout::BankReport &report) {
  json accesses = json::array();
  for (const layout::BankReport::Access &a : report.accesses)
    accesses.push_back({{"lane", a.lane},
                        {"row", a.row},
                        {"column", a.column},
                        {"physical_column", a.physicalColumn},
                        {"first_bank", a.firstBank},
                        {"banks", a.bankCount}});
  return {{"accesses", accesses},
          {"conflicts_per_phase", report.conflictDegreePerPhase},
          {"worst_conflict", report.worstConflictDegree}};
}

json toJson(const layout::Swizzle &swizzle, const layout::BankComparison &banks,
            bool accesses) {
  json out = {
      {"swizzle", swizzle.describe()},
      {"worst_conflict_before", banks.before.worstConflictDegree},
      {"worst_conflict_after", banks.after.worstConflictDegree},
      {"conflicts_per_phase_before", banks.before.conflictDegreePerPhase},
      {"conflicts_per_phase_after", banks.after.conflictDegreePerPhase}};
  if (accesses) {
    out["before"] = toJson(banks.before);
    out["after"] = toJson(banks.after);
  }
  return out;
}

json toJson(const layout::PromotedReads &reads) {
  using Rows = layout::PromotedOperandReads::Rows;
  json operands = json::array();
  for (const layout::PromotedOperandReads &operand : reads.operands) {
    json out = {{"name", operand.name}};
    if (!operand.skipped.empty() || !operand.swizzle) {
      out["skipped"] = operand.skipped;
      operands.push_back(out);
      continue;
    }
    out["row_width"] = operand.rowWidth;
    out["element_bytes"] = operand.elementBytes;
    out["rows"] = operand.rows == Rows::Swizzled ? "swizzled"
                  : operand.rows == Rows::Padded ? "padded"
                                                 : "packed";
    out["pad_elements"] = operand.padElements;
    out["banks"] =
        toJson(*operand.swizzle,
               layout::compareBanks(*operand.swizzle, operand.accesses,
                                    operand.elementBytes, reads.banks),
               true);
    operands.push_back(out);
  }
  return {{"intrinsic", reads.intrinsic},
          {"bank_model",
           {{"banks", reads.banks.bankCount},
            {"bank_bytes", reads.banks.bankWidthBytes},
            {"lanes_per_phase", reads.banks.lanesPerPhase},
            {"subgroup_size", reads.banks.subgroupSize}}},
          {"operands", operands}};
}

nlohmann::json toJson(const layout::AttentionLayouts &attention) {
  using nlohmann::json;
  json contractions = json::array();
  for (const layout::AttentionContraction *part :
       {&attention.qk, &attention.pv}) {
    const layout::ContractionLayouts &l = part->layouts;
    json operands = json::array();
    auto operand = [&](const std::string &name, const char *role,
                       const config::NestedLayoutAttr &layout,
                       const std::vector<std::string> &axes) {
      operands.push_back({{"name", name},
                          {"role", role},
                          {"axes", axes},
                          {"layout", layout.print()}});
    };
    operand(part->lhs, "lhs", l.lhs, l.lhsAxes);
    operand(part->rhs, "rhs", l.rhs, l.rhsAxes);
    operand(part->acc, "acc", l.acc, l.accAxes);
    contractions.push_back({{"name", part->name},
                            {"loops", part->loops},
                            {"iteration_space", part->space.toString()},
                            {"mma_kind", l.intrinsic},
                            {"lowering_config", part->config.print()},
                            {"operands", operands},
                            {"notes", l.notes}});
  }
  const layout::AttentionDims &d = attention.dims;
  return {{"dims",
           {{"batch", d.batch},
            {"m", d.m},
            {"k1", d.k1},
            {"k2", d.k2},
            {"n", d.n}}},
          {"tile", attention.tile},
          {"k2_steps", attention.k2Steps},
          {"contractions", contractions},
          {"notes", attention.notes}};
}

} // namespace tilescope::exporting
