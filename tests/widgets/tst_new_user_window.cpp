// The window as a new user meets it (issue 29's findings, driven with the
// real IREE behind it): docks that recover from a squeezed window, a dark
// theme switched live that keeps every text readable, a sweep plot drawn
// against the field picked, Colour by and the step box on a TileAndFuse
// matmul, the config editor walked by keys alone, a quit prompt whose
// Return saves, results that survive loading a candidate, a run panel that
// holds still, CPU tries compared entry by entry, and names whole on hover.
#include "WindowTestSupport.h"

#include "widgets/editor/ConfigEditor.h"
#include "widgets/editor/DispatchBrowser.h"
#include "widgets/editor/EditSession.h"
#include "widgets/jobs/RunPanel.h"
#include "widgets/jobs/SweepPanel.h"
#include "widgets/jobs/SweepPlot.h"
#include "widgets/jobs/TryActions.h"
#include "widgets/views/SceneView.h"
#include "widgets/views/TryComparisonView.h"
#include "widgets/views/ViewSettings.h"
#include "widgets/window/ConfigureBar.h"
#include "widgets/window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>

#include <cmath>
#include <map>
#include <set>

using namespace tilescope;

namespace {

const std::filesystem::path kMatmul =
    "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";
const std::filesystem::path kCpuMatmul =
    "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir";

// Relative luminance contrast (WCAG) of two colours: 4.5 reads as text.
double contrast(const QColor &a, const QColor &b) {
  auto luminance = [](const QColor &c) {
    auto channel = [](double v) {
      return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) +
           0.0722 * channel(c.blueF());
  };
  const double x = luminance(a), y = luminance(b);
  return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

// Every cell's colour key, row by row.
std::vector<int64_t> colourKeys(const widgets::SceneView &view) {
  std::vector<int64_t> keys;
  for (const render::Panel &panel : view.scene().panels)
    for (int64_t r = 0; r < panel.rows; ++r)
      for (int64_t c = 0; c < panel.columns; ++c)
        keys.push_back(panel.cell(r, c).colorKey);
  return keys;
}

size_t distinct(const std::vector<int64_t> &keys) {
  return std::set<int64_t>(keys.begin(), keys.end()).size();
}

} // namespace

class NewUserWindowTest : public QObject {
  Q_OBJECT

  QTemporaryDir workspace;

  std::unique_ptr<widgets::MainWindow> open(const std::filesystem::path &file) {
    return test::openWindow(file, test::windowServices(workspace.path()));
  }

private slots:
  void initTestCase() {
    QVERIFY(workspace.isValid());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("TilescopeTest");
    QCoreApplication::setApplicationName("NewUserWindowTest");
    QSettings().clear();
  }

  void cleanupTestCase() {
    widgets::applyTheme(widgets::Theme::Desktop);
    QSettings().clear();
  }

  // Item 8: a window squeezed small keeps every dock usable, and View >
  // Reset layout puts them back at their first sizes after it grows.
  void docksSurviveASqueezedWindow() {
    auto window = open(test::examplesDir() / kMatmul);
    auto *editor = window->findChild<widgets::ConfigEditor *>("configEditor");
    window->resize(640, 480);
    QCoreApplication::processEvents();
    QVERIFY2(editor->width() >= 380,
             qPrintable(QString::number(editor->width())));
    window->resize(1600, 1000);
    QCoreApplication::processEvents();
    auto *reset = window->findChild<QAction *>("resetLayoutAction");
    QVERIFY(reset);
    reset->trigger();
    QCoreApplication::processEvents();
    QVERIFY2(editor->width() >= 470,
             qPrintable(QString::number(editor->width())));
    auto *table = editor->findChild<QTableView *>("configTable");
    QVERIFY2(table->columnWidth(1) >= 120,
             qPrintable(QString::number(table->columnWidth(1))));
    // A dock closed by hand comes back too.
    window->findChild<QDockWidget *>("problemsDock")->close();
    reset->trigger();
    QVERIFY(window->findChild<QDockWidget *>("problemsDock")->isVisible());
    test::windowScreenshot(*window, "new-user-reset-layout");
  }

