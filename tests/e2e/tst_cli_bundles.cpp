// Times that travel, as a user drives them from tilescope-cli: a sweep
// compiled here, its tries written as a run bundle, the bundle's run.sh run
// (on local-task: the same script a GPU host runs), the results imported
// into the history against their tries, and the sweep then ranked by the
// measured times. Also what bench and compare say about their figures.
#include "CliRunner.h"
#include "TestSupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

using namespace tilescope;
using test::cli;
using test::failure;
using test::jsonOf;

namespace {

const QString kCpuMatmul = TILESCOPE_SOURCE_DIR
    "/examples/llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir";
const QString kGpuMatmul = TILESCOPE_SOURCE_DIR
    "/examples/cuda_sm_90/matmul_f16_1024_dispatch_0.benchmark.mlir";

// Two CPU configs of the matmul (op 1; op 0 is its fill), replaced whole.
const QString kConfigs =
    "lowering_config=#iree_cpu.lowering_config<cache_parallel = [32, 32, 0], "
    "distribution = [32, 32, 0], vector_common_parallel = [8, 8, 0], "
    "vector_reduction = [0, 0, 8]>,#iree_cpu.lowering_config<cache_parallel "
    "= [64, 64, 0], distribution = [64, 64, 0], vector_common_parallel = [8, "
    "16, 0], vector_reduction = [0, 0, 4]>";

} // namespace

class CliBundlesTest : public QObject {
  Q_OBJECT

  QTemporaryDir workspace;
  QStringList inWorkspace(QStringList arguments) {
    return arguments << "--workspace" << workspace.path();
  }

private slots:
  void aSweepTravelsAsABundleAndComesBackMeasured() {
    const QStringList sweep = {"sweep",  kCpuMatmul, "--op",           "0:1",
                               "--vary", kConfigs,   "--compile-only", "--name",
                               "travel", "--json"};
    auto compiled = cli(inWorkspace(sweep));
    QVERIFY2(compiled.exitCode == 0, qPrintable(failure(compiled)));
    const QJsonArray before = jsonOf(compiled)["candidates"].toArray();
    QCOMPARE(before.size(), 2);
    for (const QJsonValue c : before)
      QVERIFY(c["measured_us"].isUndefined());

    const QString bundle = workspace.filePath("bundle");
    // Named with a trailing separator: the folder is "bundle", and what is
    // printed names its run.sh once-slashed.
    auto written =
        cli(inWorkspace({"bundle", "--sweep", "travel", "-o", bundle + "/"}));
    QVERIFY2(written.exitCode == 0, qPrintable(failure(written)));
    QVERIFY(written.out.contains("import-results"));
    QVERIFY2(written.out.contains(bundle + "/run.sh") &&
                 !written.out.contains("bundle//"),
             qPrintable(written.out));
    for (const char *file :
         {"/run.sh", "/manifest.json", "/tools/iree-benchmark-module"})
      QVERIFY2(QFile::exists(bundle + file), file);

    // The GPU machine's part: run.sh alone, from elsewhere, no Tilescope.
    QProcess run;
    run.setWorkingDirectory("/");
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("TILESCOPE_REPETITIONS", "2");
    run.setProcessEnvironment(environment);
    run.start("/bin/bash", {bundle + "/run.sh"});
    QVERIFY(run.waitForFinished(300000));
    QVERIFY2(run.exitCode() == 0, run.readAllStandardError().constData());

    // A host name holding terminal commands (clear the screen, ring the
    // bell), as a hostile bundle writes it: printed as text, not obeyed.
    {
      QFile index(bundle + "/results/results.json");
      QVERIFY(index.open(QIODevice::ReadOnly));
      QByteArray text = index.readAll();
      index.close();
      const qsizetype at = text.indexOf("\"host\": \"") + 9;
      QVERIFY(at > 9);
      text.insert(at, "\\u001b[2J\\u0007");
      QVERIFY(index.open(QIODevice::WriteOnly | QIODevice::Truncate));
      index.write(text);
    }
    auto printed = cli(inWorkspace({"import-results", bundle}));
    QVERIFY2(printed.exitCode == 0, qPrintable(failure(printed)));
    QVERIFY2(!printed.out.contains('\x1b') && !printed.out.contains('\x07') &&
                 printed.out.contains("\\x1b[2J\\x07"),
             qPrintable(printed.out));
    auto imported = cli(inWorkspace({"import-results", bundle, "--json"}));
    QVERIFY2(imported.exitCode == 0, qPrintable(failure(imported)));
    const QJsonArray modules = jsonOf(imported)["modules"].toArray();
    QCOMPARE(modules.size(), 2);
    for (const QJsonValue m : modules) {
      QVERIFY(m["try"].toInt() > 0);
      QVERIFY(m["timing"]["median_us"].toDouble() > 0);
      QVERIFY(m["timing"]["method"].toString().contains("per dispatch"));
      QCOMPARE(m["sweep"].toString(), QString("travel"));
    }
    // Again: nothing new.
    auto again = cli(inWorkspace({"import-results", bundle, "--json"}));
    for (const QJsonValue m : jsonOf(again)["modules"].toArray())
      QVERIFY(m["already_imported"].toBool());

    // The history holds the measured rows of the sweep's candidates.
    auto history = cli(inWorkspace({"history", "--kind", "bench", "--json"}));
    const QJsonArray rows =
        QJsonDocument::fromJson(history.out.toUtf8()).array();
    QCOMPARE(rows.size(), 2);
    for (const QJsonValue r : rows) {
      QCOMPARE(r["sweep"].toString(), QString("travel"));
      QVERIFY(r["median_us"].toDouble() > 0);
    }

    // The same sweep, compile-only again: ranked by what was measured.
    auto ranked = cli(inWorkspace(sweep));
    QVERIFY2(ranked.exitCode == 0, qPrintable(failure(ranked)));
    const QJsonObject out = jsonOf(ranked);
    QCOMPARE(out["ranking"].toString(), QString("ranked by measured time"));
    const QJsonArray after = out["candidates"].toArray();
    QCOMPARE(after.size(), 2);
    QVERIFY(after[0]["measured_us"].toDouble() <=
            after[1]["measured_us"].toDouble());
    for (const QJsonValue c : after) {
      QCOMPARE(c["ranked_by"].toString(), QString("measured"));
      QVERIFY(c["measured_in_try"].toInt() > 0);
    }
    auto text = cli(inWorkspace(QStringList(sweep.mid(0, sweep.size() - 1))));
    QVERIFY(text.out.contains("measured "));
    QVERIFY(!text.out.contains("Best"));

    // Two imported rows compared say whether they differ beyond noise.
    auto compared =
        cli(inWorkspace({"compare", QString::number(rows[0]["id"].toInt()),
                         QString::number(rows[1]["id"].toInt())}));
    QVERIFY2(compared.exitCode == 0, qPrintable(failure(compared)));
    QVERIFY(compared.out.contains("within noise") ||
            compared.out.contains("A's speed ("));
    QVERIFY(compared.out.contains("noise"));
  }

