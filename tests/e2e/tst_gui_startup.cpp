// The real `tilescope` executable starts on the offscreen platform, opens an
// example (the bundled one when given no file), lists its dispatches and exits
// 0.
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class GuiStartupTest : public QObject {
  Q_OBJECT

  QString executable() const { return TILESCOPE_BINARY_DIR "/app/tilescope"; }

  void runAndScreenshot(const QStringList &arguments, bool expectSuccess) {
    QTemporaryDir dir;
    const QString png = dir.filePath("window.png");
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    process.setProcessEnvironment(environment);
    process.start(executable(), QStringList{"--screenshot", png} + arguments);
    QVERIFY2(process.waitForFinished(60000), "tilescope did not exit");
    const QString errors =
        QString::fromLocal8Bit(process.readAllStandardError());
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode() == 0, expectSuccess);
    if (!expectSuccess) {
      QVERIFY2(errors.contains("nonexistent.mlir"), qPrintable(errors));
      return;
    }
    QImage image(png);
    QVERIFY2(!image.isNull(), qPrintable(errors));
    QVERIFY(image.width() >= 800 && image.height() >= 600);
  }

private slots:
  void opensTheBundledExample() { runAndScreenshot({}, true); }

  void opensAGivenFile() {
    runAndScreenshot(
        {TILESCOPE_SOURCE_DIR
         "/examples/cuda_sm_90/softmax_f32_dispatch_0.benchmark.mlir"},
        true);
  }

  void aMissingFileIsReportedNotFatal() {
    runAndScreenshot({"/nonexistent/nonexistent.mlir"}, false);
  }
};

QTEST_GUILESS_MAIN(GuiStartupTest)
#include "tst_gui_startup.moc"
