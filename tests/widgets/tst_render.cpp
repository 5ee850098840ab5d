// The grid renderer: palette, layout and hit testing, the pixels it paints,
// its level of detail (cell() calls follow pixels, not elements) and the
// PNG / SVG / PDF writers, on small synthetic scenes.
#include "widgets/render/GridScene.h"
#include "widgets/render/PainterFrame.h"
#include "widgets/render/Palette.h"
#include "widgets/render/SceneExport.h"
#include "widgets/render/ScenePainter.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <array>
#include <atomic>
#include <cmath>
#include <memory>

using namespace tilescope::render;

namespace {

int64_t tileKey(int64_t row, int64_t column) {
  return (row / 2) * 4 + column / 2;
}

// 8x8 cells, 2x2 tiles of one colour each (16 keys), grouped by 4.
GridScene smallScene(bool withLabels = false) {
  GridScene scene;
  scene.title = QStringLiteral("test layout on vector<8x8xf16>");
  scene.subtitle = QStringLiteral("#iree_vector_ext.nested_layout<...>");
  scene.colorCount = 16;
  Panel panel;
  panel.title = QStringLiteral("LHS 8x8 (M x K)");
  panel.rows = 8;
  panel.columns = 8;
  panel.rowAxis = QStringLiteral("M");
  panel.columnAxis = QStringLiteral("K");
  panel.rowGroup = 4;
  panel.columnGroup = 4;
  panel.cell = [withLabels](int64_t row, int64_t column) {
    CellInfo info;
    info.colorKey = tileKey(row, column);
    if (withLabels)
      info.label = QStringLiteral("s%1 l%2").arg(row).arg(column);
    info.detail = QStringLiteral("element [%1, %2]").arg(row).arg(column);
    return info;
  };
  scene.panels.push_back(panel);
  for (int64_t key = 0; key < 16; ++key)
    scene.legend.push_back({key, QStringLiteral("lane %1").arg(key)});
  scene.footer = QStringLiteral("16 lanes x 4 registers");
  return scene;
}

// 4096x4096 cells (16M elements), counting cell() calls.
GridScene hugeScene(std::shared_ptr<std::atomic<int64_t>> calls) {
  GridScene scene;
  scene.title = QStringLiteral("vector<4096x4096xf16>");
  scene.colorCount = 64;
  Panel panel;
  panel.title = QStringLiteral("4096x4096");
  panel.rows = 4096;
  panel.columns = 4096;
  panel.rowAxis = QStringLiteral("d0");
  panel.columnAxis = QStringLiteral("d1");
  panel.rowGroup = 64;
  panel.columnGroup = 64;
  panel.cell = [calls](int64_t row, int64_t column) {
    calls->fetch_add(1, std::memory_order_relaxed);
    CellInfo info;
    info.colorKey = ((row / 16) % 8) * 8 + (column / 16) % 8;
    info.marked = row % 512 == 0 && column % 512 == 0;
    return info;
  };
  scene.panels.push_back(panel);
  for (int64_t key = 0; key < 64; ++key)
    scene.legend.push_back({key, QStringLiteral("thread %1").arg(key)});
  return scene;
}

QByteArray readAll(const QString &path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    return {};
  return file.readAll();
}

// CIELAB (D65) of an sRGB colour, for distances as the eye sees them.
std::array<double, 3> labOf(const QColor &color) {
  auto linear = [](double c) {
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  };
  const double r = linear(color.redF()), g = linear(color.greenF()),
               b = linear(color.blueF());
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  auto f = [](double t) {
    return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0;
  };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double labDistance(const QColor &a, const QColor &b) {
  const auto p = labOf(a), q = labOf(b);
  return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

bool isWellFormedXml(const QByteArray &data) {
  QXmlStreamReader reader(data);
  while (!reader.atEnd())
    reader.readNext();
  return !reader.hasError();
}

} // namespace

class RenderTest : public QObject {
  Q_OBJECT

private slots:
  void paletteIsDistinctAndStable() {
    for (bool dark : {false, true}) {
      std::vector<QColor> colors;
      for (int64_t key = 0; key < 64; ++key) {
        const QColor color = colorFor(key, 64, dark);
        QVERIFY(color.isValid());
        QCOMPARE(color.alpha(), 255);
        // A key's colour does not depend on the key count.
        QCOMPARE(colorFor(key, 4, dark), color);
        colors.push_back(color);
      }
      for (size_t i = 0; i < colors.size(); ++i)
        for (size_t j = i + 1; j < colors.size(); ++j) {
          const double distance =
              std::hypot(colors[i].red() - colors[j].red(),
                         colors[i].green() - colors[j].green(),
                         colors[i].blue() - colors[j].blue());
          QVERIFY2(distance > 20,
                   qPrintable(QStringLiteral("keys %1 and %2").arg(i).arg(j)));
        }
      // Keys a layout puts side by side (lanes 1 apart in a row, rows of
      // 2..32 lanes, registers, subgroups) differ clearly: at least 30
      // CIE76 on white, 27 toned for the dark page (the colours in picking
      // order had neighbours 18 and 15 apart).
      for (int64_t apart : {1, 2, 4, 8, 16, 32})
        for (int64_t key = 0; key + apart < 64; ++key) {
          const double distance = labDistance(colorFor(key, 64, dark),
                                              colorFor(key + apart, 64, dark));
          QVERIFY2(distance >= (dark ? 27 : 30),
                   qPrintable(QStringLiteral("keys %1 and %2: %3")
                                  .arg(key)
                                  .arg(key + apart)
                                  .arg(distance)));
        }
      // Beyond the table: still valid, not all the same.
      QVERIFY(colorFor(100, 256, dark) != colorFor(101, 256, dark));
    }
    QCOMPARE(textColorOn(QColor(Qt::yellow)), QColor(Qt::black));
    QCOMPARE(textColorOn(QColor(0, 0, 128)), QColor(Qt::white));
    QCOMPARE(textColorOn(Theme::darkTheme().background), QColor(Qt::white));
    QVERIFY(!Theme::light().dark);
    QVERIFY(Theme::darkTheme().dark);
  }

  // A caption wider than a narrow view wraps between words (it had been
  // cut with an ellipsis at 1280x800), every word kept, in order; a scene
  // with a long footer is taller, not wider, for it.
  void aLongFooterWrapsBetweenWords() {
    const QFont font;
    const QFontMetricsF metrics(font);
    const QString footer =
        "4 subgroups (workgroup_size [256, 1, 1]). scf.forall over d0: 2 "
        "(linear_dim_1), d1: 2 (linear_dim_0) = 4 iterations; subgroup w runs "
        "iterations w, w + 4, ... (1 round).\nSubgroup tile: 32 x 64 x all "
        "elements (intrinsic tiles).";
    const QStringList lines = painter::wrappedLines(footer, 8, metrics, 300);
    QVERIFY2(lines.size() >= 4, qPrintable(lines.join('|')));
    for (const QString &line : lines)
      QVERIFY2(metrics.horizontalAdvance(line) <= 300, qPrintable(line));
    QString joined = lines.join(' ');
    QString words = footer;
    words.replace('\n', ' ');
    QCOMPARE(joined, words);
    // A word wider than the width keeps a line of its own.
    const QStringList one =
        painter::wrappedLines(QString(80, 'x') + " y", 8, metrics, 50);
    QCOMPARE(one.size(), 2);
    QCOMPARE(one[1], QString("y"));
    // More lines than allowed: the last says so.
    const QStringList cut = painter::wrappedLines("a b c d e f", 2, metrics, 1);
    QCOMPARE(cut.size(), 2);
    QVERIFY(cut.back().endsWith("…"));
  }

  void naturalSizeGrowsWithCellSizeAndFits() {
    const GridScene scene = smallScene();
    const ScenePainter painter;
    const QSizeF small = painter.naturalSize(scene, 4);
    const QSizeF large = painter.naturalSize(scene, 40);
    QVERIFY(large.height() - small.height() >= 8 * 36 - 1);
    const double fitted = painter.fitCellSize(scene, QSizeF(600, 500));
    QVERIFY(fitted > 1);
    const QSizeF size = painter.naturalSize(scene, fitted);
    QVERIFY(size.width() <= 600 && size.height() <= 500);
  }

  // A panel that starts a row goes below the ones before it, at the left
  // margin; the picture is as wide as its widest row and as tall as both,
  // and a cell of the second row is found where it is drawn.
  void aPanelStartsANewRow() {
    GridScene scene = smallScene();
    const Panel panel = scene.panels.front();
    scene.panels = {panel, panel, panel};
    scene.panels[2].startsRow = true;
    const ScenePainter painter;
    const double cell = 10;
    const QRectF first = painter.gridRect(scene, 0, cell);
    const QRectF second = painter.gridRect(scene, 1, cell);
    const QRectF below = painter.gridRect(scene, 2, cell);
    QCOMPARE(second.top(), first.top());
    QVERIFY(second.left() > first.right());
    QCOMPARE(below.left(), first.left());
    QVERIFY(below.top() > first.bottom());
    const QSizeF size = painter.naturalSize(scene, cell);
    QVERIFY(size.height() > below.bottom());
    QVERIFY(size.width() > second.right());
    GridScene oneRow = scene;
    oneRow.panels[2].startsRow = false;
    QVERIFY(painter.naturalSize(oneRow, cell).height() < size.height());
    const QRectF hit = painter.cellRect(scene, 2, 1, 1, cell);
    const CellHit found = painter.hitTest(scene, hit.center(), cell, {});
    QCOMPARE(found.panel, 2);
    QCOMPARE(found.row, int64_t{1});
  }

  // Side-by-side panels whose titles need more width than the viewport: the
  // grids still get cells that can be seen (the view scrolls), not 1e-4 px.
  void panelsWiderThanTheViewStillShowTheirGrids() {
    GridScene scene = smallScene();
    const Panel panel = scene.panels.front();
    scene.panels.clear();
    for (int i = 0; i < 4; ++i) {
      scene.panels.push_back(panel);
      scene.panels.back().title =
          QString("operand %1 with a long title that takes the room").arg(i);
    }
    const ScenePainter painter;
    const QSizeF view(500, 400);
    QVERIFY(painter.naturalSize(scene, 1e-4).width() > view.width());
    const double fitted = painter.fitCellSize(scene, view);
    QVERIFY2(fitted > 2, qPrintable(QString::number(fitted)));
    QVERIFY(painter.naturalSize(scene, fitted).height() <= view.height());
    // A footer taller than the view: the grids still get cells.
    GridScene tall = smallScene();
    tall.footer = QStringList(8, "a footer line").join('\n');
    const QSizeF shortView(600, 120);
    QVERIFY(painter.naturalSize(tall, 1e-4).height() > shortView.height());
    QVERIFY(painter.fitCellSize(tall, shortView) >= 8);
    // A softmax row's 4 x 1024 tile would fit as a 2 px line: its short side
    // gets 24 px and the view scrolls along the long one.
    GridScene flat = smallScene();
    flat.panels.front().rows = 4;
    flat.panels.front().columns = 1024;
    const double flatCell = painter.fitCellSize(flat, QSizeF(600, 500));
    QVERIFY2(4 * flatCell >= 24 - 1e-6, qPrintable(QString::number(flatCell)));
    // ... but never more than 16 viewports of drawing (26624 workgroups).
    flat.panels.front().rows = 26624;
    flat.panels.front().columns = 1;
    const double tallCell = painter.fitCellSize(flat, QSizeF(600, 500));
    QVERIFY(painter.naturalSize(flat, tallCell).height() <= 16 * 500);
    // A subtitle as wide as the view (elided when drawn) does not make an
    // ordinary wide grid overflow it.
    GridScene wide = smallScene();
    wide.subtitle = QString(200, 'x');
    wide.panels.front().rows = 4;
    wide.panels.front().columns = 64;
    const QSizeF wideView(painter.naturalSize(wide, 1e-4).width() + 40, 500);
    QVERIFY(painter.naturalSize(wide, painter.fitCellSize(wide, wideView))
                .width() <= wideView.width());
    // ... nor, in a view narrower than that subtitle, stretch the grid past
    // the view (the subtitle is elided there when drawn).
    const double narrowCell = painter.fitCellSize(wide, QSizeF(500, 500));
    QVERIFY2(64 * narrowCell <= 500, qPrintable(QString::number(narrowCell)));
    // A view with room to spare is filled along one side, never overflowed.
    const double roomy = painter.fitCellSize(smallScene(), QSizeF(600, 500));
    const QSizeF filled = painter.naturalSize(smallScene(), roomy);
    QVERIFY(filled.width() <= 600 && filled.height() <= 500);
    QVERIFY(filled.width() > 590 || filled.height() > 490);
  }

  // Through the file renderer, and through paint() on a high-DPI image with
  // the view scrolled (rectangles at 24 px; sampled images below 12 device
  // pixels).
  void cellCentresHaveThePaletteColours_data() {
    QTest::addColumn<double>("cellSize");
    QTest::addColumn<bool>("dark");
    QTest::addColumn<double>("pixelRatio"); // 0: renderToImage
    QTest::addColumn<QPointF>("scroll");
    QTest::newRow("24 px light") << 24.0 << false << 0.0 << QPointF();
    QTest::newRow("24 px dark") << 24.0 << true << 0.0 << QPointF();
    QTest::newRow("5 px sampled") << 5.0 << false << 0.0 << QPointF();
    QTest::newRow("24 px ratio 2 scrolled")
        << 24.0 << false << 2.0 << QPointF(31, 17);
    QTest::newRow("5 px ratio 2 sampled scrolled")
        << 5.0 << true << 2.0 << QPointF(7.5, 3.25);
    QTest::newRow("3 px ratio 1.5 sampled")
        << 3.0 << false << 1.5 << QPointF(1, 2);
  }
  void cellCentresHaveThePaletteColours() {
    QFETCH(double, cellSize);
    QFETCH(bool, dark);
    QFETCH(double, pixelRatio);
    QFETCH(QPointF, scroll);
    const GridScene scene = smallScene();
    const Theme theme = dark ? Theme::darkTheme() : Theme::light();
    const ScenePainter painter;
    QImage image;
    if (pixelRatio == 0) {
      image = renderToImage(scene, theme, cellSize);
      pixelRatio = 1;
    } else {
      const QSizeF size = painter.naturalSize(scene, cellSize);
      image = QImage((size * pixelRatio).toSize(),
                     QImage::Format_ARGB32_Premultiplied);
      image.setDevicePixelRatio(pixelRatio);
      image.fill(Qt::magenta); // not a palette colour: unpainted shows
      QPainter p(&image);
      painter.paint(p, scene, QRectF(QPointF(0, 0), size - QSizeF(40, 40)),
                    theme, cellSize, scroll);
    }
    QVERIFY(!image.isNull());
    for (int64_t row = 0; row < 8; ++row)
      for (int64_t column = 0; column < 8; ++column) {
        const QPointF centre =
            painter.cellRect(scene, 0, row, column, cellSize, scroll).center() *
            pixelRatio;
        const QColor pixel = image.pixelColor(static_cast<int>(centre.x()),
                                              static_cast<int>(centre.y()));
        QCOMPARE(pixel.rgb(), colorFor(tileKey(row, column), 16, dark).rgb());
      }
  }

  void emptyAndMarkedCells() {
    GridScene scene = smallScene();
    scene.panels[0].cell = [](int64_t row, int64_t column) {
      CellInfo info;
      info.colorKey = row == 0 ? -1 : tileKey(row, column);
      info.marked = row == 4 && column == 4;
      return info;
    };
    const Theme theme = Theme::light();
    const double cellSize = 24;
    const QImage image = renderToImage(scene, theme, cellSize);
    const ScenePainter painter;
    const QPointF empty = painter.cellRect(scene, 0, 0, 3, cellSize).center();
    QCOMPARE(image.pixelColor(empty.toPoint()).rgb(), theme.emptyCell.rgb());
    // The marked cell's outline is in the foreground colour, and its hatch
    // changes some of its pixels.
    const QRectF marked = painter.cellRect(scene, 0, 4, 4, cellSize);
    const QPoint edge(static_cast<int>(marked.left()) + 1,
                      static_cast<int>(marked.center().y()));
    QCOMPARE(image.pixelColor(edge).rgb(), theme.foreground.rgb());
    const QRgb fill = colorFor(tileKey(4, 4), 16, false).rgb();
    int hatched = 0;
    for (int y = static_cast<int>(marked.top()) + 4;
         y < static_cast<int>(marked.bottom()) - 4; ++y)
      for (int x = static_cast<int>(marked.left()) + 4;
           x < static_cast<int>(marked.right()) - 4; ++x)
        hatched += image.pixel(x, y) != fill;
    QVERIFY(hatched > 10);
  }

  void hitTestFindsTheCell() {
    const GridScene scene = smallScene();
    const ScenePainter painter;
    const double cellSize = 20;
    for (const QPointF scroll : {QPointF(0, 0), QPointF(13, 7)}) {
      const QRectF rect = painter.cellRect(scene, 0, 5, 3, cellSize, scroll);
      const CellHit hit =
          painter.hitTest(scene, rect.center(), cellSize, scroll);
      QVERIFY(hit.isValid());
      QCOMPARE(hit.panel, 0);
      QCOMPARE(hit.row, int64_t{5});
      QCOMPARE(hit.column, int64_t{3});
    }
    QVERIFY(!painter.hitTest(scene, QPointF(1, 1), cellSize, {}).isValid());
    const QRectF last = painter.cellRect(scene, 0, 7, 7, cellSize);
    QVERIFY(
        !painter
             .hitTest(scene, last.bottomRight() + QPointF(2, 2), cellSize, {})
             .isValid());
    QVERIFY(painter.cellRect(scene, 0, 8, 0, cellSize).isEmpty());
    QVERIFY(painter.cellRect(scene, 1, 0, 0, cellSize).isEmpty());
  }

  // A narrow view elides the heading and footer; hovering them gives the
  // whole text (issue 45: the sm_90 picture's heading and caption were cut).
  void headingAndFooterTextUnderThePoint() {
    GridScene scene = smallScene();
    scene.footer = QStringLiteral("4 subgroups (workgroup_size [128, 1, 1]). "
                                  "scf.forall over d0: 2 (linear_dim_1)");
    const ScenePainter painter;
    const double cellSize = 20;
    const QSizeF size = painter.naturalSize(scene, cellSize);
    QCOMPARE(painter.textAt(scene, QPointF(20, 20), cellSize, {}),
             scene.title + "\n" + scene.subtitle);
    QCOMPARE(
        painter.textAt(scene, QPointF(20, size.height() - 20), cellSize, {}),
        scene.footer);
    // Its last line, above the bottom margin; scrolled down by 40 px, 40 px
    // higher in the view.
    QCOMPARE(painter.textAt(scene, QPointF(20, size.height() - 60), cellSize,
                            QPointF(0, 40)),
             scene.footer);
    // A cell is no text.
    const QRectF cell = painter.cellRect(scene, 0, 3, 3, cellSize);
    QVERIFY(painter.textAt(scene, cell.center(), cellSize, {}).isEmpty());
  }

  // Labels show in large cells only; a long legend does not break painting.
  void labelsAndLongLegendsPaint() {
    GridScene scene = smallScene(true);
    for (int64_t key = 16; key < 300; ++key)
      scene.legend.push_back({key, QStringLiteral("thread %1").arg(key)});
    const ScenePainter painter;
    auto textPixels = [&](double cellSize) {
      const QImage image = renderToImage(scene, Theme::darkTheme(), cellSize);
      const QRectF cell = painter.cellRect(scene, 0, 2, 3, cellSize);
      const QRgb fill = colorFor(tileKey(2, 3), 16, true).rgb();
      int differing = 0;
      for (int y = static_cast<int>(cell.top()) + 2;
           y < static_cast<int>(cell.bottom()) - 2; ++y)
        for (int x = static_cast<int>(cell.left()) + 2;
             x < static_cast<int>(cell.right()) - 2; ++x)
          differing += image.pixel(x, y) != fill;
      return differing;
    };
    QCOMPARE(textPixels(12), 0);
    QVERIFY(textPixels(40) > 10);
  }

  void pngIsWrittenAtTheExpectedSize() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const ScenePainter painter;
    const GridScene small = smallScene();
    const QString smallPath = dir.filePath(QStringLiteral("small.png"));
    QString error;
    QVERIFY2(writeScene(small, smallPath, Theme::light(), 24, &error),
             qPrintable(error));
    const QImage smallImage(smallPath);
    QVERIFY(!smallImage.isNull());
    const QSizeF natural = painter.naturalSize(small, 24);
    QCOMPARE(smallImage.width(), static_cast<int>(std::ceil(natural.width())));
    QCOMPARE(smallImage.height(),
             static_cast<int>(std::ceil(natural.height())));

    auto calls = std::make_shared<std::atomic<int64_t>>(0);
    const QString hugePath = dir.filePath(QStringLiteral("huge.PNG"));
    QVERIFY2(
        writeScene(hugeScene(calls), hugePath, Theme::darkTheme(), 24, &error),
        qPrintable(error));
    const QImage hugeImage(hugePath);
    QVERIFY(!hugeImage.isNull());
    QVERIFY(hugeImage.width() <= 4096 && hugeImage.height() <= 4096);
    QVERIFY(hugeImage.height() > 3000); // cells of ~1 px, not a thumbnail
    QVERIFY(calls->load() <= int64_t{4096} * 4096);
  }

  void svgIsWellFormedAndBounded() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    const QString smallPath = dir.filePath(QStringLiteral("small.svg"));
    QVERIFY2(
        writeScene(smallScene(true), smallPath, Theme::light(), 24, &error),
        qPrintable(error));
    const QByteArray small = readAll(smallPath);
    QVERIFY(small.contains("<svg"));
    QVERIFY(isWellFormedXml(small));
    QVERIFY(!small.contains("<image")); // per-cell shapes

    auto calls = std::make_shared<std::atomic<int64_t>>(0);
    const QString hugePath = dir.filePath(QStringLiteral("huge.svg"));
    QVERIFY2(writeScene(hugeScene(calls), hugePath, Theme::light(), 24, &error),
             qPrintable(error));
    const QByteArray huge = readAll(hugePath);
    QVERIFY(huge.contains("<svg"));
    QVERIFY(huge.contains("<image")); // one downsampled image
    QVERIFY2(huge.size() < 20 * 1024 * 1024,
             qPrintable(QString::number(huge.size())));
    QVERIFY(isWellFormedXml(huge));
    QVERIFY(calls->load() <= int64_t{2048} * 2048);
  }

