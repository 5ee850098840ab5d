#include "widgets/jobs/SweepPlanning.h"

#include "core/edit/ConfigDiff.h"
#include "core/sweep/SweepWorkflow.h"
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
sweepFieldChoices(const document::Dispatch &dispatch,
                  const document::RootOp &op) {
  std::vector<std::pair<QString, QString>> choices;
  for (const edit::FieldValue &f : edit::opFields(dispatch, op)) {
    const QString field = qs(f.field);
    const QString value = qs(f.value).trimmed();
    if (value.startsWith('[') && value.endsWith(']') &&
        value.indexOf('[', 1) < 0) {
      const QStringList entries =
          value.mid(1, value.size() - 2).split(',', Qt::SkipEmptyParts);
      bool numbers = !entries.isEmpty();
      for (const QString &e : entries) {
        bool ok = false;
        e.trimmed().toLongLong(&ok);
        numbers = numbers && ok;
      }
      if (numbers) {
        for (int i = 0; i < entries.size(); ++i) {
          const long long v = entries[i].trimmed().toLongLong();
          QStringList values;
          if (v > 1)
            values << QString::number(v / 2);
          values << QString::number(v);
          if (v > 0)
            values << QString::number(v * 2);
          choices.emplace_back(QString("%1[%2]").arg(field).arg(i),
                               values.join(","));
        }
        continue;
      }
    }
    choices.emplace_back(field, value);
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

SweepPlan planForPanel(sweep::SweepRequest request, edit::OpRef op,
                       const std::optional<tools::IreeInstallation> &iree,
                       const std::optional<sweep::IreeSpaceRequest> &space) {
  SweepPlan plan;
  const tools::IreeInstallation *installation = iree ? &*iree : nullptr;
  auto source = sweep::chooseSweepSource(installation, request, space, false);
  if (source && source->space) {
    plan.space = sweep::describe(*source->space);
    for (const std::string &relaxed : source->space->relaxed)
      plan.space += "\n" + relaxed;
    plan.points = source->space->points;
    plan.stated = source->space->stated;
  } else if (source) {
    plan.whyNotIree = source->whyNotIree;
  }
  auto planned = sweep::planSweepWithVerdicts(installation, request);
  if (!planned) {
    plan.error = plan.whyNotIree.empty()
                     ? planned.error()
                     : "Not from IREE's constraints (" + plan.whyNotIree +
                           "), and the values above: " + planned.error();
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
