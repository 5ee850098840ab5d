#include "core/layout/TileMeaning.h"

#include "core/layout/ThreadDistribution.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <optional>

namespace tilescope::layout {
namespace {

struct Level {
  const char *key;
  const char *pieces; // what a count counts
  const char *per;    // "per workgroup", "per step"
};

constexpr Level kLevels[] = {
    {"workgroup", "workgroups", "per workgroup"},
    {"reduction", "steps", "per step"},
    {"partial_reduction", "iterations", "per iteration"},
    {"serial", "steps", "per step"},
    {"thread", "thread tiles", "per thread"},
    {"subgroup", "subgroup tiles", "per subgroup"},
};

std::string boundText(int64_t bound) {
  return bound == config::kDynamicSize || bound < 0 ? std::string("?")
                                                    : std::to_string(bound);
}

} // namespace

Result<TileLevelMeaning> describeTileLevel(const std::string &level,
                                           const std::vector<int64_t> &values,
                                           const config::LoweringConfig &config,
                                           const config::IterationSpace &space,
                                           const std::string &pipeline) {
  const Level *found = nullptr;
  for (const Level &candidate : kLevels)
    if (level == candidate.key)
      found = &candidate;
  if (!found)
    return Error{"'" + level + "' is not a tile level"};
  const size_t rank = space.rank();
  if (values.size() != rank)
    return Error{level + " has " + std::to_string(values.size()) +
                 " entries; the op has " + std::to_string(rank) + " loops"};

  // Under TileAndFuse with mma_kind, subgroup counts intrinsic M and N
  // tiles, reduction intrinsic K tiles.
  std::optional<IntrinsicUnits> units;
  if (pipeline == "TileAndFuse" && config.mmaKind() &&
      (level == "subgroup" || level == "reduction"))
    if (auto found_units = tileAndFuseIntrinsicUnits(config, space))
      units = std::move(*found_units);
  auto unitOf = [&](size_t d) -> int64_t {
    if (!units)
      return 1;
    const std::string &role = units->role[d];
    const bool counts = level == "subgroup" ? role == "M" || role == "N"
                                            : role == "K" || role == "K block";
    return counts ? units->unit[d] : 1;
  };
  // What thread and subgroup tiles divide: the workgroup tile (parallel
  // loops) and the reduction tile (reduction loops), as the config stands.
  const auto workgroup =
      zeroPadded(config.tileSizes(config::TilingLevel::Workgroup), rank);
  const auto reduction =
      zeroPadded(config.tileSizes(config::TilingLevel::Reduction), rank);
  const auto partial = zeroPadded(
      config.tileSizes(config::TilingLevel::PartialReduction), rank);
  std::optional<IntrinsicUnits> kUnits;
  if (pipeline == "TileAndFuse" && config.mmaKind())
    if (auto k = tileAndFuseIntrinsicUnits(config, space))
      kUnits = std::move(*k);

  TileLevelMeaning meaning;
  meaning.level = level;
  meaning.pieces = found->pieces;
  for (size_t d = 0; d < rank; ++d) {
    TileEntryMeaning e;
    e.dim = d;
    e.bound = space.bounds[d];
    e.value = values[d];
    e.unit = unitOf(d);
    e.unitName = e.unit > 1 ? units->intrinsic + " " + units->role[d] + " (" +
                                  std::to_string(e.unit) + ")"
                            : std::string("elements");
    e.elements = e.value > 0 ? saturatingMultiply(e.value, e.unit) : 0;
    const bool known = e.bound >= 0;
    e.over = known ? e.bound : 0;
    // What a thread or subgroup tile divides: the workgroup tile, or along
    // a reduction the reduction tile (VectorDistribute's partial_reduction
    // chunk when there is none).
    std::string within = "workgroup tile";
    if (known && (level == "thread" || level == "subgroup")) {
      int64_t tile = workgroup[d];
      if (space.isReduction(d)) {
        tile = reduction[d];
        within = "reduction tile";
        if (tile > 0 && kUnits &&
            (kUnits->role[d] == "K" || kUnits->role[d] == "K block"))
          tile = saturatingMultiply(tile, kUnits->unit[d]);
        if (tile <= 0) {
          tile = partial[d];
          within = "partial_reduction chunk";
        }
      }
      if (tile > 0)
        e.over = std::min(tile, e.bound);
    }
    e.count = e.elements > 0 && e.over > 0 ? ceilDiv(e.over, e.elements) : 0;

    std::string text = "d" + std::to_string(d) + " (" + boundText(e.bound) +
                       (space.isReduction(d) ? ", reduction" : "") + "): ";
    if (e.value <= 0) {
      text += "0, not tiled at this level";
    } else {
      text += std::to_string(e.value);
      if (e.unit > 1)
        text += " x " + e.unitName + " = " + std::to_string(e.elements);
      text += std::string(" element") + (e.elements == 1 ? "" : "s") + " " +
              found->per;
      if (e.count > 0) {
        text += " -> " + std::to_string(e.count) + " " + found->pieces;
        if (e.over != e.bound)
          text += " of the " + std::to_string(e.over) + "-element " + within;
        if (e.over % e.elements != 0)
          text += " (the last holds " + std::to_string(e.over % e.elements) +
                  ")";
      }
    }
    e.text = std::move(text);
    meaning.entries.push_back(std::move(e));
  }
  return meaning;
}

} // namespace tilescope::layout
