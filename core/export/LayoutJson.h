// JSON for the layout answers scripts read: what each tile list means loop
// by loop (`explain --tiles --json`, Python's tile_meanings), where a
// swizzle's accesses land and which banks collide (`explain --swizzle
// --json`, Python's Swizzle.banks), and the promoted operands' MMA reads
// (Python's bank_reads; the window's bank view draws the same).
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/layout/AttentionLayouts.h"
#include "core/layout/PromotedBanks.h"
#include "core/layout/Swizzle.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tilescope::exporting {

// {"pipeline", "tiles": {LEVEL: {"pieces", "entries": [{"dim", "value",
// "unit", "unit_name", "elements", "count", "text"}]}}} over every tile
// level the config sets (layout::describeTileLevel).
nlohmann::json tileMeaningsJson(const config::LoweringConfig &config,
                                const config::IterationSpace &space,
                                const std::string &pipeline);

// {"accesses": [{"lane", "row", "column", "physical_column", "first_bank",
// "banks"}], "conflicts_per_phase", "worst_conflict"}.
nlohmann::json toJson(const layout::BankReport &report);
// {"swizzle", "worst_conflict_before", "worst_conflict_after",
// "conflicts_per_phase_before", "conflicts_per_phase_after"}; with
// `accesses`, also "before" and "after" in full.
nlohmann::json toJson(const layout::Swizzle &swizzle,
                      const layout::BankComparison &banks,
                      bool accesses = false);
// {"intrinsic", "bank_model", "operands": [{"name", "skipped" | "row_width",
// "element_bytes", "rows", "pad_elements", "swizzle", "banks"}]}.
nlohmann::json toJson(const layout::PromotedReads &reads);
// {"dims": {"batch", "m", "k1", "k2", "n"}, "tile", "k2_steps",
// "contractions": [{"name", "loops", "iteration_space", "mma_kind",
// "lowering_config", "operands": [{"name", "role", "axes", "layout"}]}],
// "notes"}: attention's Q.K^T and P.V as IREE lays them out.
nlohmann::json toJson(const layout::AttentionLayouts &attention);

} // namespace tilescope::exporting
