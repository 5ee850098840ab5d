// What the window shows of a root op, drawn from core data: the picture of
// its config (render::opScene over the layouts core/layout derives) with a
// note in words, and the short labels of a dispatch's pipeline and target.
#pragma once

#include "core/iree/Document.h"
#include "widgets/render/GridScene.h"
#include "widgets/render/Scenes.h"

#include <QString>

#include <utility>

namespace tilescope::widgets {

// The short name of a dispatch's target: "rocm gfx942", "cuda sm_90", ...
QString targetSummary(const iree::Dispatch &dispatch);
// Its pipeline: "VectorDistribute", "TileAndFuse", "CPUDoubleTilingExpert".
QString pipelineSummary(const iree::Dispatch &dispatch);

// The picture for a root op: its config applied to its iteration space (or
// its MMA intrinsic's fragments), and a note saying what was drawn or why
// nothing could be. `dispatch` holds `op` (a draft of it while a person
// types).
std::pair<render::GridScene, QString>
rootOpScene(const iree::Dispatch &dispatch, const iree::RootOp &op,
            render::ColorBy colorBy, int64_t step);

} // namespace tilescope::widgets
