#include "core/sweep/Neighbours.h"

#include "core/config/configs/LoweringConfig.h"
#include "core/config/rules/Validation.h"
#include "core/config/syntax/Attribute.h"
#include "core/edit/ConfigDiff.h"
#include "core/edit/OpLayoutInputs.h"
#include "core/layout/AttentionLayouts.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <limits>

namespace tilescope::sweep {

namespace {

// The integers of the op's list `field` as it stands, unset for anything
// else.
std::optional<std::vector<int64_t>>
currentIntegers(const document::Document &document, edit::OpRef op,
                const std::string &field) {
  auto value = currentAttribute(document, op, field);
  return value ? value->asInt64Array() : std::nullopt;
}

// The op's integer `field` as it stands, unset for anything else.
std::optional<int64_t> currentInteger(const document::Document &document,
                                      edit::OpRef op,
                                      const std::string &field) {
  auto value = currentAttribute(document, op, field);
  return value ? value->asInt64() : std::nullopt;
}

} // namespace

namespace {

// The neighbours of entry `i` (value v > 0) of the integer list `field`:
// halved and doubled; where the entries are tiles of elements over the
// op's loops (`elements`), a tile covering its loop is not doubled and a
// divisor of its loop stays one.
SweepAxis entryAxis(const document::RootOp *root, const std::string &field,
                    size_t i, int64_t v, bool elements) {
  // A tile of elements already covering its loop only pads when doubled (an
  // attention's 64 value columns tiled at 128, a window of 3 reduced 3 at a
  // time). Tiles of intrinsics: left alone.
  const bool whole = elements && root && root->space &&
                     i < root->space->rank() && root->space->bounds[i] > 0 &&
                     v >= root->space->bounds[i];
  // A tile of elements that divides its loop stays a divisor: the nearest
  // one below and above where half and double do not divide (1000 rows tiled
  // at 8 go to 4 and 10, not 16, whose last workgroup is partial: IREE
  // refuses that for a reduction with an op fused after it).
  const int64_t bound = elements && root && root->space &&
                                i < root->space->rank() &&
                                root->space->bounds[i] > 0
                            ? root->space->bounds[i]
                            : 0;
  const bool divides = bound > 0 && bound % v == 0;
  // The divisor of the loop nearest `wanted` on its side of v (between half
  // and v, or between v and double), else `wanted` itself.
  auto divisorNear = [&](int64_t wanted, int64_t step) {
    if (!divides || bound % wanted == 0)
      return wanted;
    for (int64_t c = wanted; c != v && c <= bound; c += step)
      if (bound % c == 0)
        return c;
    return wanted;
  };
  SweepAxis axis;
  axis.field = field + "[" + std::to_string(i) + "]";
  if (v > 1)
    axis.values.push_back(std::to_string(divisorNear(v / 2, 1)));
  axis.values.push_back(std::to_string(v));
  if (!whole)
    axis.values.push_back(std::to_string(divisorNear(v * 2, -1)));
  return axis;
}

// The op `op` names, or null when the document has none there.
const document::RootOp *rootOpOf(const document::Document &document,
                                 edit::OpRef op) {
  if (op.dispatch >= document.dispatches.size() ||
      op.op >= document.dispatches[op.dispatch].rootOps.size())
    return nullptr;
  return &document.dispatches[op.dispatch].rootOps[op.op];
}

// Whether the entries of `field` are tiles of elements over the op's loops:
// the workgroup and partial-reduction tiles, and the reduction tiles where
// no mma_kind makes them count intrinsics (a depthwise convolution's 3x3
// window: reduction = [.., 3, 3]).
bool tilesOfElements(const document::Document &document, edit::OpRef op,
                     std::string_view field) {
  if (field == "workgroup" || field == "partial_reduction")
    return true;
  return field == "reduction" && !currentAttribute(document, op, "mma_kind");
}

} // namespace

std::vector<SweepAxis> neighbourAxes(const document::Document &document,
                                     edit::OpRef op) {
  std::vector<SweepAxis> axes;
  const document::RootOp *root = rootOpOf(document, op);
  // IREE's SIMT attention config steps K2 by partial_reduction: its step
  // is a knob like a reduction tile (in elements; one IREE's bases do not
  // divide is refused by the rules, as IREE refuses it).
  const bool attention = root && root->kind == config::OpKind::Attention;
  for (const char *name : {"workgroup", "reduction", "partial_reduction"}) {
    if (std::string_view(name) == "partial_reduction" && !attention)
      continue;
    auto numbers = currentIntegers(document, op, name);
    if (!numbers)
      continue;
    for (size_t i = 0; i < numbers->size(); ++i)
      if ((*numbers)[i] > 0)
        axes.push_back(entryAxis(root, name, i, (*numbers)[i],
                                 tilesOfElements(document, op, name)));
  }
  return axes;
}

std::vector<SweepAxis> fieldAxes(const document::Document &document,
                                 edit::OpRef op) {
  std::vector<SweepAxis> axes;
  const document::RootOp *root = rootOpOf(document, op);
  if (!root)
    return axes;
  for (const edit::FieldEntry &f :
       edit::opFieldEntries(document.dispatches[op.dispatch], *root)) {
    const std::string &field = f.field;
    auto numbers = f.value.asInt64Array();
    if (!numbers || numbers->empty()) {
      axes.push_back({field, {f.text}});
      continue;
    }
    const bool elements = tilesOfElements(document, op, field);
    for (size_t i = 0; i < numbers->size(); ++i) {
      const int64_t v = (*numbers)[i];
      if (v > 0)
        axes.push_back(entryAxis(root, field, i, v, elements));
      else
        axes.push_back(
            {field + "[" + std::to_string(i) + "]", {std::to_string(v)}});
    }
  }
  return axes;
}

std::vector<SweepPoint> neighbourPoints(const document::Document &document,
                                        edit::OpRef op) {
  std::vector<SweepPoint> points;
  const document::RootOp *found = rootOpOf(document, op);
  if (!found)
    return points;
  const document::RootOp &root = *found;
  if (!config::isCpuLoweringConfigText(root.loweringConfig))
    return points;
  auto cache = currentIntegers(document, op, "cache_parallel");
  for (const char *name :
       {"distribution", "vector_common_parallel", "vector_reduction"}) {
    auto numbers = currentIntegers(document, op, name);
    if (!numbers)
      continue;
    for (size_t i = 0; i < numbers->size(); ++i) {
      const int64_t v = (*numbers)[i];
      if (v <= 0)
        continue;
      // Past the loop's own size a tile only pads.
      const int64_t bound =
          root.space && i < root.space->rank() && root.space->bounds[i] > 0
              ? root.space->bounds[i]
              : std::numeric_limits<int64_t>::max();
      for (const int64_t next : {v / 2, v * 2}) {
        if (next < 1 || next == v || (next > v && v >= bound))
          continue;
        std::vector<int64_t> changed = *numbers;
        changed[i] = next;
        SweepPoint point;
        point.name = std::string(name) + "[" + std::to_string(i) +
                     "]=" + std::to_string(next);
        point.settings.emplace_back(name, bracketedList(changed));
        // The cache level's tile stays the distribution's where it was.
        if (std::string_view(name) == "distribution" && cache &&
            i < cache->size() && (*cache)[i] == v) {
          std::vector<int64_t> cacheChanged = *cache;
          cacheChanged[i] = next;
          point.settings.emplace_back("cache_parallel",
                                      bracketedList(cacheChanged));
        }
        point.distance = 1;
        points.push_back(std::move(point));
      }
    }
  }
  return points;
}

namespace {

// The op's basis `field` as it stands, its counts and mapping; unset for
// anything else.
std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>>
currentBasis(const document::Document &document, edit::OpRef op,
             const std::string &field) {
  auto value = currentAttribute(document, op, field);
  if (!value)
    return std::nullopt;
  auto basis = config::basisFromAttribute(*value, field);
  if (!basis || basis->counts.size() != basis->mapping.size())
    return std::nullopt;
  return std::make_pair(std::move(basis->counts), std::move(basis->mapping));
}

std::string basisText(const std::vector<int64_t> &counts,
                      const std::vector<int64_t> &mapping) {
  return "[" + bracketedList(counts) + ", " + bracketedList(mapping) + "]";
}

// A VectorDistribute reduction-style config as both of its neighbourhoods
// read it: its bases, partial_reduction and thread tiles (one entry a loop)
// and subgroup size, and the longest reduction loop it tiles. Unset where
// any is missing or of another rank.
struct ReductionDistribution {
  std::pair<std::vector<int64_t>, std::vector<int64_t>> lanes, subgroups;
  std::vector<int64_t> partial, thread;
  int64_t subgroupSize = 0;
  size_t longest = 0; // the loop
  int64_t bound = 0;  // its size
};

std::optional<ReductionDistribution>
reductionDistributionOf(const document::Document &document, edit::OpRef op,
                        const document::RootOp &root) {
  auto lanes = currentBasis(document, op, "lane_basis");
  auto subgroups = currentBasis(document, op, "subgroup_basis");
  auto partial = currentIntegers(document, op, "partial_reduction");
  auto thread = currentIntegers(document, op, "thread");
  auto subgroupSize = currentInteger(document, op, "subgroup_size");
  if (!lanes || !subgroups || !partial || !thread || !subgroupSize ||
      *subgroupSize <= 0 || !root.space)
    return std::nullopt;
  const size_t rank = root.space->rank();
  if (partial->size() != rank || thread->size() != rank ||
      lanes->first.size() != rank || subgroups->first.size() != rank)
    return std::nullopt;
  std::optional<size_t> longest;
  for (size_t d = 0; d < rank; ++d)
    if (root.space->isReduction(d) && (*partial)[d] > 0 && (*thread)[d] > 0 &&
        (!longest || root.space->bounds[d] > root.space->bounds[*longest]))
      longest = d;
  if (!longest)
    return std::nullopt;
  return ReductionDistribution{
      std::move(*lanes),           std::move(*subgroups), std::move(*partial),
      std::move(*thread),          *subgroupSize,         *longest,
      root.space->bounds[*longest]};
}

} // namespace

std::vector<SweepPoint> laneFillingPoints(const document::Document &document,
                                          edit::OpRef op) {
  std::vector<SweepPoint> points;
  const document::RootOp *root = rootOpOf(document, op);
  const auto config =
      root ? reductionDistributionOf(document, op, *root) : std::nullopt;
  if (!config)
    return points;
  int64_t used = 1;
  for (int64_t count : config->lanes.first)
    used *= count;
  if (used >= config->subgroupSize)
    return points;
  // The longest reduction loop the config tiles: its lanes and subgroups.
  const size_t r = config->longest;
  const int64_t bound = config->bound;
  const auto &lanes = config->lanes, &subgroups = config->subgroups;
  const int64_t subgroupSize = config->subgroupSize;
  for (const int64_t subgroupCount : {int64_t{2}, int64_t{8}, int64_t{32}})
    for (const int64_t batch : {int64_t{1}, int64_t{16}}) {
      const int64_t threads = subgroupSize * subgroupCount;
      const int64_t step = config->thread[r] * threads * batch;
      if (threads > 1024 || (bound > 0 && step > bound))
        continue;
      std::vector<int64_t> laneCounts(lanes.first.size(), 1),
          subgroupCounts(subgroups.first.size(), 1);
      laneCounts[r] = subgroupSize;
      subgroupCounts[r] = subgroupCount;
      std::vector<int64_t> steps = config->partial;
      steps[r] = step;
      SweepPoint point;
      point.name = "lanes " + std::to_string(subgroupSize) + " x subgroups " +
                   std::to_string(subgroupCount) + " over d" +
                   std::to_string(r) + ", partial_reduction[" +
                   std::to_string(r) + "]=" + std::to_string(step);
      point.settings = {
          {"lane_basis", basisText(laneCounts, lanes.second)},
          {"subgroup_basis", basisText(subgroupCounts, subgroups.second)},
          {"partial_reduction", bracketedList(steps)},
          {"workgroup_size", "[" + std::to_string(threads) + ", 1, 1]"}};
      point.distance = 0.5;
      points.push_back(std::move(point));
    }
  return points;
}

std::vector<SweepPoint>
reductionSpreadPoints(const document::Document &document, edit::OpRef op) {
  std::vector<SweepPoint> points;
  const document::RootOp *root = rootOpOf(document, op);
  if (!root || currentAttribute(document, op, "mma_kind"))
    return points;
  const auto config = reductionDistributionOf(document, op, *root);
  auto size = currentIntegers(document, op, "workgroup_size");
  if (!config || !size || size->empty())
    return points;
  const auto &lanes = config->lanes, &subgroups = config->subgroups;
  // Each loop its own basis entry (IREE's own reduction configs), and the
  // lanes filling a subgroup (else laneFillingPoints is the neighbourhood).
  int64_t laneCount = 1, otherSubgroups = 1;
  for (size_t d = 0; d < lanes.first.size(); ++d) {
    if (lanes.second[d] != static_cast<int64_t>(d) ||
        subgroups.second[d] != static_cast<int64_t>(d))
      return points;
    laneCount *= lanes.first[d];
  }
  if (laneCount != config->subgroupSize)
    return points;
  const size_t r = config->longest;
  for (size_t d = 0; d < subgroups.first.size(); ++d)
    if (d != r)
      otherSubgroups *= subgroups.first[d];
  const int64_t lanesOnR = lanes.first[r], subgroupsOnR = subgroups.first[r],
                step = config->thread[r], bound = config->bound;
  const int64_t spread = step * lanesOnR * subgroupsOnR;
  if (spread <= 0 || config->partial[r] % spread != 0)
    return points;
  const int64_t batch = config->partial[r] / spread;
  const auto neighbours = [](int64_t v, int64_t most) {
    std::vector<int64_t> out;
    if (v % 2 == 0)
      out.push_back(v / 2);
    out.push_back(v);
    if (v * 2 <= most)
      out.push_back(v * 2);
    return out;
  };
  for (const int64_t newStep : neighbours(step, 16))
    for (const int64_t newSubgroups : neighbours(subgroupsOnR, 32)) {
      if (newStep == step && newSubgroups == subgroupsOnR)
        continue;
      const int64_t threads =
          config->subgroupSize * newSubgroups * otherSubgroups;
      const int64_t covered = newStep * lanesOnR * newSubgroups * batch;
      if (threads > 1024 || (bound > 0 && covered > bound))
        continue;
      std::vector<int64_t> steps = config->thread, tiles = config->partial,
                           counts = subgroups.first, sizes = *size;
      steps[r] = newStep;
      tiles[r] = covered;
      counts[r] = newSubgroups;
      sizes[0] = threads;
      SweepPoint point;
      const std::string at = "[" + std::to_string(r) + "]=";
      point.name =
          (newStep != step ? "thread" + at + std::to_string(newStep) + " "
                           : "") +
          (newSubgroups != subgroupsOnR
               ? "subgroups" + at + std::to_string(newSubgroups) + " "
               : "") +
          "partial_reduction" + at + std::to_string(covered);
      point.settings = {{"thread", bracketedList(steps)},
                        {"partial_reduction", bracketedList(tiles)}};
      if (newSubgroups != subgroupsOnR) {
        point.settings.emplace_back("subgroup_basis",
                                    basisText(counts, subgroups.second));
        point.settings.emplace_back("workgroup_size", bracketedList(sizes));
      }
      point.distance =
          (newStep != step ? 1 : 0) + (newSubgroups != subgroupsOnR ? 1 : 0);
      points.push_back(std::move(point));
    }
  return points;
}

std::vector<SweepPoint> crossPoints(const std::vector<SweepPoint> &first,
                                    const std::vector<SweepPoint> &second) {
  const std::vector<SweepPoint> none(1);
  std::vector<SweepPoint> withConfig = none;
  withConfig.insert(withConfig.end(), second.begin(), second.end());
  std::vector<SweepPoint> points;
  for (const SweepPoint &a : first.empty() ? none : first) {
    for (const SweepPoint &b : withConfig) {
      SweepPoint merged = a;
      merged.name +=
          (merged.name.empty() || b.name.empty() ? "" : " ") + b.name;
      merged.settings.insert(merged.settings.end(), b.settings.begin(),
                             b.settings.end());
      merged.distance += b.distance;
      if (!merged.settings.empty())
        points.push_back(std::move(merged));
    }
  }
  return points;
}

namespace {

// The smallest share of query rows a subgroup can hold: the larger of the
// two intrinsics' M (fewer rows pad the intrinsic).
int64_t rowsAtLeast(const config::DecompositionConfig &decomposition) {
  int64_t rows = 1;
  for (const auto &part : {decomposition.qk, decomposition.pv}) {
    const auto kind = part ? part->mmaKind() : std::nullopt;
    if (const auto shape =
            kind ? config::intrinsicShape(kind->intrinsic) : std::nullopt)
      rows = std::max(rows, shape->m);
  }
  return rows;
}

} // namespace

std::vector<SweepPoint>
attentionSubgroupPoints(const document::Document &document, edit::OpRef op) {
  std::vector<SweepPoint> points;
  const document::RootOp *found = rootOpOf(document, op);
  if (!found || found->kind != config::OpKind::Attention || !found->space)
    return points;
  const document::RootOp &root = *found;
  auto decomposition = edit::decompositionOf(root);
  auto dims = layout::attentionDims(*root.space);
  if (!decomposition || !decomposition->qk || !decomposition->pv || !dims ||
      dims->m.empty())
    return points;
  const size_t rank = root.space->rank();
  const auto qk = decomposition->qk->subgroupBasis();
  const auto pv = decomposition->pv->subgroupBasis();
  const auto workgroup = currentIntegers(document, op, "workgroup");
  auto subgroupSize = currentInteger(document, op, "subgroup_size");
  if (!qk || !pv || qk->counts.size() != rank || pv->counts.size() != rank ||
      !workgroup || workgroup->size() != rank || !subgroupSize ||
      *subgroupSize <= 0)
    return points;
  // IREE counts subgroups on the innermost query-row loop.
  const auto m = static_cast<size_t>(dims->m.back());
  const int64_t now = pv->counts[m];
  const int64_t tile = (*workgroup)[m];
  if (now <= 0 || qk->counts[m] != now || tile <= 0 || tile % now != 0)
    return points;
  int64_t others = 1; // subgroups on the other loops (IREE's N count)
  for (size_t d = 0; d < rank; ++d)
    if (d != m)
      others = saturatingMultiply(others, std::max<int64_t>(1, pv->counts[d]));
  const int64_t bound = root.space->bounds[m];
  const int64_t fewest = rowsAtLeast(*decomposition);
  for (const int64_t count : {now / 2, now * 2}) {
    const int64_t threads =
        saturatingMultiply(saturatingMultiply(count, others), *subgroupSize);
    if (count < 1 || count == now || threads > 1024)
      continue;
    // Each subgroup as many rows as now (the M tile following), or the M
    // tile as it is shared among them.
    for (const int64_t rows : {tile / now, tile / count}) {
      const int64_t newTile = rows * count;
      if (rows < fewest || tile % count != 0 || (bound > 0 && newTile > bound))
        continue;
      SweepPoint point;
      point.name = std::to_string(count) + " subgroups on d" +
                   std::to_string(m) + ", " + std::to_string(rows) +
                   " query rows each";
      auto countsOn = [&](config::Basis basis) {
        basis.counts[m] = count;
        return config::printAttribute(basis.toAttribute());
      };
      point.settings = {{"qk_attrs.subgroup_basis", countsOn(*qk)},
                        {"pv_attrs.subgroup_basis", countsOn(*pv)},
                        {"workgroup_size", bracketedList({threads, 1, 1})}};
      if (newTile != tile) {
        std::vector<int64_t> changed = *workgroup;
        changed[m] = newTile;
        point.settings.emplace_back("workgroup", bracketedList(changed));
      }
      point.distance = 1;
      points.push_back(std::move(point));
    }
  }
  return points;
}

std::vector<SweepPoint> axisPoints(const document::Document &document,
                                   edit::OpRef op,
                                   const std::vector<SweepAxis> &axes) {
  std::vector<SweepPoint> points(1);
  for (const SweepAxis &axis : axes) {
    const std::string now = currentValue(document, op, axis.field);
    std::vector<SweepPoint> next;
    for (const SweepPoint &point : points)
      for (const std::string &value : axis.values) {
        SweepPoint extended = point;
        extended.name +=
            (extended.name.empty() ? "" : " ") + axis.field + "=" + value;
        extended.settings.emplace_back(axis.field, value);
        extended.distance += value == now ? 0 : 1;
        next.push_back(std::move(extended));
      }
    points = std::move(next);
  }
  return axes.empty() ? std::vector<SweepPoint>{} : points;
}

} // namespace tilescope::sweep
