// The window as an editor, with the real IREE behind it: a value typed into
// the config editor redraws and revalidates before it is applied, Enter
// applies it through the core's edit model (text, diff and markers follow),
// a refused value stays in its box with the reason, undo and redo walk the
// same stack, IREE's verdict on the edited text comes back, edits survive a
// kill, and files save atomically. (tst_window_jobs holds the window as a
// runner.)
#include "WindowTestSupport.h"

#include "core/document/Document.h"
#include "core/edit/EditJournal.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeConstraints.h"
#include "core/service/IreeDefaults.h"
#include "core/service/IreeLayouts.h"
#include "core/tries/History.h"
#include "widgets/editor/ConfigEditor.h"
#include "widgets/editor/ConversionBar.h"
#include "widgets/editor/EditSession.h"
#include "widgets/editor/RecoveryBar.h"
#include "widgets/jobs/RunPanel.h"
#include "widgets/jobs/RunPlaceBox.h"
#include "widgets/jobs/SweepPanel.h"
#include "widgets/jobs/SweepPlot.h"
#include "widgets/jobs/TryActions.h"
#include "widgets/render/StickyAxes.h"
#include "widgets/views/DefaultConfigView.h"
#include "widgets/views/IreeLayoutView.h"
#include "widgets/views/MlirHighlighter.h"
#include "widgets/views/MlirView.h"
#include "widgets/views/SceneView.h"
#include "widgets/views/SliceSelector.h"
#include "widgets/views/TryComparisonView.h"
#include "widgets/window/MainWindow.h"
#include "widgets/window/RecentFiles.h"
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
#include <QUndoStack>
#include <QUrl>

using namespace tilescope;

class EditorWindowTest : public test::WindowTest {
  Q_OBJECT

private slots:
  void initTestCase() { useOwnSettings("EditorWindowTest"); }

  void typingRedrawsThenEnterApplies() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto *editor = window->findChild<widgets::ConfigEditor *>("configEditor");
    auto *scene = window->findChild<widgets::SceneView *>("sceneView");
    auto *problems = window->findChild<QListView *>("problemList");
    auto *source = window->findChild<QPlainTextEdit *>("sourceView");
    auto *diff = window->findChild<QPlainTextEdit *>("diffView");
    QVERIFY(editor && scene && problems && source && diff);
    QVERIFY(editor->fields().contains("workgroup"));
    QVERIFY(editor->fields().contains("translation_info.workgroup_size"));
    // 2x2 subgroups of 64x64 on a 64x128 workgroup tile.
    QCOMPARE(scene->scene().panels.front().columns, int64_t(128));

    // Typing redraws at once, nothing applied: a 128x128 workgroup tile.
    const std::string before = window->document()->text;
    editor->typeValue("workgroup", "[128, 128, 0]");
    QCOMPARE(scene->scene().panels.front().rows, int64_t(128));
    QCOMPARE(window->document()->text, before);
    // ... and revalidates: 2x4 subgroups of 64x32 no longer cover 128x128
    // with 4 subgroups, or whatever the rules say, each naming its field.
    editor->typeValue("workgroup", "[128, 128");
    QVERIFY(test::listHas(problems, "workgroup: not applied"));

    // Enter applies: the text, the diff and the tree follow.
    typeAndEnter(*window, "workgroup", "[128, 64, 0]");
    QVERIFY(window->document()->text.find("workgroup = [128, 64, 0]") !=
            std::string::npos);
    QVERIFY(source->toPlainText().contains("workgroup = [128, 64, 0]"));
    QVERIFY(diff->toPlainText().contains("+"));
    QVERIFY(diff->toPlainText().contains("workgroup = [128, 64, 0]"));
    auto *tree = window->findChild<QTreeView *>("dispatchTree");
    const QModelIndex firstDispatch = tree->model()->index(0, 0);
    QVERIFY(tree->model()
                ->index(0, 0, firstDispatch)
                .data()
                .toString()
                .startsWith("✎"));
    QUndoStack *stack = window->session()->undoStack();
    QCOMPARE(stack->count(), 1);
    QVERIFY(stack->text(0).startsWith("workgroup of linalg.generic"));

