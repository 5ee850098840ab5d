// The main window with the real compiler behind it: it lists a benchmark's
// dispatches, and a broken file leaves the open document as it was.
#include "TestSupport.h"

#include "core/iree/DocumentParser.h"
#include "widgets/views/SceneView.h"
#include "widgets/window/MainWindow.h"

#include <QLabel>
#include <QSpinBox>

#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTreeView>

using namespace tilescope;

class MainWindowTest : public QObject {
  Q_OBJECT

  widgets::MainWindow::DocumentLoader loader() {
    return [library = test::projectCompiler()](
               const std::filesystem::path &path, const std::atomic<bool> *) {
      iree::DocumentParser parser(library);
      return parser.parseFile(path);
    };
  }

private slots:
  void listsTheDispatchesOfAnExample() {
    widgets::MainWindow window(loader());
    window.show();
    QSignalSpy loaded(&window, &widgets::MainWindow::documentLoaded);
    window.openFile(QString::fromStdString(
        (test::examplesDir() /
         "rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir")
            .string()));
    QVERIFY(loaded.wait(30000));

    auto *tree = window.findChild<QTreeView *>("dispatchTree");
    QVERIFY(tree);
    const QAbstractItemModel *model = tree->model();
    QCOMPARE(model->rowCount(), 1);
    const QModelIndex dispatch = model->index(0, 0);
    QVERIFY(dispatch.data().toString().startsWith(
        "reduction_4x6656x16384_dispatch_0"));
    QCOMPARE(model->index(0, 1).data().toString(), QString("VectorDistribute"));
    QCOMPARE(model->index(0, 2).data().toString(), QString("rocm gfx942"));
    QVERIFY(model->rowCount(dispatch) >= 1);
    QVERIFY(model->index(0, 0, dispatch)
                .data()
                .toString()
                .startsWith("linalg.generic"));
    // The filter: a dispatch shows while it or one of its ops matches.
    auto *filter = window.findChild<QLineEdit *>("dispatchFilter");
    QVERIFY(filter);
    filter->setText("no such op");
    QCOMPARE(model->rowCount(), 0);
    filter->setText("GENERIC"); // an op's name, any case
    QCOMPARE(model->rowCount(), 1);
    QVERIFY(model->rowCount(model->index(0, 0)) >= 1);
    filter->setText("gfx942"); // the dispatch's target: all its ops
    QCOMPARE(model->rowCount(), 1);
    QCOMPARE(model->rowCount(model->index(0, 0)),
             static_cast<int>(window.document()->dispatches[0].rootOps.size()));
    filter->clear();

    // The root op is selected: its config shows and the text is at its line.
    auto *config = window.findChild<QPlainTextEdit *>("configView");
    QVERIFY(config->toPlainText().contains("partial_reduction"));
    auto *source = window.findChild<QPlainTextEdit *>("sourceView");
    QVERIFY(source->textCursor().block().text().contains("lowering_config"));

    // The Layout tab draws the root op's config: lanes over the packed
    // reduction chunk, one partial-reduction step at a time.
    auto *scene = window.findChild<widgets::SceneView *>("sceneView");
    QVERIFY(scene);
    QCOMPARE(scene->scene().panels.size(), size_t(1));
    QCOMPARE(scene->scene().panels.front().rows, int64_t(8));
    QCOMPARE(scene->scene().panels.front().columns, int64_t(64));
    QCOMPARE(scene->scene().panels.front().cell(0, 42).colorKey, int64_t(42));
    // Selecting lane 42 marks exactly its 8 elements of this step.
    scene->selectKey(42);
    int marked = 0;
    const auto &panel = scene->scene().panels.front();
    for (int64_t r = 0; r < panel.rows; ++r)
      for (int64_t c = 0; c < panel.columns; ++c)
        marked += panel.cell(r, c).marked ? 1 : 0;
    QCOMPARE(marked, 8);
    QVERIFY(scene->scene().footer.startsWith("marked: lane 42"));
    // For looking at it: TILESCOPE_SCREENSHOT_DIR=/tmp ctest -R widgets_main
    if (const QString dir = qEnvironmentVariable("TILESCOPE_SCREENSHOT_DIR");
        !dir.isEmpty())
      window.grab().save(dir + "/main-window-selected-lane.png");
    scene->selectKey(-1);

    auto *step = window.findChild<QSpinBox *>("stepBox");
    step->setValue(31);
    QVERIFY(scene->scene().panels.front().title.contains("[15872, 16384)"));
    auto *note = window.findChild<QLabel *>("layoutNote");
    QVERIFY(note->text().contains("26624x16384:pr"));
  }

  void aBrokenFileKeepsTheOpenDocument() {
    widgets::MainWindow window(loader());
    QSignalSpy loaded(&window, &widgets::MainWindow::documentLoaded);
    QSignalSpy failed(&window, &widgets::MainWindow::loadFailed);
    const auto good = test::examplesDir() /
                      "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir";
    window.openFile(QString::fromStdString(good.string()));
    QVERIFY(loaded.wait(30000));

    QTemporaryDir dir;
    const std::filesystem::path broken =
        dir.filePath("broken.mlir").toStdString();
    test::writeFile(broken, "func.func @f( {\n");
    window.openFile(QString::fromStdString(broken.string()));
    QVERIFY(failed.wait(30000));
    QVERIFY(failed.front().front().toString().contains("broken.mlir:1:"));
    QCOMPARE(window.document()->path, good);
    auto *problems = window.findChild<QListView *>("problemList");
    QVERIFY(problems->model()->rowCount() >= 1);
    QCOMPARE(window.findChild<QTreeView *>("dispatchTree")->model()->rowCount(),
             1);
  }
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
