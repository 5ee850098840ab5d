// tilescope-cli as a new user meets it: exit codes that say what went
// wrong, help and version that name the command, set-config that writes
// only what the rules accept (and takes a value already there as nothing
// to do), configure and verify that find a program's device where it is,
// export-spec that says when the program is not the dispatch's, and a
// checked run's folder that reproduces it.
#include "CliRunner.h"
#include "TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace tilescope;
using test::cli;
using test::failure;
using test::kExamples;

namespace {

const QString kMatmul =
    kExamples + "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";
const QString kReduction =
    kExamples + "rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir";

QByteArray hashOf(const QString &path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    return {};
  return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

QString copyOf(const QString &from, const QString &to) {
  QFile::remove(to);
  QFile::copy(from, to);
  QFile(to).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
  return to;
}

} // namespace

class CliNewUserTest : public QObject {
  Q_OBJECT

  QTemporaryDir scratch;

private slots:
  // Exit codes, the same for every command: 4 for a file that is missing,
  // a folder or not MLIR; 4 for a try that does not exist, 2 for one that
  // is not a number.
  void badFilesAndTriesGiveTheDocumentedCodes() {
    const QString garbage = scratch.filePath("garbage.mlir");
    QFile file(garbage);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("this is not MLIR {{{\n");
    file.close();
    for (const QString &bad :
         {scratch.filePath("missing.mlir"), scratch.path(), garbage}) {
      for (const char *command : {"dispatches", "show", "check"}) {
        QStringList arguments = {command, bad};
        if (QString(command) != "dispatches")
          arguments << "--op"
                    << "0:0";
        auto run = cli(arguments);
        QVERIFY2(run.exitCode == 4, qPrintable(QString(command) + " " + bad +
                                               ": " + failure(run)));
        // With --json, stdout is JSON even so: the error and the code.
        auto asJson = cli(arguments << "--json");
        QCOMPARE(asJson.exitCode, 4);
        const QJsonObject answer =
            QJsonDocument::fromJson(asJson.out.toUtf8()).object();
        QVERIFY2(
            answer["exit_code"].toInt() == 4 &&
                answer["error"].toString().contains(QFileInfo(bad).fileName()),
            qPrintable(QString(command) + " " + bad + ": " + asJson.out));
        QVERIFY(!asJson.err.isEmpty()); // the words stay on stderr too
      }
    }
    const QString workspace = scratch.filePath("ws-compare");
    auto compared = cli({"compare", "4", "99", "--workspace", workspace});
    QCOMPARE(compared.exitCode, 4);
    QVERIFY(compared.err.contains("99"));
    QCOMPARE(cli({"compare", "four", "99", "--workspace", workspace}).exitCode,
             2);
  }

  void helpNamesTheCommandAndVersionAnswers() {
    for (const char *command : {"sweep", "bench", "set-config", "bundle"}) {
      auto help = cli({command, "--help"});
      QCOMPARE(help.exitCode, 0);
      QVERIFY2(
          help.out.startsWith(QString("Usage: tilescope-cli ") + command + " "),
          qPrintable(help.out.left(80)));
    }
    auto version = cli({"--version"});
    QCOMPARE(version.exitCode, 0);
    QVERIFY(version.out.startsWith("tilescope-cli "));
    QVERIFY(version.out.contains("IREE 3.13"));
  }

  // An edit the rules call an error is not written unless forced; a value
  // the field already holds is nothing to do.
  void setConfigWritesOnlyWhatTheRulesAccept() {
    const QString file = copyOf(kReduction, scratch.filePath("reduction.mlir"));
    const QByteArray before = hashOf(file);
    for (const QString &bad :
         {QString("thread=[0, -8]"), QString("lane_basis=[[1, 64], [0, 7]]")}) {
      auto refused =
          cli({"set-config", file, "--op", "0:0", "--set", bad, "--in-place"});
      QCOMPARE(refused.exitCode, 1);
      QVERIFY2(refused.err.contains("nothing written"),
               qPrintable(failure(refused)));
      QVERIFY2(refused.err.contains("--force"), qPrintable(failure(refused)));
      // Nothing printed in the file's place either.
      QVERIFY2(refused.out.isEmpty(), qPrintable(refused.out.left(200)));
      QCOMPARE(hashOf(file), before);
      auto refusedTo = cli({"set-config", file, "--op", "0:0", "--set", bad,
                            "-o", scratch.filePath("out.mlir"), "--json"});
      QCOMPARE(refusedTo.exitCode, 1);
      const QJsonObject held =
          QJsonDocument::fromJson(refusedTo.out.toUtf8()).object();
      QVERIFY(held["held_for_errors"].toBool());
      QVERIFY2(!held.contains("text"), qPrintable(refusedTo.out.left(300)));
      QVERIFY(!QFile::exists(scratch.filePath("out.mlir")));
    }
    auto forced = cli({"set-config", file, "--op", "0:0", "--set",
                       "thread=[0, -8]", "--in-place", "--force"});
    QCOMPARE(forced.exitCode, 1); // written, problems found
    QVERIFY(hashOf(file) != before);

    // The value the field holds already: a no-op, not a refusal, and the
    // other --set still applies.
    const QString again = copyOf(kMatmul, scratch.filePath("matmul.mlir"));
    auto same = cli({"set-config", again, "--op", "0:0", "--set",
                     "workgroup=[64, 128, 0]", "--set", "reduction=[0, 0, 4]",
                     "--in-place", "--json"});
    QVERIFY2(same.exitCode == 0, qPrintable(failure(same)));
    const QJsonObject out = QJsonDocument::fromJson(same.out.toUtf8()).object();
    QCOMPARE(out["unchanged"].toArray().size(), 1);
    QCOMPARE(out["edits"].toArray().size(), 1);
    QFile written(again);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QVERIFY(written.readAll().contains("reduction = [0, 0, 4]"));
  }

