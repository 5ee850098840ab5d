// The editor's speed, offscreen, with the real IREE reading files in its
// worker process (issue 11's three figures):
//
//  1. Open to first drawn view: a window constructed, the largest example
//     opened (IREE parses it in tilescope-iree-worker), its root op selected
//     and its layout painted.
//  2. Keystroke to redrawn view: in the config editor, the key that makes the
//     vector-distribute matmul's workgroup [256, 256, 0] (its accumulator
//     65,536 elements), timed from the key to the layout view painted again.
//     Goal: <= 16 ms.
//  3. Pan frame time: a 4096x4096 (16M-element) nested layout in a scene
//     view of 3840x2160 at 4 px cells, scrolled 48 px a frame, each frame
//     painted at once; then the same for the three-panel contraction view
//     (LHS, RHS, accumulator) of the matmul as edited in 2. Goal: <= 16 ms
//     worst.
//
// Prints figures, never fails on them.
#include "BenchIree.h"
#include "BenchSignals.h"
#include "BenchTiming.h"

#include "core/config/configs/LayoutAttributes.h"
#include "core/layout/NestedLayout.h"
#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"
#include "widgets/render/OpPicture.h"
#include "widgets/render/Scenes.h"
#include "widgets/views/SceneView.h"
#include "widgets/window/MainWindow.h"

#include <QApplication>
#include <QEventLoop>
#include <QImage>
#include <QLineEdit>
#include <QScrollBar>
#include <QTest>
#include <QTimer>

#include <cstdio>
#include <filesystem>
#include <iostream>

using namespace tilescope;
using namespace tilescope::bench;

