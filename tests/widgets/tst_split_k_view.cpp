// The window's split-k view with the real IREE behind it: a program opens
// on it, IREE's splits and rules come back for the RFC's example, a split
// typed by hand is checked as typed (a refused one stays in its cell with
// the reason), forms the dispatches it names and saves a program IREE
// builds; one part of a `// -----` file keeps the file's lines; a run can
// be cancelled.
#include "TestSupport.h"

#include "core/iree/DocumentParser.h"
#include "core/service/SplitK.h"
#include "widgets/views/SceneView.h"
#include "widgets/views/SplitKView.h"
#include "widgets/window/MainWindow.h"

#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QListWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace tilescope;

namespace {

QString screenshotDir() {
  return qEnvironmentVariable("TILESCOPE_SCREENSHOT_DIR");
}

const QString kProgram =
    TILESCOPE_SOURCE_DIR "/examples/sources/split_k_program.mlir";

// IREE reads what iree-compile printed in the parse worker, as in the window.
service::DocumentWorker projectWorker() {
  return service::DocumentWorker(test::binaryDir() / "app" /
                                     "tilescope-iree-worker",
                                 test::projectIree().compilerLibrary);
}

widgets::SplitKView::Analyzer analyzer() {
  return [](const service::SplitKRequest &request) {
    return service::analyzeSplitK(test::projectIree(), projectWorker(),
                                  request);
  };
}

widgets::SplitKView::Applier applier() {
  return [](const service::SplitKRequest &request,
            const service::SplitKAnalysis &analysis,
            const std::vector<document::SplitChoice> &choices) {
    return service::applySplitK(test::projectIree(), projectWorker(), request,
                                analysis, choices);
  };
}

// Runs `start` and waits for the view's answer; its `ok`.
bool answered(widgets::SplitKView &view, const std::function<void()> &start) {
  QSignalSpy finished(&view, &widgets::SplitKView::finished);
  start();
  if (!finished.wait(120000))
    qFatal("the split-k view did not answer");
  return finished.front().at(0).toBool();
}

QStringList listed(const widgets::SplitKView &view) {
  QStringList rows;
  const auto *list = view.findChild<QListWidget *>("splitKDispatches");
  for (int i = 0; i < list->count(); ++i)
    rows << list->item(i)->text();
  return rows;
}

} // namespace