    // IREE reads the edited text as the model says.
    QSignalSpy verdict(window.get(), &widgets::MainWindow::ireeVerdict);
    QVERIFY(verdict.wait(20000));
    QVERIFY2(verdict.front().at(0).toBool(),
             qPrintable(verdict.front().at(1).toString()));

    // A value the config model refuses stays typed, marked, with the reason.
    typeAndEnter(*window, "translation_info.workgroup_size", "[256, 1");
    QCOMPARE(editor->typedValue("translation_info.workgroup_size"),
             QString("[256, 1"));
    QVERIFY(test::listHas(problems, "workgroup_size: not applied"));
    QCOMPARE(stack->count(), 1);

    // A value that breaks a rule is applied and shown as a problem of its
    // field: 4 subgroups cannot hold a 2x4 subgroup tile grid... the rule
    // names workgroup_size.
    typeAndEnter(*window, "translation_info.workgroup_size", "[100, 1, 1]");
    QCOMPARE(stack->count(), 2);
    QVERIFY(test::listHas(problems, "workgroup_size"));
    screenshot(*window, "editor-problem");

    // Undo twice: back to the file as opened, byte for byte.
    stack->undo();
    stack->undo();
    QCOMPARE(window->document()->text, before);
    QVERIFY(diff->toPlainText().isEmpty());
    QVERIFY(!tree->model()
                 ->index(0, 0, firstDispatch)
                 .data()
                 .toString()
                 .startsWith("✎"));
    stack->redo();
    QVERIFY(window->document()->text.find("workgroup = [128, 64, 0]") !=
            std::string::npos);
    QCOMPARE(window->session()->model().edits().size(), size_t(1));
    screenshot(*window, "editor-edited");
    // With its problem gone, a tile row's tooltip says what each loop's
    // number means again.
    auto *workgroupBox = window->findChild<QLineEdit *>("field:workgroup");
    QVERIFY(workgroupBox);
    QVERIFY2(workgroupBox->toolTip().startsWith(
                 "d0 (1024): 128 elements per workgroup -> 8 workgroups"),
             qPrintable(workgroupBox->toolTip()));