namespace {

constexpr int kKeystrokes = 15;
constexpr int kFrames = 40;

bool waitForLoad(widgets::MainWindow &window) {
  return waitFor(&window, &widgets::MainWindow::documentLoaded, 60000);
}

std::filesystem::path largestExample() {
  std::filesystem::path largest;
  std::uintmax_t size = 0;
  for (const auto &entry : std::filesystem::recursive_directory_iterator(
           std::filesystem::path(TILESCOPE_SOURCE_DIR) / "examples"))
    if (entry.path().string().ends_with(".benchmark.mlir") &&
        entry.file_size() > size) {
      size = entry.file_size();
      largest = entry.path();
    }
  return largest;
}

// Pan frame times of `scene` in a 3840x2160 view at `cellSize`: each frame
// the scroll, then the paint it asks for (the strips that came into view),
// flushed to the window; and jumps, where every cell of the view is new.
bool panFigures(const render::GridScene &scene, const QString &what,
                double cellSize) {
  widgets::SceneView pan;
  pan.resize(3840, 2160);
  pan.show();
  pan.setScene(scene);
  pan.setCellSize(cellSize);
  if (!QTest::qWaitForWindowExposed(&pan)) {
    std::fprintf(stderr, "the pan view was not shown\n");
    return false;
  }
  QCoreApplication::processEvents();
  std::vector<double> frames;
  for (int frame = 0; frame < kFrames + 2; ++frame) {
    const auto start = Clock::now();
    pan.horizontalScrollBar()->setValue(pan.horizontalScrollBar()->value() +
                                        48);
    pan.verticalScrollBar()->setValue(pan.verticalScrollBar()->value() + 48);
    QCoreApplication::processEvents();
    if (frame >= 2) // warm-up
      frames.push_back(millisecondsSince(start));
  }
  QImage screen(pan.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
  std::vector<double> jumps;
  for (int frame = 0; frame < 10; ++frame) {
    pan.horizontalScrollBar()->setValue(
        (frame % 3) * pan.horizontalScrollBar()->maximum() / 2);
    const auto start = Clock::now();
    pan.viewport()->render(&screen);
    jumps.push_back(millisecondsSince(start));
  }
  const double worst = *std::max_element(frames.begin(), frames.end());
  std::printf("pan %s at 3840x2160, %g px cells (%d frames): median %.1f "
              "ms, worst %.1f ms (goal <= 16 ms)\n",
              what.toUtf8().constData(), cellSize, kFrames, median(frames),
              worst);
  std::printf("  a jump (every cell of the view new): median %.1f ms\n",
              median(jumps));
  return true;
}

// 1. Open to first drawn view: the largest example, a new window each run.
bool openToFirstView(const widgets::MainWindow::DocumentLoader &loader) {
  const std::filesystem::path largest = largestExample();
  std::vector<double> opens;
  for (int run = 0; run < 5; ++run) {
    const auto start = Clock::now();
    widgets::MainWindow window(loader);
    window.resize(1600, 1000);
    window.show();
    window.openFile(QString::fromStdString(largest.string()));
    if (!waitForLoad(window)) {
      std::cerr << "could not open " << largest << "\n";
      return false;
    }
    auto *view = window.findChild<widgets::SceneView *>("sceneView");
    QImage first(view->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    view->viewport()->render(&first);
    opens.push_back(millisecondsSince(start));
    if (view->scene().panels.empty()) {
      std::cerr << "nothing drawn for " << largest << "\n";
      return false;
    }
  }
  std::printf("open %s to its first drawn view (median of 5): %.1f ms\n",
              largest.filename().c_str(), median(opens));
  return true;
}

// 2. Keystroke to redrawn view, in `window` (the vector-distribute matmul
// open), which keeps the typed workgroup.
bool keystrokeToRedraw(widgets::MainWindow &window) {
  auto *box = window.findChild<QLineEdit *>("field:workgroup");
  auto *view = window.findChild<widgets::SceneView *>("sceneView");
  if (!box || !view) {
    std::cerr << "no workgroup field or view\n";
    return false;
  }
  box->setFocus();
  QImage drawn(view->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
  std::vector<double> keys;
  int64_t elements = 0;
  for (int i = 0; i < kKeystrokes; ++i) {
    box->setText("[256, 256, 0]");
    box->setCursorPosition(12);
    QTest::keyClick(box, Qt::Key_Backspace); // "[256, 256, ]" refused
    QCoreApplication::processEvents();
    const auto start = Clock::now();
    QTest::keyClick(box, Qt::Key_0); // "[256, 256, 0]": drawn as typed
    view->viewport()->render(&drawn);
    keys.push_back(millisecondsSince(start));
    elements = 0;
    for (const render::Panel &panel : view->scene().panels)
      elements = std::max(elements, panel.rows * panel.columns);
  }
  std::printf("keystroke to the redrawn layout view, largest panel %lld "
              "elements (median of %d): %.1f ms (goal <= 16 ms)\n",
              static_cast<long long>(elements), kKeystrokes, median(keys));
  return true;
}

// 3. Pan frame time at 3840x2160: a 4096x4096 nested layout, then the
// three-panel contraction view of `window`'s file as typed.
bool panFrames(const widgets::MainWindow &window) {
  auto attr = config::NestedLayoutAttr::parse(
      "#iree_vector_ext.nested_layout<subgroup_tile = [2, 2], batch_tile = "
      "[128, 64], outer_tile = [1, 1], thread_tile = [16, 4], element_tile = "
      "[1, 8], subgroup_strides = [2, 1], thread_strides = [4, 1]>");
  if (!attr) {
    std::cerr << attr.error() << "\n";
    return false;
  }
  auto layout = layout::NestedLayout::create(*attr, 4, 64);
  if (!layout) {
    std::cerr << layout.error() << "\n";
    return false;
  }
  auto shared = std::make_shared<const layout::NestedLayout>(*layout);
  if (!panFigures(render::nestedLayoutScene(shared, render::ColorBy::Lane, 0, 1,
                                            {0, 0}),
                  QString("a %1x%2 layout")
                      .arg(shared->shape()[0])
                      .arg(shared->shape()[1]),
                  4))
    return false;
  // The three-panel contraction view (LHS, RHS and accumulator of the
  // vector-distribute matmul at workgroup [256, 256, 0], as typed).
  render::OpViewRequest request;
  request.kind = render::OpViewKind::Layouts;
  const render::OpPicture contraction =
      render::opPicture(window.document()->dispatches.at(0), 0, request);
  if (contraction.scene.panels.size() != 3) {
    std::cerr << "the contraction view has " << contraction.scene.panels.size()
              << " panels, not 3: " << contraction.note.toStdString() << "\n";
    return false;
  }
  // At 16 px cells every cell carries its number (labels from 13 px), the
  // costliest frames, and the view scrolls both ways.
  return panFigures(contraction.scene, "the three-panel contraction view", 16);
}

} // namespace

int main(int argc, char **argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  auto installation = projectIree();
  if (!installation) {
    std::cerr << installation.error() << "\n";
    return 1;
  }
  const std::filesystem::path workerPath =
      std::filesystem::path(TILESCOPE_BINARY_DIR) / "app/tilescope-iree-worker";
  const std::filesystem::path library = installation->compilerLibrary;
  const widgets::MainWindow::DocumentLoader loader =
      [workerPath, library](const std::filesystem::path &path,
                            const std::atomic<bool> *cancel) {
        service::DocumentWorker worker(workerPath, library);
        worker.cancel = cancel;
        return worker.parseFile(path);
      };
  if (!openToFirstView(loader))
    return 1;
  widgets::MainWindow window(loader);
  window.resize(1600, 1000);
  window.show();
  window.openFile(QString::fromStdString(
      (std::filesystem::path(TILESCOPE_SOURCE_DIR) /
       "examples/rocm_gfx942/"
       "matmul_f16_vector_distribute_dispatch_0.benchmark.mlir")
          .string()));
  if (!waitForLoad(window) || !keystrokeToRedraw(window) || !panFrames(window))
    return 1;
  return 0;
}
