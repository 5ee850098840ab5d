// The sweep panel in the window, with the real IREE behind it: its plan
// comes from IREE's constraints where IREE states them (the rules'
// neighbours elsewhere, with the reason), IREE's verdict on each candidate
// before it compiles, and a sweep that stops, resumes, ranks and loads the
// best into the editor.
#include "WindowTestSupport.h"

#include "core/tries/History.h"
#include "widgets/editor/ConfigEditor.h"
#include "widgets/editor/EditSession.h"
#include "widgets/jobs/RunPlaceBox.h"
#include "widgets/jobs/SweepPanel.h"
#include "widgets/jobs/SweepPlot.h"

#include <QDockWidget>
#include <QIcon>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

using namespace tilescope;

class SweepPanelTest : public test::WindowTest {
  Q_OBJECT

private slots:
  void initTestCase() { useOwnSettings("SweepPanelTest"); }

  // The sweep panel's "Ask IREE's pipeline constraints first": a candidate
  // IREE's constraints reject is invalid, named by IREE's assert, and not
  // compiled (prefetch_num_stages 1, which the rules let pass; 2 compiles).
  void sweepAsksIreesConstraints() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto *sweep = window->findChild<widgets::SweepPanel *>("sweepPanel");
    QTRY_VERIFY_WITH_TIMEOUT(!sweep->planning(), 30000);
    sweep->setFromIreeSpace(false); // these values, every combination
    sweep->setAxes({"prefetch_num_stages=1,2"});
    QTRY_VERIFY_WITH_TIMEOUT(!sweep->planning(), 30000);
    QCOMPARE(sweep->validCount(), 2); // the rules let 1 pass
    sweep->setTimed(false);
    sweep->setAskIree(true);
    // The plan shows IREE's verdict before anything runs.
    QTRY_VERIFY_WITH_TIMEOUT(!sweep->planning(), 30000);
    QCOMPARE(sweep->validCount(), 1);
    QVERIFY2(window->findChild<QLabel *>("sweepCount")
                 ->text()
                 .contains("refused by the rules or IREE"),
             qPrintable(window->findChild<QLabel *>("sweepCount")->text()));
    QSignalSpy finished(sweep, &widgets::SweepPanel::finished);
    sweep->start();
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.front().at(1).toString().contains("1 run") &&
                 finished.front().at(1).toString().contains("1 invalid"),
             qPrintable(finished.front().at(1).toString()));
    auto *results = window->findChild<QTableView *>("sweepResults");
    QCOMPARE(results->model()->rowCount(), 2);
    QCOMPARE(test::cell(results, 1, 4), QString("invalid"));
    QVERIFY2(
        test::cell(results, 1, 5)
            .contains("prefetch_num_stages == 2 (use_igemm_convolution=false) "
                      "[iree-constraints]"),
        qPrintable(test::cell(results, 1, 5)));
    window->findChild<QDockWidget *>("sweepDock")->raise();
    screenshot(*window, "sweep-panel-iree-constraints");
  }

  // Candidates from IREE's constraints: the axes' fields vary (their values
  // do not count), the others hold, the nearest assignments are planned
  // and run.
  void sweepFromIreesConstraintSpace() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto *sweep = window->findChild<widgets::SweepPanel *>("sweepPanel");
    QTRY_VERIFY_WITH_TIMEOUT(!sweep->planning(), 30000);
    sweep->setAxes({"workgroup[0]=64", "reduction[2]=8"});
    QSignalSpy planned(sweep, &widgets::SweepPanel::planned);
    sweep->setFromIreeSpace(true, 8);
    QTRY_VERIFY_WITH_TIMEOUT(!planned.isEmpty() && !sweep->planning(), 60000);
    auto *count = window->findChild<QLabel *>("sweepCount");
    QVERIFY2(count->text().contains("IREE's TileAndFuse constraints (44 "
                                    "asserts) allow 12 knob assignments"),
             qPrintable(count->text()));
    QCOMPARE(sweep->plannedCount(), 8);
    QCOMPARE(sweep->validCount(), 8);
    QCOMPARE(sweep->ranking().front(), QString("reduction=[0, 0, 4]"));
    window->findChild<QDockWidget *>("sweepDock")->raise();
    screenshot(*window, "sweep-panel-iree-space");

    // The two nearest, compiled.
    planned.clear();
    sweep->setFromIreeSpace(true, 2);
    QTRY_VERIFY_WITH_TIMEOUT(!planned.isEmpty() && !sweep->planning(), 60000);
    QCOMPARE(sweep->plannedCount(), 2);
    sweep->setTimed(false);
    sweep->setParallel(2);
    QSignalSpy finished(sweep, &widgets::SweepPanel::finished);
    sweep->start();
    QVERIFY(finished.wait(300000));
    QVERIFY2(finished.front().at(1).toString().contains("2 run"),
             qPrintable(finished.front().at(1).toString()));
  }

  // A small sweep from the window: the plan counts what the rules refuse,
  // Stop keeps what finished, running it again resumes it, candidates
  // arrive ranked with their pictures, and the best loads into the editor.
  void sweepsStopsResumesAndLoadsTheBest() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    auto *sweep = window->findChild<widgets::SweepPanel *>("sweepPanel");
    QVERIFY(sweep);
    // It starts from IREE's neighbourhood, as the command line's sweep
    // does: the 32 assignments of its constraints nearest the config.
    QTRY_VERIFY_WITH_TIMEOUT(!sweep->planning(), 60000);
    auto *count = window->findChild<QLabel *>("sweepCount");
    QVERIFY2(count->text().startsWith("IREE's TileAndFuse constraints"),
             qPrintable(count->text()));
    QCOMPARE(sweep->plannedCount(), 32);
    // Without it, the op's neighbours: 27 candidates, those past gfx942's
    // LDS refused.
    QSignalSpy replanned(sweep, &widgets::SweepPanel::planned);
    sweep->setFromIreeSpace(false);
    QTRY_VERIFY_WITH_TIMEOUT(!replanned.isEmpty() && !sweep->planning(), 30000);
    QCOMPARE(sweep->plannedCount(), 27);
    QCOMPARE(sweep->validCount(), 12);

    QSignalSpy planned(sweep, &widgets::SweepPanel::planned);
    sweep->setAxes({"workgroup[0]=32,64", "reduction[2]=4,8,32"});
    QVERIFY(planned.wait(30000));
    QCOMPARE(sweep->plannedCount(), 6);
    QCOMPARE(sweep->validCount(), 4); // reduction 32: 128+ KiB of LDS
    sweep->setTimed(false);
    sweep->setParallel(2);

    QSignalSpy finished(sweep, &widgets::SweepPanel::finished);
    sweep->start();
    QVERIFY(sweep->busy());
    sweep->stop();
    QVERIFY(finished.wait(240000));
    QVERIFY(finished.front().at(0).toBool()); // stopped
    QVERIFY2(finished.front().at(1).toString().contains("resume"),
             qPrintable(finished.front().at(1).toString()));
    finished.clear();
    sweep->start();
    QVERIFY(finished.wait(600000));
    QVERIFY(!finished.front().at(0).toBool());
    // Nothing timed (gfx942 is not here): the first is the predicted one,
    // said so; never "Best".
    const QString summary = finished.front().at(1).toString();
    QVERIFY2(summary.contains("Nothing timed; predicted first: "),
             qPrintable(summary));
    QVERIFY(!summary.contains("Best"));

    // Ranked: compiled ones first (by predicted time), refused ones last,
    // each compiled one with its picture, resources and prediction.
    auto *results = window->findChild<QTableView *>("sweepResults");
    QCOMPARE(results->model()->rowCount(), 6);
    for (int row = 0; row < 4; ++row) {
      QCOMPARE(test::cell(results, row, 4).section(' ', 0, 0), QString("ok"));
      QVERIFY(!results->model()
                   ->index(row, 1)
                   .data(Qt::DecorationRole)
                   .value<QIcon>()
                   .isNull());
      QVERIFY2(test::cell(results, row, 5).contains("VGPRs"),
               qPrintable(test::cell(results, row, 5)));
      QVERIFY2(test::cell(results, row, 3).endsWith(" predicted"),
               qPrintable(test::cell(results, row, 3)));
    }
    for (int row = 1; row < 4; ++row)
      QVERIFY(test::cell(results, row - 1, 3).section(' ', 0, 0).toDouble() <=
              test::cell(results, row, 3).section(' ', 0, 0).toDouble());
    QCOMPARE(test::cell(results, 5, 4), QString("invalid"));
    auto *plot = window->findChild<widgets::SweepPlot *>("sweepPlot");
    QCOMPARE(plot->pointCount(), 4);
    window->findChild<QDockWidget *>("sweepDock")->raise();
    screenshot(*window, "sweep-panel");

    // Running it again finds every candidate in the history.
    finished.clear();
    sweep->start();
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.front().at(1).toString().startsWith(
                 "0 run, 4 from the history"),
             qPrintable(finished.front().at(1).toString()));

    // The best loads into the editor as one undoable step.
    const QString best = sweep->ranking().front();
    QVERIFY(sweep->loadRanked(0));
    const std::string text = window->document()->text;
    for (const QString &setting : best.split(' ')) {
      const QString field = setting.section('[', 0, 0);
      const int index = setting.section('[', 1).section(']', 0, 0).toInt();
      const QString value = setting.section('=', 1);
      // The list the setting changed, as the file now prints it.
      const QString list = QString::fromStdString(text)
                               .section(field + " = [", 1)
                               .section(']', 0, 0);
      QCOMPARE(list.split(", ").value(index), value);
    }
    QVERIFY(window->session()->undoStack()->undoText().startsWith("load try"));
  }

  // Timed on a Slurm partition from the panel: a single-node Slurm of the
  // test's own (tests/remote/local_cluster.py: munged, slurmctld, slurmd;
  // the "GPU" is the CPU), the candidates compiled here and sent as one
  // job array, the panel saying the array's state as it goes, each
  // candidate measured and recorded as its task ends.
  void sweepsOnASlurmPartition() {
    QTemporaryDir folder;
    QProcess cluster;
    cluster.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    cluster.start(
        QStandardPaths::findExecutable("python3"),
        {QString::fromStdString(
             (test::sourceDir() / "tests/remote/local_cluster.py").string()),
         folder.path()});
    QVERIFY(cluster.waitForStarted());
    QByteArray said;
    while (!said.contains("PARTITION=") && cluster.waitForReadyRead(60000))
      said += cluster.readAllStandardOutput();
    QVERIFY2(said.contains("PARTITION="), said.constData());
    const QByteArray conf = said.split('\n').front().mid(11);
    qputenv("SLURM_CONF", conf);

    auto window = open(test::examplesDir() /
                       "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir");
    window->selectOp({0, 1});
    auto *sweep = window->findChild<widgets::SweepPanel *>("sweepPanel");
    QTRY_VERIFY_WITH_TIMEOUT(!sweep->planning(), 30000);
    sweep->setFromIreeSpace(false);
    const QString config =
        "#iree_cpu.lowering_config<cache_parallel = [%1, %1, 0], "
        "distribution = [%1, %1, 0], vector_common_parallel = [8, 8, 0], "
        "vector_reduction = [0, 0, 8]>";
    sweep->setAxes(
        {"lowering_config=" + config.arg(32) + "," + config.arg(64)});
    QTRY_VERIFY_WITH_TIMEOUT(!sweep->planning(), 30000);
    QCOMPARE(sweep->validCount(), 2);
    sweep->setTimed(true);
    auto *place = window->findChild<widgets::RunPlaceBox *>("sweepPlace");
    // Not a place: the panel says so and runs nothing.
    place->setCurrentText("slurm:");
    sweep->start();
    QVERIFY(!sweep->busy());
    auto *state = sweep->findChild<QLabel *>("sweepState");
    QVERIFY2(state->text().contains("needs a partition name"),
             qPrintable(state->text()));
    place->setCurrentText("slurm:tilescope");
    // Compiling on the cluster too, as an array of its own on the CPU
    // partition: a text that is not a partition is said first.
    auto *compileOn = sweep->findChild<QLineEdit *>("sweepCompileOn");
    QVERIFY(compileOn->isEnabled());
    compileOn->setText("cpu-nodes");
    sweep->start();
    QVERIFY(!sweep->busy());
    QVERIFY2(state->text().contains("Compile on takes slurm:PARTITION"),
             qPrintable(state->text()));
    compileOn->setText("slurm:tilescope-cpu");
    // The panel in view, for the screenshots.
    auto *dock = window->findChild<QDockWidget *>("sweepDock");
    dock->raise();
    window->resize(1920, 1300);
    window->resizeDocks({dock}, {560}, Qt::Vertical);
    QTest::qWait(50);
    QSignalSpy finished(sweep, &widgets::SweepPanel::finished);
    QStringList states;
    QStringList phases; // the rows' outcome cells while it runs
    bool shotWhileRunning = false;
    auto *results = window->findChild<QTableView *>("sweepResults");
    QTimer watch;
    connect(&watch, &QTimer::timeout, this, [&] {
      states.append(state->text());
      for (int row = 0; row < results->model()->rowCount(); ++row)
        phases.append(test::cell(results, row, 4));
      if (!shotWhileRunning && phases.contains("running")) {
        screenshot(*window, "sweep-panel-slurm-running");
        shotWhileRunning = true;
      }
    });
    watch.start(50);
    sweep->start();
    QVERIFY(sweep->busy());
    QVERIFY(finished.wait(300000));
    watch.stop();
    const QString summary = finished.front().at(1).toString();
    QVERIFY2(!finished.front().at(0).toBool() &&
                 summary.contains("Fastest measured"),
             qPrintable(summary));
    // Two arrays: the compiles', and the runs' waiting for them.
    QVERIFY2(
        states.filter(QRegularExpression("on slurm:tilescope: job \\d+,\\d+: "
                                         ".* compiling, .* of 2 done"))
                .size() > 0,
        qPrintable(states.join('\n')));
    // Each candidate's row said its task was queued or running on the
    // cluster before its result came.
    QVERIFY2(phases.contains("queued") || phases.contains("running"),
             qPrintable(phases.join(", ")));
    for (int row = 0; row < 2; ++row)
      QCOMPARE(test::cell(results, row, 4).section(' ', 0, 0), QString("ok"));
    screenshot(*window, "sweep-panel-slurm");
    auto history = tries::History::open(
        workspace.filePath("history.sqlite").toStdString());
    QVERIFY(history);
    tries::HistoryFilter filter;
    filter.outcome = "ok";
    auto rows = history->list(filter);
    QVERIFY(rows);
    int onSlurm = 0;
    for (const tries::TryRecord &row : *rows)
      onSlurm += row.where.on == "slurm:tilescope" &&
                 row.where.compiledOn == "slurm:tilescope-cpu";
    QCOMPARE(onSlurm, 2);
    qunsetenv("SLURM_CONF");
    cluster.closeWriteChannel();
    QVERIFY(cluster.waitForFinished(60000));
  }

  // Where IREE states no constraints (a reduction), the plan is the op's
  // neighbours in the table, and says why it is not IREE's.
  void fallsBackToTheValuesWhereIreeStatesNoConstraints() {
    auto window = open(test::examplesDir() /
                       "rocm_gfx942/reduce_middle_dispatch_0.benchmark.mlir");
    auto *sweep = window->findChild<widgets::SweepPanel *>("sweepPanel");
    QTRY_VERIFY_WITH_TIMEOUT(!sweep->planning(), 60000);
    const QString text = window->findChild<QLabel *>("sweepCount")->text();
    QVERIFY2(text.startsWith("Not from IREE's constraints (IREE states no "
                             "constraints for VectorDistribute on this op"),
             qPrintable(text));
    QVERIFY2(text.contains("): the values above.\n4 candidates"),
             qPrintable(text));
    QCOMPARE(sweep->plannedCount(), 4);
  }
};

QTEST_MAIN(SweepPanelTest)
#include "tst_sweep_panel.moc"
