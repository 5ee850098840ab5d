// Measuring and placing a scene: what its text takes, where each panel's
// grid goes at a cell size, which cells a clip meets.
#include "widgets/render/PainterFrame.h"

#include <QPaintEngine>

namespace tilescope::render::painter {
namespace {

QFont sizedFont(int pixelSize, bool bold) {
  QFont font;
  font.setPixelSize(pixelSize);
  font.setBold(bold);
  return font;
}

Fonts makeFonts() {
  return {sizedFont(17, true), sizedFont(13, false), sizedFont(13, true),
          sizedFont(11, false), sizedFont(12, false)};
}

} // namespace

QString columnAxisText(const Panel &panel) {
  return panel.columnAxis.isEmpty() ? QString()
                                    : panel.columnAxis + QStringLiteral(" →");
}

QString rowAxisText(const Panel &panel) {
  return panel.rowAxis.isEmpty() ? QString()
                                 : panel.rowAxis + QStringLiteral(" →");
}

QStringList textLines(const QString &text, int maxLines) {
  if (text.isEmpty())
    return {};
  QStringList lines = text.split(QLatin1Char('\n'));
  if (lines.size() > maxLines) {
    lines = lines.mid(0, maxLines);
    lines.back() += QStringLiteral(" …");
  }
  return lines;
}

QStringList wrappedLines(const QString &text, int maxLines,
                         const QFontMetricsF &metrics, double width) {
  if (text.isEmpty())
    return {};
  QStringList lines;
  for (const QString &paragraph : text.split(QLatin1Char('\n'))) {
    QString line;
    for (const QString &word : paragraph.split(QLatin1Char(' '))) {
      const QString longer = line.isEmpty() ? word : line + ' ' + word;
      if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
        lines << line;
        line = word;
      } else {
        line = longer;
      }
    }
    lines << line;
  }
  if (lines.size() > maxLines) {
    lines = lines.mid(0, maxLines);
    lines.back() += QStringLiteral(" …");
  }
  return lines;
}

Fixed::Fixed(const GridScene &scene)
    : fonts(makeFonts()), title(fonts.title), text(fonts.text),
      panelTitle(fonts.panelTitle), small(fonts.small), legend(fonts.legend),
      legendPainter(scene.legend, fonts.legend) {
  // The title wraps as the caption does (a narrow view had cut it).
  titleLines =
      wrappedLines(scene.title, kMaxTitleLines, title, kFooterWrapWidth);
  if (!titleLines.isEmpty())
    titleHeight = static_cast<double>(titleLines.size()) * title.height() + 4;
  for (const QString &line : titleLines)
    headerWidth = std::max(headerWidth, title.horizontalAdvance(line));
  subtitleLines = textLines(scene.subtitle, kMaxSubtitleLines);
  for (const QString &line : subtitleLines)
    headerWidth = std::max(headerWidth, text.horizontalAdvance(line));
  footerLines =
      wrappedLines(scene.footer, kMaxFooterLines, text, kFooterWrapWidth);
  for (const QString &line : footerLines)
    headerWidth = std::max(headerWidth, text.horizontalAdvance(line));
  headerWidth = std::min(headerWidth, kMaxHeaderTextWidth);

  bool anyTitle = false, anyColumnAxis = false;
  for (const Panel &panel : scene.panels) {
    PanelFixed p;
    if (!panel.rowAxis.isEmpty())
      p.rowAxisWidth = small.height() + 4;
    const int64_t lastRow = std::max<int64_t>(panel.rows - 1, 0);
    p.rowTickWidth = small.horizontalAdvance(QString::number(lastRow)) +
                     kTickLength + kTickGap + 2;
    if (!panel.title.isEmpty()) {
      anyTitle = true;
      p.titleWidth = panelTitle.horizontalAdvance(panel.title);
    }
    anyColumnAxis = anyColumnAxis || !panel.columnAxis.isEmpty();
    panels.push_back(p);
  }
  panelTitleHeight = anyTitle ? panelTitle.height() + 4 : 0;
  columnAxisHeight = anyColumnAxis ? small.height() + 2 : 0;
  columnTickHeight = small.height() + kTickLength + kTickGap;

  // The legend gets as many lines as it needs at the narrowest content
  // width (so at least as many as any wider drawing needs), up to a cap.
  legendLineHeight = legendPainter.lineHeight();
  legendLines = legendPainter.linesAt(kMinContentWidth, kMaxLegendLines);
}

