// A scene's text: the title and subtitle, the footer, the legend, and each
// panel's title, axis names and index ticks.
#include "widgets/render/PainterFrame.h"

namespace tilescope::render::painter {

void drawElided(QPainter &painter, const QFontMetricsF &metrics, double x,
                double top, double width, const QString &text) {
  const QString elided = metrics.elidedText(text, Qt::ElideRight, width);
  painter.drawText(QPointF(x, top + metrics.ascent()), elided);
}

void drawHeader(Frame &f) {
  QPainter &painter = f.painter;
  const double headerBottom =
      f.layout.subtitleTop +
      static_cast<double>(f.fixed.subtitleLines.size()) * f.fixed.text.height();
  if (headerBottom < f.visible.top() || f.layout.titleTop > f.visible.bottom())
    return;
  if (!f.scene.title.isEmpty()) {
    painter.setFont(f.fixed.fonts.title);
    painter.setPen(f.theme.foreground);
    double top = f.layout.titleTop;
    for (const QString &line : f.fixed.titleLines) {
      drawElided(painter, f.fixed.title, kMargin, top, f.textWidth, line);
      top += f.fixed.title.height();
    }
  }
  painter.setFont(f.fixed.fonts.text);
  painter.setPen(f.secondary());
  double y = f.layout.subtitleTop;
  for (const QString &line : f.fixed.subtitleLines) {
    drawElided(painter, f.fixed.text, kMargin, y, f.textWidth, line);
    y += f.fixed.text.height();
  }
}

void drawFooter(Frame &f) {
  if (f.fixed.footerLines.isEmpty())
    return;
  QPainter &painter = f.painter;
  painter.setFont(f.fixed.fonts.text);
  painter.setPen(f.secondary());
  double y = f.layout.footerTop;
  for (const QString &line : f.fixed.footerLines) {
    if (y <= f.visible.bottom() && y + f.fixed.text.height() >= f.visible.top())
      drawElided(painter, f.fixed.text, kMargin, y, f.textWidth, line);
    y += f.fixed.text.height();
  }
}

void drawLegend(Frame &f) {
  if (f.fixed.legendLines == 0)
    return;
  const double top = f.layout.legendTop;
  const double bottom = top + f.fixed.legendLines * f.fixed.legendLineHeight;
  if (bottom < f.visible.top() || top > f.visible.bottom())
    return;
  LegendPainter::Style style;
  style.fill = [&f](int64_t key) {
    return QColor::fromRgb(f.colors.entry(key).fill);
  };
  style.foreground = f.theme.foreground;
  style.secondary = f.secondary();
  f.fixed.legendPainter.draw(f.painter, QPointF(kMargin, top), f.textWidth,
                             f.fixed.legendLines, style);
}

// Panel titles, axis names and index ticks.
void drawPanelAxes(Frame &f, const Panel &panel, const PanelGeometry &g,
                   const PanelFixed &p) {
  QPainter &painter = f.painter;
  const QRectF &grid = g.grid;
  const double cs = f.cellSize;
  const QRectF &visible = f.visible;
  const QFontMetricsF &small = f.fixed.small;

  const double panelTop = g.frame.top();
  if (!panel.title.isEmpty() && panelTop <= visible.bottom() &&
      panelTop + f.fixed.panelTitleHeight >= visible.top()) {
    painter.setFont(f.fixed.fonts.panelTitle);
    painter.setPen(f.theme.foreground);
    drawElided(painter, f.fixed.panelTitle, g.frame.left(), panelTop,
               g.frame.width(), panel.title);
  }

  painter.setFont(f.fixed.fonts.small);
  // Axis names, centred on the view's part of the grid (not the clip's: a
  // view that paints only the strip a scroll exposed draws them where a
  // whole paint does).
  const QString columnAxis = columnAxisText(panel);
  if (!columnAxis.isEmpty() && grid.width() > 0) {
    const double top = panelTop + f.fixed.panelTitleHeight;
    const double left = std::max(grid.left(), f.view.left());
    const double right = std::min(grid.right(), f.view.right());
    if (right > left && top <= visible.bottom() &&
        top + f.fixed.columnAxisHeight >= visible.top()) {
      painter.setPen(f.secondary());
      const double textWidth = small.horizontalAdvance(columnAxis);
      const double x = std::max(left, (left + right) / 2 - textWidth / 2);
      painter.drawText(QPointF(x, top + small.ascent()), columnAxis);
    }
  }
  const QString rowAxis = rowAxisText(panel);
  if (!rowAxis.isEmpty() && grid.height() > 0 &&
      g.left + p.rowAxisWidth >= visible.left() && g.left <= visible.right()) {
    const double top = std::max(grid.top(), f.view.top());
    const double bottom = std::min(grid.bottom(), f.view.bottom());
    if (bottom > top) {
      painter.save();
      painter.setPen(f.secondary());
      // A grid shorter than the label gets the label elided, not spilling
      // over what lies below the panel.
      const QString shown = small.elidedText(rowAxis, Qt::ElideRight,
                                             static_cast<int>(bottom - top));
      const double textWidth = small.horizontalAdvance(shown);
      const double y = std::max(top, (top + bottom) / 2 - textWidth / 2);
      // Reads top to bottom, glyph tops towards the grid: the baseline is
      // at the band's left edge, the glyphs extend to its right.
      painter.translate(g.left + small.descent() + 1, y);
      painter.rotate(90);
      painter.drawText(QPointF(0, 0), shown);
      painter.restore();
    }
  }

  // Ticks at power-of-two steps, at least ~30 px apart (more for wide
  // column numbers), on the cells' centres.
  std::vector<QLineF> tickLines;
  const double slack = 48; // labels of cells just outside the view
  const QColor tickColor = f.secondary();
  painter.setPen(tickColor);
  if (panel.columns > 0 &&
      grid.top() - f.fixed.columnTickHeight <= visible.bottom() &&
      grid.top() >= visible.top() && grid.left() <= visible.right() &&
      grid.right() >= visible.left()) {
    const double widest =
        small.horizontalAdvance(QString::number(panel.columns - 1));
    const int64_t step = tickStep(cs, std::max(kMinTickSpacing, widest + 8));
    auto [first, last] =
        visibleRange(grid.left(), cs, panel.columns, visible.left() - slack,
                     visible.right() + slack);
    for (int64_t c = (first + step - 1) / step * step; c < last; c += step) {
      const double x = grid.left() + (static_cast<double>(c) + 0.5) * cs;
      tickLines.emplace_back(x, grid.top() - kTickLength, x, grid.top());
      const QString text = QString::number(c);
      painter.drawText(
          QPointF(x - small.horizontalAdvance(text) / 2,
                  grid.top() - kTickLength - kTickGap - small.descent()),
          text);
    }
  }
  if (panel.rows > 0 && grid.left() - p.rowTickWidth <= visible.right() &&
      grid.left() >= visible.left() && grid.top() <= visible.bottom() &&
      grid.bottom() >= visible.top()) {
    const int64_t step =
        tickStep(cs, std::max(kMinTickSpacing, small.height() + 4));
    auto [first, last] =
        visibleRange(grid.top(), cs, panel.rows, visible.top() - slack,
                     visible.bottom() + slack);
    const double baselineOffset = (small.ascent() - small.descent()) / 2;
    for (int64_t r = (first + step - 1) / step * step; r < last; r += step) {
      const double y = grid.top() + (static_cast<double>(r) + 0.5) * cs;
      tickLines.emplace_back(grid.left() - kTickLength, y, grid.left(), y);
      const QString text = QString::number(r);
      painter.drawText(QPointF(grid.left() - kTickLength - kTickGap -
                                   small.horizontalAdvance(text),
                               y + baselineOffset),
                       text);
    }
  }
  if (!tickLines.empty()) {
    painter.setPen(QPen(tickColor, 0));
    painter.drawLines(tickLines.data(), static_cast<int>(tickLines.size()));
  }
}

} // namespace tilescope::render::painter
