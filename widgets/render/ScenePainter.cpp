#include "widgets/render/ScenePainter.h"

#include "widgets/render/PainterFrame.h"

namespace tilescope::render {

using namespace painter;

namespace {

void drawPanel(Frame &f, size_t index) {
  const Panel &panel = f.scene.panels[index];
  const PanelGeometry &g = f.layout.panels[index];
  const QRectF withAxes = g.frame.adjusted(-4, -4, 48, 4);
  if (!withAxes.intersects(f.visible))
    return;
  drawPanelAxes(f, panel, g, f.fixed.panels[index]);
  if (panel.rows <= 0 || panel.columns <= 0)
    return;
  if (!f.vector && !g.grid.intersects(f.visible))
    return;
  f.painter.save();
  f.painter.setRenderHint(QPainter::Antialiasing, false);
  // The rectangle path draws group lines itself, under marks and labels.
  if (!fillsCellsAsRects(f, panel) || !drawCellsAsRects(f, panel, g.grid)) {
    drawCellsRasterized(f, panel, g.grid);
    drawGroupLines(f, panel, g.grid);
  }
  f.painter.restore();
}

} // namespace

QSizeF ScenePainter::naturalSize(const GridScene &scene,
                                 double cellSize) const {
  const Fixed fixed(scene);
  return computeLayout(fixed, scene, sanitizeCellSize(cellSize)).size;
}

double ScenePainter::fitCellSize(const GridScene &scene, QSizeF viewport,
                                 double maxCellSize) const {
  const Fixed fixed(scene);
  constexpr double kSmallest = 1e-4;
  // What must fit: the panels across (header and footer text is elided to
  // the view when drawn, so it does not count), everything down.
  const auto extent = [&](double cellSize) {
    const Layout layout = computeLayout(fixed, scene, cellSize);
    double right = 0;
    for (const PanelGeometry &panel : layout.panels)
      right = std::max(right, panel.frame.right());
    return QSizeF(right + kMargin, layout.size.height());
  };
  // Panel titles and axes, legends and footers may need more than the
  // viewport at any cell size: then the grids get kMinGridExtent beyond what
  // those need (the view scrolls), instead of shrinking to nothing.
  constexpr double kMinGridExtent = 120;
  const QSizeF floor = extent(kSmallest);
  const auto roomFor = [&](double view, double fixedPart) {
    return fixedPart >= view ? fixedPart + kMinGridExtent : view;
  };
  const QSizeF room(roomFor(viewport.width(), floor.width()),
                    roomFor(viewport.height(), floor.height()));
  auto fits = [&](double cellSize) {
    const QSizeF size = extent(cellSize);
    return size.width() <= room.width() && size.height() <= room.height();
  };
  const double largest = sanitizeCellSize(maxCellSize);
  // The largest cell size in [low, high] that `within` accepts, by
  // bisection in log space (the natural size grows with the cell size).
  const auto largestWithin = [](double low, double high, auto within) {
    for (int i = 0; i < 48; ++i) {
      const double middle = std::sqrt(low * high);
      (within(middle) ? low : high) = middle;
    }
    return low;
  };
  if (fits(largest))
    return largest;
  const double fitted = largestWithin(kSmallest, largest, fits);

  // A very elongated grid (a softmax row's 4 x 1024 elements) fits only as a
  // hairline: give its short side kMinShortSide px and let the view scroll
  // along the long side, up to kMaxViewports viewports of drawing.
  constexpr double kMinShortSide = 24;
  constexpr double kMaxViewports = 16;
  int64_t shortSide = 0;
  for (const Panel &panel : scene.panels)
    if (panel.rows > 0 && panel.columns > 0)
      shortSide = std::max(shortSide, std::min(panel.rows, panel.columns));
  if (shortSide == 0 ||
      static_cast<double>(shortSide) * fitted >= kMinShortSide)
    return fitted;
  const auto scrollable = [&](double cellSize) {
    const QSizeF size = extent(cellSize);
    return size.width() <= kMaxViewports * room.width() &&
           size.height() <= kMaxViewports * room.height();
  };
  const double wanted =
      std::min(largest, kMinShortSide / static_cast<double>(shortSide));
  if (scrollable(wanted))
    return std::max(wanted, fitted);
  return std::max(fitted, largestWithin(fitted, wanted, scrollable));
}

void ScenePainter::paint(QPainter &painter, const GridScene &scene,
                         const QRectF &target, const Theme &theme,
                         double cellSize, QPointF scroll) const {
  if (target.isEmpty() || !painter.isActive())
    return;
  cellSize = sanitizeCellSize(cellSize);
  const Fixed fixed(scene);
  const Layout layout = computeLayout(fixed, scene, cellSize);

  painter.save();
  painter.fillRect(target, theme.background);
  painter.setClipRect(target, Qt::IntersectClip);
  QRectF visible = painter.clipBoundingRect();
  if (visible.isEmpty())
    visible = target;
  visible = visible.intersected(target);
  const QPointF origin = target.topLeft() - scroll;
  painter.translate(origin);
  visible.translate(-origin);

  Frame f{painter, scene, theme, options, fixed, layout, visible,
          target.translated(-origin), cellSize,
          // Text and the legend flow within the target (a view's viewport,
          // an exported image's page), even when the grids run wider and
          // scroll: a legend laid out past the view's edge is not seen.
          std::max(1.0, target.width() - 2 * kMargin), isVectorDevice(painter),
          true, true, 1, 1, painter.deviceTransform(),
          ColorCache(scene.colorCount, theme)};
  if (f.toDevice.type() <= QTransform::TxScale && f.toDevice.m11() > 0 &&
      f.toDevice.m22() > 0) {
    f.scaleX = f.toDevice.m11();
    f.scaleY = f.toDevice.m22();
  } else {
    f.axisAligned = false;
  }
  if (f.vector && cellSize >= kLabelsFrom) {
    double labelled = 0;
    for (const Panel &panel : scene.panels) {
      const double cells =
          static_cast<double>(panel.rows) * static_cast<double>(panel.columns);
      if (cells <= static_cast<double>(options.maxVectorCells))
        labelled += cells;
    }
    f.vectorLabels = labelled <= static_cast<double>(options.maxVectorLabels);
  }

  painter.setRenderHint(QPainter::TextAntialiasing, true);
  drawHeader(f);
  for (size_t i = 0; i < scene.panels.size(); ++i)
    drawPanel(f, i);
  drawLegend(f);
  drawFooter(f);
  painter.restore();
}

CellHit ScenePainter::hitTest(const GridScene &scene, QPointF pos,
                              double cellSize, QPointF scroll) const {
  cellSize = sanitizeCellSize(cellSize);
  const Fixed fixed(scene);
  const Layout layout = computeLayout(fixed, scene, cellSize);
  const QPointF point = pos + scroll;
  for (size_t i = 0; i < scene.panels.size(); ++i) {
    const QRectF &grid = layout.panels[i].grid;
    const Panel &panel = scene.panels[i];
    if (panel.rows <= 0 || panel.columns <= 0 || point.x() < grid.left() ||
        point.y() < grid.top() || point.x() >= grid.right() ||
        point.y() >= grid.bottom())
      continue;
    CellHit hit;
    hit.panel = static_cast<int>(i);
    hit.row = std::clamp<int64_t>(
        static_cast<int64_t>(std::floor((point.y() - grid.top()) / cellSize)),
        0, panel.rows - 1);
    hit.column = std::clamp<int64_t>(
        static_cast<int64_t>(std::floor((point.x() - grid.left()) / cellSize)),
        0, panel.columns - 1);
    return hit;
  }
  return {};
}

QString ScenePainter::textAt(const GridScene &scene, QPointF pos,
                             double cellSize, QPointF scroll) const {
  cellSize = sanitizeCellSize(cellSize);
  const Fixed fixed(scene);
  const Layout layout = computeLayout(fixed, scene, cellSize);
  const double y = pos.y() + scroll.y();
  const double line = fixed.text.height();
  const double headerBottom =
      layout.subtitleTop +
      static_cast<double>(fixed.subtitleLines.size()) * line;
  if (y >= layout.titleTop && y < headerBottom) {
    QStringList lines;
    if (!scene.title.isEmpty())
      lines << scene.title;
    lines << fixed.subtitleLines;
    return lines.join('\n');
  }
  const double footerBottom =
      layout.footerTop + static_cast<double>(fixed.footerLines.size()) * line;
  if (!fixed.footerLines.isEmpty() && y >= layout.footerTop && y < footerBottom)
    return scene.footer; // whole, as written (the lines wrap it)
  return {};
}

QRectF ScenePainter::cellRect(const GridScene &scene, int panel, int64_t row,
                              int64_t column, double cellSize,
                              QPointF scroll) const {
  if (panel < 0 || static_cast<size_t>(panel) >= scene.panels.size())
    return {};
  const Panel &p = scene.panels[static_cast<size_t>(panel)];
  if (row < 0 || column < 0 || row >= p.rows || column >= p.columns)
    return {};
  cellSize = sanitizeCellSize(cellSize);
  const Fixed fixed(scene);
  const Layout layout = computeLayout(fixed, scene, cellSize);
  const QRectF &grid = layout.panels[static_cast<size_t>(panel)].grid;
  return QRectF(grid.left() + static_cast<double>(column) * cellSize -
                    scroll.x(),
                grid.top() + static_cast<double>(row) * cellSize - scroll.y(),
                cellSize, cellSize);
}

int64_t tickStep(double cellSize, double minSpacing) {
  int64_t step = 1;
  while (static_cast<double>(step) * cellSize < minSpacing &&
         step < (int64_t{1} << 60))
    step *= 2;
  return step;
}

std::vector<QRectF> ScenePainter::viewDependentRects(const GridScene &scene,
                                                     const QRectF &view,
                                                     double cellSize,
                                                     QPointF scroll) const {
  std::vector<QRectF> rects;
  if (scene.panels.empty())
    return rects;
  cellSize = sanitizeCellSize(cellSize);
  const Fixed fixed(scene);
  const Layout layout = computeLayout(fixed, scene, cellSize);
  for (size_t i = 0; i < scene.panels.size(); ++i) {
    const QRectF grid = layout.panels[i].grid.translated(-scroll);
    // The column axis's name, in its row above the ticks.
    if (fixed.columnAxisHeight > 0) {
      const double top =
          layout.panels[i].frame.top() + fixed.panelTitleHeight - scroll.y();
      rects.push_back(
          QRectF(grid.left(), top, grid.width(), fixed.columnAxisHeight)
              .intersected(view));
    }
    // The row axis's name, in its column left of the ticks.
    if (fixed.panels[i].rowAxisWidth > 0)
      rects.push_back(QRectF(layout.panels[i].left - scroll.x(), grid.top(),
                             fixed.panels[i].rowAxisWidth, grid.height())
                          .intersected(view));
  }
  std::erase_if(rects, [](const QRectF &r) { return r.isEmpty(); });
  return rects;
}

QRectF ScenePainter::gridRect(const GridScene &scene, int panel,
                              double cellSize, QPointF scroll) const {
  if (panel < 0 || static_cast<size_t>(panel) >= scene.panels.size())
    return {};
  const Panel &p = scene.panels[static_cast<size_t>(panel)];
  if (p.rows <= 0 || p.columns <= 0)
    return {};
  cellSize = sanitizeCellSize(cellSize);
  const Fixed fixed(scene);
  const Layout layout = computeLayout(fixed, scene, cellSize);
  return layout.panels[static_cast<size_t>(panel)].grid.translated(-scroll);
}

} // namespace tilescope::render
