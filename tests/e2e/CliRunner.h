// Runs the built tilescope-cli as a user does, for the e2e tests.
#pragma once

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace tilescope::test {

// The project's examples folder, with its trailing slash.
inline const QString kExamples = TILESCOPE_SOURCE_DIR "/examples/";

struct CliRun {
  int exitCode = -1;
  QString out, err;
};

// `withoutIree`: TILESCOPE_IREE_DIR points nowhere (the commands that need
// no IREE must work so).
inline CliRun cli(const QStringList &arguments, bool withoutIree = false) {
  QProcess process;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert("QT_QPA_PLATFORM", "offscreen");
  if (withoutIree)
    environment.insert("TILESCOPE_IREE_DIR", "/nonexistent/iree");
  process.setProcessEnvironment(environment);
  process.start(TILESCOPE_BINARY_DIR "/app/tilescope-cli", arguments);
  // A command still running is a failure that says so: QProcess's exit code
  // of an unfinished (or crashed) process reads 0, which passed for success
  // with half its output (a tune slowed by tests beside it, past 120 s).
  constexpr int kSeconds = 600;
  if (!process.waitForFinished(kSeconds * 1000)) {
    process.kill();
    process.waitForFinished(10000);
    return {-1, QString::fromUtf8(process.readAllStandardOutput()),
            QString("tilescope-cli still running after %1 s: killed\n")
                    .arg(kSeconds) +
                QString::fromUtf8(process.readAllStandardError())};
  }
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode()
                                                       : -1,
          QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

// What a run said, for a failed check's message.
inline QString failure(const CliRun &run) {
  return "exit " + QString::number(run.exitCode) + "\n" + run.out + "\n" +
         run.err;
}

// What a `--json` run printed, as an object (empty where it printed none).
inline QJsonObject jsonOf(const CliRun &run) {
  return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

} // namespace tilescope::test
