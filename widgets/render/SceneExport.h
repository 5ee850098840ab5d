// Writes a GridScene to PNG, SVG or PDF (QtGui + QtSvg only, so the CLI can
// use it with the offscreen platform). All formats are bounded in size: the
// cell size shrinks until the drawing fits maxSize (4096 x 4096 for the
// files), and in SVG/PDF a panel with more than ~65536 cells is one
// downsampled image rather than per-cell shapes.
#pragma once

#include "widgets/render/GridScene.h"
#include "widgets/render/Palette.h"

#include <QImage>
#include <QSize>
#include <QString>

namespace tilescope::render {

// The largest drawing the writers produce, in pixels (SVG user units, PDF
// points).
inline constexpr int kMaxExportSide = 4096;

// The whole scene at `cellSize` (0 or less: as large as fits), the cell
// size reduced so the natural size fits `maxSize`.
QImage renderToImage(const GridScene &scene, const Theme &theme,
                     double cellSize,
                     QSize maxSize = {kMaxExportSide, kMaxExportSide});

bool writePng(const GridScene &scene, const QString &path, const Theme &theme,
              double cellSize, QString *error = nullptr);
bool writeSvg(const GridScene &scene, const QString &path, const Theme &theme,
              double cellSize, QString *error = nullptr);
bool writePdf(const GridScene &scene, const QString &path, const Theme &theme,
              double cellSize, QString *error = nullptr);

// Picks the format from the extension (.png, .svg, .pdf; any case); an
// unknown extension fails with a message naming the supported ones.
bool writeScene(const GridScene &scene, const QString &path, const Theme &theme,
                double cellSize, QString *error = nullptr);

} // namespace tilescope::render
