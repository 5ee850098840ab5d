// A panel's cells, three ways: rectangles merged along rows (one path per
// colour on vector devices) with grid lines, marks and labels when cells
// are large; a rasterized image of the cells in view when they are small;
// and tile-group separators over either.
#include "widgets/render/CellLabels.h"
#include "widgets/render/PainterFrame.h"

#include <QImage>
#include <QLineF>
#include <QPainterPath>

#include <cstring>
#include <limits>
#include <map>
#include <tuple>

namespace tilescope::render::painter {
namespace {

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

} // namespace

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

namespace {

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

} // namespace

namespace {

// The visible cells of a panel and what each says (cellAt, asked once).
struct VisibleCells {
  QRectF grid;
  double cs = 0;
  int64_t r0 = 0, r1 = 0, c0 = 0, c1 = 0;
  std::vector<CellInfo> infos; // row-major over [r0, r1) x [c0, c1)

  double xAt(int64_t c) const {
    return grid.left() + static_cast<double>(c) * cs;
  }
  double yAt(int64_t r) const {
    return grid.top() + static_cast<double>(r) * cs;
  }
  QRectF cell(int64_t r, int64_t c) const {
    return QRectF(QPointF(xAt(c), yAt(r)), QPointF(xAt(c + 1), yAt(r + 1)));
  }
  const CellInfo &info(int64_t r, int64_t c) const {
    return infos[static_cast<size_t>((r - r0) * (c1 - c0) + (c - c0))];
  }
};

// Fills the cells as rectangles merged along rows (on vector devices into
// one path per colour); false, drawing nothing, when a vector panel has too
// many colours to stay compact.
bool fillCells(Frame &f, const Panel &panel, VisibleCells &cells) {
  QPainter &painter = f.painter;
  cells.infos.reserve(
      static_cast<size_t>((cells.r1 - cells.r0) * (cells.c1 - cells.c0)));
  std::map<QRgb, QPainterPath> paths; // vector devices
  for (int64_t r = cells.r0; r < cells.r1; ++r) {
    int64_t runStart = cells.c0;
    QRgb runColor = 0;
    auto flush = [&](int64_t end) {
      const QRectF rect(QPointF(cells.xAt(runStart), cells.yAt(r)),
                        QPointF(cells.xAt(end), cells.yAt(r + 1)));
      if (f.vector)
        paths[runColor].addRect(rect);
      else
        painter.fillRect(rect, QColor::fromRgb(runColor));
    };
    for (int64_t c = cells.c0; c < cells.c1; ++c) {
      cells.infos.push_back(cellAt(panel, r, c));
      const QRgb color = f.colors.entry(cells.infos.back().colorKey).fill;
      if (c == cells.c0) {
        runColor = color;
      } else if (color != runColor) {
        flush(c);
        runStart = c;
        runColor = color;
      }
    }
    flush(cells.c1);
    if (f.vector && paths.size() > kMaxVectorColors)
      return false;
  }
  for (auto &[color, path] : paths) {
    path.setFillRule(Qt::WindingFill);
    painter.fillPath(path, QColor::fromRgb(color));
  }
  return true;
}

// Grid lines between the cells, fading in as cells grow.
void drawGridLines(Frame &f, const VisibleCells &cells) {
  const double pixels = f.vector ? cells.cs : f.deviceCellSize();
  if (pixels < kGridLinesFrom)
    return;
  QColor color = f.theme.gridLine;
  color.setAlphaF(static_cast<float>(
      color.alphaF() * clampUnit((pixels - kGridLinesFrom) /
                                 (kGridLinesOpaque - kGridLinesFrom))));
  std::vector<QLineF> lines;
  for (int64_t c = cells.c0 + 1; c < cells.c1; ++c)
    lines.emplace_back(cells.xAt(c), cells.yAt(cells.r0), cells.xAt(c),
                       cells.yAt(cells.r1));
  for (int64_t r = cells.r0 + 1; r < cells.r1; ++r)
    lines.emplace_back(cells.xAt(cells.c0), cells.yAt(r), cells.xAt(cells.c1),
                       cells.yAt(r));
  if (color.alpha() > 0)
    strokeLines(f, lines, QPen(color, 0));
}

// Marked cells: diagonal hatch in the contrasting colour, thick outline.
void drawMarks(Frame &f, const VisibleCells &cells) {
  const double cs = cells.cs;
  std::vector<QLineF> darkHatch, lightHatch;
  std::vector<QRectF> outlines;
  const double outlineWidth = std::clamp(cs * 0.1, 2.0, 4.0);
  const double spacing = f.vector ? cs / 2 : std::clamp(cs / 4, 3.0, 8.0);
  for (int64_t r = cells.r0; r < cells.r1; ++r) {
    for (int64_t c = cells.c0; c < cells.c1; ++c) {
      const CellInfo &info = cells.info(r, c);
      if (!info.marked)
        continue;
      const QRectF cell = cells.cell(r, c);
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
  if (outlines.empty())
    return;
  QPen pen(f.theme.foreground, outlineWidth);
  pen.setJoinStyle(Qt::MiterJoin);
  f.painter.setBrush(Qt::NoBrush);
  if (f.vector) {
    QPainterPath path;
    for (const QRectF &rect : outlines)
      path.addRect(rect);
    f.painter.strokePath(path, pen);
  } else {
    f.painter.setPen(pen);
    f.painter.drawRects(outlines.data(), static_cast<int>(outlines.size()));
  }
}

// Labels, fading in between 13 and 20 px cells.
void drawLabels(Frame &f, const VisibleCells &cells) {
  if (cells.cs < kLabelsFrom || (f.vector && !f.vectorLabels))
    return;
  const double alpha =
      clampUnit((cells.cs - kLabelsFrom) / (kLabelsOpaque - kLabelsFrom));
  if (alpha <= 0.02)
    return;
  LabelPainter labels(f, alpha);
  for (int64_t r = cells.r0; r < cells.r1; ++r)
    for (int64_t c = cells.c0; c < cells.c1; ++c) {
      const CellInfo &info = cells.info(r, c);
      if (!info.label.isEmpty())
        labels.draw(cells.cell(r, c), info.label,
                    f.colors.entry(info.colorKey).contrast);
    }
}

} // namespace

// Fills the visible cells as rectangles (merged along rows, and on vector
// devices merged into one path per colour), then grid lines, marks and
// labels. Returns false (drawing nothing) when a vector panel has too many
// colours to stay compact.
bool drawCellsAsRects(Frame &f, const Panel &panel, const QRectF &grid) {
  VisibleCells cells;
  cells.grid = grid;
  cells.cs = f.cellSize;
  const QRectF shown = f.vector ? grid : grid.intersected(f.visible);
  if (shown.isEmpty())
    return true;
  std::tie(cells.r0, cells.r1) = visibleRange(grid.top(), cells.cs, panel.rows,
                                              shown.top(), shown.bottom());
  std::tie(cells.c0, cells.c1) = visibleRange(
      grid.left(), cells.cs, panel.columns, shown.left(), shown.right());
  if (cells.r0 >= cells.r1 || cells.c0 >= cells.c1)
    return true;
  if (!fillCells(f, panel, cells))
    return false;
  drawGridLines(f, cells);
  drawGroupLines(f, panel, grid);
  drawMarks(f, cells);
  drawLabels(f, cells);
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

} // namespace tilescope::render::painter
