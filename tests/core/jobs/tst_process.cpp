// Child processes: output, exit codes, signals, timeouts, cancellation and a
// program that does not exist, each reported as data.
#include "core/jobs/Process.h"

#include <QtTest>
#include <csignal>
#include <thread>

using namespace tilescope::jobs;
using namespace std::chrono_literals;

class ProcessTest : public QObject {
  Q_OBJECT

private slots:
  void capturesOutputAndExitCode() {
    ProcessSpec spec;
    spec.program = "/bin/sh";
    spec.arguments = {"-c", "echo out; echo err >&2; exit 3"};
    const ProcessResult result = runProcess(spec);
    QVERIFY(result.outcome == ProcessResult::Outcome::Exited);
    QCOMPARE(result.exitCode, 3);
    QCOMPARE(result.standardOutput, std::string("out\n"));
    QCOMPARE(result.standardError, std::string("err\n"));
    QVERIFY(!result.succeeded());
    QCOMPARE(result.describe(), std::string("exited with 3"));
  }

  void passesEnvironmentAndWorkingDirectory() {
    ProcessSpec spec;
    spec.program = "/bin/sh";
    spec.arguments = {"-c", "echo \"$TILESCOPE_TEST_VALUE\"; pwd"};
    spec.environment["TILESCOPE_TEST_VALUE"] = "a b";
    spec.workingDirectory = "/tmp";
    const ProcessResult result = runProcess(spec);
    QVERIFY(result.succeeded());
    QCOMPARE(result.standardOutput, std::string("a b\n/tmp\n"));
  }

  void reportsACrashBySignal() {
    ProcessSpec spec;
    spec.program = "/bin/sh";
    spec.arguments = {"-c", "kill -SEGV $$"};
    const ProcessResult result = runProcess(spec);
    QVERIFY(result.outcome == ProcessResult::Outcome::Signaled);
    QCOMPARE(result.signal, SIGSEGV);
    QVERIFY(result.describe().find("signal 11") != std::string::npos);
  }

  void stopsAHungProcessAndItsChildren() {
    ProcessSpec spec;
    spec.program = "/bin/sh";
    spec.arguments = {"-c", "sleep 30 & sleep 30"};
    spec.timeout = 300ms;
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult result = runProcess(spec);
    QVERIFY(result.outcome == ProcessResult::Outcome::TimedOut);
    QVERIFY(std::chrono::steady_clock::now() - start < 10s);
    QVERIFY(result.describe().find("timed out") != std::string::npos);
  }

  void cancels() {
    std::atomic<bool> cancel = false;
    ProcessSpec spec;
    spec.program = "/bin/sleep";
    spec.arguments = {"30"};
    spec.cancel = &cancel;
    std::thread canceller([&] {
      std::this_thread::sleep_for(200ms);
      cancel = true;
    });
    const ProcessResult result = runProcess(spec);
    canceller.join();
    QVERIFY(result.outcome == ProcessResult::Outcome::Cancelled);
  }

  void missingProgramFailsToStart() {
    ProcessSpec spec;
    spec.program = "/nonexistent/iree-compile";
    const ProcessResult result = runProcess(spec);
    QVERIFY(result.outcome == ProcessResult::Outcome::FailedToStart);
    QVERIFY(result.describe().find("/nonexistent/iree-compile") !=
            std::string::npos);
  }

  void boundsOutput() {
    ProcessSpec spec;
    spec.program = "/bin/sh";
    spec.arguments = {"-c", "head -c 100000 /dev/zero"};
    spec.maximumOutputBytes = 1000;
    const ProcessResult result = runProcess(spec);
    QVERIFY(result.succeeded());
    QCOMPARE(result.standardOutput.size(), size_t(1000));
  }

  void shellCommandReproducesTheRun() {
    ProcessSpec spec;
    spec.program = "/usr/bin/iree-compile";
    spec.arguments = {"in put.mlir", "--flag=it's", "-o", "out.vmfb"};
    spec.environment["A"] = "1";
    QCOMPARE(spec.shellCommand(),
             std::string("A=1 /usr/bin/iree-compile 'in put.mlir' "
                         "'--flag=it'\\''s' -o out.vmfb"));
  }
};

QTEST_GUILESS_MAIN(ProcessTest)
#include "tst_process.moc"
