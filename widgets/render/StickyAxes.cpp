#include "widgets/render/StickyAxes.h"

#include "widgets/render/PainterFrame.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace tilescope::render {
namespace {

constexpr int kFontPixels = 11; // the painter's small font
constexpr double kDepth = 18;   // a band's height (top) or least width (left)
constexpr double kMinSpacing = 30;

QFont bandFont() {
  QFont font;
  font.setPixelSize(kFontPixels);
  return font;
}

// The indices to label along one axis of `count` cells starting at
// `origin`: the multiples of `step` among the cells that meet [from, to]
// and the one after (a label centred on it may still reach in), as
// [first, end).
std::pair<int64_t, int64_t> ticksIn(double origin, double from, double to,
                                    double cellSize, int64_t count,
                                    int64_t step) {
  const int64_t first = std::max<int64_t>(
      0, static_cast<int64_t>(std::floor((from - origin) / cellSize)));
  const int64_t end = std::min<int64_t>(
      count, static_cast<int64_t>(std::ceil((to - origin) / cellSize)) + 1);
  return {(first + step - 1) / step * step, end};
}

} // namespace

double stickyBandDepth() { return kDepth; }

std::vector<StickyBand> stickyBands(const ScenePainter &painter,
                                    const GridScene &scene, const QRectF &view,
                                    double cellSize, QPointF scroll) {
  std::vector<StickyBand> bands;
  for (size_t i = 0; i < scene.panels.size(); ++i) {
    const QRectF grid =
        painter.gridRect(scene, static_cast<int>(i), cellSize, scroll);
    if (grid.isEmpty())
      continue;
    const QRectF shown = grid.intersected(view);
    // The column indices sit just above the grid: pinned once the grid's
    // top has gone under the view's top and enough of it stays in view.
    if (grid.top() < view.top() + kDepth && shown.height() > 2 * kDepth &&
        shown.width() > 0)
      bands.push_back({QRectF(shown.left(), view.top(), shown.width(), kDepth),
                       true, static_cast<int>(i)});
    if (grid.left() < view.left() + kDepth && shown.width() > 4 * kDepth &&
        shown.height() > 0) {
      const QFontMetricsF metrics(bandFont());
      const double width = std::max(
          kDepth, metrics.horizontalAdvance(QString::number(
                      scene.panels[i].rows - 1)) + 8);
      const double top = bands.empty() || !bands.back().columns ||
                                 bands.back().panel != static_cast<int>(i)
                             ? shown.top()
                             : shown.top() + kDepth;
      if (shown.bottom() > top)
        bands.push_back({QRectF(view.left(), top, width, shown.bottom() - top),
                         false, static_cast<int>(i)});
    }
  }
  return bands;
}

void paintStickyAxes(QPainter &painter, const ScenePainter &scenePainter,
                     const GridScene &scene, const QRectF &view,
                     const Theme &theme, double cellSize, QPointF scroll) {
  const std::vector<StickyBand> bands =
      stickyBands(scenePainter, scene, view, cellSize, scroll);
  if (bands.empty())
    return;
  painter.save();
  painter.setFont(bandFont());
  const QFontMetricsF metrics(painter.font());
  QColor fill = theme.background;
  fill.setAlpha(225);
  QColor text = theme.foreground;
  for (const StickyBand &band : bands) {
    const Panel &panel = scene.panels[static_cast<size_t>(band.panel)];
    const QRectF grid =
        scenePainter.gridRect(scene, band.panel, cellSize, scroll);
    painter.setClipRect(band.rect);
    painter.fillRect(band.rect, fill);
    painter.setPen(QPen(theme.emptyCell, 0));
    if (band.columns) {
      painter.drawLine(band.rect.bottomLeft(), band.rect.bottomRight());
      // The axis name first, then the indices that do not run into it.
      const QString name = painter::columnAxisText(panel);
      painter.setPen(text);
      const double baseline =
          band.rect.top() + (kDepth + metrics.ascent() - metrics.descent()) / 2;
      double freeFrom = band.rect.left();
      if (!name.isEmpty()) {
        painter.drawText(QPointF(band.rect.left() + 4, baseline), name);
        freeFrom += metrics.horizontalAdvance(name) + 10;
      }
      const double widest =
          metrics.horizontalAdvance(QString::number(panel.columns - 1));
      const int64_t step = tickStep(cellSize, std::max(kMinSpacing, widest + 8));
      const auto [first, end] =
          ticksIn(grid.left(), band.rect.left(), band.rect.right(), cellSize,
                  panel.columns, step);
      for (int64_t c = first; c < end; c += step) {
        const QString label = QString::number(c);
        const double x = grid.left() + (static_cast<double>(c) + 0.5) * cellSize -
                         metrics.horizontalAdvance(label) / 2;
        if (x >= freeFrom)
          painter.drawText(QPointF(x, baseline), label);
      }
    } else {
      painter.drawLine(band.rect.topRight(), band.rect.bottomRight());
      painter.setPen(text);
      const int64_t step =
          tickStep(cellSize, std::max(kMinSpacing, metrics.height() + 4));
      const auto [first, end] = ticksIn(grid.top(), band.rect.top(),
                                        band.rect.bottom(), cellSize,
                                        panel.rows, step);
      const double middle = (metrics.ascent() - metrics.descent()) / 2;
      for (int64_t r = first; r < end; r += step) {
        const QString label = QString::number(r);
        const double y =
            grid.top() + (static_cast<double>(r) + 0.5) * cellSize + middle;
        painter.drawText(
            QPointF(band.rect.right() - 4 - metrics.horizontalAdvance(label), y),
            label);
      }
    }
  }
  painter.restore();
}

} // namespace tilescope::render
