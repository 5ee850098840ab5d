#include "widgets/render/ScenePainter.h"

#include "widgets/render/LegendPainter.h"

#include <QFont>
#include <QFontMetricsF>
#include <QGlyphRun>
#include <QImage>
#include <QLineF>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QRawFont>
#include <QStringList>
#include <QTransform>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>
#include <vector>

namespace tilescope::render {

namespace {

// Layout, in logical pixels.
constexpr double kMargin = 16;
constexpr double kPanelGap = 28;
constexpr double kHeaderGap = 10;
constexpr double kSectionGap = 12;
constexpr double kMinContentWidth = 360;
constexpr double kMaxHeaderTextWidth = 720;
constexpr double kMaxPanelTitleWidth = 260;
constexpr int kMaxSubtitleLines = 4;
constexpr int kMaxFooterLines = 8;
constexpr int kMaxLegendLines = 4;
constexpr double kTickLength = 3;
constexpr double kTickGap = 2;
constexpr double kMinTickSpacing = 30;

// Level of detail, in pixels per cell.
constexpr double kGridLinesFrom = 4;
constexpr double kGridLinesOpaque = 8;
constexpr double kLabelsFrom = 18;
constexpr double kLabelsOpaque = 28;
constexpr double kMinGroupSpacing = 3;
constexpr double kMinLabelPixelSize = 6;

// Bounds on what one frame may allocate.
constexpr int64_t kMaxImagePixels = int64_t{64} << 20;
constexpr int64_t kColorTableSize = 1024;
constexpr size_t kMaxVectorColors = 1024;

double clampUnit(double value) { return std::clamp(value, 0.0, 1.0); }

// Every text line the painter draws, and the fonts for them.
struct Fonts {
  QFont title, text, panelTitle, small, legend;
};

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

// What does not depend on the cell size: fonts, text extents, legend lines.
struct PanelFixed {
  double rowAxisWidth = 0;
  double rowTickWidth = 0;
  double titleWidth = 0;
};

struct Fixed {
  Fonts fonts;
  QFontMetricsF title, text, panelTitle, small, legend;
  double titleHeight = 0;
  QStringList subtitleLines;
  double headerWidth = 0;
  double panelTitleHeight = 0;
  double columnAxisHeight = 0;
  double columnTickHeight = 0;
  std::vector<PanelFixed> panels;
  LegendPainter legendPainter;
  int legendLines = 0;
  double legendLineHeight = 0;
  QStringList footerLines;

  explicit Fixed(const GridScene &scene)
      : fonts(makeFonts()), title(fonts.title), text(fonts.text),
        panelTitle(fonts.panelTitle), small(fonts.small), legend(fonts.legend),
        legendPainter(scene.legend, fonts.legend) {
    if (!scene.title.isEmpty()) {
      titleHeight = title.height() + 4;
      headerWidth = title.horizontalAdvance(scene.title);
    }
    subtitleLines = textLines(scene.subtitle, kMaxSubtitleLines);
    for (const QString &line : subtitleLines)
      headerWidth = std::max(headerWidth, text.horizontalAdvance(line));
    footerLines = textLines(scene.footer, kMaxFooterLines);
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
};

struct PanelGeometry {
  QRectF frame; // title, axes and grid
  QRectF grid;
  double left = 0; // frame's left edge
};

struct Layout {
  QSizeF size;
  double contentWidth = 0;
  double titleTop = 0;
  double subtitleTop = 0;
  double panelsTop = 0;
  double gridTop = 0;
  double legendTop = 0;
  double footerTop = 0;
  std::vector<PanelGeometry> panels;
};

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

  double x = kMargin;
  double maxGridHeight = 0;
  for (size_t i = 0; i < scene.panels.size(); ++i) {
    const Panel &panel = scene.panels[i];
    const PanelFixed &p = fixed.panels[i];
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
        QRectF(x + leftWidth, layout.gridTop, gridWidth, gridHeight);
    geometry.frame = QRectF(x, layout.panelsTop, width,
                            layout.gridTop - layout.panelsTop + gridHeight);
    layout.panels.push_back(geometry);
    x += width + kPanelGap;
    maxGridHeight = std::max(maxGridHeight, gridHeight);
  }
  const double right = scene.panels.empty() ? kMargin : x - kPanelGap;
  layout.contentWidth =
      std::max({right - kMargin, fixed.headerWidth, kMinContentWidth});

