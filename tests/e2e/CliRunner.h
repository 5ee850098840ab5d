// Runs the built tilescope-cli as a user does, for the e2e tests.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace tilescope::test {

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
  process.waitForFinished(120000);
  return {process.exitCode(),
          QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

// What a run said, for a failed check's message.
inline QString failure(const CliRun &run) {
  return "exit " + QString::number(run.exitCode) + "\n" + run.out + "\n" +
         run.err;
}

} // namespace tilescope::test
