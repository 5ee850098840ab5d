// Axes that stay in view: when a zoomed picture is scrolled so that a
// panel's column indices (above its grid) or row indices (left of it) have
// left the view while its cells still fill it, the indices of the cells in
// view are drawn on a band pinned to the view's top or left edge, over the
// cells, with the axis name. A view paints them after the scene.
#pragma once

#include "widgets/render/GridScene.h"
#include "widgets/render/Palette.h"
#include "widgets/render/ScenePainter.h"

#include <QRectF>
#include <vector>

class QPainter;

namespace tilescope::render {

struct StickyBand {
  QRectF rect;       // in view coordinates
  bool columns = false; // the column indices (top band), else the rows'
  int panel = 0;
};

// The bands the view at `scroll` needs (none when every panel's own axes
// are in view).
std::vector<StickyBand> stickyBands(const ScenePainter &painter,
                                    const GridScene &scene, const QRectF &view,
                                    double cellSize, QPointF scroll);

void paintStickyAxes(QPainter &painter, const ScenePainter &scenePainter,
                     const GridScene &scene, const QRectF &view,
                     const Theme &theme, double cellSize, QPointF scroll);

// How far the bands reach into the view: what a view repaints after a
// scroll so no band is left behind where the scroll moved it.
double stickyBandDepth();

} // namespace tilescope::render
