// Child processes: output, exit codes, signals, timeouts, cancellation and a
// program that does not exist, each reported as data; and a child kept to
// answer requests (ServingProcess), whose end is an answer too; inputs that
// crashed a tool kept once each, the oldest going past a bound.
#include "core/process/FolderLock.h"
#include "core/process/Process.h"
#include "core/process/ServingProcess.h"
#include "core/process/Workspace.h"
#include "core/util/Files.h"

#include <QtTest>
#include <csignal>
#include <thread>

using namespace tilescope::process;
using namespace std::chrono_literals;

namespace {

// `script` run by `shell` under a one-second stall window.
ProcessResult runWatched(const char *shell, const char *script) {
  ProcessSpec spec;
  spec.program = shell;
  spec.arguments = {"-c", script};
  spec.stallTimeout = 1s;
  return runProcess(spec);
}

} // namespace

class ProcessTest : public QObject {
  Q_OBJECT

private slots:
  // One holder at a time: a second is refused naming the first's process,
  // and the folder is free again once the first lets go (or dies).
  void aFolderLockHasOneHolder() {
    QTemporaryDir dir;
    const std::filesystem::path folder = dir.path().toStdString();
    {
      auto first = FolderLock::acquire(folder, "a tune of mlp.mlir");
      QVERIFY2(first.ok(), first.ok() ? "" : first.error().c_str());
      auto second = FolderLock::acquire(folder, "a tune of mlp.mlir");
      QVERIFY(!second.ok());
      QVERIFY2(
          second.error().find("a tune of mlp.mlir is running already") !=
                  std::string::npos &&
              second.error().find("process " + std::to_string(::getpid())) !=
                  std::string::npos,
          second.error().c_str());
    }
    QVERIFY(FolderLock::acquire(folder, "a tune").ok());
  }

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

  // ProcessSpec::stallTimeout: a process that does nothing (a deadlock) is
  // stopped long before its timeout, and started again as often as asked.
  void stopsAProcessThatDoesNothingAsHung() {
    ProcessSpec spec;
    spec.program = "/bin/sleep";
    spec.arguments = {"30"};
    spec.timeout = 60s;
    spec.stallTimeout = 1s;
    spec.stallRetries = 1;
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult result = runProcess(spec);
    QVERIFY(result.outcome == ProcessResult::Outcome::TimedOut);
    QVERIFY(result.stalled);
    QCOMPARE(result.stalledRuns, 1); // once more, hung again
    QVERIFY(std::chrono::steady_clock::now() - start < 20s);
    QVERIFY2(result.describe().starts_with("hung: it used no CPU for 1 s"),
             result.describe().c_str());
  }

