// The picture of a root op's config, whatever its pipeline: the one place
// that turns core/layout's OpLayouts into a scene, for the window's views
// and tilescope-cli render alike.
#pragma once

#include "core/layout/OpLayouts.h"
#include "widgets/render/GridScene.h"

#include <optional>
#include <utility>
#include <vector>

namespace tilescope::render {

struct OpSceneOptions {
  ColorBy colorBy = ColorBy::Lane;
  int64_t step = 0; // partial-reduction iteration
  // Loops to draw (row, column); unset: the last two with more than one
  // element, the longer one across.
  std::optional<std::pair<size_t, size_t>> dims;
  // Where the loops not drawn are held (missing or out of range: 0).
  std::vector<int64_t> slice;
  QString subtitle;
};

Result<GridScene> opScene(const layout::OpLayouts &layouts,
                          const OpSceneOptions &options);

// Two dimensions to draw among `sizes`: `asked` if valid, else the last two
// whose size is above 1 (one wide one: against a unit one).
std::pair<size_t, size_t>
pickDims(const std::vector<int64_t> &sizes,
         const std::optional<std::pair<size_t, size_t>> &asked);

} // namespace tilescope::render
