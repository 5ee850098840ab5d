// ScenePainter's parts, shared by the files that draw a scene (internal to
// widgets/render): the layout constants and level-of-detail thresholds, what
// a scene's text measures (Fixed), where each panel goes (Layout), the colour
// of each key (ColorCache) and what one paint() call shares (Frame), and the
// drawing functions of each file:
//   PainterGeometry.cpp  measuring and placing (no drawing);
//   PainterText.cpp      header, footer, legend, panel titles, axes, ticks;
//   PainterCells.cpp     the cells, three ways: rectangles (with labels,
//                        CellLabels.h), a rasterized image, a sampled image;
//   ScenePainter.cpp     the public ScenePainter.
#pragma once

#include "widgets/render/GridScene.h"
#include "widgets/render/LegendPainter.h"
#include "widgets/render/Palette.h"
#include "widgets/render/ScenePainter.h"

#include <QColor>
#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QRectF>
#include <QStringList>
#include <QTransform>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

class QLineF;
class QPen;

namespace tilescope::render::painter {

// Layout, in logical pixels.
inline constexpr double kMargin = 16;
inline constexpr double kPanelGap = 28;
inline constexpr double kHeaderGap = 10;
inline constexpr double kSectionGap = 12;
inline constexpr double kMinContentWidth = 360;
inline constexpr double kMaxHeaderTextWidth = 720;
inline constexpr double kMaxPanelTitleWidth = 260;
inline constexpr int kMaxSubtitleLines = 4;
inline constexpr int kMaxTitleLines = 3;
inline constexpr int kMaxFooterLines = 8;
// A footer line longer than this breaks between words: a caption is read
// whole in a view as narrow as a 1280x800 window leaves the picture.
inline constexpr double kFooterWrapWidth = 540;
inline constexpr int kMaxLegendLines = 4;
inline constexpr double kTickLength = 3;
inline constexpr double kTickGap = 2;
inline constexpr double kMinTickSpacing = 30;

// Level of detail, in pixels per cell.
inline constexpr double kGridLinesFrom = 4;
inline constexpr double kGridLinesOpaque = 8;
inline constexpr double kLabelsFrom = 13;
inline constexpr double kLabelsOpaque = 20;
inline constexpr double kMinGroupSpacing = 3;
inline constexpr double kMinLabelPixelSize = 6;

// Bounds on what one frame may allocate.
inline constexpr int64_t kMaxImagePixels = int64_t{64} << 20;
inline constexpr int64_t kColorTableSize = 1024;
inline constexpr size_t kMaxVectorColors = 1024;

inline double clampUnit(double value) { return std::clamp(value, 0.0, 1.0); }

// Every text line the painter draws, and the fonts for them.
struct Fonts {
  QFont title, text, panelTitle, small, legend;
};

QString columnAxisText(const Panel &panel);
QString rowAxisText(const Panel &panel);
// At most maxLines lines of `text`, the last marked " …" when cut.
QStringList textLines(const QString &text, int maxLines);
// The same, each line broken between words where it is wider than `width`
// in `metrics` (a word wider than that keeps a line of its own).
QStringList wrappedLines(const QString &text, int maxLines,
                         const QFontMetricsF &metrics, double width);

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
  QStringList titleLines; // the title, wrapped (kMaxTitleLines)
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

  explicit Fixed(const GridScene &scene);
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
                     double cellSize);

inline double sanitizeCellSize(double cellSize) {
  return std::isfinite(cellSize) && cellSize > 0 ? cellSize : 1.0;
}

inline QRgb opaqueOver(const QColor &color, const QColor &background) {
  const double a = color.alphaF();
  auto mix = [a](int top, int bottom) {
    return static_cast<int>(std::lround(a * top + (1 - a) * bottom));
  };
  return qRgb(mix(color.red(), background.red()),
              mix(color.green(), background.green()),
              mix(color.blue(), background.blue()));
}

inline QRgb blend(QRgb from, QRgb to, double t) {
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

inline CellInfo cellAt(const Panel &panel, int64_t row, int64_t column) {
  return panel.cell ? panel.cell(row, column) : CellInfo{};
}

bool isVectorDevice(QPainter &painter);

// The cell index range [first, last) whose extent along one axis meets
// [from, to), for a grid starting at `origin`.
std::pair<int64_t, int64_t> visibleRange(double origin, double cellSize,
                                         int64_t count, double from, double to);

// Everything one paint() call shares.
struct Frame {
  QPainter &painter;
  const GridScene &scene;
  const Theme &theme;
  const ScenePainterOptions &options;
  const Fixed &fixed;
  const Layout &layout;
  QRectF visible; // canvas coordinates: what this call paints (its clip)
  // The whole target in canvas coordinates: what stays put however the
  // paint is split into strips (axis names centre on its part of a grid).
  QRectF view;
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

// Text (PainterText.cpp).
void drawElided(QPainter &painter, const QFontMetricsF &metrics, double x,
                double top, double width, const QString &text);
void drawHeader(Frame &f);
void drawFooter(Frame &f);
void drawLegend(Frame &f);
void drawPanelAxes(Frame &f, const Panel &panel, const PanelGeometry &g,
                   const PanelFixed &p);

// Cells (PainterCells.cpp).
// Whether a panel's visible cells are filled as rectangles (and may carry
// labels) or rasterized into an image.
bool fillsCellsAsRects(const Frame &f, const Panel &panel);
// Fills the visible cells as rectangles, then grid lines, marks and labels;
// false (nothing drawn) when a vector panel has too many colours to stay
// compact.
bool drawCellsAsRects(Frame &f, const Panel &panel, const QRectF &grid);
void drawCellsRasterized(Frame &f, const Panel &panel, const QRectF &grid);
// Tile-group separators and the grid's border.
void drawGroupLines(Frame &f, const Panel &panel, const QRectF &grid);

} // namespace tilescope::render::painter