  // Nothing timed: a GPU sweep's order is the cost model's, said so, and
  // every candidate carries its prediction.
  void aGpuSweepHereIsRankedByPrediction() {
    auto planned = cli(
        inWorkspace({"sweep", kGpuMatmul, "--vary", "workgroup[0]=32,64,128",
                     "--compile-only", "--json"}));
    QVERIFY2(planned.exitCode == 0, qPrintable(failure(planned)));
    const QJsonObject out = jsonOf(planned);
    QVERIFY(out["ranking"].toString().startsWith("ranked by predicted time"));
    const QJsonArray candidates = out["candidates"].toArray();
    QCOMPARE(candidates.size(), 3);
    double previous = 0;
    for (const QJsonValue c : candidates) {
      QCOMPARE(c["ranked_by"].toString(), QString("predicted"));
      QCOMPARE(c["prediction_resources"].toString(), QString("compiled"));
      QVERIFY(c["predicted_us"].toDouble() >= previous);
      previous = c["predicted_us"].toDouble();
    }
    auto text = cli(inWorkspace({"sweep", kGpuMatmul, "--vary",
                                 "workgroup[0]=32,64,128", "--compile-only"}));
    QVERIFY(text.out.contains("predicted "));
    QVERIFY(text.out.contains("not the GPU's"));
    QVERIFY(!text.out.contains("Best"));
  }

  // bench says how it timed, keeps its bundle, and says when no profiler
  // can read the kernel.
  void benchSaysItsMethod() {
    auto bench = cli(
        inWorkspace({"bench", kCpuMatmul, "--repetitions", "2", "--profile"}));
    QVERIFY2(bench.exitCode == 0, qPrintable(failure(bench)));
    QVERIFY(bench.out.contains("per dispatch"));
    QVERIFY(bench.out.contains("method: per dispatch"));
    QVERIFY(bench.out.contains("run bundle: "));
    QVERIFY(bench.out.contains("profile: no profiler for local-task"));
    auto json =
        cli(inWorkspace({"bench", kCpuMatmul, "--repetitions", "2", "--json"}));
    const QJsonObject timed = jsonOf(json)["bench"].toObject();
    QVERIFY(timed["method"].toString().startsWith("per dispatch"));
    QVERIFY(timed["batch"].toInt() >= 1);
    QVERIFY(timed["per_submission"]["median_us"].toDouble() > 0);
  }
};

QTEST_GUILESS_MAIN(CliBundlesTest)
#include "tst_cli_bundles.moc"