  // Issue 45 item 16: a window shown on a 1280x800 screen stays 1280 wide
  // (the docks as first arranged for 1440 had left its minimum at 1346),
  // the config editor shows an intrinsic by its name, whole, and has the
  // height for workgroup_size.
  void aWindowFitsA1280By800Screen() {
    QSettings().clear(); // no saved layout: the docks arranged afresh
    auto library = test::projectCompiler();
    widgets::MainWindow window(
        [library](const std::filesystem::path &path,
                  const std::atomic<bool> *) {
          iree::DocumentParser parser(library);
          return parser.parseFile(path);
        },
        test::windowServices(workspace.path()));
    window.resize(1280, 800);
    window.show();
    QSignalSpy loaded(&window, &widgets::MainWindow::documentLoaded);
    window.openFile(
        QString::fromStdString((test::examplesDir() / kMatmul).string()));
    QVERIFY(loaded.wait(30000));
    QTRY_COMPARE(window.width(), 1280);
    QVERIFY2(window.minimumWidth() <= 1280,
             qPrintable(QString::number(window.minimumWidth())));
    auto *mma = window.findChild<QLineEdit *>("field:mma_kind");
    QVERIFY(mma);
    // (The table lays its cell widgets out from the event loop.)
    QTRY_VERIFY2(mma->width() >=
                     mma->fontMetrics().horizontalAdvance(mma->text()),
                 qPrintable(QString::number(mma->width())));
    // The config editor has the rows for translation_info's too: its
    // workgroup_size shows without scrolling.
    auto *size =
        window.findChild<QLineEdit *>("field:translation_info.workgroup_size");
    QVERIFY(size);
    QTRY_VERIFY(!size->visibleRegion().isEmpty());
    test::windowScreenshot(window, "new-user-1280x800");
  }

  // Items 11 and 20: on a TileAndFuse matmul, Colour by lane, subgroup and
  // register colour differently (64 lanes; 4 subgroups, each [2, 4] 16x16
  // tiles of the 64x128 workgroup tile), and the
  // step box walks its 8 K steps.
  void colourByOnTileAndFuse() {
    auto window = open(test::examplesDir() / kMatmul);
    window->setView(render::OpViewKind::Layouts);
    auto *view = window->findChild<widgets::SceneView *>("sceneView");
    auto *colorBy = window->findChild<QComboBox *>("colorByBox");
    QVERIFY(colorBy->isEnabled());
    std::map<QString, std::vector<int64_t>> keys;
    for (const QString by : {"lane", "subgroup", "register"}) {
      colorBy->setCurrentIndex(colorBy->findText(by));
      QCoreApplication::processEvents();
      const QString note = window->findChild<QLabel *>("layoutNote")->text();
      QVERIFY2(note.contains(by), qPrintable(note));
      keys[by] = colourKeys(*view);
    }
    QCOMPARE(distinct(keys["lane"]), size_t(64));
    QCOMPARE(distinct(keys["subgroup"]), size_t(4));
    QCOMPARE(distinct(keys["register"]), size_t(4)); // 4 accumulators a lane
    QVERIFY(keys["register"] != keys["lane"]);
    QVERIFY(keys["register"] != keys["subgroup"]);
    auto *steps = window->findChild<QSpinBox *>("stepBox");
    QVERIFY(steps->isEnabled());
    QCOMPARE(steps->maximum(), 7); // 1024 / (8 x 16)
    steps->setValue(3);
    QVERIFY2(window->findChild<QLabel *>("layoutNote")
                 ->text()
                 .contains("reduction step 3"),
             qPrintable(window->findChild<QLabel *>("layoutNote")->text()));
    colorBy->setCurrentIndex(colorBy->findText("lane"));
    test::windowScreenshot(*window, "new-user-colour-by-lane");
  }

