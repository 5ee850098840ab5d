// tilescope-cli killed while its children work: SIGTERM, SIGINT and SIGHUP
// stop the compile (or the timed run and its tools) and record the try as
// interrupted; SIGKILL, which nothing can catch, still takes the children
// with it (they die with their parent). Nothing of the try keeps running.
#include "CliRunner.h"
#include "TestSupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace tilescope;
using test::cli;
using test::kExamples;

namespace {

// The processes (other than `except`) whose command line mentions `text` or
// that work in a folder under it (iree-compile runs in its try folder).
QList<qint64> processesMentioning(const QString &text, qint64 except = 0) {
  QList<qint64> found;
  for (const QString &entry : QDir("/proc").entryList(QDir::Dirs)) {
    bool number = false;
    const qint64 pid = entry.toLongLong(&number);
    if (!number || pid == except)
      continue;
    QFile cmdline("/proc/" + entry + "/cmdline");
    if (!cmdline.open(QIODevice::ReadOnly))
      continue;
    QByteArray line = cmdline.readAll();
    line.replace('\0', ' ');
    // A zombie has an empty command line and no folder.
    if (QString::fromUtf8(line).contains(text) ||
        QFile::symLinkTarget("/proc/" + entry + "/cwd").startsWith(text))
      found << pid;
  }
  return found;
}

// Waits up to `ms` for `condition`.
template <typename Condition> bool within(int ms, Condition condition) {
  QElapsedTimer timer;
  timer.start();
  while (timer.elapsed() < ms) {
    if (condition())
      return true;
    QThread::msleep(50);
  }
  return condition();
}

} // namespace

class CliKillsTest : public QObject {
  Q_OBJECT

  QTemporaryDir scratch;
  QString runaway;

  // The cli started on `arguments`, once a process of `tool` runs for it.
  std::unique_ptr<QProcess> startAndWaitFor(const QStringList &arguments,
                                            const QString &tool,
                                            const QString &workspace) {
    auto process = std::make_unique<QProcess>();
    process->start(TILESCOPE_BINARY_DIR "/app/tilescope-cli", arguments);
    if (!process->waitForStarted())
      return nullptr;
    const bool running = within(60000, [&] {
      for (qint64 pid : processesMentioning(workspace, process->processId()))
        if (QFile::symLinkTarget("/proc/" + QString::number(pid) + "/exe")
                .endsWith(tool)) {
          qInfo("%s runs as process %lld", qPrintable(tool), pid);
          return true;
        }
      return false;
    });
    return running ? std::move(process) : nullptr;
  }

private slots:
  void initTestCase() {
    // Swapping the reduction's lane_basis mapping makes the pinned
    // iree-compile grind for about a minute.
    runaway = scratch.filePath("runaway.mlir");
    auto set =
        cli({"set-config",
             kExamples +
                 "rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir",
             "--op", "0:0", "--set", "lane_basis=[[1, 64], [1, 0]]", "-o",
             runaway});
    QCOMPARE(set.exitCode, 0);
  }

  void aSignalStopsTheCompileAndRecordsIt_data() {
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGINT") << int(SIGINT);
    QTest::newRow("SIGHUP") << int(SIGHUP);
  }
  void aSignalStopsTheCompileAndRecordsIt() {
    QFETCH(int, signal);
    const QString workspace = scratch.filePath("ws-" + QString::number(signal));
    auto process =
        startAndWaitFor({"compile", runaway, "--workspace", workspace},
                        "iree-compile", workspace);
    QVERIFY2(process, "iree-compile never started");
    ::kill(static_cast<pid_t>(process->processId()), signal);
    QVERIFY(process->waitForFinished(15000));
    QCOMPARE(process->exitCode(), 128 + signal);
    // Nothing of the try runs on.
    QVERIFY(
        within(5000, [&] { return processesMentioning(workspace).isEmpty(); }));
    auto history = cli({"history", "--workspace", workspace, "--json"});
    const QJsonArray rows =
        QJsonDocument::fromJson(history.out.toUtf8()).array();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0]["outcome"].toString(), QString("interrupted"));
    QVERIFY(rows[0]["summary"].toString().startsWith("interrupted by "));
  }

  // SIGKILL cannot be caught: the children go with their parent.
  void aKilledCliTakesItsCompileWithIt() {
    const QString workspace = scratch.filePath("ws-kill");
    auto process =
        startAndWaitFor({"compile", runaway, "--workspace", workspace},
                        "iree-compile", workspace);
    QVERIFY2(process, "iree-compile never started");
    process->kill();
    QVERIFY(process->waitForFinished(5000));
    QVERIFY2(
        within(5000, [&] { return processesMentioning(workspace).isEmpty(); }),
        "a child of the killed tilescope-cli still runs");
  }

  // A timed run goes through the bundle's run.sh and the runtime's tools:
  // killing the cli stops both.
  void aKilledCliTakesItsTimedRunWithIt() {
    const QString workspace = scratch.filePath("ws-bench");
    auto process = startAndWaitFor(
        {"bench",
         kExamples + "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir",
         "--repetitions", "1000", "--workspace", workspace},
        "iree-benchmark-module", workspace);
    QVERIFY2(process, "iree-benchmark-module never started");
    process->kill();
    QVERIFY(process->waitForFinished(5000));
    QVERIFY2(
        within(5000, [&] { return processesMentioning(workspace).isEmpty(); }),
        "run.sh or iree-benchmark-module outlived the killed tilescope-cli");
  }

  // A kill leaves its temporary folders (a parse's copy of the file, a
  // constraint check's): the next Tilescope to start removes those of
  // processes that are gone, and only those.
  void theNextStartRemovesWhatAKillLeft() {
    QTemporaryDir temporary;
    const pid_t dead = ::fork();
    if (dead == 0)
      ::_exit(0);
    ::waitpid(dead, nullptr, 0);
    const QString stale =
        temporary.filePath(QString("tilescope-parse-%1-Ab3xYz").arg(dead));
    const QString live = temporary.filePath(
        QString("tilescope-constraints-%1-Qr5sTu").arg(::getpid()));
    const QString foreign = temporary.filePath("somebody-else-1-Ab3xYz");
    for (const QString &folder : {stale, live, foreign}) {
      QVERIFY(QDir().mkpath(folder));
      QFile file(folder + "/input.mlir");
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write("module {}\n");
    }
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("TMPDIR", temporary.path());
    process.setProcessEnvironment(environment);
    process.start(TILESCOPE_BINARY_DIR "/app/tilescope-cli", {"--help"});
    QVERIFY(process.waitForFinished(30000));
    QVERIFY(!QFile::exists(stale));
    QVERIFY(QFile::exists(live));
    QVERIFY(QFile::exists(foreign));
  }
};

QTEST_GUILESS_MAIN(CliKillsTest)
#include "tst_cli_kills.moc"
