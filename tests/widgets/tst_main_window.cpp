// The main window with the real compiler behind it: it lists a benchmark's
// dispatches, and a broken file leaves the open document as it was.
#include "TestSupport.h"

#include "core/iree/Document.h"
#include "widgets/MainWindow.h"
#include "widgets/SceneView.h"

#include <QLabel>
#include <QSpinBox>

#include <QListView>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTreeWidget>

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

    auto *tree = window.findChild<QTreeWidget *>("dispatchTree");
    QVERIFY(tree);
    QCOMPARE(tree->topLevelItemCount(), 1);
    QTreeWidgetItem *dispatch = tree->topLevelItem(0);
    QVERIFY(dispatch->text(0).startsWith("reduction_4x6656x16384_dispatch_0"));
    QCOMPARE(dispatch->text(1), QString("VectorDistribute"));
    QCOMPARE(dispatch->text(2), QString("rocm gfx942"));
    QVERIFY(dispatch->childCount() >= 1);
    QVERIFY(dispatch->child(0)->text(0).startsWith("linalg.generic"));

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
    QCOMPARE(
        window.findChild<QTreeWidget *>("dispatchTree")->topLevelItemCount(),
        1);
  }
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
