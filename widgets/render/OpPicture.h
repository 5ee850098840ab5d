// The pictures of one root op, each drawn from core data for the op as it
// stands (or as typed): its layouts, its lane and subgroup bases, its MMA
// intrinsic's fragments, the banks its promoted operands' shared-memory
// reads land in (through their swizzle, if any), and its workgroup grid.
// The one place a root op's picture is made: the window's Layout tab
// (`tilescope FILE --view NAME`), `tilescope-cli render FILE --op D:O
// --view NAME` and the scripts draw through opPicture.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "widgets/render/GridScene.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

namespace tilescope::render {

enum class OpViewKind { Layouts, LaneBasis, SubgroupBasis, Mma, Swizzle, Grid };

const std::vector<OpViewKind> &allOpViews();
// "layouts", "lane-basis", "subgroup-basis", "mma", "swizzle", "grid".
QString opViewName(OpViewKind kind);
// "Layouts", "Lane basis", ... as the window's menu says it.
QString opViewTitle(OpViewKind kind);
std::optional<OpViewKind> opViewFromName(const QString &name);
// Every view's name, in menu order: what --view and the scripts take.
QStringList opViewNames();

struct OpPicture {
  render::GridScene scene; // empty when the view does not apply
  QString note;            // what was drawn, or why nothing was
  // Iterations of the op's longest reduction loop at workgroup level (the
  // steps the Layouts view can show); 1 when there is no such loop.
  int64_t reductionSteps = 1;
};

struct OpViewRequest {
  OpViewKind kind = OpViewKind::Layouts;
  render::ColorBy colorBy = render::ColorBy::Lane;
  int64_t step = 0; // partial-reduction iteration (Layouts)
  // Layouts of more than two dimensions: the two drawn (unset: the
  // picture's choice) and where the others are held.
  std::optional<std::pair<size_t, size_t>> dims;
  std::vector<int64_t> slice;
};

// The picture of `dispatch.rootOps[op]` in view `request.kind`.
OpPicture opPicture(const document::Dispatch &dispatch, size_t op,
                    const OpViewRequest &request);
// The same for the root op `op` of `document`.
OpPicture opPicture(const document::Document &document, edit::OpRef op,
                    const OpViewRequest &request);

} // namespace tilescope::render
