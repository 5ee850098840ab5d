// The window as a runner, with the real IREE behind it: from the run panel
// the CPU example compiles, runs, checks and lands in the history (and goes
// out and back as a run bundle), a gfx942 compile shows its resources, a
// failed compile leaves the document, a running compile can be cancelled;
// IREE's pipeline constraints, its default config and its layouts are
// shown beside the edit, and a click in the MLIR text selects its op.
// (tst_editor_window holds the window as an editor.)
#include "WindowTestSupport.h"

#include "core/document/Document.h"
#include "core/edit/EditJournal.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeConstraints.h"
#include "core/service/IreeDefaults.h"
#include "core/service/IreeLayouts.h"
#include "core/tries/History.h"
#include "widgets/editor/ConfigEditor.h"
#include "widgets/editor/EditSession.h"
#include "widgets/jobs/BundleActions.h"
#include "widgets/jobs/RunPanel.h"
#include "widgets/jobs/RunPlaceBox.h"
#include "widgets/jobs/SweepPanel.h"
#include "widgets/jobs/SweepPlot.h"
#include "widgets/jobs/TryActions.h"
#include "widgets/render/StickyAxes.h"
#include "widgets/views/DefaultConfigView.h"
#include "widgets/views/InstructionsView.h"
#include "widgets/views/IreeLayoutView.h"
#include "widgets/views/LayoutTab.h"
#include "widgets/views/MlirHighlighter.h"
#include "widgets/views/MlirView.h"
#include "widgets/views/SceneView.h"
#include "widgets/views/SliceSelector.h"
#include "widgets/views/TryComparisonView.h"
#include "widgets/window/MainWindow.h"
#include "widgets/window/SettingsDialog.h"

#include <QAbstractItemModel>
#include <QComboBox>
#include <QCompleter>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTreeView>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUndoStack>
#include <QUrl>

#include <set>

using namespace tilescope;

class WindowJobsTest : public test::WindowTest {
  Q_OBJECT

private slots:
  void initTestCase() { useOwnSettings("WindowJobsTest"); }

  void cpuExampleCompilesRunsAndChecks() {
    auto window = open(test::examplesDir() /
                       "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir");
    auto *panel = window->findChild<widgets::RunPanel *>("runPanel");
    QVERIFY(panel);
    QSignalSpy finished(panel, &widgets::RunPanel::finished);
    panel->start(widgets::RunPanel::Job::Run);
    QVERIFY(panel->busy());
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.front().at(0).toBool(),
             qPrintable(finished.front().at(1).toString()));
    QVERIFY2(panel->lastSummary().contains("median"),
             qPrintable(panel->lastSummary()));
    QVERIFY(panel->lastCommand().contains("iree-compile"));
    // The timed run is its run bundle's run.sh, with the tools here.
    QVERIFY(panel->lastCommand().contains("run.sh"));
    QVERIFY(panel->lastCommand().contains("TILESCOPE_TOOLS="));
    const QString details =
        window->findChild<QPlainTextEdit *>("jobResources")->toPlainText();
    QVERIFY2(details.contains("method: per dispatch"), qPrintable(details));

