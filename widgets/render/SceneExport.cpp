#include "widgets/render/SceneExport.h"

#include "widgets/render/ScenePainter.h"

#include "core/util/Files.h"

#include <QBuffer>
#include <QByteArray>
#include <QFileInfo>
#include <QImageWriter>
#include <QMarginsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace tilescope::render {

namespace {

constexpr double kLargestCellSize = 256;

void setError(QString *error, const QString &message) {
  if (error)
    *error = message;
}

// The cell size to draw with, and the drawing's size in whole units.
struct Fit {
  double cellSize = 1;
  QSize size;
};

Fit fitScene(const ScenePainter &painter, const GridScene &scene,
             double cellSize, QSize maxSize) {
  maxSize = maxSize.expandedTo(QSize(1, 1));
  const double fitted =
      painter.fitCellSize(scene, QSizeF(maxSize),
                          std::isfinite(cellSize) && cellSize > 0
                              ? std::min(cellSize, kLargestCellSize)
                              : kLargestCellSize);
  Fit fit;
  fit.cellSize = fitted;
  const QSizeF natural = painter.naturalSize(scene, fitted);
  fit.size = QSize(static_cast<int>(std::ceil(natural.width())),
                   static_cast<int>(std::ceil(natural.height())))
                 .boundedTo(maxSize)
                 .expandedTo(QSize(1, 1));
  return fit;
}

} // namespace

QImage renderToImage(const GridScene &scene, const Theme &theme,
                     double cellSize, QSize maxSize) {
  const ScenePainter painter;
  const Fit fit = fitScene(painter, scene, cellSize, maxSize);
  QImage image(fit.size, QImage::Format_RGB32);
  if (image.isNull())
    return image;
  image.fill(theme.background);
  QPainter p(&image);
  painter.paint(p, scene, QRectF(QPointF(0, 0), QSizeF(fit.size)), theme,
                fit.cellSize);
  p.end();
  return image;
}

namespace {

// The drawing encoded in memory, then written as every save is
// (writeFileAtomically): a reader sees the old file or the new one, a link
// is written through, and a FIFO, a device or a folder named as the
// target is refused, never written to or replaced.
bool saveEncoded(const QString &path, const QByteArray &bytes, QString *error) {
  auto written = writeFileAtomically(
      path.toStdString(),
      std::string(bytes.constData(), static_cast<size_t>(bytes.size())));
  if (!written) {
    setError(error, QString::fromStdString(written.error()));
    return false;
  }
  return true;
}

} // namespace

bool writePng(const GridScene &scene, const QString &path, const Theme &theme,
              double cellSize, QString *error) {
  const QImage image = renderToImage(scene, theme, cellSize);
  if (image.isNull()) {
    setError(error,
             QStringLiteral("could not allocate the image for %1").arg(path));
    return false;
  }
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QImageWriter writer(&buffer, "png");
  if (!writer.write(image)) {
    setError(error, QStringLiteral("could not encode %1: %2")
                        .arg(path, writer.errorString()));
    return false;
  }
  return saveEncoded(path, bytes, error);
}

bool writeSvg(const GridScene &scene, const QString &path, const Theme &theme,
              double cellSize, QString *error) {
  const ScenePainter painter;
  const Fit fit =
      fitScene(painter, scene, cellSize, QSize(kMaxExportSide, kMaxExportSide));
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(fit.size);
  generator.setViewBox(QRect(QPoint(0, 0), fit.size));
  // QSvgGenerator (Qt 6.4) writes these verbatim: escape them.
  generator.setTitle(scene.title.toHtmlEscaped());
  generator.setDescription(scene.subtitle.toHtmlEscaped());
  QPainter p;
  if (!p.begin(&generator)) {
    setError(error, QStringLiteral("could not draw %1").arg(path));
    return false;
  }
  painter.paint(p, scene, QRectF(QPointF(0, 0), QSizeF(fit.size)), theme,
                fit.cellSize);
  if (!p.end() || bytes.isEmpty()) {
    setError(error, QStringLiteral("could not finish drawing %1").arg(path));
    return false;
  }
  return saveEncoded(path, bytes, error);
}

bool writePdf(const GridScene &scene, const QString &path, const Theme &theme,
              double cellSize, QString *error) {
  const ScenePainter painter;
  const Fit fit =
      fitScene(painter, scene, cellSize, QSize(kMaxExportSide, kMaxExportSide));
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QPdfWriter writer(&buffer);
    // One device unit per point: the drawing's pixels become points.
    writer.setResolution(72);
    writer.setCreator(QStringLiteral("Tilescope"));
    writer.setTitle(scene.title);
    const QPageSize pageSize(QSizeF(fit.size), QPageSize::Point, QString(),
                             QPageSize::ExactMatch);
    if (!writer.setPageLayout(QPageLayout(pageSize, QPageLayout::Portrait,
                                          QMarginsF(0, 0, 0, 0),
                                          QPageLayout::Point))) {
      setError(
          error,
          QStringLiteral("could not set the PDF page size for %1").arg(path));
      return false;
    }
    QPainter p;
    if (!p.begin(&writer)) {
      setError(error, QStringLiteral("could not draw %1").arg(path));
      return false;
    }
    painter.paint(p, scene, QRectF(QPointF(0, 0), QSizeF(fit.size)), theme,
                  fit.cellSize);
    if (!p.end()) {
      setError(error, QStringLiteral("could not finish drawing %1").arg(path));
      return false;
    }
  }
  return saveEncoded(path, bytes, error);
}

bool writeScene(const GridScene &scene, const QString &path, const Theme &theme,
                double cellSize, QString *error) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png"))
    return writePng(scene, path, theme, cellSize, error);
  if (suffix == QLatin1String("svg"))
    return writeSvg(scene, path, theme, cellSize, error);
  if (suffix == QLatin1String("pdf"))
    return writePdf(scene, path, theme, cellSize, error);
  setError(error,
           QStringLiteral("cannot write %1: unsupported file extension %2 "
                          "(supported: .png, .svg, .pdf)")
               .arg(path, suffix.isEmpty() ? QStringLiteral("(none)")
                                           : QStringLiteral(".") + suffix));
  return false;
}

} // namespace tilescope::render