  y = scene.panels.empty() ? layout.panelsTop : layout.gridTop + maxGridHeight;
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

double sanitizeCellSize(double cellSize) {
  return std::isfinite(cellSize) && cellSize > 0 ? cellSize : 1.0;
}

QRgb opaqueOver(const QColor &color, const QColor &background) {
  const double a = color.alphaF();
  auto mix = [a](int top, int bottom) {
    return static_cast<int>(std::lround(a * top + (1 - a) * bottom));
  };
  return qRgb(mix(color.red(), background.red()),
              mix(color.green(), background.green()),
              mix(color.blue(), background.blue()));
}

QRgb blend(QRgb from, QRgb to, double t) {
  auto mix = [t](int a, int b) {
    return static_cast<int>(std::lround((1 - t) * a + t * b));
  };
  return qRgb(mix(qRed(from), qRed(to)), mix(qGreen(from), qGreen(to)),
              mix(qBlue(from), qBlue(to)));
}

// Fill, text and hatch colours per key, computed once per frame.
class ColorCache {
public:
  struct Entry {
    QRgb fill = 0;     // opaque; alpha 0 marks an unfilled table slot
    QRgb contrast = 0; // black or white
    QRgb hatch = 0;    // the hatch drawn over marked cells
  };

  ColorCache(int64_t keyCount, const Theme &theme)
      : count(keyCount), dark(theme.dark), background(theme.background),
        table(static_cast<size_t>(kColorTableSize)) {
    empty = entryForFill(opaqueOver(theme.emptyCell, theme.background));
  }

  const Entry &entry(int64_t key) {
    if (key < 0)
      return empty;
    if (key < kColorTableSize) {
      Entry &slot = table[static_cast<size_t>(key)];
      if (qAlpha(slot.fill) == 0)
        slot = entryForKey(key);
      return slot;
    }
    auto [it, inserted] = overflow.try_emplace(key);
    if (inserted)
      it->second = entryForKey(key);
    return it->second;
  }

private:
  Entry entryForKey(int64_t key) const {
    return entryForFill(opaqueOver(colorFor(key, count, dark), background));
  }
  static Entry entryForFill(QRgb fill) {
    Entry entry;
    entry.fill = fill;
    entry.contrast = textColorOn(QColor::fromRgb(fill)).rgb();
    entry.hatch = blend(fill, entry.contrast, 0.55);
    return entry;
  }