    // The edit as a tuning spec IREE reads.
    auto spec = window->tries()->tuningSpec();
    QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().c_str());
    QVERIFY(spec->find("iree_codegen.tuning_spec_entrypoint") !=
            std::string::npos);
    QVERIFY(spec->find("workgroup = [128, 64, 0]") != std::string::npos);
    QTemporaryDir dir;
    const QString specFile = dir.filePath("spec.mlir");
    test::writeFile(specFile.toStdString(), *spec);
    // iree-compile takes it and gives the program's matmul the edited
    // config.
    const QString configured = dir.filePath("configured.mlir");
    QProcess compile;
    compile.start(
        QString::fromStdString(
            test::projectIree().tool(tools::kIreeCompile)->string()),
        {QString::fromStdString(
             (test::examplesDir() / "sources/matmul_f16_1024.mlir").string()),
         "--iree-hal-target-device=hip", "--iree-rocm-target=gfx942",
         "--iree-codegen-tuning-spec-path=" + specFile,
         "--compile-to=executable-configurations", "-o", configured});
    QVERIFY(compile.waitForFinished(120000));
    QVERIFY2(compile.exitCode() == 0,
             compile.readAllStandardError().constData());
    QFile out(configured);
    QVERIFY(out.open(QIODevice::ReadOnly));
    QVERIFY(out.readAll().contains("workgroup = [128, 64, 0]"));
  }

  void problemClickFocusesField() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    // 4 intrinsic tiles of M cannot be shared by 3 subgroups: the rule
    // names workgroup[0].
    typeAndEnter(*window, "subgroup", "[3, 4, 0]");
    auto *problems = window->findChild<QListView *>("problemList");
    QModelIndex problem;
    for (int i = 0; i < problems->model()->rowCount() && !problem.isValid();
         ++i)
      if (problems->model()->index(i, 0).data().toString().startsWith(
              "workgroup[0]"))
        problem = problems->model()->index(i, 0);
    QVERIFY2(problem.isValid(), "no problem names workgroup[0]");
    QVERIFY(problem.data().toString().contains("subgroup[0]=3"));
    emit problems->activated(problem);
    QVERIFY(QApplication::focusWidget());
    QCOMPARE(QApplication::focusWidget()->objectName(),
             QString("field:workgroup"));
    // The tree marks the op: edited, with a problem, an error's icon for
    // an error (as `check` and the Problems panel grade it).
    auto *tree = window->findChild<QTreeView *>("dispatchTree");
    const QIcon marker = tree->model()
                             ->index(0, 0, tree->model()->index(0, 0))
                             .data(Qt::DecorationRole)
                             .value<QIcon>();
    QVERIFY(!marker.isNull());
    QCOMPARE(marker.pixmap(16).toImage(),
             tree->style()
                 ->standardIcon(QStyle::SP_MessageBoxCritical)
                 .pixmap(16)
                 .toImage());
  }

  // Each view draws the selected op as it stands and follows an edit; the
  // reduction step is bounded by the op's loop and starts again at 0 in the
  // next file; a marked lane stays marked through a redraw.
  void everyViewFollowsTheEdit() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto *scene = window->findChild<widgets::SceneView *>("sceneView");
    auto *note = window->findChild<QLabel *>("layoutNote");
    auto *markBox = window->findChild<QSpinBox *>("markBox");

    // Shared memory: the MFMA's LHS and RHS reads collide on banks in
    // packed rows, and not once IREE pads each row by 4 f16 (64 bits).
    window->setView(render::OpViewKind::Swizzle);
    const render::GridScene &banks = scene->scene();
    QCOMPARE(banks.panels.size(), size_t(4));
    QVERIFY(banks.panels[0].title.startsWith("LHS (128 wide): rows packed"));
    QVERIFY(banks.panels[3].title.startsWith("RHS"));
    auto anyMarked = [](const render::Panel &panel) {
      for (int64_t r = 0; r < panel.rows; ++r)
        for (int64_t c = 0; c < panel.columns; ++c)
          if (panel.cell(r, c).marked)
            return true;
      return false;
    };
    QVERIFY(anyMarked(banks.panels[0]));
    QVERIFY(!anyMarked(banks.panels[1]));
    QVERIFY(note->text().contains("pads each row by 4 elements"));
    screenshot(*window, "view-swizzle");
    // A swizzle put on the LHS through the editor is what the view draws.
    // (promotion_types is not on the op yet: the editor's Add row.)
    window->findChild<QComboBox *>("newFieldBox")
        ->setEditText("promotion_types");
    auto *value = window->findChild<QLineEdit *>("newFieldValue");
    value->setText("[#iree_gpu.swizzle_operand<copy_config = "
                   "#iree_gpu.derived_thread_config, swizzle = "
                   "#iree_codegen.xor_shuffle<128, 8>>, "
                   "#iree_gpu.derived_thread_config]");
    QTest::keyClick(value, Qt::Key_Return);
    QCoreApplication::processEvents(); // the queued commit
    QVERIFY2(note->text().contains("LHS swizzled (#iree_codegen.xor_shuffle"),
             qPrintable(note->text()));
    QVERIFY(scene->scene().panels[1].title.contains("after the swizzle"));

    window->setView(render::OpViewKind::Mma);
    QCOMPARE(scene->scene().panels.size(), size_t(3)); // LHS, RHS, ACC
    markBox->setValue(5);
    QCOMPARE(scene->selectedKey(), int64_t(5));
    screenshot(*window, "view-mma");
    window->setView(render::OpViewKind::Grid);
    QVERIFY(note->text().startsWith("128 workgroups"));
    QCOMPARE(markBox->value(), -1); // a grid has no lane 5
    window->setView(render::OpViewKind::LaneBasis);
    QVERIFY(scene->scene().panels.empty());
    QVERIFY(note->text().contains("no lane_basis"));

    auto reduction = open(test::examplesDir() /
                          "rocm_gfx942/reduction_4x6656x16384_dispatch_0."
                          "benchmark.mlir");
    auto *steps = reduction->findChild<QSpinBox *>("stepBox");
    auto *view = reduction->findChild<widgets::SceneView *>("sceneView");
    // partial_reduction 512 over 16384: 32 steps.
    QVERIFY(steps->isEnabled());
    QCOMPARE(steps->maximum(), 31);
    steps->setValue(99);
    QCOMPARE(steps->value(), 31);
    QVERIFY(view->scene().title.endsWith("reduction step 31"));
    reduction->findChild<QSpinBox *>("markBox")->setValue(7);
    typeAndEnter(*reduction, "thread", "[0, 4]");
    QCOMPARE(view->selectedKey(), int64_t(7)); // kept through the redraw
    reduction->setView(render::OpViewKind::LaneBasis);
    QCOMPARE(view->scene().panels.size(), size_t(2));
    screenshot(*reduction, "view-lane-basis");
    // The next file starts at step 0 (the edit undone first, so nothing
    // asks to discard it).
    reduction->setView(render::OpViewKind::Layouts);
    reduction->session()->undoStack()->undo();
    QVERIFY(steps->value() > 0);
    QSignalSpy loaded(reduction.get(), &widgets::MainWindow::documentLoaded);
    reduction->openFile(QString::fromStdString(
        (test::examplesDir() /
         "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir")
            .string()));
    QVERIFY(loaded.wait(30000));
    QCOMPARE(steps->value(), 0);
    // TileAndFuse walks K 8 intrinsic K's (128) at a time: 1024 / 128 = 8
    // steps, each with the same tiles.
    QVERIFY(steps->isEnabled());
    QCOMPARE(steps->maximum(), 7);
  }

  // Zoomed in and scrolled into the middle of a grid, the indices of the
  // cells in view stay on the view's edges (the grid's own ticks are out
  // of view); at the grid's corner they are its own again.
  void zoomedAxesStayInView() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto *view = window->findChild<widgets::SceneView *>("sceneView");
    QVERIFY(!view->scene().panels.empty());
    const QRectF rect(view->viewport()->rect());
    auto bandsAt = [&](QPointF scroll) {
      return render::stickyBands(render::ScenePainter(), view->scene(), rect,
                                 view->cellSize(), scroll);
    };
    view->setCellSize(48);
    QVERIFY(bandsAt({0, 0}).empty());
    view->horizontalScrollBar()->setValue(
        view->horizontalScrollBar()->maximum() / 2);
    view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum() /
                                        2);
    const QPointF scroll(view->horizontalScrollBar()->value(),
                         view->verticalScrollBar()->value());
    const auto bands = bandsAt(scroll);
    QCOMPARE(bands.size(), size_t(2));
    QVERIFY(bands[0].columns && !bands[1].columns);
    QCOMPARE(bands[0].rect.top(), 0.0);
    QCOMPARE(bands[1].rect.left(), 0.0);
    screenshot(*window, "view-zoomed-axes");
  }

  // Loading shows a busy bar and the time so far with Cancel; cancelling
  // drops what comes back and leaves the window as it was.
  void loadingShowsProgressAndCancels() {
    const std::filesystem::path first =
        test::examplesDir() /
        "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";
    auto window = open(first);
    auto *bar = window->findChild<QProgressBar *>("loadProgress");
    QVERIFY(bar->isHidden());
    QSignalSpy failed(window.get(), &widgets::MainWindow::loadFailed);
    window->openFile(QString::fromStdString(
        (test::examplesDir() /
         "rocm_gfx942/softmax_f32_dispatch_0.benchmark.mlir")
            .string()));
    QVERIFY(!bar->isHidden());
    QVERIFY(!window->findChild<QPushButton *>("loadCancelButton")->isHidden());
    screenshot(*window, "loading");
    window->cancelLoading();
    QVERIFY(failed.wait(30000));
    QCOMPARE(failed.front().at(0).toString(), QString("cancelled"));
    QVERIFY(bar->isHidden());
    QCOMPARE(window->document()->path, first);
    QVERIFY(window->findChild<QLabel *>("statusLabel")
                ->text()
                .startsWith("Stopped loading"));
  }

  // Fields with a known set of values offer it as one types: mma_kind the
  // target's intrinsics, pipeline IREE's GPU pipelines.
  void fieldsOfferTheirChoices() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto *pipeline =
        window->findChild<QLineEdit *>("field:translation_info.pipeline");
    QVERIFY(pipeline && pipeline->completer());
    QCOMPARE(pipeline->completer()->model()->rowCount(), 7);
    pipeline->completer()->setCompletionPrefix("vectordis");
    QCOMPARE(pipeline->completer()->currentCompletion(),
             QString("VectorDistribute"));
    // The intrinsic and the pipeline are shown by their names (the column
    // has room for them), whole in the tooltip; a name typed is spelled
    // as IREE spells it.
    QCOMPARE(pipeline->text(), QString("TileAndFuse"));
    auto *mma = window->findChild<QLineEdit *>("field:mma_kind");
    QVERIFY(mma && mma->completer());
    QVERIFY(mma->completer()->model()->rowCount() > 4);
    QCOMPARE(mma->text(), QString("MFMA_F32_16x16x16_F16"));
    QVERIFY(mma->toolTip().startsWith(
        "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>"));
    test::typeAndEnter(*window, "mma_kind", "MFMA_F32_32x32x8_F16");
    QVERIFY2(window->session()->model().text().find(
                 "mma_kind = #iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>") !=
                 std::string::npos,
             "the bare intrinsic was not spelled out");
    QCOMPARE(window->findChild<QLineEdit *>("field:mma_kind")->text(),
             QString("MFMA_F32_32x32x8_F16"));

    // A #iree_gpu.derived_thread_config has no fields to add: the Add row
    // offers translation_info's and the whole attribute only.
    auto derived =
        open(test::sourceDir() / "tests/e2e/data/derived_thread_config.mlir");
    auto *add = derived->findChild<QComboBox *>("newFieldBox");
    QCOMPARE(add->findText("workgroup"), -1);
    QCOMPARE(add->findText("lane_basis"), -1);
    QVERIFY(add->findText("lowering_config") >= 0);
    QVERIFY(add->findText("prefetch_num_stages") >= 0);
  }

  // A picture of more than two dimensions is a slice: any two drawn, the
  // others held where the person says; another op starts from its own.
  void sliceSelectorDrawsAnyTwoDimensions() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto *slice = window->findChild<widgets::SliceSelector *>("sliceSelector");
    auto *view = window->findChild<widgets::SceneView *>("sceneView");
    QCOMPARE(view->scene().sliceDims.size(), size_t(3));
    QVERIFY(!slice->isHidden());
    QCOMPARE(view->scene().rowDim, size_t(0));
    QCOMPARE(view->scene().columnDim, size_t(1));
    auto *colorBy = window->findChild<QComboBox *>("colorByBox");
    colorBy->setCurrentIndex(colorBy->findText("subgroup"));
    // Subgroup tiles [2, 4, 0] of 16x16 intrinsic tiles in workgroup
    // [64, 128, 0]: subgroup 0 runs d1 in [0, 64), subgroup 1 d1 in
    // [64, 128).
    slice->choose(0, 2);
    QCOMPARE(view->scene().columnDim, size_t(2));
    const auto &panel = [&]() -> const render::Panel & {
      return view->scene().panels.at(0);
    };
    QVERIFY2(panel().title.startsWith("d0 x d2 of the workgroup tile, d1 at 0"),
             qPrintable(panel().title));
    QCOMPARE(panel().cell(0, 0).colorKey, int64_t(0));
    slice->hold(1, 70);
    QVERIFY2(panel().title.contains("d1 at 70"), qPrintable(panel().title));
    QCOMPARE(panel().cell(0, 0).colorKey, int64_t(1));
    screenshot(*window, "view-slice");
    // A view of two dimensions has no slice to choose.
    window->setView(render::OpViewKind::Mma);
    QVERIFY(slice->isHidden());
  }

  // A file written for an older IREE: IREE refuses it, the window offers
  // its conversion for the IREE in use; accepting writes the converted file
  // beside it (never over it) and opens that.
  void offersAnOlderReleasesConversion() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    const std::filesystem::path old =
        test::sourceDir() /
        "tests/e2e/data/matmul_vector_distribute_iree_3_11.mlir";
    QSignalSpy checked(window.get(), &widgets::MainWindow::conversionChecked);
    window->openFile(QString::fromStdString(old.string()));
    QVERIFY(checked.wait(60000));
    QVERIFY(checked.front().at(0).toBool());
    QVERIFY(window->conversion()->offersConversion());
    auto *bar = window->findChild<QWidget *>("conversionBar");
    QVERIFY(!bar->isHidden());
    screenshot(*window, "conversion-offer");
    const QString target = QString::fromStdString(
        (std::filesystem::path(workspace.path().toStdString()) /
         "matmul.iree-3.13.mlir")
            .string());
    QVERIFY(!window->conversion()->saveConvertedTo(
        QString::fromStdString(old.string())));
    QSignalSpy loaded(window.get(), &widgets::MainWindow::documentLoaded);
    QVERIFY(window->conversion()->saveConvertedTo(target));
    QVERIFY(loaded.wait(30000));
    QCOMPARE(window->document()->path.string(), target.toStdString());
    QVERIFY(bar->isHidden());
    QVERIFY(window->document()->text.find(
                "#iree_gpu.pipeline<VectorDistribute>") != std::string::npos);
  }

  // Edit > Settings: a path that holds no IREE is refused with the reason
  // and the dialog keeps what was typed; one that does is kept; the dark
  // theme darkens the window and its pictures; the largest fitted cell
  // caps fitting.
  void settingsAreCheckedAndApplied() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    const QString key = "iree/path";
    widgets::SettingsDialog dialog(
        [](const QString &path) {
          return tools::describeIreeSetting(path.toStdString(), std::nullopt);
        },
        key, window.get());
    auto *path = dialog.findChild<QLineEdit *>("settingsIreePath");
    auto *status = dialog.findChild<QLabel *>("settingsIreeStatus");
    path->setText("/nonexistent/iree");
    dialog.accept();
    QVERIFY(dialog.result() != QDialog::Accepted);
    QVERIFY2(status->text().contains("holds no IREE compiler library"),
             qPrintable(status->text()));
    QCOMPARE(path->text(), QString("/nonexistent/iree"));
    QVERIFY(!QSettings().contains(key));

    const QString library =
        QString::fromStdString(test::projectIree().compilerLibrary.string());
    path->setText(library);
    QVERIFY(dialog.checkIree());
    QVERIFY2(status->text().contains("found by settings"),
             qPrintable(status->text()));
    auto *theme = dialog.findChild<QComboBox *>("settingsTheme");
    theme->setCurrentIndex(theme->findText("Dark"));
    dialog.findChild<QSpinBox *>("settingsLargestCell")->setValue(8);
    // Places to run on: one that is not a place keeps the dialog open,
    // saying which; the Run and Sweep panels list the kept ones.
    auto *places = dialog.findChild<QPlainTextEdit *>("settingsRunPlaces");
    places->setPlainText("ssh:gpu-box\nmoon");
    dialog.accept();
    QVERIFY(dialog.result() != QDialog::Accepted);
    auto *placesStatus = dialog.findChild<QLabel *>("settingsRunPlacesStatus");
    QVERIFY2(placesStatus->text().contains("\"moon\""),
             qPrintable(placesStatus->text()));
    places->setPlainText("ssh:gpu-box\nslurm:gpu");
    dialog.show();
    screenshot(dialog, "settings-dialog");
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(widgets::RunPlaceBox::savedPlaces(),
             QStringList({"local", "ssh:gpu-box", "slurm:gpu"}));
    QSettings().remove("run/places");
    QCOMPARE(QSettings().value(key).toString(), library);
    QVERIFY(qApp->palette().color(QPalette::Window).lightness() < 128);
    auto *view = window->findChild<widgets::SceneView *>("sceneView");
    view->fitToView();
    QVERIFY(view->cellSize() <= 8.0);
    window->setView(render::OpViewKind::Layouts);
    QCoreApplication::processEvents();
    QCOMPARE(window->palette().color(QPalette::Window),
             qApp->palette().color(QPalette::Window));
    screenshot(*window, "window-dark");

    widgets::saveTheme(widgets::Theme::Desktop);
    widgets::applyTheme(widgets::Theme::Desktop);
    widgets::saveLargestFittedCell(32);
    QSettings().remove(key);
    QVERIFY(qApp->palette().color(QPalette::Window).lightness() >= 128);
  }

  // Edits made while older ones wait on the "Restore them?" bar are kept
  // too: a second kill loses neither set, and discarding the old set keeps
  // the new one.
  void editsMadeWhileARestoreWaitsSurviveAKill() {
    QTemporaryDir dir;
    const QString path = dir.filePath("matmul.mlir");
    QVERIFY(QFile::copy(
        QString::fromStdString(
            (test::examplesDir() /
             "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir")
                .string()),
        path));
    {
      auto window = open(path.toStdString());
      typeAndEnter(*window, "reduction", "[0, 0, 16]");
    } // killed
    {
      auto window = open(path.toStdString());
      QVERIFY(window->recovery()->offersRecovery());
      // Not answered: another edit, then another kill.
      typeAndEnter(*window, "workgroup", "[128, 128, 0]");
    }
    auto window = open(path.toStdString());
    QVERIFY(window->recovery()->offersRecovery());
    window->findChild<QPushButton *>("restoreEditsButton")->click();
    const std::string text = window->session()->model().text();
    QVERIFY(text.find("reduction = [0, 0, 16]") != std::string::npos);
    QVERIFY(text.find("workgroup = [128, 128, 0]") != std::string::npos);
    QCOMPARE(window->session()->undoStack()->count(), 2);

    // Discarding the offered set keeps what was typed meanwhile.
    QTemporaryDir other;
    const QString second = other.filePath("matmul.mlir");
    QVERIFY(QFile::copy(path, second));
    {
      auto first = open(second.toStdString());
      typeAndEnter(*first, "reduction", "[0, 0, 16]");
    }
    {
      auto again = open(second.toStdString());
      typeAndEnter(*again, "workgroup", "[128, 128, 0]");
      again->recovery()->discardRecovery();
    }
    auto last = open(second.toStdString());
    QVERIFY(last->recovery()->offersRecovery());
    last->findChild<QPushButton *>("restoreEditsButton")->click();
    const std::string kept = last->session()->model().text();
    QVERIFY(kept.find("workgroup = [128, 128, 0]") != std::string::npos);
    QVERIFY(kept.find("reduction = [0, 0, 16]") == std::string::npos);
    QVERIFY(last->session()->save(second.toStdString()).ok());
  }

  // Edits are kept on disk as they are made: a window that goes away
  // without closing (a crash, a kill) leaves them, and the next window to
  // open the file offers them back as undoable steps; saving or discarding
  // leaves nothing to offer. The file lands in Open Recent, and a file
  // dropped on the window opens.
  void editsSurviveAKillAndRecentFilesARestart() {
    QTemporaryDir dir;
    const QString path = dir.filePath("matmul.mlir");
    QVERIFY(QFile::copy(
        QString::fromStdString(
            (test::examplesDir() /
             "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir")
                .string()),
        path));
    const std::filesystem::path journal = edit::journalFile(
        std::filesystem::path(workspace.path().toStdString()) / "recovery",
        path.toStdString());
    std::string edited;
    {
      auto window = open(path.toStdString());
      typeAndEnter(*window, "reduction", "[0, 0, 16]");
      typeAndEnter(*window, "workgroup", "[128, 128, 0]");
      QVERIFY(std::filesystem::exists(journal));
      edited = window->session()->model().text();
      // No close event: the window is gone as if killed.
    }
    QVERIFY(std::filesystem::exists(journal));
    QCOMPARE(widgets::recentFiles().value(0),
             QFileInfo(path).absoluteFilePath());

    auto window = open(path.toStdString());
    QVERIFY(window->recovery()->offersRecovery());
    auto *bar = window->findChild<QWidget *>("recoveryBar");
    QVERIFY(bar->isVisible());
    screenshot(*window, "recovery-offered");
    window->findChild<QPushButton *>("restoreEditsButton")->click();
    QVERIFY(!bar->isVisible());
    QCOMPARE(window->session()->model().text(), edited);
    QCOMPARE(window->session()->undoStack()->count(), 2);
    QVERIFY(window->isWindowModified());
    // Saved: nothing left to offer.
    QVERIFY(window->session()->save(path.toStdString()).ok());
    QVERIFY(!std::filesystem::exists(journal));

    // A file dropped on the window opens (the window is clean).
    const QString other = QString::fromStdString(
        (test::examplesDir() /
         "rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir")
            .string());
    QMimeData data;
    data.setUrls({QUrl::fromLocalFile(other)});
    QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &data, Qt::LeftButton,
                          Qt::NoModifier);
    QCoreApplication::sendEvent(window.get(), &enter);
    QVERIFY(enter.isAccepted());
    QSignalSpy loaded(window.get(), &widgets::MainWindow::documentLoaded);
    QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &data, Qt::LeftButton,
                    Qt::NoModifier);
    QCoreApplication::sendEvent(window.get(), &drop);
    QVERIFY(loaded.wait(30000));
    QCOMPARE(QString::fromStdString(window->document()->path.string()), other);
    QCOMPARE(widgets::recentFiles().value(1),
             QFileInfo(path).absoluteFilePath());
    // A journal written against other text is not replayed.
    auto stale = edit::EditJournal::fromJson(test::readFile(
        test::sourceDir() / "tests/widgets/data/stale-journal.json"));
    QVERIFY(stale.ok());
    stale->path = path.toStdString();
    QVERIFY(edit::writeJournal(*stale, journal).ok());
    auto reopened = open(path.toStdString());
    QVERIFY(!reopened->recovery()->offersRecovery());
    QVERIFY(reopened->findChild<QWidget *>("recoveryBar")->isVisible());
    reopened->recovery()->discardRecovery();
    QVERIFY(!std::filesystem::exists(journal));
    // Closing keeps the window's layout for the next start.
    QSettings().remove("window/state");
    QVERIFY(reopened->close());
    QVERIFY(!QSettings().value("window/state").toByteArray().isEmpty());
  }

  void savesAtomicallyAndReopens() {
    QTemporaryDir dir;
    const QString copy = dir.filePath("edited.mlir");
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    typeAndEnter(*window, "reduction", "[0, 0, 16]");
    QVERIFY(window->isWindowModified());
    QVERIFY(window->session()->save(copy.toStdString()).ok());
    QVERIFY(!window->isWindowModified());
    auto reopened = open(copy.toStdString());
    QVERIFY(reopened->document()->dispatches[0].rootOps[0].loweringConfig.find(
                "reduction = [0, 0, 16]") != std::string::npos);
  }
};

QTEST_MAIN(EditorWindowTest)
#include "tst_editor_window.moc"
