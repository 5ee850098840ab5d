// The real `tilescope` executable starts on the offscreen platform, opens an
// example (the bundled one when given no file), lists its dispatches and exits
// 0.
#include <QDir>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class GuiStartupTest : public QObject {
  Q_OBJECT

  QString executable() const { return TILESCOPE_BINARY_DIR "/app/tilescope"; }

  // Returns what the window listed (its dispatch list, printed on stdout).
  QTemporaryDir workspace; // the app's tries and kept edits

  QString runAndScreenshot(const QStringList &arguments, bool expectSuccess,
                           const QString &expectedError = "nonexistent.mlir") {
    QTemporaryDir dir;
    const QString png = dir.filePath("window.png");
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    environment.insert("TILESCOPE_WORKSPACE", workspace.path());
    process.setProcessEnvironment(environment);
    process.start(executable(), QStringList{"--screenshot", png} + arguments);
    if (!process.waitForFinished(60000)) {
      process.kill();
      [] { QFAIL("tilescope did not exit within a minute"); }();
      return {};
    }
    const QString errors =
        QString::fromLocal8Bit(process.readAllStandardError());
    const QString listed =
        QString::fromLocal8Bit(process.readAllStandardOutput());
    [&] {
      QCOMPARE(process.exitStatus(), QProcess::NormalExit);
      QCOMPARE(process.exitCode() == 0, expectSuccess);
      if (!expectSuccess) {
        QVERIFY2(errors.contains(expectedError), qPrintable(errors));
        return;
      }
      QImage image(png);
      QVERIFY2(!image.isNull(), qPrintable(errors));
      QVERIFY(image.width() >= 800 && image.height() >= 600);
    }();
    return listed;
  }

private slots:
  void opensTheBundledExample() {
    const QString listed = runAndScreenshot({}, true);
    QVERIFY2(listed.contains("dispatch matmul_f16_1024_dispatch_0") &&
                 listed.contains("(TileAndFuse, rocm gfx942)"),
             qPrintable(listed));
  }

  void opensAGivenFile() {
    const QString listed = runAndScreenshot(
        {TILESCOPE_SOURCE_DIR
         "/examples/cuda_sm_90/softmax_f32_dispatch_0.benchmark.mlir"},
        true);
    // One dispatch and its three configured ops, the root op marked.
    QVERIFY2(listed.startsWith("dispatch softmax_f32_dispatch_0") &&
                 listed.count("\n  linalg.generic") == 3 &&
                 listed.contains("(root op, set 0)"),
             qPrintable(listed));
  }

  void aMissingFileIsReportedNotFatal() {
    runAndScreenshot({"/nonexistent/nonexistent.mlir"}, false);
  }

  // --op, --set and --view put the window in a state before the picture:
  // the op selected, its field edited (the list marks it), the view shown.
  void putsTheWindowInAState() {
    const QString listed = runAndScreenshot(
        {"--op", "0:0", "--set", "reduction=[0, 0, 16]", "--view", "swizzle"},
        true);
    QVERIFY2(listed.contains("✎"), qPrintable(listed));
    // A scripted picture's edits are not kept for recovery.
    QVERIFY(
        !QDir(workspace.filePath("recovery")).exists() ||
        QDir(workspace.filePath("recovery")).entryList(QDir::Files).isEmpty());
    // What cannot be done fails the screenshot, naming the option.
    runAndScreenshot({"--set", "reduction=[0, 0"}, false, "--set reduction=");
    // What IREE refuses is refused, as set-config refuses it.
    runAndScreenshot({"--op", "0:0", "--set", "workgroup=[64, abc, 0]"}, false,
                     "IREE refuses");
    runAndScreenshot({"--op", "7:0"}, false, "--op 7:0");
    QProcess process;
    process.start(executable(), {"--view", "nothing", "--screenshot", "x.png"});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardError().contains("one of layouts"));
    process.start(executable(), {"--version"});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    QVERIFY(process.readAllStandardOutput().startsWith("Tilescope 0."));
  }

  // --split-k TARGET: the picture waits for IREE's answer; a target IREE
  // has no backend for fails it with IREE's words.
  void showsTheSplitKTabAnswered() {
    const QString program =
        TILESCOPE_SOURCE_DIR "/examples/sources/split_k_program.mlir";
    runAndScreenshot({program, "--split-k", "gfx942"}, true);
    runAndScreenshot({program, "--split-k", "tpu7"}, false,
                     "unknown compile target 'tpu7'");
  }

  // With no display and no screenshot asked for, the window cannot open:
  // say so (not Qt's plugin abort). With no XDG_RUNTIME_DIR, no warning.
  void noDisplayIsSaidPlainly() {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char *name :
         {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"})
      environment.remove(name);
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(executable(), {});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 1);
    const QString errors =
        QString::fromLocal8Bit(process.readAllStandardError());
    QVERIFY2(errors.startsWith("tilescope: no display") &&
                 errors.contains("scripts/tilescope.sh run"),
             qPrintable(errors));

    QTemporaryDir dir;
    process.start(executable(), {"--screenshot", dir.filePath("window.png")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    const QString screenshotErrors =
        QString::fromLocal8Bit(process.readAllStandardError());
    QVERIFY2(!screenshotErrors.contains("XDG_RUNTIME_DIR"),
             qPrintable(screenshotErrors));
    QVERIFY(!QImage(dir.filePath("window.png")).isNull());
  }
};

QTEST_GUILESS_MAIN(GuiStartupTest)
#include "tst_gui_startup.moc"