  // Neither a process at work nor one waiting on a child of its own is
  // hung.
  void aBusyProcessOrAWaitingParentIsNotHung() {
    // $SECONDS: three seconds at work
    const ProcessResult worked = runWatched(
        "/bin/bash",
        "end=$((SECONDS + 3)); while [ $SECONDS -lt $end ]; do :; done");
    QVERIFY2(worked.succeeded(), worked.describe().c_str());
    QVERIFY(worked.elapsed > 1500ms); // long enough to have been watched

    const ProcessResult waited = runWatched("/bin/sh", "sleep 3; exit 0");
    QVERIFY2(waited.succeeded(), waited.describe().c_str());
    QCOMPARE(waited.stalledRuns, 0);

    // Idle for less than the window once its child has ended, then done:
    // the sample that first sees it idle comes a second after the last
    // busy one, which is not a second of idleness (this was called hung
    // whenever that sample fell inside the pause).
    const ProcessResult paused =
        runWatched("/bin/sh", "sleep 2.5; exec sleep 0.7");
    QVERIFY2(paused.succeeded(), paused.describe().c_str());
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

  // A line in, a line out, the same process throughout; stderr said during
  // a request belongs to it.
  void servingProcessAnswersLineByLine() {
    ProcessSpec spec;
    spec.program = "/bin/sh";
    spec.arguments = {
        "-c", "while read l; do echo \"said $l\" >&2; echo \"got $l\"; done"};
    auto started = ServingProcess::start(spec);
    QVERIFY(started.ok());
    ServingProcess &process = **started;
    for (const std::string word : {"one", "two", "three"}) {
      const ServingProcess::Answer answer = process.ask(word, 5s);
      QVERIFY(answer.answered);
      QCOMPARE(answer.line, "got " + word);
      QCOMPARE(answer.standardError, "said " + word + "\n");
    }
    QCOMPARE(process.answered(), 3);
    QVERIFY(process.running());
  }

  // A child that dies mid-request: how it ended, its last words, and no
  // SIGPIPE for the caller when it is asked again.
  void servingProcessEndingIsAnAnswer() {
    ProcessSpec spec;
    spec.program = "/bin/sh";
    spec.arguments = {"-c", "read l; echo \"dying on $l\" >&2; kill -SEGV $$"};
    auto started = ServingProcess::start(spec);
    QVERIFY(started.ok());
    ServingProcess &process = **started;
    const ServingProcess::Answer answer = process.ask("x", 5s);
    QVERIFY(!answer.answered);
    QVERIFY(answer.ending.outcome == ProcessResult::Outcome::Signaled);
    QCOMPARE(answer.ending.signal, SIGSEGV);
    QCOMPARE(answer.standardError, std::string("dying on x\n"));
    QVERIFY(!process.running());
    QVERIFY(!process.tell("again"));
    QVERIFY(!process.ask("again", 1s).answered);

    spec.arguments = {"-c", "exec 0<&-; sleep 0.2; exit 4"};
    auto closing = ServingProcess::start(spec);
    QVERIFY(closing.ok());
    std::this_thread::sleep_for(50ms);
    const ServingProcess::Answer closed = (*closing)->ask("x", 5s);
    QVERIFY(!closed.answered);
    QVERIFY(closed.ending.outcome == ProcessResult::Outcome::Exited);
    QCOMPARE(closed.ending.exitCode, 4);
  }

  void servingProcessTimesOutAndCancels() {
    ProcessSpec spec;
    spec.program = "/bin/sh";
    spec.arguments = {"-c", "read l; sleep 30"};
    auto started = ServingProcess::start(spec);
    QVERIFY(started.ok());
    const auto start = std::chrono::steady_clock::now();
    const ServingProcess::Answer late = (*started)->ask("x", 300ms);
    QVERIFY(!late.answered);
    QVERIFY(late.ending.outcome == ProcessResult::Outcome::TimedOut);
    QVERIFY(std::chrono::steady_clock::now() - start < 10s);
    QVERIFY(!(*started)->running());

    auto again = ServingProcess::start(spec);
    QVERIFY(again.ok());
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
      std::this_thread::sleep_for(200ms);
      cancel = true;
    });
    const ServingProcess::Answer cancelled = (*again)->ask("x", 30s, &cancel);
    canceller.join();
    QVERIFY(!cancelled.answered);
    QVERIFY(cancelled.ending.outcome == ProcessResult::Outcome::Cancelled);
  }

  void servingProcessMissingProgramSaysSo() {
    ProcessSpec spec;
    spec.program = "/nonexistent/server";
    auto started = ServingProcess::start(spec);
    QVERIFY(!started.ok());
    QVERIFY2(started.error().find("/nonexistent/server") != std::string::npos,
             started.error().c_str());
  }

  // The same input crashing again (a file checked again, an edit undone) finds
  // its kept copy instead of writing another; past the bound, the least
  // recently crashed go, and one that crashed again stays.
  void aCrashingInputIsKeptOnce() {
    auto workspace = tilescope::TemporaryDirectory::create("tilescope-test");
    QVERIFY(workspace.ok());
    auto input = [&](int n) {
      const auto path =
          workspace->file("crash-probe-" + std::to_string(n) + ".mlir");
      if (!tilescope::writeFileAtomically(
              path, "module { // input " + std::to_string(n % 4) + "\n}\n"))
        qFatal("cannot write %s", path.c_str());
      return path;
    };
    const auto root = workspace->path();
    auto first = keepCrashReproducer(input(0), root, 3);
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().c_str());
    // Input 4 holds what input 0 held: the copy kept for 0.
    auto again = keepCrashReproducer(input(4), root, 3);
    QVERIFY(again.ok());
    QCOMPARE(again->string(), first->string());
    for (int n = 1; n <= 3; ++n) {
      std::this_thread::sleep_for(20ms); // the clock orders the folders
      QVERIFY(keepCrashReproducer(input(n), root, 3).ok());
    }
    // Four different inputs, three kept: input 0's copy, the least recently
    // crashed, went.
    size_t folders = 0;
    for (const auto &entry :
         std::filesystem::directory_iterator(root / "crashes"))
      folders += entry.is_directory();
    QCOMPARE(folders, size_t(3));
    QVERIFY(!std::filesystem::exists(*first));
    auto back = keepCrashReproducer(input(8), root, 3);
    QVERIFY(back.ok());
    QCOMPARE(*tilescope::readTextFile(*back),
             std::string("module { // input 0\n}\n"));
  }
};

QTEST_GUILESS_MAIN(ProcessTest)
#include "tst_process.moc"