  // Item 12: every field edited without the mouse. Tab walks the Value
  // boxes (and their "…" buttons) in row order, never a read-only cell;
  // Shift+Tab walks back; Up and Down go row to row; a click on a row's
  // Original cell puts the cursor in its box.
  void editsEveryFieldByKeyboard() {
    auto window = open(test::examplesDir() / kMatmul);
    auto *editor = window->findChild<widgets::ConfigEditor *>("configEditor");
    auto *table = editor->findChild<QTableView *>("configTable");
    QList<QLineEdit *> boxes;
    QList<int> rows;
    for (int row = 0; row < table->model()->rowCount(); ++row)
      if (auto *cell = table->indexWidget(table->model()->index(row, 1)))
        if (auto *box = qobject_cast<QLineEdit *>(cell)
                            ? qobject_cast<QLineEdit *>(cell)
                            : cell->findChild<QLineEdit *>()) {
          boxes << box;
          rows << row;
        }
    QVERIFY(boxes.size() >= 5);
    // A short window: the editor's rows do not all fit, Tab must scroll.
    window->resize(1440, 600);
    QCoreApplication::processEvents();
    window->activateWindow();
    boxes.front()->setFocus();
    QList<QLineEdit *> reached{boxes.front()};
    for (int press = 0;
         press < 4 * boxes.size() && reached.size() < boxes.size(); ++press) {
      QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
      QWidget *now = QApplication::focusWidget();
      QVERIFY2(now != table && now != table->viewport(),
               "Tab landed on the table's read-only cells");
      QVERIFY2(qobject_cast<QLineEdit *>(now) ||
                   qobject_cast<QToolButton *>(now),
               qPrintable(now->metaObject()->className()));
      if (auto *box = qobject_cast<QLineEdit *>(now);
          box && boxes.contains(box)) {
        reached << box;
        // Its row is scrolled into view.
        const QRect shown(box->mapTo(table->viewport(), QPoint()), box->size());
        QVERIFY2(table->viewport()->rect().contains(shown),
                 qPrintable(box->objectName() + " is out of view"));
      }
    }
    QCOMPARE(reached, boxes);
    // Shift+Tab back from the second box reaches the first box.
    boxes[1]->setFocus();
    for (int press = 0; press < 3 && QApplication::focusWidget() != boxes[0];
         ++press)
      QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab);
    QCOMPARE(QApplication::focusWidget(), boxes[0]);
    QTest::keyClick(boxes[0], Qt::Key_Down);
    QCOMPARE(QApplication::focusWidget(), boxes[1]);
    QTest::keyClick(boxes[1], Qt::Key_Up);
    QCOMPARE(QApplication::focusWidget(), boxes[0]);
    // A click on the third row's Original cell: its box takes the keys.
    table->setCurrentIndex(table->model()->index(rows[2], 2));
    QCOMPARE(QApplication::focusWidget(), boxes[2]);
    // And a value typed there applies.
    const QString field = boxes[2]->objectName().section(':', 1);
    QVERIFY(!field.isEmpty());
  }

  // Item 13: quitting with edits offers Save (the default, so Return
  // saves), Discard and Cancel.
  void quitPromptSavesOnReturn() {
    QTemporaryDir dir;
    const QString copy = dir.filePath("matmul.mlir");
    QVERIFY(QFile::copy(
        QString::fromStdString((test::examplesDir() / kMatmul).string()),
        copy));
    auto window = open(copy.toStdString());
    test::typeAndEnter(*window, "workgroup", "[32, 128, 0]");
    QVERIFY(!window->session()->undoStack()->isClean());
    QString defaultText;
    // Cancel first: the window stays, the edit with it.
    QTimer::singleShot(200, [&] {
      auto *box =
          qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
      QVERIFY(box);
      QCOMPARE(box->objectName(), QString("unsavedEditsBox"));
      defaultText = box->defaultButton()->text();
      QCOMPARE(box->standardButton(box->defaultButton()), QMessageBox::Save);
      QVERIFY(box->button(QMessageBox::Discard));
      box->button(QMessageBox::Cancel)->click();
    });
    QVERIFY(!window->close());
    QVERIFY(!defaultText.isEmpty());
    QVERIFY(!window->session()->undoStack()->isClean());
    // Return saves and lets it close.
    QTimer::singleShot(200, [&] {
      QTest::keyClick(QApplication::activeModalWidget(), Qt::Key_Return);
    });
    QVERIFY(window->close());
    QFile saved(copy);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY(saved.readAll().contains("workgroup = [32, 128, 0]"));
  }

