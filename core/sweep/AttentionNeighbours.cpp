#include "core/sweep/AttentionNeighbours.h"

#include "core/config/Attribute.h"
#include "core/config/Validation.h"
#include "core/edit/OpLayoutInputs.h"
#include "core/layout/AttentionLayouts.h"
#include "core/util/Numbers.h"

#include <algorithm>

namespace tilescope::jobs {
namespace {

std::string listText(const std::vector<int64_t> &values) {
  return config::printAttribute(config::Attribute::integerArray(values));
}

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

std::vector<SweepPoint> attentionSubgroupPoints(const iree::Document &document,
                                                edit::OpRef op) {
  std::vector<SweepPoint> points;
  if (op.dispatch >= document.dispatches.size() ||
      op.op >= document.dispatches[op.dispatch].rootOps.size())
    return points;
  const iree::RootOp &root = document.dispatches[op.dispatch].rootOps[op.op];
  if (root.kind != config::OpKind::Attention || !root.space)
    return points;
  auto decomposition = edit::decompositionOf(root);
  auto dims = layout::attentionDims(*root.space);
  if (!decomposition || !decomposition->qk || !decomposition->pv || !dims ||
      dims->m.empty())
    return points;
  const size_t rank = root.space->rank();
  const auto qk = decomposition->qk->subgroupBasis();
  const auto pv = decomposition->pv->subgroupBasis();
  const auto tiles =
      config::parseResolvedAttribute(currentValue(document, op, "workgroup"));
  const auto workgroup =
      tiles ? tiles->asInt64Array() : std::optional<std::vector<int64_t>>();
  auto subgroupSize = parseInt64(currentValue(document, op, "subgroup_size"));
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
                        {"workgroup_size", listText({threads, 1, 1})}};
      if (newTile != tile) {
        std::vector<int64_t> changed = *workgroup;
        changed[m] = newTile;
        point.settings.emplace_back("workgroup", listText(changed));
      }
      point.distance = 1;
      points.push_back(std::move(point));
    }
  }
  return points;
}

std::vector<SweepPoint> axisPoints(const iree::Document &document,
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

} // namespace tilescope::jobs