  // A program's dispatches are formed by configure: dispatches says so;
  // configure supplies sm_90, which IREE 3.13 cannot name, and needs no
  // --target for a source that names its devices.
  void configureFindsTheDevice() {
    const QString source = kExamples + "sources/matmul_f16_1024.mlir";
    auto listed = cli({"dispatches", source});
    QCOMPARE(listed.exitCode, 0);
    QVERIFY(listed.out.contains("0 dispatches"));
    QVERIFY(listed.out.contains("tilescope-cli configure"));

    const QString out = scratch.filePath("mm.sm_90.mlir");
    auto sm90 = cli({"configure", source, "--target", "sm_90", "-o", out});
    QVERIFY2(sm90.exitCode == 0, qPrintable(failure(sm90)));
    QVERIFY(sm90.out.contains("Tilescope's sm_90 target"));
    // IREE's locations still name the source, line for line.
    QVERIFY2(sm90.out.contains("from " + source + ":7:"), qPrintable(sm90.out));

    const QString own = scratch.filePath("own-device.mlir");
    QFile device(TILESCOPE_SOURCE_DIR
                 "/examples/targets/cuda_sm_90.device.mlir");
    QFile program(source);
    QVERIFY(device.open(QIODevice::ReadOnly) &&
            program.open(QIODevice::ReadOnly));
    QFile wrapped(own);
    QVERIFY(wrapped.open(QIODevice::WriteOnly));
    wrapped.write("module attributes {hal.device.targets = [" +
                  device.readAll().trimmed() + "]} {\n" + program.readAll() +
                  "}\n");
    wrapped.close();
    auto withoutTarget =
        cli({"configure", own, "-o", scratch.filePath("own.configured.mlir")});
    QVERIFY2(withoutTarget.exitCode == 0, qPrintable(failure(withoutTarget)));
    QVERIFY(withoutTarget.out.contains("the source's hal.device.targets"));
    // With a --target too, the source's own devices win.
    auto both = cli({"configure", own, "--target", "gfx942", "-o",
                     scratch.filePath("own2.configured.mlir")});
    QVERIFY2(both.exitCode == 0, qPrintable(failure(both)));
    QVERIFY(both.out.contains("the source's hal.device.targets"));

    // verify with that program: its device is found, not "names no device
    // target"; the sm_90 module compiles and cannot run here (exit 5).
    auto verified =
        cli({"verify",
             kExamples + "cuda_sm_90/matmul_f16_1024_dispatch_0."
                         "benchmark.mlir",
             "--program", own, "--workspace", scratch.filePath("ws-verify")});
    QVERIFY2(verified.exitCode == 5, qPrintable(failure(verified)));
    QVERIFY(!verified.err.contains("names no device target"));
    // Its try folder reproduces it.
    auto history = cli(
        {"history", "--workspace", scratch.filePath("ws-verify"), "--json"});
    const QJsonArray rows =
        QJsonDocument::fromJson(history.out.toUtf8()).array();
    QCOMPARE(rows.size(), 1);
    const QString folder = rows[0]["directory"].toString();
    QFile script(folder + "/command.sh");
    QVERIFY2(script.open(QIODevice::ReadOnly), qPrintable(folder));
    const QByteArray commands = script.readAll();
    QVERIFY(commands.contains("iree-compile"));
    QVERIFY(
        commands.contains("--iree-hal-substitute-executable-configuration"));
  }

  // A spec proved on a program that does not hold the dispatch says so.
  void exportSpecNamesAProgramWithoutTheDispatch() {
    auto unrelated =
        cli({"export-spec", kMatmul, "-o", scratch.filePath("spec.mlir"),
             "--program", kExamples + "sources/matmul_f32_small.mlir"});
    QCOMPARE(unrelated.exitCode, 1);
    QVERIFY2(unrelated.out.contains("not in "), qPrintable(unrelated.out));
    QVERIFY(!unrelated.out.contains("IREE's config differs"));
  }

  // A read of a workspace that does not exist (a typo) makes nothing: an
  // empty listing and a note, no folder, no database.
  void aHistoryReadCreatesNothing() {
    const QString typo = scratch.filePath("typo/ws");
    auto listed = cli({"history", "--workspace", typo, "--json"});
    QVERIFY2(listed.exitCode == 0, qPrintable(failure(listed)));
    QCOMPARE(listed.out.trimmed(), QString("[]"));
    QVERIFY2(listed.err.contains("no history at"), qPrintable(listed.err));
    auto shown = cli({"history", "--workspace", typo, "--show", "1"});
    QVERIFY(shown.exitCode != 0);
    auto compared = cli({"compare", "1", "2", "--workspace", typo});
    QVERIFY(compared.exitCode != 0);
    QVERIFY(!QFileInfo::exists(scratch.filePath("typo")));
  }
};

QTEST_GUILESS_MAIN(CliNewUserTest)
#include "tst_cli_new_user.moc"