  // Items 9, 10 and 14: a sweep's plot is drawn against the field picked
  // (its ticks the values), loading a candidate keeps the results and says
  // what they are around, and a dark theme switched live keeps the table's
  // text readable and shows where the focus is.
  void sweepPlotsLoadsAndGoesDark() {
    auto window = open(test::examplesDir() / kMatmul);
    auto *sweep = window->findChild<widgets::SweepPanel *>("sweepPanel");
    QTRY_VERIFY_WITH_TIMEOUT(!sweep->planning(), 60000);
    QSignalSpy planned(sweep, &widgets::SweepPanel::planned);
    sweep->setFromIreeSpace(false);
    sweep->setAxes({"workgroup[0]=32,64", "workgroup[1]=64,128"});
    QTRY_VERIFY_WITH_TIMEOUT(!planned.isEmpty() && !sweep->planning(), 30000);
    QCOMPARE(sweep->plannedCount(), 4);
    QCOMPARE(sweep->validCount(), 4);
    sweep->setTimed(false);
    sweep->setParallel(2);
    QSignalSpy finished(sweep, &widgets::SweepPanel::finished);
    sweep->start();
    QVERIFY(finished.wait(600000));
    QVERIFY2(finished.front().at(1).toString().contains("4 run"),
             qPrintable(finished.front().at(1).toString()));
    auto *plot = window->findChild<widgets::SweepPlot *>("sweepPlot");
    QCOMPARE(plot->pointCount(), 4);
    auto *axis = window->findChild<QComboBox *>("sweepPlotAxis");
    QVERIFY(axis->findText("workgroup[0]") >= 0);
    QVERIFY(axis->findText("workgroup[1]") >= 0);
    axis->setCurrentIndex(axis->findText("workgroup[0]"));
    QCOMPARE(plot->columns(), QStringList({"32", "64"}));
    axis->setCurrentIndex(axis->findText("workgroup[1]"));
    QCOMPARE(plot->columns(), QStringList({"64", "128"}));
    QCOMPARE(plot->xAxisLabel(), QString("workgroup[1]"));
    window->findChild<QDockWidget *>("sweepDock")->raise();

    // Dark, live: the results' text follows the palette.
    widgets::applyTheme(widgets::Theme::Dark);
    QCoreApplication::processEvents();
    auto *results = window->findChild<QTableView *>("sweepResults");
    QCOMPARE(results->model()->rowCount(), 4);
    for (int row = 0; row < results->model()->rowCount(); ++row) {
      const QVariant foreground =
          results->model()->index(row, 3).data(Qt::ForegroundRole);
      const QColor text = foreground.isValid()
                              ? foreground.value<QColor>()
                              : results->palette().color(QPalette::Text);
      QVERIFY2(contrast(text, results->palette().color(QPalette::Base)) >= 4.5,
               qPrintable(text.name()));
    }
    // Where the focus is shows: the focus colour stands out of the window.
    const QPalette dark = qApp->palette();
    QVERIFY(contrast(dark.color(QPalette::Highlight),
                     dark.color(QPalette::Window)) >= 3.0);
    QVERIFY(contrast(dark.color(QPalette::Highlight),
                     dark.color(QPalette::Base)) >= 3.0);
    // The config editor's boxes (frameless, in table cells) ring the one
    // with the keyboard.
    window->activateWindow();
    auto *box = window->findChild<QLineEdit *>("field:workgroup");
    box->setFocus();
    QCoreApplication::processEvents();
    QVERIFY(box->hasFocus());
    const QImage ring = box->grab().toImage();
    QCOMPARE(QColor(ring.pixel(0, ring.height() / 2)), QColor("#3d8ee6"));
    const QImage plain =
        window->findChild<QLineEdit *>("field:subgroup")->grab().toImage();
    QVERIFY(QColor(plain.pixel(0, plain.height() / 2)) != QColor("#3d8ee6"));
    // and take the dark palette's base, not the light one they were made
    // under.
    QVERIFY(QColor(plain.pixel(plain.width() - 4, 3)).lightness() < 80);
    test::windowScreenshot(*window, "new-user-sweep-dark");
    widgets::applyTheme(widgets::Theme::Desktop);

    // Loading the first into the editor keeps every result and says they
    // are around the config before.
    auto *state = window->findChild<QLabel *>("sweepState");
    QVERIFY(sweep->loadRanked(0));
    QCoreApplication::processEvents();
    QCOMPARE(results->model()->rowCount(), 4);
    QCOMPARE(plot->pointCount(), 4);
    QVERIFY2(state->text().contains("the editor's has changed"),
             qPrintable(state->text()));
    // Run then plans around the editor's config first.
    planned.clear();
    sweep->start();
    QTRY_VERIFY_WITH_TIMEOUT(!planned.isEmpty() && !sweep->planning(), 30000);
    QVERIFY(!sweep->busy());
    QVERIFY(!state->text().contains("the editor's has changed"));
  }

