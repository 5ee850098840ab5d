// Paints a GridScene with QPainter: title, panels (cells, tile-group lines,
// index ticks, axis names), legend and footer.
//
// Drawing cost follows pixels, not elements: only cells under the visible
// part of the target (and the painter's clip) are evaluated, and when cells
// are small a panel is rasterized by sampling one cell per device pixel, so a
// 4096x4096 panel at whole view costs one Panel::cell() call per pixel at
// most. Labels fade in between 13 and 20 px cells, grid lines from 4 px.
//
// On vector devices (SVG, PDF, QPicture) small panels are emitted as merged
// per-colour paths and large panels as one bounded, downsampled image.
#pragma once

#include "widgets/render/GridScene.h"
#include "widgets/render/Palette.h"

#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <cstdint>

class QPainter;

namespace tilescope::render {

// Which cell is under a point.
struct CellHit {
  int panel = -1;
  int64_t row = -1;
  int64_t column = -1;
  bool isValid() const { return panel >= 0; }
};

struct ScenePainterOptions {
  // Vector devices: panels with at most this many cells become paths; larger
  // ones a downsampled image.
  int64_t maxVectorCells = 65536;
  // Vector devices: the longest side of a panel's downsampled image.
  int maxVectorImageSide = 1024;
  // Vector devices: no cell labels when a scene would emit more.
  int64_t maxVectorLabels = 16384;
  // Raster devices: panels whose cells are smaller than this many device
  // pixels are drawn by sampling into an image; larger cells are filled one
  // rectangle each (and may carry labels).
  double rasterBelowDevicePixels = 12.0;
  // When cells are smaller than a pixel, one sample covers this many device
  // pixels along each axis (1: one cell() call per device pixel). Larger
  // values trade resolution for fewer calls when cell() is expensive.
  int subPixelSampleBlock = 1;
};

// The smallest power of two `step` with step * cellSize >= minSpacing: how
// far apart index ticks go (the painter's, and the pinned axes').
int64_t tickStep(double cellSize, double minSpacing);

class ScenePainter {
public:
  ScenePainter() = default;
  explicit ScenePainter(const ScenePainterOptions &settings)
      : options(settings) {}

  // The size of the whole drawing (panels side by side, title, subtitle,
  // axes, legend, footer) at `cellSize` logical pixels per cell.
  QSizeF naturalSize(const GridScene &scene, double cellSize) const;

  // The largest cell size (capped at `maxCellSize`) whose natural size fits
  // `viewport`, with two exceptions that keep the grids visible (the view
  // then scrolls): grids get 120 px beyond what titles, legends and footers
  // need when those alone overflow the viewport, and a grid so elongated that
  // it would fit only as a hairline gets a short side of 24 px, within 16
  // viewports of drawing.
  double fitCellSize(const GridScene &scene, QSizeF viewport,
                     double maxCellSize = 64.0) const;

  // Paints the part of the drawing that falls in `target`: the drawing's
  // point `scroll` is shown at target.topLeft(). Fills `target` with the
  // theme's background first.
  void paint(QPainter &painter, const GridScene &scene, const QRectF &target,
             const Theme &theme, double cellSize, QPointF scroll = {}) const;

  // The cell under `pos`, given relative to the target's top-left corner
  // (widget coordinates when the target is the widget's rect).
  CellHit hitTest(const GridScene &scene, QPointF pos, double cellSize,
                  QPointF scroll) const;

  // The whole text of the heading (title and subtitle) or the footer under
  // `pos` (hitTest's coordinates), which a narrow view draws elided: what a
  // view shows on hover. Empty elsewhere.
  QString textAt(const GridScene &scene, QPointF pos, double cellSize,
                 QPointF scroll) const;

  // Where a cell lies, in the same coordinates as hitTest's `pos` (e.g. to
  // highlight the hovered cell or place a tool tip). Empty if out of range.
  QRectF cellRect(const GridScene &scene, int panel, int64_t row,
                  int64_t column, double cellSize, QPointF scroll = {}) const;

  // A panel's whole grid, in the same coordinates (empty for a panel
  // without cells).
  QRectF gridRect(const GridScene &scene, int panel, double cellSize,
                  QPointF scroll = {}) const;

  // Where the picture drawn into `view` depends on the view itself, not
  // only on the scroll: each panel's axis names, centred on the grid's
  // visible part. A view that shifts its pixels to scroll repaints these
  // before and after.
  std::vector<QRectF> viewDependentRects(const GridScene &scene,
                                         const QRectF &view, double cellSize,
                                         QPointF scroll) const;

  const ScenePainterOptions &painterOptions() const { return options; }

private:
  ScenePainterOptions options;
};

} // namespace tilescope::render