class SplitKViewTest : public QObject {
  Q_OBJECT

private slots:
  // The RFC's example: IREE splits K = 40960 into 128 chunks of 320 by the
  // matmul-like rule; the picture and the dispatches say so.
  void showsIreesSplitsRulesAndDispatches() {
    widgets::SplitKView view;
    view.resize(1100, 800);
    view.show();
    view.setRunners(analyzer(), applier());
    view.setFile(kProgram, 1);
    view.setTarget("gfx942");
    QVERIFY2(answered(view, [&] { view.analyze(); }),
             qPrintable(view.summaryText()));
    QVERIFY2(view.summaryText().startsWith(
                 "3 reduction(s); IREE splits 2 of them; 5 dispatch(es)."),
             qPrintable(view.summaryText()));
    auto *table = view.findChild<QTableWidget *>("splitKTable");
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(table->item(0, 1)->text(), QString("linalg.matmul"));
    QCOMPARE(table->item(0, 3)->text(), QString("[320]"));
    QCOMPARE(table->item(0, 4)->text(), QString("[128]"));
    QCOMPARE(table->item(0, 5)->text(), QString("matmul-like"));
    QCOMPARE(table->item(0, 7)->text(), QString("line 15"));
    QCOMPARE(table->item(1, 5)->text(), QString("outer-reduction"));
    QCOMPARE(table->item(2, 3)->text(), QString("not split"));
    const render::GridScene &scene = view.pictureView()->scene();
    QCOMPARE(scene.panels.size(), size_t(2));
    QCOMPARE(scene.panels[0].title, QString("d2 = 40960 in 128 chunks of 320"));
    QCOMPARE(scene.panels[0].rows, int64_t(128));
    QCOMPARE(scene.panels[1].rows, int64_t(128));
    QCOMPARE(scene.panels[1].columns, int64_t(32));
    QCOMPARE(
        scene.panels[1].title,
        QString("partial results, added down each column (every d0 alike)"));
    QVERIFY(scene.panels[0].cell(3, 5).detail.contains(
        "d2 = 965: chunk 3 of 128 (d2 960..1279)"));
    const QStringList dispatches = listed(view);
    QVERIFY2(
        dispatches.contains("split_k_program_dispatch_0_matmul_32x32x320_f32"),
        qPrintable(dispatches.join("\n")));
    QVERIFY(view.commandText().contains(
        "--iree-dispatch-creation-enable-split-reduction"));
    // Double-clicking a reduction goes to its line in the file.
    QSignalSpy line(&view, &widgets::SplitKView::sourceActivated);
    emit table->cellDoubleClicked(0, 0);
    QCOMPARE(line.size(), 1);
    QCOMPARE(line.front().at(0).toInt(), 15);
    if (const QString dir = screenshotDir(); !dir.isEmpty())
      view.grab().save(dir + "/split_k_view.png");
    // The picture copies and saves as every view's does.
    {
      QTemporaryDir pictures;
      QString error;
      QVERIFY2(
          view.pictureView()->savePicture(pictures.filePath("k.svg"), &error),
          qPrintable(error));
      QVERIFY(QString::fromStdString(
                  test::readFile(pictures.filePath("k.svg").toStdString()))
                  .contains("d2 = 40960 in 128 chunks of 320"));
      QVERIFY(
          !view.pictureView()->savePicture(pictures.filePath("k.bmp"), &error));
      QVERIFY2(error.contains(".png"), qPrintable(error));
      view.pictureView()->copyPicture();
      QVERIFY(!QGuiApplication::clipboard()->image().isNull());
    }

    // A split the op cannot take stays in its cell, marked, with the reason.
    auto refused = view.setSplit(0, "[1, 2]");
    QVERIFY(!refused);
    QVERIFY2(refused.error().find("has 2 tile size(s); the op has 1 "
                                  "reduction loop(s) (40960)") !=
                 std::string::npos,
             refused.error().c_str());
    QCOMPARE(table->item(0, 6)->text(), QString("[1, 2]"));
    QVERIFY(view.summaryText().contains("split_k_program:0: "));
    QVERIFY(view.choices().empty());
    // Taken ones redraw at once and are what forming uses.
    QVERIFY(view.setSplit(0, "640"));
    QCOMPARE(table->item(0, 4)->text(), QString("[64]"));
    QCOMPARE(view.pictureView()->scene().panels[0].title,
             QString("d2 = 40960 in 64 chunks of 640"));
    QVERIFY(
        view.pictureView()->scene().subtitle.startsWith("your split [640]"));
    QVERIFY(view.setSplit(1, "none"));
    QCOMPARE(view.choices().size(), size_t(2));
    // IREE's own split typed back is no change.
    QVERIFY(view.setSplit(2, ""));
    QCOMPARE(view.choices().size(), size_t(2));

    QVERIFY2(answered(view, [&] { view.formDispatches(); }),
             qPrintable(view.summaryText()));
    QVERIFY(view.applied().has_value());
    const QStringList after = listed(view);
    for (const char *name :
         {"split_k_program_dispatch_0_matmul_32x32x640_f32",
          "split_k_program_dispatch_1_reduce_32x32x64_f32",
          "split_k_program_dispatch_2_reduction_64x65536_f32"})
      QVERIFY2(after.contains(name), qPrintable(after.join("\n")));
    QVERIFY(view.commandText().contains("--compile-from=global-optimization"));
    table->setCurrentCell(0, 0);
    if (const QString dir = screenshotDir(); !dir.isEmpty())
      view.grab().save(dir + "/split_k_formed.png");
    QTemporaryDir folder;
    const QString saved = folder.filePath("split.mlir");
    QString error;
    QVERIFY2(view.saveProgram(saved, &error), qPrintable(error));
    QVERIFY(QString::fromStdString(test::readFile(saved.toStdString()))
                .contains("iree_linalg_ext.split_reduction = [640 : index]"));
    // A split changed after forming: what was formed is not saved as it.
    QVERIFY(view.setSplit(0, "1280"));
    QVERIFY(!view.applied());
    QVERIFY(!view.saveProgram(folder.filePath("stale.mlir"), &error));
    QVERIFY2(error.startsWith("form the dispatches first"), qPrintable(error));
  }