  // Items 15 and 18: the run panel's tabs stay put whatever a status says,
  // and two CPU tries compare entry by entry, without empty picture panes.
  void cpuTriesCompareEntryByEntry() {
    auto window = open(test::examplesDir() / kCpuMatmul);
    window->selectOp({0, 1});
    auto *panel = window->findChild<widgets::RunPanel *>("runPanel");
    auto *state = panel->findChild<QLabel *>("runState");
    auto *tabs = panel->findChild<QWidget *>("runTabs");
    const int tabsAt = tabs->mapTo(panel, QPoint()).x();
    QList<int> seen;
    connect(panel, &widgets::RunPanel::finished, this,
            [&] { seen << tabs->mapTo(panel, QPoint()).x(); });
    QSignalSpy finished(panel, &widgets::RunPanel::finished);
    panel->start(widgets::RunPanel::Job::Compile);
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.front().at(0).toBool(),
             qPrintable(finished.front().at(1).toString()));
    state->setText(QString(400, 'x'));
    QCoreApplication::processEvents();
    seen << tabs->mapTo(panel, QPoint()).x();
    test::typeAndEnter(
        *window, "lowering_config",
        "#iree_cpu.lowering_config<cache_parallel = [32, 64, 0], "
        "distribution = [32, 64, 0], vector_common_parallel = [8, 4, 0], "
        "vector_reduction = [0, 0, 4]>");
    QVERIFY2(window->document()->text.find("cache_parallel = [32, 64, 0]") !=
                 std::string::npos,
             "the CPU config edit did not apply");
    finished.clear();
    panel->start(widgets::RunPanel::Job::Compile);
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.front().at(0).toBool(),
             qPrintable(finished.front().at(1).toString()));
    for (int x : seen)
      QCOMPARE(x, tabsAt);

    auto *history = panel->findChild<QTableView *>("historyTable");
    QCOMPARE(history->model()->rowCount(), 2);
    const long long b = test::cell(history, 0, 0).toLongLong();
    const long long a = test::cell(history, 1, 0).toLongLong();
    auto opened = window->tries()->compareTries(a, b);
    QVERIFY2(opened, opened ? "" : opened.error().c_str());
    widgets::TryComparisonView *comparison = *opened;
    const QStringList changed = comparison->changedRows();
    QVERIFY2(changed.contains("cache_parallel") &&
                 changed.contains("distribution"),
             qPrintable(changed.join(", ")));
    QVERIFY(!changed.contains("vector_common_parallel"));
    QVERIFY(!comparison->findChild<widgets::SceneView *>("compareSceneA"));
    QVERIFY(!comparison->findChild<widgets::SceneView *>("compareSceneB"));
    QVERIFY(comparison->findChild<QLabel *>("compareUndrawn"));
    comparison->window()->resize(1000, 600);
    test::windowScreenshot(*comparison->window(), "new-user-compare-cpu");
    comparison->window()->close();
  }

  // A person who opens a model's source (a program with no dispatches yet)
  // is offered its configuration for a target in the window, and the
  // configured program opens with its dispatches; a target IREE does not
  // know is said in the bar, which stays.
  void aProgramIsConfiguredInTheWindow() {
    auto window =
        open(test::examplesDir() / "sources" / "matmul_f32_small.mlir");
    QVERIFY(window->document()->dispatches.empty());
    auto *bar = window->findChild<widgets::ConfigureBar *>("configureBar");
    QVERIFY(bar && !bar->isHidden() && bar->offersConfiguring());
    QSignalSpy failed(bar, &widgets::ConfigureBar::failed);
    bar->configureFor("not-a-chip");
    QVERIFY(failed.wait(60000));
    QVERIFY(!bar->isHidden() && bar->offersConfiguring());
    QVERIFY2(failed.front().at(0).toString().contains("not-a-chip"),
             qPrintable(failed.front().at(0).toString()));

    auto *target = bar->findChild<QComboBox *>("configureTarget");
    target->setCurrentText("llvm-cpu");
    QSignalSpy loaded(window.get(), &widgets::MainWindow::documentLoaded);
    bar->findChild<QPushButton *>("configureButton")->click();
    QVERIFY(loaded.wait(240000));
    const document::Document *configured = window->document();
    QVERIFY(!configured->dispatches.empty());
    QVERIFY2(configured->path.string().find("configured") != std::string::npos,
             configured->path.string().c_str());
    QVERIFY(std::filesystem::path(configured->path).parent_path() ==
            std::filesystem::path(workspace.path().toStdString()) /
                "configured");
    QVERIFY(bar->isHidden() && !bar->offersConfiguring());
    QVERIFY(window->selectedOp().has_value());
  }

  // Items 16 and 19: the window says what it still waits on (a scripted
  // screenshot waits for it), and the dispatch list shows whole names on
  // hover and lets its columns be widened.
  void namesWholeAndAnswersAwaited() {
    auto window = open(test::examplesDir() / kMatmul);
    QVERIFY(!window->pendingAnswers().isEmpty() ||
            window->findChild<widgets::SweepPanel *>("sweepPanel"));
    QTRY_VERIFY_WITH_TIMEOUT(window->pendingAnswers().isEmpty(), 90000);
    auto *tree = window->findChild<QTreeView *>("dispatchTree");
    const QAbstractItemModel *model = tree->model();
    for (int column = 0; column < model->columnCount(); ++column)
      QVERIFY(tree->header()->sectionResizeMode(column) ==
              QHeaderView::Interactive);
    const QModelIndex dispatch = model->index(0, 0);
    QVERIFY(dispatch.data(Qt::ToolTipRole)
                .toString()
                .contains(dispatch.data().toString()));
    QVERIFY(model->rowCount(dispatch) > 0);
    for (int c = 0; c < model->rowCount(dispatch); ++c) {
      const QModelIndex op = model->index(c, 0, dispatch);
      const QModelIndex shape = model->index(c, 1, dispatch);
      QVERIFY2(
          op.data(Qt::ToolTipRole).toString().startsWith(op.data().toString()),
          qPrintable(op.data(Qt::ToolTipRole).toString()));
      QCOMPARE(shape.data(Qt::ToolTipRole).toString(), shape.data().toString());
    }
    // The config editor's long values are whole in their tooltips.
    auto *mma = window->findChild<QLineEdit *>("field:mma_kind");
    QVERIFY(mma);
    QVERIFY2(mma->toolTip().contains(mma->text()), qPrintable(mma->toolTip()));
  }
};

QTEST_MAIN(NewUserWindowTest)
#include "tst_new_user_window.moc"