  int64_t count;
  bool dark;
  QColor background;
  Entry empty;
  std::vector<Entry> table;
  std::unordered_map<int64_t, Entry> overflow;
};

CellInfo cellAt(const Panel &panel, int64_t row, int64_t column) {
  return panel.cell ? panel.cell(row, column) : CellInfo{};
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

// The cell index range [first, last) whose extent along one axis meets
// [from, to), for a grid starting at `origin`.
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

// Everything one paint() call shares.
struct Frame {
  QPainter &painter;
  const GridScene &scene;
  const Theme &theme;
  const ScenePainterOptions &options;
  const Fixed &fixed;
  const Layout &layout;
  QRectF visible; // canvas coordinates
  double cellSize;
  double textWidth;
  bool vector;
  bool vectorLabels = true;
  bool axisAligned = true; // device transform is a scale + translation
  double scaleX = 1;       // device pixels per canvas unit
  double scaleY = 1;
  QTransform toDevice;
  ColorCache colors;

  double deviceCellSize() const { return cellSize * std::min(scaleX, scaleY); }
  QColor secondary() const {
    QColor color = theme.foreground;
    color.setAlphaF(0.72f);
    return color;
  }
};

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
    drawElided(painter, f.fixed.title, kMargin, f.layout.titleTop, f.textWidth,
               f.scene.title);
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

  if (!panel.title.isEmpty() && f.layout.panelsTop <= visible.bottom() &&
      f.layout.panelsTop + f.fixed.panelTitleHeight >= visible.top()) {
    painter.setFont(f.fixed.fonts.panelTitle);
    painter.setPen(f.theme.foreground);
    drawElided(painter, f.fixed.panelTitle, g.frame.left(), f.layout.panelsTop,
               g.frame.width(), panel.title);
  }

  painter.setFont(f.fixed.fonts.small);
  // Axis names, centred on the visible part of the grid.
  const QString columnAxis = columnAxisText(panel);
  if (!columnAxis.isEmpty() && grid.width() > 0) {
    const double top = f.layout.panelsTop + f.fixed.panelTitleHeight;
    const double left = std::max(grid.left(), visible.left());
    const double right = std::min(grid.right(), visible.right());
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
    const double top = std::max(grid.top(), visible.top());
    const double bottom = std::min(grid.bottom(), visible.bottom());
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

// Rasterizes the grid cells under `imageRect` (canvas coordinates) into a
// width x height image, one cell() call per distinct sampled cell, and draws
// it. Marked cells get a pixel hatch, and a 1-pixel outline when cells are
// at least 4 image pixels wide.
void drawCellsAsImage(Frame &f, const Panel &panel, const QRectF &grid,
                      const QRectF &imageRect, int width, int height) {
  if (width <= 0 || height <= 0)
    return;
  const double cs = f.cellSize;
  const double pixelWidth = imageRect.width() / width;
  const double pixelHeight = imageRect.height() / height;
  const bool outlines = cs / pixelWidth >= 4 && cs / pixelHeight >= 4;

  // Unclamped cell index under image column i / row j (may be out of range).
  auto columnOf = [&](int64_t i) {
    const double x =
        imageRect.left() + (static_cast<double>(i) + 0.5) * pixelWidth;
    return static_cast<int64_t>(std::floor((x - grid.left()) / cs));
  };
  auto rowOf = [&](int64_t j) {
    const double y =
        imageRect.top() + (static_cast<double>(j) + 0.5) * pixelHeight;
    return static_cast<int64_t>(std::floor((y - grid.top()) / cs));
  };
  auto clampColumn = [&](int64_t c) {
    return std::clamp<int64_t>(c, 0, panel.columns - 1);
  };
  auto clampRow = [&](int64_t r) {
    return std::clamp<int64_t>(r, 0, panel.rows - 1);
  };

  // The distinct sampled columns, and which one each image column shows.
  std::vector<int64_t> columns;
  std::vector<int> columnIndex(static_cast<size_t>(width));
  std::vector<unsigned char> columnEdge(static_cast<size_t>(width), 0);
  for (int i = 0; i < width; ++i) {
    const int64_t raw = columnOf(i);
    const int64_t c = clampColumn(raw);
    if (columns.empty() || columns.back() != c)
      columns.push_back(c);
    columnIndex[static_cast<size_t>(i)] = static_cast<int>(columns.size() - 1);
    if (outlines)
      columnEdge[static_cast<size_t>(i)] =
          columnOf(i - 1) != raw || columnOf(i + 1) != raw;
  }

  QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
  if (image.isNull())
    return;
  const size_t count = columns.size();
  std::vector<QRgb> fill(count), hatch(count);
  std::vector<unsigned char> marked(count);
  const QRgb outline = opaqueOver(f.theme.foreground, f.theme.background);
  // Hatch phase in canvas pixels, so it does not crawl when scrolling.
  const int64_t phaseX = std::llround(imageRect.left() / pixelWidth);
  const int64_t phaseY = std::llround(imageRect.top() / pixelHeight);

  int64_t previousRow = std::numeric_limits<int64_t>::min();
  bool anyMarked = false;
  for (int j = 0; j < height; ++j) {
    const int64_t rawRow = rowOf(j);
    const int64_t r = clampRow(rawRow);
    auto *line = reinterpret_cast<QRgb *>(image.scanLine(j));
    if (r == previousRow && !anyMarked) {
      std::memcpy(line, image.constScanLine(j - 1),
                  static_cast<size_t>(width) * sizeof(QRgb));
      continue;
    }
    if (r != previousRow) {
      anyMarked = false;
      for (size_t k = 0; k < count; ++k) {
        if (panel.colorKey) {
          // The fast path: no text is drawn at this size.
          const ColorCache::Entry &entry =
              f.colors.entry(panel.colorKey(r, columns[k]));
          fill[k] = entry.fill;
          hatch[k] = entry.hatch;
          marked[k] = false;
          continue;
        }
        const CellInfo info = cellAt(panel, r, columns[k]);
        const ColorCache::Entry &entry = f.colors.entry(info.colorKey);
        fill[k] = entry.fill;
        hatch[k] = entry.hatch;
        marked[k] = info.marked;
        anyMarked = anyMarked || info.marked;
      }
      previousRow = r;
    }
    if (!anyMarked) {
      for (int i = 0; i < width; ++i)
        line[i] =
            fill[static_cast<size_t>(columnIndex[static_cast<size_t>(i)])];
      continue;
    }
    const bool rowEdge =
        outlines && (rowOf(j - 1) != rawRow || rowOf(j + 1) != rawRow);
    for (int i = 0; i < width; ++i) {
      const auto k = static_cast<size_t>(columnIndex[static_cast<size_t>(i)]);
      QRgb color = fill[k];
      if (marked[k]) {
        if (outlines && (rowEdge || columnEdge[static_cast<size_t>(i)]))
          color = outline;
        else if ((((phaseX + i) + (phaseY + j)) % 4 + 4) % 4 == 0)
          color = hatch[k];
      }
      line[i] = color;
    }
  }
  f.painter.save();
  f.painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
  f.painter.drawImage(imageRect, image);
  f.painter.restore();
}

// Whether a panel's visible cells are filled as rectangles (and may carry
// labels) or rasterized into an image.
bool fillsCellsAsRects(const Frame &f, const Panel &panel) {
  if (f.vector) {
    const double cells =
        static_cast<double>(panel.rows) * static_cast<double>(panel.columns);
    return cells <= static_cast<double>(f.options.maxVectorCells);
  }
  return f.axisAligned &&
         f.deviceCellSize() >= f.options.rasterBelowDevicePixels;
}

void drawCellsRasterized(Frame &f, const Panel &panel, const QRectF &grid) {
  if (f.vector) {
    // One bounded image of the whole panel: whole cells per pixel block
    // when the panel is small enough, else downsampled.
    const int maxSide = std::max(1, f.options.maxVectorImageSide);
    const double longest =
        static_cast<double>(std::max(panel.rows, panel.columns));
    int width = 0, height = 0;
    if (longest <= maxSide) {
      const int64_t perCell =
          std::clamp<int64_t>(static_cast<int64_t>(maxSide / longest), 1, 8);
      width = static_cast<int>(panel.columns * perCell);
      height = static_cast<int>(panel.rows * perCell);
    } else {
      const double scale = maxSide / longest;
      width = std::max(1, static_cast<int>(std::lround(
                              static_cast<double>(panel.columns) * scale)));
      height = std::max(1, static_cast<int>(std::lround(
                               static_cast<double>(panel.rows) * scale)));
    }
    drawCellsAsImage(f, panel, grid, grid, width, height);
    return;
  }
  const QRectF shown = grid.intersected(f.visible);
  if (shown.isEmpty())
    return;
  if (!f.axisAligned) {
    // Rotated or sheared painters: sample at one canvas unit per pixel.
    const auto width = static_cast<int>(std::ceil(shown.width()));
    const auto height = static_cast<int>(std::ceil(shown.height()));
    drawCellsAsImage(f, panel, grid,
                     QRectF(shown.topLeft(), QSizeF(width, height)), width,
                     height);
    return;
  }
  // Align the image with device pixels, so it is blitted 1:1.
  const QRectF device = f.toDevice.mapRect(shown);
  const double left = std::floor(device.left());
  const double top = std::floor(device.top());
  double width = std::ceil(device.right()) - left;
  double height = std::ceil(device.bottom()) - top;
  int block = 1;
  if (f.deviceCellSize() < 1 && f.options.subPixelSampleBlock > 1)
    block = f.options.subPixelSampleBlock;
  // Never allocate more than kMaxImagePixels: sample coarser instead.
  while ((width / block) * (height / block) >
         static_cast<double>(kMaxImagePixels))
    block *= 2;
  const int imageWidth = static_cast<int>(std::ceil(width / block));
  const int imageHeight = static_cast<int>(std::ceil(height / block));
  width = static_cast<double>(imageWidth) * block;
  height = static_cast<double>(imageHeight) * block;
  const QRectF imageRect =
      f.toDevice.inverted().mapRect(QRectF(left, top, width, height));
  drawCellsAsImage(f, panel, grid, imageRect, imageWidth, imageHeight);
}

// Cell labels: one line, or the label's words on separate lines, shrunk to
// fit the cell; nothing below kMinLabelPixelSize. On raster devices the
// labels are laid out from a per-frame glyph cache (no text shaping per
// label) and drawn as one glyph run per size and colour; vector devices get
// real text.
class LabelPainter {
public:
  LabelPainter(Frame &frame, double alpha)
      : f(frame), alpha(alpha),
        basePixelSize(std::clamp(frame.cellSize * 0.36, 7.0, 14.0)) {}
  LabelPainter(const LabelPainter &) = delete;
  LabelPainter &operator=(const LabelPainter &) = delete;
  ~LabelPainter() { flush(); }

  void draw(const QRectF &cell, const QString &label, QRgb textColor) {
    const double available = cell.width() - 4;
    if (available <= 0)
      return;
    SizedFont &base = fontFor(static_cast<int>(basePixelSize));
    // One line.
    const double singleWidth = base.width(label);
    if (singleWidth < 0) {
      drawFallback(cell, label, textColor);
      return;
    }
    const double singleScale =
        std::min({1.0, available / std::max(singleWidth, 1e-9),
                  available / base.lineHeight});
    // Words on lines.
    words.clear();
    double wordsScale = 0;
    if (singleScale < 1 && label.contains(QLatin1Char(' '))) {
      for (QStringView word :
           QStringView(label).split(QLatin1Char(' '), Qt::SkipEmptyParts))
        words.push_back(word);
      double widest = 0;
      for (QStringView word : words)
        widest = std::max(widest, base.width(word));
      const double total = base.lineHeight * static_cast<double>(words.size());
      wordsScale = std::min(
          {1.0, available / std::max(widest, 1e-9), available / total});
    }
    const bool useWords = wordsScale > singleScale;
    const double pixelSize =
        std::floor(basePixelSize * (useWords ? wordsScale : singleScale));
    if (pixelSize < kMinLabelPixelSize)
      return;
    if (!useWords) {
      words.clear();
      words.push_back(QStringView(label));
    }
    SizedFont &font = fontFor(static_cast<int>(pixelSize));
    if (font.width(label) < 0) {
      drawFallback(cell, label, textColor);
      return;
    }
    QColor color = QColor::fromRgb(textColor);
    color.setAlphaF(static_cast<float>(alpha));
    const QPointF center = cell.center();
    double baseline = center.y() -
                      font.lineHeight * static_cast<double>(words.size()) / 2 +
                      font.ascent;
    for (QStringView line : words) {
      const double width = font.width(line);
      const QPointF origin(center.x() - width / 2, baseline);
      if (f.vector) {
        f.painter.setFont(font.font);
        f.painter.setPen(color);
        f.painter.drawText(origin, line.toString());
      } else {
        Batch &batch = batches[{font.pixelSize, color.rgba()}];
        double x = origin.x();
        for (QChar ch : line) {
          const Glyph *glyph = font.glyph(ch);
          if (!glyph)
            continue;
          batch.glyphs.push_back(glyph->index);
          batch.positions.emplace_back(x, origin.y());
          x += glyph->advance;
        }
      }
      baseline += font.lineHeight;
    }
  }

private:
  struct Glyph {
    quint32 index = 0;
    double advance = 0;
    bool present = false;
  };
  struct SizedFont {
    int pixelSize = 0;
    QFont font;
    QRawFont raw;
    double ascent = 0;
    double lineHeight = 0;
    std::unordered_map<char16_t, Glyph> glyphs;

    const Glyph *glyph(QChar ch) {
      auto [it, inserted] = glyphs.try_emplace(ch.unicode());
      if (inserted && !ch.isSurrogate()) {
        const QList<quint32> indexes = raw.glyphIndexesForString(QString(ch));
        if (indexes.size() == 1 && indexes[0] != 0) {
          const QList<QPointF> advances = raw.advancesForGlyphIndexes(indexes);
          it->second.index = indexes[0];
          it->second.advance = advances.value(0).x();
          it->second.present = true;
        }
      }
      return it->second.present ? &it->second : nullptr;
    }
    // -1 when a character has no glyph in this font (fallback fonts,
    // surrogates): such labels are drawn as ordinary text.
    double width(QStringView text) {
      double sum = 0;
      for (QChar ch : text) {
        const Glyph *g = glyph(ch);
        if (!g)
          return -1;
        sum += g->advance;
      }
      return sum;
    }
  };
  struct Batch {
    std::vector<quint32> glyphs;
    std::vector<QPointF> positions;
  };

  SizedFont &fontFor(int pixelSize) {
    auto it = fonts.find(pixelSize);
    if (it != fonts.end())
      return it->second;
    SizedFont &font = fonts[pixelSize];
    font.pixelSize = pixelSize;
    font.font = f.fixed.fonts.text;
    font.font.setPixelSize(pixelSize);
    font.raw = QRawFont::fromFont(font.font);
    const QFontMetricsF metrics(font.font);
    font.ascent = metrics.ascent();
    font.lineHeight = metrics.height();
    return font;
  }

  // Labels with characters the glyph cache cannot place: QPainter's text
  // path with font fallback, fitted by scaling the font down.
  void drawFallback(const QRectF &cell, const QString &label, QRgb textColor) {
    QFont font = f.fixed.fonts.text;
    font.setPixelSize(static_cast<int>(basePixelSize));
    const QFontMetricsF metrics(font);
    const double available = cell.width() - 4;
    const double scale = std::min(
        {1.0, available / std::max(metrics.horizontalAdvance(label), 1e-9),
         available / metrics.height()});
    const double pixelSize = std::floor(basePixelSize * scale);
    if (pixelSize < kMinLabelPixelSize)
      return;
    font.setPixelSize(static_cast<int>(pixelSize));
    QColor color = QColor::fromRgb(textColor);
    color.setAlphaF(static_cast<float>(alpha));
    f.painter.setFont(font);
    f.painter.setPen(color);
    f.painter.drawText(cell, Qt::AlignCenter, label);
  }

  void flush() {
    for (auto &[key, batch] : batches) {
      if (batch.glyphs.empty())
        continue;
      QGlyphRun run;
      run.setRawFont(fonts[key.first].raw);
      run.setGlyphIndexes(
          QList<quint32>(batch.glyphs.begin(), batch.glyphs.end()));
      run.setPositions(
          QList<QPointF>(batch.positions.begin(), batch.positions.end()));
      f.painter.setPen(QColor::fromRgba(key.second));
      f.painter.drawGlyphRun(QPointF(0, 0), run);
    }
    batches.clear();
  }

  Frame &f;
  double alpha;
  double basePixelSize;
  std::map<int, SizedFont> fonts;
  std::map<std::pair<int, QRgb>, Batch> batches;
  std::vector<QStringView> words;
};

void drawGroupLines(Frame &f, const Panel &panel, const QRectF &grid);

// Many line segments: one drawLines call on raster devices, one path on
// vector devices (far more compact than one element per segment in SVG).
void strokeLines(Frame &f, const std::vector<QLineF> &lines, const QPen &pen) {
  if (lines.empty())
    return;
  if (!f.vector) {
    f.painter.setPen(pen);
    f.painter.drawLines(lines.data(), static_cast<int>(lines.size()));
    return;
  }
  QPainterPath path;
  for (const QLineF &line : lines) {
    path.moveTo(line.p1());
    path.lineTo(line.p2());
  }
  f.painter.strokePath(path, pen);
}

// Fills the visible cells as rectangles (merged along rows, and on vector
// devices merged into one path per colour), then grid lines, marks and
// labels. Returns false (drawing nothing) when a vector panel has too many
// colours to stay compact.
bool drawCellsAsRects(Frame &f, const Panel &panel, const QRectF &grid) {
  const double cs = f.cellSize;
  const QRectF shown = f.vector ? grid : grid.intersected(f.visible);
  if (shown.isEmpty())
    return true;
  auto [r0, r1] =
      visibleRange(grid.top(), cs, panel.rows, shown.top(), shown.bottom());
  auto [c0, c1] =
      visibleRange(grid.left(), cs, panel.columns, shown.left(), shown.right());
  if (r0 >= r1 || c0 >= c1)
    return true;
  auto xAt = [&](int64_t c) {
    return grid.left() + static_cast<double>(c) * cs;
  };
  auto yAt = [&](int64_t r) {
    return grid.top() + static_cast<double>(r) * cs;
  };

  QPainter &painter = f.painter;
  const int64_t shownColumns = c1 - c0;
  std::vector<CellInfo> infos;
  infos.reserve(static_cast<size_t>((r1 - r0) * shownColumns));
  std::map<QRgb, QPainterPath> paths; // vector devices
  for (int64_t r = r0; r < r1; ++r) {
    int64_t runStart = c0;
    QRgb runColor = 0;
    auto flush = [&](int64_t end) {
      const QRectF rect(QPointF(xAt(runStart), yAt(r)),
                        QPointF(xAt(end), yAt(r + 1)));
      if (f.vector)
        paths[runColor].addRect(rect);
      else
        painter.fillRect(rect, QColor::fromRgb(runColor));
    };
    for (int64_t c = c0; c < c1; ++c) {
      infos.push_back(cellAt(panel, r, c));
      const QRgb color = f.colors.entry(infos.back().colorKey).fill;
      if (c == c0) {
        runColor = color;
      } else if (color != runColor) {
        flush(c);
        runStart = c;
        runColor = color;
      }
    }
    flush(c1);
    if (f.vector && paths.size() > kMaxVectorColors)
      return false;
  }
  for (auto &[color, path] : paths) {
    path.setFillRule(Qt::WindingFill);
    painter.fillPath(path, QColor::fromRgb(color));
  }

  // Grid lines, fading in.
  const double pixels = f.vector ? cs : f.deviceCellSize();
  if (pixels >= kGridLinesFrom) {
    QColor color = f.theme.gridLine;
    color.setAlphaF(static_cast<float>(
        color.alphaF() * clampUnit((pixels - kGridLinesFrom) /
                                   (kGridLinesOpaque - kGridLinesFrom))));
    std::vector<QLineF> lines;
    for (int64_t c = c0 + 1; c < c1; ++c)
      lines.emplace_back(xAt(c), yAt(r0), xAt(c), yAt(r1));
    for (int64_t r = r0 + 1; r < r1; ++r)
      lines.emplace_back(xAt(c0), yAt(r), xAt(c1), yAt(r));
    if (color.alpha() > 0)
      strokeLines(f, lines, QPen(color, 0));
  }
  drawGroupLines(f, panel, grid);

  // Marked cells: diagonal hatch in the contrasting colour, thick outline.
  std::vector<QLineF> darkHatch, lightHatch;
  std::vector<QRectF> outlines;
  const double outlineWidth = std::clamp(cs * 0.1, 2.0, 4.0);
  const double spacing = f.vector ? cs / 2 : std::clamp(cs / 4, 3.0, 8.0);
  for (int64_t r = r0; r < r1; ++r) {
    for (int64_t c = c0; c < c1; ++c) {
      const CellInfo &info =
          infos[static_cast<size_t>((r - r0) * shownColumns + (c - c0))];
      if (!info.marked)
        continue;
      const QRectF cell(QPointF(xAt(c), yAt(r)),
                        QPointF(xAt(c + 1), yAt(r + 1)));
      const ColorCache::Entry &entry = f.colors.entry(info.colorKey);
      std::vector<QLineF> &hatch =
          qGray(entry.contrast) < 128 ? darkHatch : lightHatch;
      // Lines x + y = k in cell-local coordinates ("/" on screen).
      for (double k = spacing; k < 2 * cs - 0.5; k += spacing) {
        const double x1 = std::max(0.0, k - cs), x2 = std::min(k, cs);
        hatch.emplace_back(cell.left() + x1, cell.top() + k - x1,
                           cell.left() + x2, cell.top() + k - x2);
      }
      outlines.push_back(cell.adjusted(outlineWidth / 2, outlineWidth / 2,
                                       -outlineWidth / 2, -outlineWidth / 2));
    }
  }
  auto drawHatch = [&](const std::vector<QLineF> &lines, QColor color) {
    color.setAlphaF(0.55f);
    strokeLines(f, lines, QPen(color, f.vector ? std::max(0.5, cs / 24) : 0));
  };
  drawHatch(darkHatch, QColor(Qt::black));
  drawHatch(lightHatch, QColor(Qt::white));
  if (!outlines.empty()) {
    QPen pen(f.theme.foreground, outlineWidth);
    pen.setJoinStyle(Qt::MiterJoin);
    painter.setBrush(Qt::NoBrush);
    if (f.vector) {
      QPainterPath path;
      for (const QRectF &rect : outlines)
        path.addRect(rect);
      painter.strokePath(path, pen);
    } else {
      painter.setPen(pen);
      painter.drawRects(outlines.data(), static_cast<int>(outlines.size()));
    }
  }

  // Labels, fading in between 18 and 28 px cells.
  if (cs >= kLabelsFrom && (!f.vector || f.vectorLabels)) {
    const double alpha =
        clampUnit((cs - kLabelsFrom) / (kLabelsOpaque - kLabelsFrom));
    if (alpha > 0.02) {
      LabelPainter labels(f, alpha);
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t c = c0; c < c1; ++c) {
          const CellInfo &info =
              infos[static_cast<size_t>((r - r0) * shownColumns + (c - c0))];
          if (info.label.isEmpty())
            continue;
          labels.draw(
              QRectF(QPointF(xAt(c), yAt(r)), QPointF(xAt(c + 1), yAt(r + 1))),
              info.label, f.colors.entry(info.colorKey).contrast);
        }
      }
    }
  }
  return true;
}

// Tile-group separators and the grid's border.
void drawGroupLines(Frame &f, const Panel &panel, const QRectF &grid) {
  const double cs = f.cellSize;
  const QRectF shown =
      f.vector ? grid : grid.intersected(f.visible.adjusted(-4, -4, 4, 4));
  if (shown.isEmpty())
    return;
  const double pixels = f.vector ? cs : f.deviceCellSize();
  const double scale = f.vector ? 1.0 : std::min(f.scaleX, f.scaleY);
  std::vector<QLineF> lines;
  auto addLines = [&](int64_t group, int64_t count, bool vertical) {
    if (group <= 0 || group >= count ||
        static_cast<double>(group) * cs * scale < kMinGroupSpacing)
      return;
    const double origin = vertical ? grid.left() : grid.top();
    auto [first, last] =
        vertical ? visibleRange(origin, cs, count, shown.left(), shown.right())
                 : visibleRange(origin, cs, count, shown.top(), shown.bottom());
    for (int64_t i = std::max<int64_t>((first + group - 1) / group, 1) * group;
         i <= last && i < count; i += group) {
      const double at = origin + static_cast<double>(i) * cs;
      if (vertical)
        lines.emplace_back(at, shown.top(), at, shown.bottom());
      else
        lines.emplace_back(shown.left(), at, shown.right(), at);
    }
  };
  addLines(panel.columnGroup, panel.columns, true);
  addLines(panel.rowGroup, panel.rows, false);
  QPen groupPen(f.theme.groupLine, pixels >= 4 ? 2.0 : 1.0);
  groupPen.setCosmetic(true);
  strokeLines(f, lines, groupPen);
  // Border: only the sides that are on screen.
  std::vector<QLineF> border;
  if (grid.left() >= shown.left() - 0.5)
    border.emplace_back(grid.left(), shown.top(), grid.left(), shown.bottom());
  if (grid.right() <= shown.right() + 0.5)
    border.emplace_back(grid.right(), shown.top(), grid.right(),
                        shown.bottom());
  if (grid.top() >= shown.top() - 0.5)
    border.emplace_back(shown.left(), grid.top(), shown.right(), grid.top());
  if (grid.bottom() <= shown.bottom() + 0.5)
    border.emplace_back(shown.left(), grid.bottom(), shown.right(),
                        grid.bottom());
  QPen borderPen(f.theme.groupLine, 1.0);
  borderPen.setCosmetic(true);
  strokeLines(f, border, borderPen);
}

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

  Frame f{painter, scene, theme, options, fixed, layout, visible, cellSize,
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
