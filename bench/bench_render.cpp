// How long one 1280x800 frame of the grid renderer takes, for panels of 64^2
// to 4096^2 cells, at whole-view zoom and at 24 px cells (1:1), painting on
// one thread into an image like a widget's backing store. Prints the median
// of 20 frames:
//
//   render 4096x4096 whole-view: 3.2 ms
//   render 4096x4096 cell 24: 1.1 ms
#include "widgets/render/GridScene.h"
#include "widgets/render/Palette.h"
#include "widgets/render/ScenePainter.h"

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace tilescope::render;

namespace {

constexpr int kFrames = 20;
constexpr QSize kView(1280, 800);

// A cheap cell function: a subgroup/lane-like key from the coordinates, a
// label shared from a precomputed list (no per-call formatting).
GridScene makeScene(int64_t size, const QStringList &labels) {
  GridScene scene;
  scene.title = QStringLiteral("bench %1x%2").arg(size).arg(size);
  scene.subtitle = QStringLiteral("synthetic layout");
  scene.colorCount = 64;
  Panel panel;
  panel.title = scene.title;
  panel.rows = size;
  panel.columns = size;
  panel.rowAxis = QStringLiteral("M");
  panel.columnAxis = QStringLiteral("K");
  panel.rowGroup = 16;
  panel.columnGroup = 16;
  panel.cell = [&labels](int64_t row, int64_t column) {
    CellInfo info;
    info.colorKey = ((row / 4) % 8) * 8 + (column / 4) % 8;
    info.label = labels[static_cast<int>(info.colorKey)];
    info.marked = row % 64 == 0 && column % 64 == 0;
    return info;
  };
  scene.panels.push_back(panel);
  for (int64_t key = 0; key < 64; ++key)
    scene.legend.push_back({key, QStringLiteral("lane %1").arg(key)});
  scene.footer = QStringLiteral("64 lanes");
  return scene;
}

double medianFrameMs(const ScenePainter &painter, const GridScene &scene,
                     double cellSize, QPointF scroll) {
  QImage target(kView, QImage::Format_ARGB32_Premultiplied);
  const Theme theme = Theme::light();
  std::vector<double> times;
  for (int frame = 0; frame < kFrames + 2; ++frame) {
    QElapsedTimer timer;
    timer.start();
    {
      QPainter p(&target);
      painter.paint(p, scene, QRectF(QPointF(0, 0), QSizeF(kView)), theme,
                    cellSize, scroll);
    }
    const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    if (frame >= 2) // warm-up: font caches, first allocations
      times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QGuiApplication app(argc, argv);
  QStringList labels;
  for (int key = 0; key < 64; ++key)
    labels << QStringLiteral("s%1 l%2").arg(key / 16).arg(key % 16);

  const ScenePainter painter;
  for (int64_t size : {64, 256, 1024, 4096}) {
    const GridScene scene = makeScene(size, labels);
    const double whole = painter.fitCellSize(scene, QSizeF(kView));
    const double wholeMs = medianFrameMs(painter, scene, whole, {});
    std::printf("render %lldx%lld whole-view: %.1f ms (cell %.3g px)\n",
                static_cast<long long>(size), static_cast<long long>(size),
                wholeMs, whole);
    // 1:1, scrolled into the middle of the panel.
    const QSizeF natural = painter.naturalSize(scene, 24);
    const QPointF middle(
        std::max(0.0, (natural.width() - kView.width()) / 2),
        std::max(0.0, (natural.height() - kView.height()) / 2));
    const double cellMs = medianFrameMs(painter, scene, 24, middle);
    std::printf("render %lldx%lld cell 24: %.1f ms\n",
                static_cast<long long>(size), static_cast<long long>(size),
                cellMs);
    std::fflush(stdout);
  }
  return 0;
}
