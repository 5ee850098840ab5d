// The window's Tune panel, with the real IREE behind it: a CPU program of
// two matmul dispatches tuned from the panel fills the command line's table
// a row a dispatch, and the command line, run after it on the same
// workspace, resumes the same tune from the history with the same winners
// and outcomes: the window and the CLI give the same answer.
#include "WindowTestSupport.h"
#include "widgets/jobs/TunePanel.h"

#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace tilescope;

class TunePanelTest : public QObject {
  Q_OBJECT

  QTemporaryDir workspace;

  // The window on a CPU example, its workspace the test's.
  auto openWindow() {
    return test::openWindow(
        test::examplesDir() /
            "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir",
        test::windowServices(workspace.path()));
  }

private slots:
  void initTestCase() {
    QVERIFY(workspace.isValid());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("TilescopeTest");
    QCoreApplication::setApplicationName("TunePanelTest");
    QSettings().clear();
  }

  // A place that is not one keeps the tune from starting and says why,
  // as --on does.
  void aPlaceThatIsNotOneIsSaid() {
    auto window = openWindow();
    auto *panel = window->findChild<widgets::TunePanel *>("tunePanel");
    QVERIFY(panel);
    panel->setProgram(TILESCOPE_SOURCE_DIR "/tests/e2e/data/two_matmuls.mlir");
    panel->setTarget("llvm-cpu");
    panel->setPlace("ftp:gpu-box");
    QSignalSpy finished(panel, &widgets::TunePanel::finished);
    panel->start();
    QCOMPARE(finished.size(), 1);
    QVERIFY(!finished.front().at(0).toBool());
    const QString said = finished.front().at(1).toString();
    QVERIFY2(said.startsWith("run on: ") && said.contains("ftp:gpu-box"),
             qPrintable(said));
    QVERIFY(!panel->running());
    panel->setPlace("local");
  }

  void aProgramTunedInTheWindowIsTheOneTheCliTunes() {
    auto window = openWindow();
    auto *panel = window->findChild<widgets::TunePanel *>("tunePanel");
    QVERIFY(panel);
    window->findChild<QDockWidget *>("tuneDock")->raise();
    const QString program =
        TILESCOPE_SOURCE_DIR "/tests/e2e/data/two_matmuls.mlir";
    panel->setProgram(program);
    panel->setTarget("llvm-cpu");
    panel->setCandidates(3);
    QSignalSpy finished(panel, &widgets::TunePanel::finished);
    panel->start();
    QVERIFY(panel->running());
    QVERIFY(finished.wait(240000));
    QVERIFY2(finished.front().at(0).toBool(),
             qPrintable(finished.front().at(1).toString()));
    const QStandardItemModel *rows = panel->rows();
    QCOMPARE(rows->rowCount(), 2);
    for (int row = 0; row < 2; ++row) {
      QVERIFY(rows->item(row, 1)->text().startsWith("linalg.matmul "));
      QVERIFY(rows->item(row, 2)->text().endsWith("%")); // measured share
      QVERIFY(!rows->item(row, 6)->text().isEmpty());
    }
    QVERIFY2(panel->summary().contains("program, IREE's default:"),
             qPrintable(panel->summary()));
    test::windowScreenshot(*window, "tune-panel");

    // The CLI on the same workspace: everything from the history, the same
    // winners and outcomes the panel shows.
    QProcess cli;
    cli.start(TILESCOPE_BINARY_DIR "/app/tilescope-cli",
              {"tune", program, "--target", "llvm-cpu", "--workspace",
               workspace.path(), "--candidates", "3", "--json"});
    QVERIFY(cli.waitForFinished(240000));
    const QJsonObject tuned =
        QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    QCOMPARE(tuned["tries"].toInt(), 0);
    const QJsonArray dispatches = tuned["dispatches"].toArray();
    QCOMPARE(dispatches.size(), 2);
    for (int row = 0; row < 2; ++row) {
      const QJsonObject d = dispatches[row].toObject();
      QCOMPARE(rows->item(row, 6)->text(), d["outcome"].toString());
      QVERIFY(rows->item(row, 0)->toolTip().contains("winner: " +
                                                     d["winner"].toString()));
    }
  }
};

QTEST_MAIN(TunePanelTest)
#include "tst_tune_panel.moc"
