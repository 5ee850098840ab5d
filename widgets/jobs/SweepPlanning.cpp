#include "widgets/jobs/SweepPlanning.h"

#include "core/sweep/Neighbours.h"
#include "widgets/render/Palette.h"
#include "widgets/render/RootOpScene.h"

#include <algorithm>

namespace tilescope::widgets {
namespace {

// Thumbnails drawn while planning; the rest as candidates finish.
constexpr size_t kPlannedThumbnails = 128;

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

std::vector<std::pair<QString, QString>>
sweepFieldChoices(const document::Document &document, edit::OpRef op) {
  std::vector<std::pair<QString, QString>> choices;
  for (const sweep::SweepAxis &axis : sweep::fieldAxes(document, op)) {
    QStringList values;
    for (const std::string &value : axis.values)
      values << qs(value);
    choices.emplace_back(qs(axis.field), values.join(","));
  }
  return choices;
}

QImage sweepThumbnail(const sweep::SweepCandidate &candidate, edit::OpRef op) {
  if (!candidate.dispatch || op.op >= candidate.dispatch->rootOps.size())
    return {};
  auto [scene, note] = render::rootOpScene(*candidate.dispatch,
                                           candidate.dispatch->rootOps[op.op],
                                           render::ColorBy::Subgroup, 0);
  if (scene.panels.empty() || scene.panels[0].rows <= 0 ||
      scene.panels[0].columns <= 0)
    return {};
  const render::Panel &panel = scene.panels[0];
  // The panel's shape, fitted into the thumbnail.
  const double scale = std::min(kSweepThumbnail.width() / double(panel.columns),
                                kSweepThumbnail.height() / double(panel.rows));
  const int width = std::max(1, static_cast<int>(panel.columns * scale));
  const int height = std::max(1, static_cast<int>(panel.rows * scale));
  QImage image(kSweepThumbnail, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  const int left = (kSweepThumbnail.width() - width) / 2;
  const int top = (kSweepThumbnail.height() - height) / 2;
  const render::Theme theme = render::Theme::light();
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const int64_t row = std::min<int64_t>(panel.rows - 1, y / scale);
      const int64_t column = std::min<int64_t>(panel.columns - 1, x / scale);
      const int64_t key = panel.colorKey ? panel.colorKey(row, column)
                                         : panel.cell(row, column).colorKey;
      image.setPixelColor(left + x, top + y,
                          key < 0
                              ? theme.emptyCell
                              : render::colorFor(key, scene.colorCount, false));
    }
  return image;
}

SweepPlan planForPanel(const workbench::Workbench &bench,
                       sweep::SweepRequest request,
                       const workbench::SweepJobChoice &how, edit::OpRef op) {
  SweepPlan plan;
  auto prepared = bench.prepareSweep(request, how);
  if (!prepared) {
    plan.error = prepared.refusal().message;
    return plan;
  }
  if (const auto &space = prepared->source.space) {
    plan.space = sweep::describe(*space);
    for (const std::string &relaxed : space->relaxed)
      plan.space += "\n" + relaxed;
    plan.points = space->points;
    plan.stated = space->stated;
  } else {
    plan.whyNotIree = prepared->source.whyNotIree;
  }
  auto planned = bench.planSweep(request, /*keepWithoutVerdicts=*/true);
  if (!planned) {
    const std::string &why = planned.refusal().message;
    plan.error = plan.whyNotIree.empty()
                     ? why
                     : "Not from IREE's constraints (" + plan.whyNotIree +
                           "), and the values above: " + why;
    return plan;
  }
  plan.candidates = std::move(planned->candidates);
  plan.ireeProblem = std::move(planned->ireeProblem);
  size_t drawn = 0;
  for (const sweep::SweepCandidate &c : plan.candidates)
    plan.thumbnails.push_back(c.valid && drawn++ < kPlannedThumbnails
                                  ? sweepThumbnail(c, op)
                                  : QImage());
  return plan;
}

} // namespace tilescope::widgets
