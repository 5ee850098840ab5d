#include "widgets/render/OpPicture.h"

#include "core/edit/RootOpContext.h"
#include "core/layout/Basis.h"
#include "core/layout/OpLayouts.h"
#include "core/layout/PromotedBanks.h"
#include "core/util/Numbers.h"
#include "widgets/render/OpScenes.h"
#include "widgets/render/RootOpScene.h"
#include "widgets/render/Scenes.h"

#include <QStringList>

#include <algorithm>
#include <array>
#include <memory>

namespace tilescope::render {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

struct ViewName {
  OpViewKind kind;
  const char *name;
  const char *title;
};
constexpr std::array<ViewName, 6> kViews{{
    {OpViewKind::Layouts, "layouts", "Layouts"},
    {OpViewKind::LaneBasis, "lane-basis", "Lane basis"},
    {OpViewKind::SubgroupBasis, "subgroup-basis", "Subgroup basis"},
    {OpViewKind::Mma, "mma", "MMA fragments"},
    {OpViewKind::Swizzle, "swizzle", "Shared-memory banks"},
    {OpViewKind::Grid, "grid", "Workgroup grid"},
}};

// The steps of the longest reduction loop the Layouts view walks: those of
// a VectorDistribute layout (TileAndFuse's thread and subgroup tiles are
// drawn for the whole workgroup tile).
int64_t reductionSteps(const Result<layout::OpLayouts> &layouts,
                       const RootOpInputs &inputs) {
  int64_t steps = 1;
  if (layouts && layouts->view == layout::OpView::VectorLayout &&
      layouts->derived)
    for (const layout::ReductionLoop &loop : layouts->derived->reductionLoops)
      steps = std::max(steps, loop.iterations);
  // TileAndFuse: the K loop's trips, `reduction` (in intrinsic K's with an
  // mma_kind) at a time; its thread and subgroup tiles are the same in
  // every one.
  if (layouts && (layouts->view == layout::OpView::SubgroupTiles ||
                  layouts->view == layout::OpView::ThreadTiles)) {
    const layout::ForallDistribution &d =
        layouts->view == layout::OpView::SubgroupTiles ? *layouts->subgroups
                                                       : *layouts->threads;
    const auto reduction =
        inputs.config.tileSizes(config::TilingLevel::Reduction)
            .value_or(std::vector<int64_t>{});
    for (size_t loop = 0; loop < inputs.space.rank() && loop < d.unit.size() &&
                          loop < reduction.size();
         ++loop)
      if (inputs.space.isReduction(loop) && reduction[loop] > 0 &&
          inputs.space.bounds[loop] > 0)
        steps = saturatingMultiply(
            steps,
            ceilDivide(inputs.space.bounds[loop],
                       saturatingMultiply(reduction[loop],
                                          std::max<int64_t>(1, d.unit[loop]))));
  }
  return steps;
}

// The op's config applied to its loops: what its layouts already hold
// (VectorDistribute), else derived here (the grid and the bases of any
// pipeline).
Result<layout::DerivedLayout>
derivedOf(const RootOpInputs &inputs,
          const Result<layout::OpLayouts> &layouts) {
  if (layouts && layouts->derived)
    return *layouts->derived;
  return layout::deriveLayout(inputs.config, inputs.space, inputs.options);
}

OpPicture basisPicture(const RootOpInputs &inputs,
                       const Result<layout::OpLayouts> &layouts, bool lanes) {
  const char *key = lanes ? "lane_basis" : "subgroup_basis";
  std::optional<config::Basis> basis =
      lanes ? inputs.config.laneBasis() : inputs.config.subgroupBasis();
  if (!basis)
    return {{},
            QString("This op's config has no %1: VectorDistribute reductions "
                    "and elementwise ops carry one (TileAndFuse spreads "
                    "thread tiles instead; see Layouts).")
                .arg(key),
            1};
  QString note = QString("%1 %2: which coordinates of the op's tile each "
                         "%3 takes")
                     .arg(key, qs(config::printAttribute(basis->toAttribute())),
                          lanes ? "lane" : "subgroup");
  // What IREE applies once GPUPackPartialReductions rewrote it.
  if (auto derived = derivedOf(inputs, layouts)) {
    const auto &effective =
        lanes ? derived->effectiveLaneBasis : derived->effectiveSubgroupBasis;
    if (effective && (effective->counts != basis->counts ||
                      effective->mapping != basis->mapping)) {
      note += QString("; drawn as IREE applies it after packing the partial "
                      "reduction: %1")
                  .arg(qs(config::printAttribute(effective->toAttribute())));
      basis = effective;
    }
  }
  auto map = layout::BasisMap::create(*basis);
  if (!map)
    return {{}, QString("%1: %2").arg(key, qs(map.error())), 1};
  return {render::basisScene(
              std::make_shared<const layout::BasisMap>(std::move(*map)),
              qs(config::printAttribute(basis->toAttribute()))),
          note, 1};
}

OpPicture mmaPicture(const RootOpInputs &inputs, render::ColorBy colorBy) {
  const auto mma = inputs.config.mmaKind();
  if (!mma)
    return {{}, "This op's config has no mma_kind: no intrinsic to draw.", 1};
  auto fragments = intrinsicScene(inputs.config, colorBy);
  if (!fragments)
    return {{},
            QString("mma_kind %1 is not in Tilescope's intrinsic table")
                .arg(qs(mma->intrinsic)),
            1};
  const QString operands =
      mma->isScaled()
          ? QString("the LHS, RHS (%1 x %2), their scales and ACC")
                .arg(qs(mma->lhsElementType), qs(mma->rhsElementType))
          : QString("the LHS, RHS and ACC");
  return {std::move(*fragments),
          QString("mma_kind %1%2: %3 fragments each lane of a subgroup holds")
              .arg(qs(mma->intrinsic), mma->colMajor ? ", col_major" : "",
                   operands),
          1};
}

OpPicture gridPicture(const RootOpInputs &inputs,
                      const Result<layout::OpLayouts> &layouts) {
  auto derived = derivedOf(inputs, layouts);
  if (!derived)
    return {{}, "No workgroup grid: " + qs(derived.error()), 1};
  auto shared =
      std::make_shared<const layout::DerivedLayout>(std::move(*derived));
  const auto [row, column] = render::pickDims(shared->workgroupCounts, {});
  return {render::workgroupGridScene(shared, row, column),
          QString("%1 workgroups over %2: which workgroup runs each tile")
              .arg(shared->workgroupCount)
              .arg(qs(inputs.space.toString())),
          1};
}

// The banks the MMA reads of the op's promoted LHS and RHS land in
// (layout::promotedOperandReads: each operand's rows through its swizzle,
// or as IREE pads them).
OpPicture swizzlePicture(const document::Dispatch &dispatch, size_t opIndex,
                         const RootOpInputs &inputs,
                         const Result<layout::OpLayouts> &layouts) {
  document::Document single;
  single.dispatches.push_back(dispatch);
  const edit::RootOpContext context = edit::contextOf(single, {0, opIndex});
  auto reads = layout::promotedOperandReads(
      inputs.config, inputs.space, layouts ? layouts->pipeline : std::string{},
      inputs.info ? &*inputs.info : nullptr,
      context.target ? &*context.target : nullptr);
  if (!reads) {
    QString why = qs(reads.error());
    if (!why.isEmpty())
      why[0] = why[0].toUpper();
    return {{}, why + ".", 1};
  }
  using Rows = layout::PromotedOperandReads::Rows;
  render::GridScene scene;
  QStringList notes, subtitles;
  for (const layout::PromotedOperandReads &operand : reads->operands) {
    const QString name = qs(operand.name);
    if (!operand.skipped.empty()) {
      notes << qs(operand.skipped);
      continue;
    }
    render::GridScene part = render::swizzleScene(
        *operand.swizzle, operand.accesses, operand.elementBytes, reads->banks);
    const QString how =
        operand.rows == Rows::Swizzled ? QString("swizzled")
        : operand.rows == Rows::Padded
            ? QString("not swizzled; IREE pads each row by %1 element%2 "
                      "(GPUReduceBankConflicts, 64 bits)")
                  .arg(operand.padElements)
                  .arg(operand.padElements == 1 ? "" : "s")
            : QString("not swizzled, not padded "
                      "(no_reduce_shared_memory_bank_conflicts)");
    for (size_t i = 0; i < part.panels.size(); ++i) {
      render::Panel &panel = part.panels[i];
      // Unswizzled, the two panels are the packed rows and the rows as
      // IREE lays them out.
      const QString which = operand.rows == Rows::Swizzled ? panel.title
                            : i == 0
                                ? QString("rows packed")
                                : QString(operand.rows == Rows::Padded
                                              ? "rows as IREE pads them"
                                              : "rows as IREE lays them out");
      panel.title = QString("%1 (%2 wide): %3")
                        .arg(name)
                        .arg(operand.rowWidth)
                        .arg(which);
      scene.panels.push_back(std::move(panel));
    }
    if (scene.legend.empty())
      scene.legend = part.legend;
    scene.colorCount = std::max(scene.colorCount, part.colorCount);
    scene.footer = part.footer;
    subtitles << name + ": " + part.subtitle;
    notes << QString("%1 %2 (%3)").arg(name, how, part.title);
  }
  if (scene.panels.empty())
    return {{}, "No promoted LHS or RHS to draw: " + notes.join("; ") + ".", 1};
  scene.title =
      QString("Shared-memory banks of %1 reads").arg(qs(reads->intrinsic));
  scene.colorBy = render::ColorBy::Bank;
  scene.subtitle = subtitles.join("; ");
  return {std::move(scene),
          QString("%1 fragment reads from shared memory, %2 banks of %3 "
                  "bytes: %4")
              .arg(qs(reads->intrinsic))
              .arg(reads->banks.bankCount)
              .arg(reads->banks.bankWidthBytes)
              .arg(notes.join("; ")),
          1};
}

} // namespace