  void pdfIsWritten() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    const QString smallPath = dir.filePath(QStringLiteral("small.pdf"));
    QVERIFY2(
        writeScene(smallScene(true), smallPath, Theme::light(), 24, &error),
        qPrintable(error));
    QVERIFY(readAll(smallPath).startsWith("%PDF"));

    auto calls = std::make_shared<std::atomic<int64_t>>(0);
    const QString hugePath = dir.filePath(QStringLiteral("huge.pdf"));
    QVERIFY2(
        writeScene(hugeScene(calls), hugePath, Theme::darkTheme(), 24, &error),
        qPrintable(error));
    const QByteArray huge = readAll(hugePath);
    QVERIFY(huge.startsWith("%PDF"));
    QVERIFY(huge.size() < 20 * 1024 * 1024);
  }

  void unknownExtensionIsAnError() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    const QString path = dir.filePath(QStringLiteral("scene.bmp"));
    QVERIFY(!writeScene(smallScene(), path, Theme::light(), 24, &error));
    QVERIFY(error.contains(QStringLiteral(".png")));
    QVERIFY(error.contains(QStringLiteral(".svg")));
    QVERIFY(error.contains(QStringLiteral(".pdf")));
    QVERIFY(!QFile::exists(path));
    QVERIFY(!writeScene(smallScene(), dir.filePath(QStringLiteral("scene")),
                        Theme::light(), 24, &error));
    QVERIFY(!writeScene(smallScene(),
                        dir.filePath(QStringLiteral("missing/dir/scene.png")),
                        Theme::light(), 24, &error));
    QVERIFY(!error.isEmpty());
  }

  // Drawing cost follows pixels: whole view of 16M cells calls cell() at most
  // a few times per pixel, a 1:1 view only for the cells on screen.
  void cellCallsFollowPixels() {
    const QSize view(1280, 800);
    QImage target(view, QImage::Format_ARGB32_Premultiplied);
    const ScenePainter painter;
    auto calls = std::make_shared<std::atomic<int64_t>>(0);
    const GridScene scene = hugeScene(calls);

    const double whole = painter.fitCellSize(scene, QSizeF(view));
    QVERIFY(whole < 1);
    {
      QPainter p(&target);
      painter.paint(p, scene, QRectF(QPointF(0, 0), QSizeF(view)),
                    Theme::light(), whole);
    }
    const int64_t pixels = int64_t{view.width()} * view.height();
    QVERIFY2(calls->load() <= pixels * 4,
             qPrintable(QString::number(calls->load())));
    QVERIFY(calls->load() > 10000); // it did draw the panel

    calls->store(0);
    const double cellSize = 24;
    {
      QPainter p(&target);
      painter.paint(p, scene, QRectF(QPointF(0, 0), QSizeF(view)),
                    Theme::light(), cellSize, QPointF(50000, 60000));
    }
    const int64_t onScreen =
        (view.width() / 24 + 2) * int64_t{view.height() / 24 + 2};
    QVERIFY2(calls->load() <= onScreen,
             qPrintable(QString::number(calls->load())));
    QVERIFY(calls->load() > 0);

    // A clipped paint (an exposed strip) evaluates fewer cells still.
    calls->store(0);
    {
      QPainter p(&target);
      p.setClipRect(QRect(0, 0, 1280, 100));
      painter.paint(p, scene, QRectF(QPointF(0, 0), QSizeF(view)),
                    Theme::light(), cellSize, QPointF(50000, 60000));
    }
    QVERIFY(calls->load() <= (view.width() / 24 + 2) * int64_t{100 / 24 + 2});
  }
};

QTEST_MAIN(RenderTest)
#include "tst_render.moc"
