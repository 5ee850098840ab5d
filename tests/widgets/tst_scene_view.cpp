// A panned view shows what a fresh paint shows: after a pan the view
// repaints only the strips that came into view and its pinned axes, and
// what is on screen then (the window's own pixels) equals the whole view
// painted anew at the same scroll.
#include "core/config/configs/LayoutAttributes.h"
#include "core/layout/NestedLayout.h"
#include "widgets/render/Scenes.h"
#include "widgets/views/SceneView.h"

#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QPixmap>
#include <QRandomGenerator>
#include <QScreen>
#include <QScrollBar>
#include <QTest>

using namespace tilescope;

class SceneViewTest : public QObject {
  Q_OBJECT

  static QImage onScreen(widgets::SceneView &view) {
    QCoreApplication::processEvents();
    const QPoint at = view.viewport()->mapTo(&view, QPoint());
    return view.screen()
        ->grabWindow(view.winId(), at.x(), at.y(), view.viewport()->width(),
                     view.viewport()->height())
        .toImage()
        .convertToFormat(QImage::Format_RGB32);
  }

  static QImage painted(widgets::SceneView &view) {
    return view.viewport()->grab().toImage().convertToFormat(
        QImage::Format_RGB32);
  }

private slots:
  void panningRepaintsWhatAFreshPaintShows_data() {
    QTest::addColumn<int>("panels");
    QTest::newRow("one panel") << 1;
    QTest::newRow("three panels, as a contraction's") << 3;
  }

  void panningRepaintsWhatAFreshPaintShows() {
    QFETCH(int, panels);
    auto attr = config::NestedLayoutAttr::parse(
        "#iree_vector_ext.nested_layout<subgroup_tile = [2, 2], batch_tile = "
        "[4, 2], outer_tile = [1, 1], thread_tile = [16, 4], element_tile = "
        "[1, 8], subgroup_strides = [2, 1], thread_strides = [4, 1]>");
    QVERIFY2(attr, attr ? "" : attr.error().c_str());
    auto layout = layout::NestedLayout::create(*attr, 4, 64);
    QVERIFY2(layout, layout ? "" : layout.error().c_str());
    widgets::SceneView view;
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    render::GridScene scene = render::nestedLayoutScene(
        std::make_shared<const layout::NestedLayout>(*layout),
        render::ColorBy::Lane, 0, 1, {0, 0});
    for (int copy = 1; copy < panels; ++copy) {
      scene.panels.push_back(scene.panels.front());
      scene.panels.back().title = QString("copy %1").arg(copy);
    }
    view.setScene(scene);
    view.setCellSize(16); // labels drawn, the axes pinned once scrolled
    QRandomGenerator random(29);
    QScrollBar *h = view.horizontalScrollBar(), *v = view.verticalScrollBar();
    QVERIFY(h->maximum() > 0 && v->maximum() > 0);
    for (int step = 0; step < 40; ++step) {
      // Drags both ways, large and small, and back over the grid's edges.
      h->setValue(h->value() + random.bounded(-60, 140));
      v->setValue(v->value() + random.bounded(-40, 100));
      // A part painted at once, before the scroll's shift on screen (the
      // view shifts once for both scroll bars), must not leave the rest
      // unshifted.
      if (step % 5 == 2)
        view.viewport()->repaint(QRect(10, 10, 50, 50));
      if (step % 8 == 7) {
        h->setValue(random.bounded(0, 30));
        v->setValue(random.bounded(0, 30));
      }
      const QImage shown = onScreen(view), fresh = painted(view);
      QCOMPARE(shown.size(), fresh.size());
      if (shown != fresh) {
        QRect differs;
        int count = 0;
        for (int y = 0; y < shown.height(); ++y)
          for (int x = 0; x < shown.width(); ++x)
            if (shown.pixel(x, y) != fresh.pixel(x, y)) {
              differs |= QRect(x, y, 1, 1);
              ++count;
            }
        qWarning() << count << "pixels differ in" << differs;
        shown.save(QDir::temp().filePath("scene-view-shown.png"));
        fresh.save(QDir::temp().filePath("scene-view-fresh.png"));
        QFAIL(qPrintable(QString("step %1 at (%2, %3): the panned view "
                                 "differs from a fresh paint (both saved in "
                                 "%4)")
                             .arg(step)
                             .arg(h->value())
                             .arg(v->value())
                             .arg(QDir::tempPath())));
      }
    }
  }

  // An instruction's cells, marked on a picture of loop points: those
  // cells and no other, kept while the picture is redrawn from the same
  // config, dropped when it is another config's (an edit, another op) or
  // when Escape clears it; a click on a cell gives its point.
  void marksAnInstructionsCellsWhileTheConfigIsTheSame() {
    auto sceneOf = [](const QString &subtitle) {
      render::GridScene scene;
      scene.title = "subgroup tiles";
      scene.subtitle = subtitle;
      scene.sliceDims = {{"d0", 4}, {"d1", 8}, {"d2", 2}};
      scene.rowDim = 0;
      scene.columnDim = 1;
      scene.sliceAt = {0, 0, 0};
      scene.cellsAreLoopPoints = true;
      render::Panel panel;
      panel.rows = 4;
      panel.columns = 8;
      panel.cell = [](int64_t row, int64_t column) {
        render::CellInfo info;
        info.colorKey = row * 8 + column;
        return info;
      };
      scene.panels.push_back(panel);
      return scene;
    };
    widgets::SceneView view;
    view.resize(400, 300);
    view.setScene(sceneOf("config A"));
    view.markPoints({{1, 2, 0}, {3, 7, 0}}, "the 2 cells line 9 writes");
    auto marked = [&] {
      std::vector<std::pair<int64_t, int64_t>> cells;
      const render::Panel &panel = view.scene().panels.front();
      for (int64_t r = 0; r < panel.rows; ++r)
        for (int64_t c = 0; c < panel.columns; ++c)
          if (panel.cell(r, c).marked)
            cells.emplace_back(r, c);
      return cells;
    };
    using Cells = std::vector<std::pair<int64_t, int64_t>>;
    QCOMPARE(marked(), (Cells{{1, 2}, {3, 7}}));
    QVERIFY(view.scene().footer.startsWith("marked: the 2 cells line 9"));
    view.setScene(sceneOf("config A"));
    QCOMPARE(marked(), (Cells{{1, 2}, {3, 7}}));
    view.setScene(sceneOf("config B"));
    QVERIFY(marked().empty());
    view.markPoints({{0, 0, 0}}, "one cell");
    QTest::keyClick(&view, Qt::Key_Escape);
    QVERIFY(marked().empty());
    QCOMPARE(view.scene().pointAt(2, 5), (std::vector<int64_t>{2, 5, 0}));
  }
};

QTEST_MAIN(SceneViewTest)
#include "tst_scene_view.moc"