Layout computeLayout(const Fixed &fixed, const GridScene &scene,
                     double cellSize) {
  Layout layout;
  double y = kMargin;
  layout.titleTop = y;
  y += fixed.titleHeight;
  layout.subtitleTop = y;
  y += static_cast<double>(fixed.subtitleLines.size()) * fixed.text.height();
  if (y > kMargin)
    y += kHeaderGap;
  layout.panelsTop = y;
  layout.gridTop = y + fixed.panelTitleHeight + fixed.columnAxisHeight +
                   fixed.columnTickHeight;

  const double headings = layout.gridTop - layout.panelsTop;
  double x = kMargin, right = kMargin;
  double rowTop = layout.panelsTop, rowGridHeight = 0;
  for (size_t i = 0; i < scene.panels.size(); ++i) {
    const Panel &panel = scene.panels[i];
    const PanelFixed &p = fixed.panels[i];
    if (panel.startsRow && i > 0) {
      rowTop += headings + rowGridHeight + kSectionGap;
      x = kMargin;
      rowGridHeight = 0;
    }
    const double leftWidth = p.rowAxisWidth + p.rowTickWidth;
    const double gridWidth =
        static_cast<double>(std::max<int64_t>(panel.columns, 0)) * cellSize;
    const double gridHeight =
        static_cast<double>(std::max<int64_t>(panel.rows, 0)) * cellSize;
    const double width = std::max(leftWidth + gridWidth,
                                  std::min(p.titleWidth, kMaxPanelTitleWidth));
    PanelGeometry geometry;
    geometry.left = x;
    geometry.grid =
        QRectF(x + leftWidth, rowTop + headings, gridWidth, gridHeight);
    geometry.frame = QRectF(x, rowTop, width, headings + gridHeight);
    layout.panels.push_back(geometry);
    right = std::max(right, x + width);
    x += width + kPanelGap;
    rowGridHeight = std::max(rowGridHeight, gridHeight);
  }
  layout.contentWidth =
      std::max({right - kMargin, fixed.headerWidth, kMinContentWidth});

  y = scene.panels.empty() ? layout.panelsTop
                           : rowTop + headings + rowGridHeight;
  if (fixed.legendLines > 0) {
    y += kSectionGap;
    layout.legendTop = y;
    y += fixed.legendLines * fixed.legendLineHeight;
  }
  if (!fixed.footerLines.isEmpty()) {
    y += kSectionGap;
    layout.footerTop = y;
    y += static_cast<double>(fixed.footerLines.size()) * fixed.text.height();
  }
  layout.size = QSizeF(layout.contentWidth + 2 * kMargin, y + kMargin);
  return layout;
}

bool isVectorDevice(QPainter &painter) {
  const QPaintEngine *engine = painter.paintEngine();
  if (!engine)
    return false;
  switch (engine->type()) {
  case QPaintEngine::SVG:
  case QPaintEngine::Pdf:
  case QPaintEngine::Picture:
  case QPaintEngine::MacPrinter:
    return true;
  default:
    return false;
  }
}

std::pair<int64_t, int64_t> visibleRange(double origin, double cellSize,
                                         int64_t count, double from,
                                         double to) {
  if (count <= 0 || to <= from)
    return {0, 0};
  const double first = std::floor((from - origin) / cellSize);
  const double last = std::ceil((to - origin) / cellSize);
  const double maxCount = static_cast<double>(count);
  const int64_t begin = static_cast<int64_t>(std::clamp(first, 0.0, maxCount));
  const int64_t end = static_cast<int64_t>(std::clamp(last, 0.0, maxCount));
  return {begin, std::max(begin, end)};
}

} // namespace tilescope::render::painter
