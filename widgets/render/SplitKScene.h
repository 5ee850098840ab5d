// The picture of a split-k: each reduction loop of an op cut into the
// chunks IREE's split_reduction tiles make (one row per chunk, its elements
// across), each chunk the colour of the partial result its workgroups
// write, and the partial results the second dispatch adds. The window's
// split-k view draws it for IREE's split or the person's.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "widgets/render/GridScene.h"

#include <optional>
#include <vector>

namespace tilescope::render {

struct SplitKPicture {
  QString op;    // "split_k_program:0 linalg.matmul"
  QString whose; // "IREE's split", "your split"
  config::IterationSpace space;
  // One tile per reduction loop, outer to inner; unset or empty: not split.
  std::optional<std::vector<int64_t>> sizes;
};

// An Error for an op with no reduction loop, a dynamic one, or sizes that
// are not one per reduction loop.
Result<GridScene> splitKScene(const SplitKPicture &picture);

} // namespace tilescope::render
