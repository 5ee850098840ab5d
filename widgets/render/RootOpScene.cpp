#include "widgets/render/RootOpScene.h"

#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/OpLayouts.h"
#include "widgets/render/OpScenes.h"

namespace tilescope::render {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

QString targetSummary(const document::Dispatch &dispatch) {
  const QString target = qs(dispatch.target);
  QString backend;
  if (target.startsWith("#hal.executable.target<\"")) {
    const int begin = target.indexOf('"') + 1;
    backend = target.mid(begin, target.indexOf('"', begin) - begin);
  }
  const int arch = target.indexOf("arch = \"");
  if (arch >= 0) {
    const int begin = arch + 8;
    backend += " " + target.mid(begin, target.indexOf('"', begin) - begin);
  }
  return backend.trimmed();
}

QString pipelineSummary(const document::Dispatch &dispatch) {
  const QString info = qs(dispatch.translationInfo);
  const int pipeline = info.indexOf("pipeline = ");
  if (pipeline < 0)
    return {};
  const int begin = pipeline + 11;
  int end = begin;
  int depth = 0;
  while (end < info.size()) {
    const QChar c = info[end];
    if (c == '<')
      ++depth;
    else if (c == '>') {
      if (depth == 0)
        break;
      --depth;
    } else if ((c == ' ' || c == ',') && depth == 0)
      break;
    ++end;
  }
  const QString name = info.mid(begin, end - begin);
  // "#iree_gpu.pipeline<VectorDistribute>" -> "VectorDistribute", and
  // the same for #iree_cpu.pipeline<...>.
  const int open = name.indexOf(".pipeline<");
  if (name.startsWith('#') && open > 0 && name.endsWith('>'))
    return name.mid(open + 10, name.size() - open - 11);
  return name;
}

std::optional<render::GridScene>
intrinsicScene(const config::LoweringConfig &config, render::ColorBy colorBy) {
  const auto mma = config.mmaKind();
  if (!mma)
    return std::nullopt;
  const layout::MmaIntrinsic *intrinsic =
      layout::findMmaIntrinsic(mma->intrinsic);
  if (!intrinsic)
    return std::nullopt;
  return render::mmaScene(mma->colMajor ? intrinsic->colMajor() : *intrinsic,
                          colorBy == render::ColorBy::Register
                              ? render::ColorBy::Register
                              : render::ColorBy::Lane);
}

std::pair<render::GridScene, QString>
rootOpScene(const document::Dispatch &dispatch, const document::RootOp &op,
            render::ColorBy colorBy, int64_t step) {
  auto inputs = edit::opLayoutInputs(dispatch, op);
  if (!inputs)
    return {render::GridScene{}, qs(inputs.error())};
  return layoutScene(op, *inputs, edit::opLayoutsOf(*inputs), colorBy, step);
}

std::pair<render::GridScene, QString>
layoutScene(const document::RootOp &op, const RootOpInputs &inputs,
            const Result<layout::OpLayouts> &layouts, render::ColorBy colorBy,
            int64_t step, const std::optional<std::pair<size_t, size_t>> &dims,
            const std::vector<int64_t> &slice) {
  render::GridScene empty;
  const config::LoweringConfig *config = &inputs.config;
  const config::IterationSpace *space = &inputs.space;
  if (!layouts) {
    // Nothing to lay out over the op (say an mma_kind without a
    // subgroup_basis under VectorDistribute): the intrinsic's fragments.
    if (auto fragments = intrinsicScene(*config, colorBy))
      return {std::move(*fragments), "mma_kind " +
                                         qs(config->mmaKind()->intrinsic) +
                                         ": the fragment each lane holds (" +
                                         qs(layouts.error()) + ")"};
    return {empty, qs(layouts.error())};
  }
  render::OpSceneOptions sceneOptions;
  sceneOptions.colorBy = colorBy;
  sceneOptions.step = step;
  sceneOptions.dims = dims;
  sceneOptions.slice = slice;
  sceneOptions.subtitle = qs(config->print());
  if (layouts->attention)
    sceneOptions.subtitle +=
        "\nqk_attrs: " + qs(layouts->attention->qk.config.print()) +
        "\npv_attrs: " + qs(layouts->attention->pv.config.print());
  auto scene = render::opScene(*layouts, sceneOptions);
  if (!scene)
    return {empty, qs(scene.error())};
  QString note;
  switch (layouts->view) {
  case layout::OpView::ContractionLayout:
    note = "mma_kind " + qs(layouts->intrinsic) +
           ": each operand's layout on one workgroup tile";
    break;
  case layout::OpView::AttentionLayout:
    note = QString("%1: its Q.K^T and P.V contractions as IREE decomposes "
                   "them, one workgroup tile, one of %2 steps of K2 (every "
                   "step the same layouts)")
               .arg(op.name.c_str())
               .arg(layouts->attention->k2Steps);
    break;
  case layout::OpView::ThreadTiles:
    note = QString("%1 on %2 (TileAndFuse): which thread runs each tile")
               .arg(op.name.c_str(), qs(space->toString()));
    break;
  case layout::OpView::SubgroupTiles:
    note =
        QString("%1 on %2 (TileAndFuse, %3): which %4 holds each "
                "element of the result (reduction step %5: every step "
                "the same tiles)")
            .arg(op.name.c_str(), qs(space->toString()), qs(layouts->intrinsic),
                 colorBy == render::ColorBy::Lane       ? "lane of its subgroup"
                 : colorBy == render::ColorBy::Register ? "accumulator register"
                                                        : "subgroup")
            .arg(step);
    break;
  case layout::OpView::VectorLayout:
    note = QString("%1 on %2: one workgroup tile, reduction step %3")
               .arg(op.name.c_str(), qs(space->toString()))
               .arg(step);
    break;
  }
  for (const std::string &extra : layouts->notes)
    note += "; " + qs(extra);
  return {*scene, note};
}

} // namespace tilescope::render