    // The checked run against the program it came from (guessed from the
    // examples' naming).
    finished.clear();
    panel->start(widgets::RunPanel::Job::Check);
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.front().at(0).toBool(),
             qPrintable(finished.front().at(1).toString()));
    QVERIFY2(panel->lastSummary().contains("passed"),
             qPrintable(panel->lastSummary()));

    auto *history = window->findChild<QTableView *>("historyTable");
    QCOMPARE(history->model()->rowCount(), 2);
    QCOMPARE(test::cell(history, 0, 2), QString("verify"));
    QCOMPARE(test::cell(history, 0, 6), QString("passed"));
    QCOMPARE(test::cell(history, 1, 2), QString("bench"));
    QVERIFY(!test::cell(history, 1, 4).isEmpty()); // median
    QVERIFY(!test::cell(history, 1, 5).isEmpty()); // spread
    QCOMPARE(test::cell(history, 1, 9), QString("as opened"));

    // File > Export run bundle of the timed try, its run.sh run as a GPU
    // host would, and File > Import run results: a new bench row.
    const long long timedTry = test::cell(history, 1, 0).toLongLong();
    QTemporaryDir carried;
    auto bundle = window->bundles()->exportRunBundleTo(
        {timedTry}, carried.filePath("bundle").toStdString());
    QVERIFY2(bundle, bundle ? "" : bundle.error().c_str());
    QProcess run;
    run.start("/bin/bash",
              {QString::fromStdString((*bundle / "run.sh").string())});
    QVERIFY(run.waitForFinished(120000));
    QCOMPARE(run.exitCode(), 0);
    auto imported = window->bundles()->importRunResultsFrom(*bundle);
    QVERIFY2(imported, imported ? "" : imported.error().c_str());
    QCOMPARE(imported->modules.size(), size_t(1));
    QVERIFY(imported->modules[0].timing.timed());
    QCOMPARE(history->model()->rowCount(), 3);
    QCOMPARE(test::cell(history, 0, 2), QString("bench"));
    QVERIFY(!test::cell(history, 0, 4).isEmpty());
    window->findChild<QTabWidget *>("runTabs")->setCurrentIndex(3);
    screenshot(*window, "run-panel-cpu");
    // On a 1280x800 screen the panel's buttons keep their height (the column
    // scrolls rather than squash them).
    window->resize(1280, 800);
    QCoreApplication::processEvents();
    for (const char *name :
         {"compileButton", "resourcesButton", "runButton", "checkButton",
          "profileButton", "cancelButton", "copyCommandButton"}) {
      const auto *button = window->findChild<QPushButton *>(name);
      QVERIFY2(button && button->height() >= button->sizeHint().height(), name);
    }
    screenshot(*window, "run-panel-1280");
  }

  // IREE's own verdict on the selected op joins the Problems panel, asked
  // in the background after each change: its pipeline constraints hold for
  // the example; after an edit they reject, IREE's assert shows on its
  // field.
  void problemsShowIreesConstraintVerdict() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto *list = window->findChild<QListView *>("problemList");
    QTRY_VERIFY_WITH_TIMEOUT(
        test::listHas(
            list, "IREE's pipeline constraints: holds (44 for TileAndFuse)"),
        60000);
    typeAndEnter(*window, "translation_info.subgroup_size", "32");
    QTRY_VERIFY_WITH_TIMEOUT(
        test::listHas(list, "IREE constraint: translation_info.subgroup_size: "
                            "sg_size == preferred_subgroup_size"),
        60000);
    for (int i = 0; i < list->model()->rowCount(); ++i)
      if (list->model()->index(i, 0).data().toString().startsWith(
              "IREE constraint"))
        list->scrollTo(list->model()->index(i, 0));
    screenshot(*window, "problems-iree-constraints");
    // Undo: the constraints hold again.
    window->session()->undoStack()->undo();
    QTRY_VERIFY_WITH_TIMEOUT(
        test::listHas(
            list, "IREE's pipeline constraints: holds (44 for TileAndFuse)"),
        60000);
  }

  // A root op of a whole program (two_matmuls configured for gfx942): the
  // run panel compiles its dispatch alone, as the CLI does.
  void wholeProgramOpCompilesItsDispatchAlone() {
    auto window = open(std::filesystem::path(TILESCOPE_SOURCE_DIR) /
                       "tests/e2e/data/two_matmuls.gfx942.configured.mlir");
    window->selectOp(edit::OpRef{1, 0});
    auto *panel = window->findChild<widgets::RunPanel *>("runPanel");
    QSignalSpy finished(panel, &widgets::RunPanel::finished);
    panel->start(widgets::RunPanel::Job::Resources);
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.front().at(0).toBool(),
             qPrintable(finished.front().at(1).toString()));
    const QString output =
        window->findChild<QPlainTextEdit *>("jobOutput")->toPlainText();
    QVERIFY2(output.contains("taking dispatch 1 out of the program"),
             qPrintable(output));
    const QString resources =
        window->findChild<QPlainTextEdit *>("jobResources")->toPlainText();
    // One kernel: dispatch 1's, not the program's two.
    QCOMPARE(resources.count("(gfx942)"), 1);
    QVERIFY2(resources.contains("two_matmuls_dispatch_1_matmul_64x16x32_f32"),
             qPrintable(resources));
    screenshot(*window, "run-panel-dispatch-alone");
  }

  void gpuCompileShowsResources() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto *panel = window->findChild<widgets::RunPanel *>("runPanel");
    QSignalSpy finished(panel, &widgets::RunPanel::finished);
    // The original first, then the edit: the second try says what its
    // resources did since the first.
    panel->start(widgets::RunPanel::Job::Resources);
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.front().at(0).toBool(),
             qPrintable(finished.front().at(1).toString()));
    finished.clear();
    typeAndEnter(*window, "reduction", "[0, 0, 4]");
    panel->start(widgets::RunPanel::Job::Resources);
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.front().at(0).toBool(),
             qPrintable(finished.front().at(1).toString()));
    auto *resources = window->findChild<QPlainTextEdit *>("jobResources");
    QVERIFY2(resources->toPlainText().contains("VGPRs"),
             qPrintable(resources->toPlainText()));
    QVERIFY(resources->toPlainText().contains("occupancy"));
    // Half the K tile halves the LDS the operands take.
    QVERIFY2(resources->toPlainText().contains("Since try") &&
                 resources->toPlainText().contains("shared_memory_bytes"),
             qPrintable(resources->toPlainText()));
    screenshot(*window, "run-panel-resources");
    // The Instructions tab: the kernel cut by its loop, one step of which
    // issues subgroup 2 x 4 intrinsics x K tile 4 = 32 MFMAs.
    auto *instructions =
        window->findChild<widgets::InstructionsView *>("jobInstructions");
    QVERIFY(instructions);
    const QStringList regions = instructions->regionLines();
    const QString loop = regions.filter(": loop ").value(0);
    QVERIFY2(loop.contains("32 mma (v_mfma_f32_16x16x16_f16)"),
             qPrintable(regions.join("\n")));
    QVERIFY2(loop.contains("global load (") && loop.contains("x 128-bit"),
             qPrintable(loop));
    // Its LDS accesses' banks, from the addresses the wave's lanes compute:
    // every access resolved (a "?" would say one is not).
    QVERIFY2(loop.contains(" | banks ") && !loop.contains(" | banks ?"),
             qPrintable(loop));
    window->findChild<QTabWidget *>("runTabs")->setCurrentWidget(instructions);
    screenshot(*window, "run-panel-instructions");

    // The instructions linked to the Layout tab's subgroup picture: an MFMA
    // chosen marks the 16 x 16 cells of the intrinsic tile it computes in
    // each of the 4 waves and the LHS rows and RHS columns it reads, a
    // global load the operand cells it brings in, and a cell clicked
    // selects its store, the MFMAs of its reduction and the loads, shared
    // stores and reads of its LHS and RHS elements.
    auto *layout = window->findChild<widgets::LayoutTab *>();
    QVERIFY(layout);
    widgets::SceneView *picture = layout->scene();
    QVERIFY2(picture->scene().cellsAreLoopPoints,
             qPrintable(picture->scene().title));
    QTreeWidgetItem *mfma = nullptr;
    for (QTreeWidgetItemIterator it(instructions); *it && !mfma; ++it)
      if ((*it)->text(2) == "mma" && !(*it)->text(6).isEmpty())
        mfma = *it;
    QVERIFY(mfma);
    // 1024 accumulator cells, 4 x 256 LHS and RHS elements (each a row or
    // column of points, the loop it does not index left open).
    QVERIFY2(mfma->text(6).toInt() > 1024, qPrintable(mfma->text(6)));
    QVERIFY2(mfma->toolTip(6).contains("MMA A elements") &&
                 mfma->toolTip(6).contains("accumulator cells its result"),
             qPrintable(mfma->toolTip(6)));
    instructions->setCurrentItem(mfma);
    QVERIFY2(picture->scene().footer.startsWith("marked: the " + mfma->text(6) +
                                                " cells of line " +
                                                mfma->text(1)) &&
                 picture->scene().footer.contains("(1024 here; "),
             qPrintable(picture->scene().footer));
    screenshot(*window, "layout-instruction-cells");
    QTreeWidgetItem *load = nullptr;
    for (QTreeWidgetItemIterator it(instructions); *it && !load; ++it)
      if ((*it)->text(2) == "global load" && !(*it)->text(6).isEmpty())
        load = *it;
    QVERIFY(load);
    instructions->setCurrentItem(load);
    // Over d0 x d1 an LHS element would cover its whole row: it is said,
    // not drawn; over d0 x d2 (m x k) each element is a cell.
    QVERIFY2(picture->scene().footer.contains("line " + load->text(1)) &&
                 picture->scene().footer.contains("none in this picture"),
             qPrintable(picture->scene().footer));
    auto *columns = window->findChild<QComboBox *>("sliceColumns");
    QVERIFY(columns);
    const int d2 = columns->findText("d2", Qt::MatchStartsWith);
    QVERIFY(d2 >= 0);
    columns->setCurrentIndex(d2);
    instructions->setCurrentItem(mfma);
    instructions->setCurrentItem(load);
    QVERIFY2(picture->scene().footer.startsWith("marked: the 2048 cells of "
                                                "line " +
                                                load->text(1)),
             qPrintable(picture->scene().footer));
    screenshot(*window, "layout-load-cells");
    emit picture->pointClicked({0, 0, 0});
    const std::vector<size_t> lines = instructions->selectedLines();
    std::set<QString> classes;
    for (QTreeWidgetItem *item : instructions->selectedItems())
      classes.insert(item->text(2));
    QVERIFY2(lines.size() >= 3, qPrintable(QString::number(lines.size())));
    for (const char *kind :
         {"global load", "shared store", "shared load", "mma", "global store"})
      QVERIFY2(classes.count(kind), kind);
    QCOMPARE(window->findChild<QTabWidget *>("runTabs")->currentWidget(),
             static_cast<QWidget *>(instructions));
    screenshot(*window, "instructions-of-a-cell");

    // The two tries side by side, picked in the history table.
    auto *table = window->findChild<QTableView *>("historyTable");
    QCOMPARE(table->model()->rowCount(), 2);
    // Each row says what it read and how its configs differ from the file
    // as opened.
    QCOMPARE(test::cell(table, 0, 9), QString("reduction [0, 0, 4]"));
    QCOMPARE(test::cell(table, 1, 9), QString("as opened"));
    QVERIFY2(test::cell(table, 0, 8).contains("VGPRs"),
             qPrintable(test::cell(table, 0, 8)));
    auto *compare = window->findChild<QPushButton *>("compareButton");
    QVERIFY(!compare->isEnabled());
    table->selectAll();
    QVERIFY(compare->isEnabled());
    compare->click();
    auto *comparison = window->findChild<widgets::TryComparisonView *>();
    QVERIFY(comparison);
    const QStringList changed = comparison->changedRows();
    QVERIFY2(changed.contains("reduction") &&
                 changed.contains("shared_memory_bytes"),
             qPrintable(changed.join(", ")));
    QVERIFY(!changed.contains("workgroup"));
    // Half the K tile: half the MFMAs a pass of the K loop.
    QVERIFY2(changed.contains("loop (a pass), mma"),
             qPrintable(changed.join(", ")));
    for (const char *name : {"compareSceneA", "compareSceneB"}) {
      auto *view = comparison->findChild<widgets::SceneView *>(name);
      QVERIFY(view && !view->scene().panels.empty());
    }
    QVERIFY(comparison->findChild<QLabel *>("compareHeadingB")
                ->text()
                .contains("resources, ok"));
    comparison->window()->resize(1100, 820);
    screenshot(*comparison->window(), "compare-tries");
    // "Load A" puts the original back: one undoable step.
    comparison->findChild<QPushButton *>("loadAButton")->click();
    QVERIFY(window->document()->text.find("reduction = [0, 0, 8]") !=
            std::string::npos);
    window->session()->undoStack()->undo();
    comparison->window()->close();

    // The try goes back into the editor after the edit is undone: one
    // undoable step.
    auto *history = window->findChild<QTableView *>("historyTable");
    const long long id = test::cell(history, 0, 0).toLongLong();
    window->session()->undoStack()->undo();
    QVERIFY(window->document()->text.find("reduction = [0, 0, 8]") !=
            std::string::npos);
    auto loaded = window->tries()->loadTry(id);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().c_str());
    QVERIFY(window->document()->text.find("reduction = [0, 0, 4]") !=
            std::string::npos);
    QCOMPARE(window->session()->undoStack()->undoText(),
             QString("load try %1").arg(id));
    // Loading it again changes nothing and says so.
    QVERIFY(!window->tries()->loadTry(id).ok());
  }

  // sm_90: the PTX and the SASS of its cubin side by side, each SASS
  // instruction naming the PTX line it came from (ptxas's line table); an
  // HMMA chosen marks the cells of its mma.sync, and a cell clicked selects
  // the SASS lines that move it beside the PTX ones.
  void sassLinesReachTheLayoutCells() {
    auto window =
        withResources("cuda_sm_90/matmul_f16_1024_dispatch_0.benchmark.mlir");
    if (!window)
      return;
    auto *instructions =
        window->findChild<widgets::InstructionsView *>("jobInstructions");
    QVERIFY(instructions);
    const QStringList regions = instructions->regionLines();
    QVERIFY2(regions.filter("(sass)").size() >= 3 &&
                 regions.filter("(ptx)").size() >= 3,
             qPrintable(regions.join("\n")));
    QTreeWidgetItem *hmma = nullptr, *mmaSync = nullptr;
    for (QTreeWidgetItemIterator it(instructions); *it; ++it) {
      if ((*it)->text(2) != "mma" || (*it)->text(6).isEmpty())
        continue;
      if ((*it)->text(0).startsWith("HMMA") && !hmma)
        hmma = *it;
      if ((*it)->text(0).startsWith("mma.sync") && !mmaSync)
        mmaSync = *it;
    }
    QVERIFY(hmma && mmaSync);
    QVERIFY2(!hmma->text(7).isEmpty() &&
                 hmma->toolTip(7).contains("compiled from PTX line " +
                                           hmma->text(7) + ": mma.sync"),
             qPrintable(hmma->toolTip(7)));
    // Its cells are its mma.sync's.
    QTreeWidgetItem *source = nullptr;
    for (QTreeWidgetItemIterator it(instructions); *it && !source; ++it)
      if ((*it)->text(1) == hmma->text(7) &&
          (*it)->text(0).startsWith("mma.sync"))
        source = *it;
    QVERIFY(source);
    QCOMPARE(hmma->text(6), source->text(6));
    window->findChild<QTabWidget *>("runTabs")->setCurrentWidget(instructions);
    instructions->setCurrentItem(hmma);
    instructions->scrollToItem(hmma);
    auto *layout = window->findChild<widgets::LayoutTab *>();
    QVERIFY(layout);
    widgets::SceneView *picture = layout->scene();
    QVERIFY2(picture->scene().footer.startsWith("marked: the " + hmma->text(6) +
                                                " cells of line " +
                                                hmma->text(1)),
             qPrintable(picture->scene().footer));
    screenshot(*window, "instructions-sass");
    emit picture->pointClicked({0, 0, 0});
    std::set<QString> sassClasses;
    for (QTreeWidgetItem *item : instructions->selectedItems())
      if (!item->text(7).isEmpty())
        sassClasses.insert(item->text(2));
    for (const char *kind :
         {"global load", "shared store", "shared load", "mma", "global store"})
      QVERIFY2(sassClasses.count(kind), kind);
  }

  // Attention (sm_90): its picture is the operands of its two
  // contractions; the kernel's stores mark O's elements, its loads Q's,
  // K's and V's, and an O element clicked selects the store and the MMAs
  // that make it.
  void attentionInstructionsReachItsOperandPanels() {
    auto window =
        withResources("cuda_sm_90/attention_f16_dispatch_0.benchmark.mlir");
    if (!window)
      return;
    auto *instructions =
        window->findChild<widgets::InstructionsView *>("jobInstructions");
    auto *layout = window->findChild<widgets::LayoutTab *>();
    QVERIFY(instructions && layout);
    widgets::SceneView *picture = layout->scene();
    QVERIFY2(picture->scene().title.startsWith("attention:"),
             qPrintable(picture->scene().title));
    // Q, K, S above; P, V, O below.
    QCOMPARE(picture->scene().panels.size(), size_t(6));
    QVERIFY(picture->scene().panels[5].pointAt);
    // The marked cells of O's panel (the scene shown changes with a mark).
    auto markedInO = [picture] {
      const render::Panel &o = picture->scene().panels[5];
      int64_t marked = 0;
      for (int64_t row = 0; row < o.rows; ++row)
        for (int64_t column = 0; column < o.columns; ++column)
          marked += o.cell(row, column).marked;
      return marked;
    };
    QTreeWidgetItem *store = nullptr, *load = nullptr;
    for (QTreeWidgetItemIterator it(instructions); *it; ++it) {
      if ((*it)->text(6).isEmpty() || !(*it)->text(7).isEmpty())
        continue; // no cells, or SASS
      if ((*it)->text(2) == "global store" && !store)
        store = *it;
      if ((*it)->text(2) == "global load" && !load)
        load = *it;
    }
    QVERIFY(store && load);
    window->findChild<QTabWidget *>("runTabs")->setCurrentWidget(instructions);
    instructions->setCurrentItem(store);
    // Every element the store writes is one of O's tile.
    QVERIFY2(
        picture->scene().footer.startsWith("marked: the " + store->text(6) +
                                           " cells of line " + store->text(1) +
                                           " (global "
                                           "store)\n"),
        qPrintable(picture->scene().footer));
    QCOMPARE(markedInO(), store->text(6).toLongLong());
    picture->setCellSize(3.0);
    picture->horizontalScrollBar()->setValue(
        picture->horizontalScrollBar()->maximum());
    picture->verticalScrollBar()->setValue(
        picture->verticalScrollBar()->maximum());
    screenshot(*window, "attention-store-cells");
    instructions->setCurrentItem(load);
    QVERIFY2(picture->scene().footer.startsWith("marked: the " + load->text(6) +
                                                " cells of line " +
                                                load->text(1)) &&
                 !picture->scene().footer.startsWith(
                     "marked: the " + load->text(6) + " cells of line " +
                     load->text(1) + " (global load), none"),
             qPrintable(picture->scene().footer));
    QCOMPARE(markedInO(), 0);
    // An O element clicked: its store and the P.V MMAs of its reduction.
    emit picture->pointClicked(picture->scene().panels[5].pointAt(0, 0));
    std::set<QString> classes;
    for (QTreeWidgetItem *item : instructions->selectedItems())
      classes.insert(item->text(2));
    QVERIFY2(
        classes.count("global store") && classes.count("mma"),
        qPrintable(QStringList(classes.begin(), classes.end()).join(", ")));
    QVERIFY(!classes.count("global load"));
  }

  // An IGEMM convolution (sm_90): a global load of the input image marks
  // the IGEMM points that read the pixels it brings in (each pixel under
  // every filter tap that lands on it), drawn over the output width and K.
  void igemmImageLoadsMarkTheirIgemmPoints() {
    auto window =
        withResources("cuda_sm_90/conv_3x3_f16_dispatch_0.benchmark.mlir");
    if (!window)
      return;
    auto *instructions =
        window->findChild<widgets::InstructionsView *>("jobInstructions");
    auto *layout = window->findChild<widgets::LayoutTab *>();
    QVERIFY(instructions && layout);
    widgets::SceneView *picture = layout->scene();
    QVERIFY2(picture->scene().cellsAreLoopPoints,
             qPrintable(picture->scene().title));
    // Over the output width (d2) and K (d4).
    auto *rows = window->findChild<QComboBox *>("sliceRows");
    auto *columns = window->findChild<QComboBox *>("sliceColumns");
    QVERIFY(rows && columns);
    rows->setCurrentIndex(rows->findText("d2", Qt::MatchStartsWith));
    columns->setCurrentIndex(columns->findText("d4", Qt::MatchStartsWith));
    QTreeWidgetItem *load = nullptr;
    for (QTreeWidgetItemIterator it(instructions); *it && !load; ++it)
      if ((*it)->text(2) == "global load" && !(*it)->text(6).isEmpty() &&
          (*it)->text(7).isEmpty())
        load = *it;
    QVERIFY(load);
    window->findChild<QTabWidget *>("runTabs")->setCurrentWidget(instructions);
    instructions->setCurrentItem(load);
    const QString footer = picture->scene().footer;
    QVERIFY2(footer.startsWith("marked: the " + load->text(6) +
                               " cells of line " + load->text(1)) &&
                 !footer.contains("none in this picture"),
             qPrintable(footer));
    int64_t marked = 0;
    for (const render::Panel &p : picture->scene().panels)
      for (int64_t row = 0; row < p.rows; ++row)
        for (int64_t column = 0; column < p.columns; ++column)
          marked += p.cell(row, column).marked;
    QVERIFY(marked > 0);
    screenshot(*window, "igemm-image-cells");
    // A point of the picture clicked: the loads, shared stores and reads
    // and MMAs of its image pixel and filter element.
    emit picture->pointClicked(picture->scene().pointAt(0, 0));
    std::set<QString> classes;
    for (QTreeWidgetItem *item : instructions->selectedItems())
      classes.insert(item->text(2));
    for (const char *kind : {"global load", "mma", "global store"})
      QVERIFY2(classes.count(kind), kind);
  }

  void failedCompileLeavesTheDocument() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    // An intrinsic gfx942 lacks, on tiles that then need 80 KiB of LDS:
    // IREE refuses it when it compiles.
    typeAndEnter(*window, "mma_kind",
                 "#iree_gpu.mma_layout<WMMAR3_F32_16x16x16_F16>");
    const std::string edited = window->document()->text;
    auto *panel = window->findChild<widgets::RunPanel *>("runPanel");
    QSignalSpy finished(panel, &widgets::RunPanel::finished);
    panel->start(widgets::RunPanel::Job::Compile);
    QVERIFY(finished.wait(240000));
    QVERIFY(!finished.front().at(0).toBool());
    QVERIFY2(panel->lastSummary().contains("failed"),
             qPrintable(panel->lastSummary()));
    auto *diagnostics = window->findChild<QListWidget *>("jobDiagnostics");
    QVERIFY(diagnostics->count() > 0);
    QVERIFY(test::listHas(diagnostics, "shared memory"));
    // The document is as the user left it, and the try is in the history.
    QCOMPARE(window->document()->text, edited);
    auto *history = window->findChild<QTableView *>("historyTable");
    QVERIFY(history->model()->rowCount() >= 1);
    QCOMPARE(test::cell(history, 0, 3), QString("compile-failed"));
    screenshot(*window, "run-panel-failed");
  }

  // IREE's default beside the edit: one click asks IREE in a child
  // process, the tab lists the field the edit changed against IREE's
  // choice and draws IREE's choice, and "Use IREE's config" puts it on the
  // op as one undoable step.
  void showsAndUsesIreesDefault() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    typeAndEnter(*window, "reduction", "[0, 0, 4]");
    QSignalSpy shown(window.get(), &widgets::MainWindow::ireeDefaultShown);
    window->askIreeDefault();
    QVERIFY(shown.wait(240000));
    QVERIFY2(shown.front().at(0).toBool(),
             qPrintable(shown.front().at(1).toString()));
    auto *view = window->findChild<widgets::DefaultConfigView *>();
    QVERIFY(view);
    QCOMPARE(view->differingFields(), QStringList{"reduction"});
    auto *scene = view->findChild<widgets::SceneView *>("defaultScene");
    QVERIFY(scene && !scene->scene().panels.empty());
    screenshot(*window, "iree-default");
    view->findChild<QPushButton *>("useDefaultButton")->click();
    QVERIFY(window->document()->text.find("reduction = [0, 0, 8]") !=
            std::string::npos);
    QCOMPARE(window->session()->undoStack()->undoText(),
             QString("use IREE's default"));
    QVERIFY(view->differingFields().isEmpty());
  }

  // IREE's own layouts beside ours: asked once, then following every edit;
  // both pictures drawn; a CPU dispatch says why there is nothing to ask.
  void comparesLayoutsWithIree() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/reduce_middle_dispatch_0.benchmark.mlir");
    auto *view = window->findChild<widgets::IreeLayoutView *>();
    QVERIFY(view);
    auto *tabs = window->findChild<QTabWidget *>("detailTabs");
    tabs->setCurrentWidget(view);
    QSignalSpy compared(view, &widgets::IreeLayoutView::compared);
    view->findChild<QPushButton *>("compareIreeButton")->click();
    QVERIFY(compared.wait(120000));
    QVERIFY2(compared.back().at(0).toBool(),
             qPrintable(compared.back().at(2).toString()));
    QVERIFY(tabs->tabText(tabs->currentIndex()).contains("agree"));
    QVERIFY(view->answer() && view->answer()->agrees());
    QVERIFY(view->differingOperands().isEmpty());
    // Nothing edited: the command names the file itself.
    auto *command = view->findChild<QLabel *>("ireeLayoutCommand");
    QVERIFY2(command->text().startsWith("IREE's run, on the file: ") &&
                 command->text().contains("reduce_middle_dispatch_0"),
             qPrintable(command->text()));
    for (const char *name : {"oursLayoutScene", "ireeLayoutScene"}) {
      auto *scene = view->findChild<widgets::SceneView *>(name);
      QVERIFY2(scene && !scene->scene().panels.empty(), name);
    }
    // A lane marked in ours is marked in IREE's and in the Layout tab (all
    // coloured by lane), and cleared in all of them.
    auto *ours = view->findChild<widgets::SceneView *>("oursLayoutScene");
    auto *theirs = view->findChild<widgets::SceneView *>("ireeLayoutScene");
    auto *layout = window->findChild<widgets::SceneView *>("sceneView");
    QCOMPARE(ours->scene().colorBy, render::ColorBy::Lane);
    ours->selectKey(5);
    QCOMPARE(theirs->selectedKey(), int64_t(5));
    QCOMPARE(layout->selectedKey(), int64_t(5));
    layout->selectKey(-1);
    QCOMPARE(ours->selectedKey(), int64_t(-1));
    QCOMPARE(theirs->selectedKey(), int64_t(-1));

    // An edit: IREE is asked again once typing pauses, for the new text.
    compared.clear();
    typeAndEnter(*window, "thread", "[0, 0, 2]");
    QVERIFY(compared.wait(120000));
    QVERIFY(compared.back().at(0).toBool());
    const auto &operands = view->answer()->ops.front().operands;
    QVERIFY(!operands.empty());
    QVERIFY2(operands.front().iree.find("element_tile = [1, 1, 1, 2]") !=
                 std::string::npos,
             operands.front().iree.c_str());
    // Edited, not saved: the command names a kept copy of the edited text,
    // so running it reproduces what the tab shows.
    QVERIFY2(!view->answer()->inputIsTheDocument &&
                 command->text().contains(".edited.mlir"),
             qPrintable(command->text()));
    QFile kept(QString::fromStdString(view->answer()->input));
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll().toStdString(), window->document()->text);
    QVERIFY(command->text().contains(
        QString::fromStdString(view->answer()->input)));
    screenshot(*window, "iree-layouts");

    auto cpu = open(test::examplesDir() /
                    "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir");
    auto *cpuView = cpu->findChild<widgets::IreeLayoutView *>();
    QSignalSpy refused(cpuView, &widgets::IreeLayoutView::compared);
    cpuView->compare();
    QVERIFY(refused.wait(60000));
    QVERIFY(!refused.back().at(0).toBool());
    QVERIFY2(refused.back().at(2).toString().contains("llvm-cpu"),
             qPrintable(refused.back().at(2).toString()));
  }

  // The MLIR view: line numbers, colours, the selected op's whole statement
  // highlighted, and a click inside another op's statement selects it.
  void mlirTextSelectsOps() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/softmax_f32_dispatch_0.benchmark.mlir");
    auto *text = window->findChild<widgets::MlirView *>("sourceView");
    QVERIFY(text && text->isColoured());
    QVERIFY(text->lineNumberAreaWidth() > 0);
    const auto &ops = window->document()->dispatches.front().rootOps;
    QCOMPARE(ops.size(), size_t(3));
    // The second op's region: from its line through "} -> tensor<...>".
    const int second = ops[1].line;
    const int end = text->statementEnd(second);
    QVERIFY2(end > second && end < ops[2].line,
             qPrintable(QString("%1..%2").arg(second).arg(end)));
    QVERIFY(text->document()
                ->findBlockByNumber(end - 1)
                .text()
                .trimmed()
                .startsWith("} ->"));

    // A click on a line inside the third op's region.
    const int inside = ops[2].line + 2;
    QTextCursor cursor(text->document()->findBlockByNumber(inside - 1));
    text->setTextCursor(cursor);
    text->ensureCursorVisible();
    const QPoint at = text->cursorRect(cursor).center() + QPoint(4, 0);
    QTest::mouseClick(text->viewport(), Qt::LeftButton, {}, at);
    QVERIFY(window->selectedOp());
    QCOMPARE(window->selectedOp()->op, size_t(2));
    // Outside every root op: the selection stays.
    QTextCursor top(text->document()->findBlockByNumber(0));
    text->setTextCursor(top);
    text->ensureCursorVisible();
    QTest::mouseClick(text->viewport(), Qt::LeftButton, {},
                      text->cursorRect(top).center() + QPoint(4, 0));
    QCOMPARE(window->selectedOp()->op, size_t(2));

    using Kind = widgets::MlirHighlighter::Kind;
    const QString line = "    %10 = linalg.generic {a = #iree_gpu.x<1>} ins(%4 "
                         ": tensor<32xf32>) // \"note\"";
    QCOMPARE(widgets::MlirHighlighter::kindAt(line, 5), Kind::Value);
    QCOMPARE(widgets::MlirHighlighter::kindAt(line, 12), Kind::Op);
    QCOMPARE(widgets::MlirHighlighter::kindAt(line, line.indexOf("#iree")),
             Kind::Attribute);
    QCOMPARE(widgets::MlirHighlighter::kindAt(line, line.indexOf("tensor")),
             Kind::Type);
    QCOMPARE(widgets::MlirHighlighter::kindAt(line, line.indexOf("32xf")),
             Kind::Number);
    QCOMPARE(widgets::MlirHighlighter::kindAt(line, line.indexOf("note")),
             Kind::Comment);
    QVERIFY(!widgets::MlirHighlighter::kindAt(line, line.indexOf("ins")));

    // An edit, and its undo, reach the text at once, character for
    // character (only the changed span is replaced).
    window->selectOp({0, 1});
    typeAndEnter(*window, "thread", "[0, 2]");
    QVERIFY(window->document()->text.find("thread = [0, 2]") !=
            std::string::npos);
    QCOMPARE(text->toPlainText().toStdString(), window->document()->text);
    window->session()->undoStack()->undo();
    QCOMPARE(text->toPlainText().toStdString(), window->document()->text);
    screenshot(*window, "mlir-view");
  }

  void cancelsARunningCompile() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto *panel = window->findChild<widgets::RunPanel *>("runPanel");
    QSignalSpy finished(panel, &widgets::RunPanel::finished);
    panel->start(widgets::RunPanel::Job::Compile);
    QTest::qWait(300);
    panel->cancel();
    QVERIFY(finished.wait(60000));
    QVERIFY(!finished.front().at(0).toBool());
    QVERIFY2(panel->lastSummary().contains("cancel"),
             qPrintable(panel->lastSummary()));
  }

private:
  // The example at `example` (under examples/) opened and its Resources
  // job run: compiled, its kernel's instructions read. Null, the test
  // failed, where the job failed.
  std::unique_ptr<widgets::MainWindow> withResources(const char *example) {
    auto window = open(test::examplesDir() / example);
    auto *panel = window->findChild<widgets::RunPanel *>("runPanel");
    QSignalSpy finished(panel, &widgets::RunPanel::finished);
    panel->start(widgets::RunPanel::Job::Resources);
    if (!finished.wait(240000) || !finished.front().at(0).toBool()) {
      QTest::qFail(
          qPrintable("the Resources job failed: " +
                     (finished.isEmpty() ? QString("no answer")
                                         : finished.front().at(1).toString())),
          __FILE__, __LINE__);
      return nullptr;
    }
    return window;
  }
};

QTEST_MAIN(WindowJobsTest)
#include "tst_window_jobs.moc"