const std::vector<OpViewKind> &allOpViews() {
  static const std::vector<OpViewKind> views = [] {
    std::vector<OpViewKind> all;
    for (const ViewName &view : kViews)
      all.push_back(view.kind);
    return all;
  }();
  return views;
}

QString opViewName(OpViewKind kind) {
  for (const ViewName &view : kViews)
    if (view.kind == kind)
      return view.name;
  return {};
}

QString opViewTitle(OpViewKind kind) {
  for (const ViewName &view : kViews)
    if (view.kind == kind)
      return view.title;
  return {};
}

QStringList opViewNames() {
  QStringList names;
  for (const ViewName &view : kViews)
    names << view.name;
  return names;
}

std::optional<OpViewKind> opViewFromName(const QString &name) {
  for (const ViewName &view : kViews)
    if (name.compare(view.name, Qt::CaseInsensitive) == 0)
      return view.kind;
  return std::nullopt;
}

OpPicture opPicture(const document::Dispatch &dispatch, size_t op,
                    const OpViewRequest &request) {
  if (op >= dispatch.rootOps.size())
    return {{}, "No configured op in this dispatch.", 1};
  const document::RootOp &rootOp = dispatch.rootOps[op];
  auto inputs = edit::opLayoutInputs(dispatch, rootOp);
  if (!inputs)
    return {{}, qs(inputs.error()), 1};
  // The op's layouts, derived once for whichever view is drawn.
  const Result<layout::OpLayouts> layouts = edit::opLayoutsOf(*inputs);
  // Every view keeps the step range, so switching views keeps the step.
  const int64_t steps = reductionSteps(layouts, *inputs);
  OpPicture picture;
  switch (request.kind) {
  case OpViewKind::Layouts: {
    auto [scene, note] =
        layoutScene(rootOp, *inputs, layouts, request.colorBy,
                    std::clamp<int64_t>(request.step, 0, steps - 1),
                    request.dims, request.slice);
    picture = {std::move(scene), note, steps};
    break;
  }
  case OpViewKind::LaneBasis:
    picture = basisPicture(*inputs, layouts, true);
    break;
  case OpViewKind::SubgroupBasis:
    picture = basisPicture(*inputs, layouts, false);
    break;
  case OpViewKind::Mma:
    picture = mmaPicture(*inputs, request.colorBy);
    break;
  case OpViewKind::Swizzle:
    picture = swizzlePicture(dispatch, op, *inputs, layouts);
    break;
  case OpViewKind::Grid:
    picture = gridPicture(*inputs, layouts);
    break;
  }
  picture.reductionSteps = steps;
  return picture;
}

OpPicture opPicture(const document::Document &document, edit::OpRef op,
                    const OpViewRequest &request) {
  if (op.dispatch >= document.dispatches.size())
    return {{}, "No such dispatch in this document.", 1};
  return opPicture(document.dispatches[op.dispatch], op.op, request);
}

} // namespace tilescope::render
