#include "widgets/render/OpScenes.h"

#include "widgets/render/DistributionScenes.h"
#include "widgets/render/Scenes.h"

#include <algorithm>

namespace tilescope::render {

std::pair<size_t, size_t>
pickDims(const std::vector<int64_t> &sizes,
         const std::optional<std::pair<size_t, size_t>> &asked) {
  if (asked && asked->first < sizes.size() && asked->second < sizes.size())
    return *asked;
  std::vector<size_t> wide;
  for (size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] > 1)
      wide.push_back(i);
  if (wide.size() >= 2)
    return {wide[wide.size() - 2], wide.back()};
  // One wide dimension: draw it across, against a unit one.
  if (wide.size() == 1 && sizes.size() >= 2)
    return {wide.front() == 0 ? 1 : 0, wide.front()};
  if (sizes.size() >= 2)
    return {sizes.size() - 2, sizes.size() - 1};
  return {0, 0};
}

Result<GridScene> opScene(const layout::OpLayouts &layouts,
                          const OpSceneOptions &options) {
  switch (layouts.view) {
  case layout::OpView::ContractionLayout:
    return contractionScene(*layouts.contraction, options.colorBy,
                            options.subtitle);
  case layout::OpView::AttentionLayout:
    return attentionScene(*layouts.attention, options.colorBy,
                          options.subtitle);
  case layout::OpView::ThreadTiles:
  case layout::OpView::SubgroupTiles: {
    auto distribution = std::make_shared<const layout::ForallDistribution>(
        layouts.view == layout::OpView::ThreadTiles ? *layouts.threads
                                                    : *layouts.subgroups);
    // By default the distributed loops: the undistributed ones (a K tile)
    // look the same for every element.
    std::vector<int64_t> extents;
    for (size_t i = 0; i < distribution->bounds.size(); ++i) {
      const bool distributed =
          std::find(distribution->loops.begin(), distribution->loops.end(),
                    i) != distribution->loops.end();
      extents.push_back(distributed || distribution->loops.size() < 2
                            ? distribution->bounds[i] * distribution->unit[i]
                            : 1);
    }
    auto [row, column] = pickDims(extents, options.dims);
    return distributionScene(distribution, row, column, options.subtitle,
                             options.slice, options.colorBy);
  }
  case layout::OpView::VectorLayout:
    break;
  }
  auto shared = std::make_shared<const layout::DerivedLayout>(*layouts.derived);
  std::vector<int64_t> bounds;
  for (const layout::LayoutDimension &d : shared->dimensions)
    bounds.push_back(d.bound);
  auto [row, column] = pickDims(bounds, options.dims);
  // The view is wider than tall: put the longer dimension across.
  if (!options.dims && row != column && bounds[row] > bounds[column])
    std::swap(row, column);
  return configScene(shared, options.colorBy, row, column, options.step,
                     options.subtitle, options.slice);
}

} // namespace tilescope::render