  // One part of a `// -----` file: compiled alone, its lines the file's.
  void asksAboutOnePartOfASplitFile() {
    QTemporaryDir folder;
    const QString split = folder.filePath("two_parts.mlir");
    const std::string first =
        "func.func @first(%a: tensor<8xf32>) -> "
        "tensor<8xf32> {\n  return %a : tensor<8xf32>\n}\n";
    test::writeFile(split.toStdString(),
                    first + "\n// -----\n\n" +
                        test::readFile(kProgram.toStdString()));
    widgets::SplitKView view;
    view.setRunners(analyzer(), applier());
    view.setFile(split, 2);
    view.setTarget("gfx942");
    view.setPart(1);
    QVERIFY2(answered(view, [&] { view.analyze(); }),
             qPrintable(view.summaryText()));
    auto *table = view.findChild<QTableWidget *>("splitKTable");
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(table->item(0, 7)->text(), QString("line 21")); // 15 + 6
  }

  void cancelsARun() {
    widgets::SplitKView view;
    view.setRunners(analyzer(), applier());
    view.setFile(kProgram, 1);
    view.setTarget("gfx942");
    QVERIFY(!answered(view, [&] {
      view.analyze();
      view.cancel();
    }));
    QCOMPARE(view.summaryText(), QString("Cancelled."));
    QVERIFY(!view.analysis());
  }

  // A dispatch benchmark's dispatches were formed already: the view says
  // where the splits are to be seen.
  void aFileOfFormedDispatchesPointsToItsProgram() {
    widgets::SplitKView view;
    view.setRunners(analyzer(), applier());
    view.setFile(TILESCOPE_SOURCE_DIR "/examples/rocm_gfx942/"
                                      "reduction_4x6656x16384_dispatch_0."
                                      "benchmark.mlir",
                 1, 1);
    QVERIFY(view.summaryText().contains("holds dispatches already formed"));
    view.setTarget("gfx942");
    QVERIFY2(answered(view, [&] { view.analyze(); }),
             qPrintable(view.summaryText()));
    QVERIFY2(view.summaryText().startsWith(
                 "0 reduction(s); IREE splits 0 of them; 0 dispatch(es). "
                 "Nothing to split: the file's dispatches were formed "
                 "already"),
             qPrintable(view.summaryText()));
  }

  void refusesAnUnknownTargetBeforeRunning() {
    widgets::SplitKView view;
    view.setRunners(analyzer(), applier());
    view.setFile(kProgram, 1);
    view.setTarget("tpu7");
    QSignalSpy finished(&view, &widgets::SplitKView::finished);
    view.analyze();
    QVERIFY(!view.isRunning());
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.front().at(0).toBool(), false);
    QVERIFY2(view.summaryText().startsWith("Target tpu7: "),
             qPrintable(view.summaryText()));
  }

  // A program with no dispatches opens on the Split-k tab.
  void aProgramOpensOnTheSplitKTab() {
    auto library = test::projectCompiler();
    widgets::MainWindow::Services services;
    services.splitK = analyzer();
    services.applySplitK = applier();
    services.keepEditsForRecovery = false;
    widgets::MainWindow window(
        [library](const std::filesystem::path &path,
                  const std::atomic<bool> *) {
          iree::DocumentParser parser(library);
          return parser.parseFile(path);
        },
        services);
    window.show();
    QSignalSpy loaded(&window, &widgets::MainWindow::documentLoaded);
    window.openFile(kProgram);
    QVERIFY(loaded.wait(30000));
    auto *tabs = window.findChild<QTabWidget *>("detailTabs");
    QCOMPARE(tabs->currentWidget()->objectName(), QString("splitKView"));
  }
};

QTEST_MAIN(SplitKViewTest)
#include "tst_split_k_view.moc"
