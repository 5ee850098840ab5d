// What the window shows of a root op, drawn from core data: the picture of
// its config (render::opScene over the layouts core/layout derives) with a
// note in words, and the short labels of a dispatch's pipeline and target.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/document/Document.h"
#include "core/edit/OpLayoutInputs.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/OpLayouts.h"
#include "widgets/render/GridScene.h"
#include "widgets/render/Scenes.h"

#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace tilescope::render {

// The short name of a dispatch's target: "rocm gfx942", "cuda sm_90", ...
QString targetSummary(const document::Dispatch &dispatch);
// Its pipeline: "VectorDistribute", "TileAndFuse", "CPUDoubleTilingExpert".
QString pipelineSummary(const document::Dispatch &dispatch);

// What the layout engine needs of a root op (core/edit/OpLayoutInputs).
using RootOpInputs = edit::OpLayoutInputs;

// The picture for a root op: its config applied to its iteration space (or
// its MMA intrinsic's fragments), and a note saying what was drawn or why
// nothing could be. `dispatch` holds `op` (a draft of it while a person
// types).
std::pair<render::GridScene, QString>
rootOpScene(const document::Dispatch &dispatch, const document::RootOp &op,
            render::ColorBy colorBy, int64_t step);

// The pieces of rootOpScene, for a caller that draws more than one view of
// the same op (its layouts derived once by edit::opLayoutsOf): the picture of
// them (the intrinsic's fragments when there are none)...
std::pair<render::GridScene, QString>
layoutScene(const document::RootOp &op, const RootOpInputs &inputs,
            const Result<layout::OpLayouts> &layouts, render::ColorBy colorBy,
            int64_t step,
            const std::optional<std::pair<size_t, size_t>> &dims = {},
            const std::vector<int64_t> &slice = {});
// ...and the fragments of the config's mma_kind, lanes (or registers)
// coloured; nullopt without one Tilescope knows.
std::optional<render::GridScene>
intrinsicScene(const config::LoweringConfig &config, render::ColorBy colorBy);

} // namespace tilescope::render
