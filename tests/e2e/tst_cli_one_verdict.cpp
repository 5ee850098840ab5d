// One verdict: a sweep's plan calls a candidate valid exactly when `check`
// of the same edit finds no error, and carries the same problems (warnings
// included). Seeded random edits of the sm_90 reduction and the gfx942
// matmul, each made two ways with the built tilescope-cli: `sweep --plan`
// with the values as its axes, and `set-config --force` then `check`.
#include "CliRunner.h"
#include "RandomEdits.h"
#include "TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <functional>

using namespace tilescope;
using test::cli;
using test::Edit;
using test::failure;
using test::kExamples;
using test::matmulEdit;
using test::reductionEdit;

namespace {

const QString kReduction =
    kExamples + "cuda_sm_90/reduction_4x6656x16384_dispatch_0.benchmark.mlir";
const QString kMatmul =
    kExamples + "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";

// "severity rule field" of each problem, in order.
QStringList problemKeys(const QJsonArray &problems) {
  QStringList keys;
  for (const QJsonValue &p : problems) {
    const QJsonObject o = p.toObject();
    keys << o["severity"].toString() + " " + o["rule"].toString() + " " +
                o["field"].toString();
  }
  return keys;
}

} // namespace

class CliOneVerdictTest : public QObject {
  Q_OBJECT

  QTemporaryDir scratch;
  int made = 0;

  // The plan's candidate and check's verdict on the same edit.
  void agree(const QString &file, const Edit &edit) {
    QString described;
    QStringList planArguments = {"sweep", file,     "--op",
                                 "0:0",   "--plan", "--json"};
    QStringList setArguments = {"set-config", file, "--op", "0:0", "--force"};
    for (const auto &[field, value] : edit) {
      described += field + "=" + value + " ";
      planArguments << "--vary" << field + "=" + value;
      setArguments << "--set" << field + "=" + value;
    }
    const QString edited =
        scratch.filePath(QString("edited-%1.mlir").arg(made++));
    setArguments << "-o" << edited;

    const test::CliRun plan = cli(planArguments);
    QVERIFY2(plan.exitCode == 0, qPrintable(described + failure(plan)));
    const QJsonObject planned =
        QJsonDocument::fromJson(plan.out.toUtf8()).object();
    const QJsonArray candidates = planned["candidates"].toArray();
    QVERIFY2(candidates.size() == 1, qPrintable(described + plan.out));
    const QJsonObject candidate = candidates.first().toObject();

    const test::CliRun set = cli(setArguments);
    // A value the edit model refuses (not a rule) is refused by both.
    if (set.exitCode != 0 && set.exitCode != 1) {
      QVERIFY2(!candidate["valid"].toBool(),
               qPrintable(described + failure(set) + "\nplan: " + plan.out));
      return;
    }
    const test::CliRun check = cli(
        {"check", edited, "--op", "0:0", "--no-iree-constraints", "--json"});
    QVERIFY2(check.exitCode == 0 || check.exitCode == 1,
             qPrintable(described + failure(check)));
    const QJsonArray problems = QJsonDocument::fromJson(check.out.toUtf8())
                                    .object()["problems"]
                                    .toArray();
    bool checkErrors = false;
    for (const QJsonValue &p : problems)
      checkErrors =
          checkErrors || p.toObject()["severity"].toString() == "error";

    QVERIFY2(candidate["valid"].toBool() == !checkErrors,
             qPrintable(described +
                        "\nplan: " + QJsonDocument(candidate).toJson() +
                        "\ncheck: " + check.out));
    QCOMPARE(problemKeys(candidate["problems"].toArray()),
             problemKeys(problems));
  }

private slots:
  void initTestCase() { QVERIFY(scratch.isValid()); }

  // The case that disagreed: 8 subgroups named by the basis, 32 threads
  // in the workgroup (IREE compiles it; no one holds most elements).
  void subgroupsPastTheWorkgroupAreAnErrorInBoth() {
    agree(kReduction, {{"subgroup_basis", "[[1, 8], [0, 1]]"}});
    const test::CliRun plan =
        cli({"sweep", kReduction, "--op", "0:0", "--plan", "--vary",
             "subgroup_basis=[[1, 8], [0, 1]]"});
    QVERIFY2(plan.out.contains("invalid") &&
                 plan.out.contains("workgroup-size-short"),
             qPrintable(failure(plan)));
  }

  // The warnings `check` prints are under the plan's valid candidate too.
  void thePlanShowsCheckWarnings() {
    const Edit edit = {{"workgroup", "[32, 128, 0]"}};
    agree(kMatmul, edit);
    const test::CliRun plan = cli({"sweep", kMatmul, "--op", "0:0", "--plan",
                                   "--vary", "workgroup=[32, 128, 0]"});
    const test::CliRun check = cli({"set-config", kMatmul, "--op", "0:0",
                                    "--set", "workgroup=[32, 128, 0]"});
    if (check.err.contains("warning:"))
      QVERIFY2(plan.out.contains("warning:"), qPrintable(failure(plan)));
  }

  // check FILE judges the file's op with what the command line gives in
  // place of the file's own (here the target): the gfx942 matmul's MFMA
  // and 64-lane subgroups are errors on sm_90, and the JSON names sm_90.
  void checkJudgesTheTargetItWasGiven() {
    const test::CliRun own =
        cli({"check", kMatmul, "--op", "0:0", "--no-iree-constraints"});
    QVERIFY2(own.exitCode == 0, qPrintable(failure(own)));
    const test::CliRun other =
        cli({"check", kMatmul, "--op", "0:0", "--no-iree-constraints",
             "--target", "sm_90", "--json"});
    QVERIFY2(other.exitCode == 1, qPrintable(failure(other)));
    const QJsonObject out =
        QJsonDocument::fromJson(other.out.toUtf8()).object();
    QCOMPARE(out["target"].toObject()["arch"].toString(), QString("sm_90"));
    const QStringList rules = problemKeys(out["problems"].toArray());
    QVERIFY2(rules.join(" ").contains("target-mma"), qPrintable(other.out));
  }

  void randomEditsGetOneVerdict_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("seed");
    for (int seed = 1; seed <= 12; ++seed) {
      QTest::newRow(qPrintable(QString("reduction %1").arg(seed)))
          << kReduction << seed;
      QTest::newRow(qPrintable(QString("matmul %1").arg(seed)))
          << kMatmul << seed;
    }
  }

  void randomEditsGetOneVerdict() {
    QFETCH(QString, file);
    QFETCH(int, seed);
    QRandomGenerator random(static_cast<quint32>(seed) * 7919u);
    agree(file,
          file == kReduction ? reductionEdit(random) : matmulEdit(random));
  }
};

QTEST_GUILESS_MAIN(CliOneVerdictTest)
#include "tst_cli_one_verdict.moc"
