// tilescope-cli tune as a user runs it on a whole program:
//
//  - on the CPU (llvm-cpu, local-task), a program of two matmul dispatches:
//    each dispatch's share is measured, its root op is the matmul IREE
//    configured (not the fill beside it), every winner is kept only when
//    measured faster beyond noise and checked, a spec (where there is one)
//    is proven by IREE and the tuned program agrees with IREE's default,
//    both timed end to end; run again, the tune resumes from the history;
//  - for gfx942, compile-only here: the cost model's picks make a spec the
//    pinned iree-compile accepts and applies, and both programs compile.
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

// What every tune says of its spec, whatever was found.
void checkSpec(const QJsonObject &tuned, const QString &where) {
  const bool hasSpec = !tuned["spec"].isNull();
  bool anyInSpec = false;
  for (const QJsonValue &value : tuned["dispatches"].toArray()) {
    const QJsonObject d = value.toObject();
    if (d["kept"].toBool() || d["predicted_only"].toBool())
      anyInSpec = anyInSpec || !d.contains("not_in_spec");
  }
  QVERIFY2(hasSpec == anyInSpec, qPrintable(where));
  if (!hasSpec)
    return;
  QVERIFY2(QFile::exists(tuned["spec"].toString()), qPrintable(where));
  const QJsonArray proof = tuned["spec_proof"].toArray();
  QVERIFY2(!proof.isEmpty(), qPrintable(where));
  for (const QJsonValue &entry : proof)
    QVERIFY2(entry.toObject()["applied"].toBool(),
             qPrintable(where + ": " + entry.toObject()["why"].toString()));
  // The program compiled with the spec: IREE accepted it.
  const QJsonObject tunedProgram = tuned["tuned_program"].toObject();
  QVERIFY2(!tunedProgram.isEmpty(), qPrintable(where));
  QVERIFY2(!tunedProgram["error"].toString().contains("compile:"),
           qPrintable(where + ": " + tunedProgram["error"].toString()));
}

} // namespace

class CliTuneTest : public QObject {
  Q_OBJECT

  QTemporaryDir workspace;

private slots:
  void aCpuProgramIsTunedMeasuredAndChecked() {
    const QString program =
        TILESCOPE_SOURCE_DIR "/tests/e2e/data/two_matmuls.mlir";
    const QStringList arguments{"tune",          program,
                                "--target",      "llvm-cpu",
                                "--workspace",   workspace.path(),
                                "--candidates",  "4",
                                "--repetitions", "3",
                                "--json"};
    auto run = cli(arguments);
    QVERIFY2(run.exitCode == 0, qPrintable(failure(run)));
    const QJsonObject tuned = jsonOf(run);
    QVERIFY(tuned["measured"].toBool());
    QCOMPARE(tuned["device"].toString(), QString("local-task"));
    const QJsonArray dispatches = tuned["dispatches"].toArray();
    QCOMPARE(dispatches.size(), 2);
    double shares = 0;
    for (const QJsonValue &value : dispatches) {
      const QJsonObject d = value.toObject();
      const QString where = d["name"].toString() + ": " +
                            QJsonDocument(d).toJson(QJsonDocument::Compact);
      QCOMPARE(d["op_name"].toString(), QString("linalg.matmul"));
      QCOMPARE(d["share_from"].toString(), QString("measured"));
      QVERIFY2(!d["default_time"].isNull(), qPrintable(where));
      shares += d["share"].toDouble();
      // The CPU config's tiles, one entry at a time.
      QCOMPARE(d["neighbourhood"].toString(), QString("rules"));
      QVERIFY2(d["candidates"].toInt() >= 2, qPrintable(where));
      QVERIFY2(!d["winner"].toString().isEmpty(), qPrintable(where));
      const QJsonObject verdict = d["verdict"].toObject();
      const bool faster = !verdict["within_noise"].toBool() &&
                          verdict["speedup_b_over_a"].toDouble() > 1;
      if (d["kept"].toBool()) {
        QVERIFY2(faster, qPrintable(where));
        QVERIFY2(d["check"].toString().startsWith("check passed"),
                 qPrintable(where));
        QCOMPARE(d["outcome"].toString(), QString("tuned"));
      } else {
        QVERIFY2(!faster || !d["check"].toString().startsWith("check passed"),
                 qPrintable(where));
      }
    }
    QVERIFY2(std::abs(shares - 1) < 1e-6, qPrintable(run.out));
    // IREE's default program ran, was checked and timed end to end.
    const QJsonObject defaultProgram = tuned["default_program"].toObject();
    QVERIFY2(defaultProgram["check_passed"].toBool(), qPrintable(run.out));
    QVERIFY2(!defaultProgram["time"].isNull(), qPrintable(run.out));
    checkSpec(tuned, "llvm-cpu");
    if (!tuned["spec"].isNull()) {
      QVERIFY2(tuned["outputs_agree"].toBool(), qPrintable(run.out));
      QVERIFY2(!tuned["end_to_end"].isNull(), qPrintable(run.out));
    }

    // Run again: every try comes from the history.
    auto again = cli(arguments);
    QVERIFY2(again.exitCode == 0, qPrintable(failure(again)));
    const QJsonObject resumed = jsonOf(again);
    QCOMPARE(resumed["tries"].toInt(), 0);
    QVERIFY(resumed["resumed"].toInt() >= 4);
    for (int i = 0; i < dispatches.size(); ++i)
      QCOMPARE(resumed["dispatches"].toArray()[i].toObject()["winner"],
               dispatches[i].toObject()["winner"]);

    // The same program under another name: its kinds were tuned, so every
    // try comes from the history again (resumed by kind, not by path).
    const QString renamed = workspace.filePath("renamed_matmuls.mlir");
    QVERIFY(QFile::copy(program, renamed));
    QStringList renamedArguments = arguments;
    renamedArguments[1] = renamed;
    auto elsewhere = cli(renamedArguments);
    QVERIFY2(elsewhere.exitCode == 0, qPrintable(failure(elsewhere)));
    const QJsonObject fromHistory = jsonOf(elsewhere);
    QCOMPARE(fromHistory["tries"].toInt(), 0);
    QVERIFY(fromHistory["resumed"].toInt() >= 4);

    // The text report names each dispatch's outcome.
    auto text = cli(arguments.mid(0, arguments.size() - 1));
    QVERIFY2(text.exitCode == 0, qPrintable(failure(text)));
    QVERIFY2(text.out.contains("measured on local-task") &&
                 text.out.contains("linalg.matmul 64x32x128:ppr") &&
                 text.out.contains("program, IREE's default:"),
             qPrintable(text.out));
  }

  // A tune carried to the GPU machine as a run bundle and continued from
  // what it measured there: the "GPU machine" is this CPU running the
  // bundle's scripts alone, from elsewhere, with no Tilescope.
  void aCpuProgramTunesThroughARunBundle() {
    QTemporaryDir own;
    const QString bundle = own.filePath("bundle");
    const QStringList common{
        "tune",
        TILESCOPE_SOURCE_DIR "/tests/e2e/data/two_matmuls.mlir",
        "--target",
        "llvm-cpu",
        "--workspace",
        own.filePath("ws"),
        "--candidates",
        "3",
        "--repetitions",
        "2",
        "--json"};
    auto written = cli(common + QStringList{"--bundle", bundle});
    QVERIFY2(written.exitCode == 0, qPrintable(failure(written)));
    const QJsonObject first = jsonOf(written);
    // Nothing timed here, though the CPU is here.
    QVERIFY2(!first["measured"].toBool(), qPrintable(written.out));
    QCOMPARE(first["bundle"].toString(), bundle);
    // No time here (and no prediction: the cost model predicts GPUs).
    for (const QJsonValue d : first["dispatches"].toArray())
      QVERIFY(d["share_from"].toString() != "measured");
    // programs.sh times each program as many times as asked.
    QFile programs(bundle + "/programs.sh");
    QVERIFY(programs.open(QIODevice::ReadOnly));
    QVERIFY(programs.readAll().contains("--benchmark_repetitions=2 "));
    for (const char *file :
         {"/run.sh", "/programs.sh", "/manifest.json", "/programs/default.vmfb",
          "/programs/inputs/input0.bin", "/tools/iree-benchmark-module"})
      QVERIFY2(QFile::exists(bundle + file), file);
    QCOMPARE(QFile::exists(bundle + "/programs/tuned.vmfb"),
             !first["spec"].isNull());

    for (const char *script : {"/run.sh", "/programs.sh"}) {
      QProcess run;
      run.setWorkingDirectory("/");
      QProcessEnvironment environment =
          QProcessEnvironment::systemEnvironment();
      environment.insert("TILESCOPE_REPETITIONS", "2");
      environment.insert("TILESCOPE_PROFILE", "off");
      run.setProcessEnvironment(environment);
      run.start(bundle + script);
      QVERIFY(run.waitForFinished(300000));
      QVERIFY2(run.exitCode() == 0,
               (QByteArray(script) + ": " + run.readAllStandardOutput() +
                run.readAllStandardError())
                   .constData());
    }

    auto imported = cli(common + QStringList{"--import", bundle});
    QVERIFY2(imported.exitCode == 0, qPrintable(failure(imported)));
    const QJsonObject second = jsonOf(imported);
    QVERIFY2(second["imported"].toString().contains("timed now"),
             qPrintable(imported.out));
    for (const QJsonValue d : second["dispatches"].toArray()) {
      QCOMPARE(d["share_from"].toString(), QString("measured"));
      QVERIFY2(!d["default_time"].isNull(),
               qPrintable(QJsonDocument(d.toObject()).toJson()));
    }
    // IREE's default program ran there, timed end to end.
    QVERIFY2(!second["default_program"]["time"].isNull(),
             qPrintable(imported.out));
    // The device and host programs.sh ran on, as it wrote them.
    QVERIFY2(second["default_program"]["device"].toString().startsWith(
                 "local-task at "),
             qPrintable(imported.out));
    // Where the measured winners make the bundle's spec, the tuned program
    // there is this spec's: compared with the default's outputs and timed.
    const bool sameSpec =
        !second["spec"].isNull() && !imported.out.contains("make another");
    if (sameSpec) {
      QVERIFY2(second["outputs_agree"].toBool(), qPrintable(imported.out));
      QVERIFY2(!second["end_to_end"].isNull(), qPrintable(imported.out));
    }
    // The text report says where the times come from.
    auto text =
        cli(common.mid(0, common.size() - 1) + QStringList{"--import", bundle});
    QVERIFY2(text.exitCode == 0, qPrintable(failure(text)));
    QVERIFY2(text.out.contains("imported: ") &&
                 text.out.contains("program, IREE's default: "),
             qPrintable(text.out));
    // Outputs it cannot compare (the tuned one cut short) are no proof:
    // exit 1, not the spec presented as the result.
    if (sameSpec) {
      const QString output = bundle + "/results/programs/tuned-output0.bin";
      QFile file(output);
      QVERIFY(file.open(QIODevice::ReadWrite));
      QVERIFY(file.resize(file.size() / 2));
      file.close();
      auto unread = cli(common + QStringList{"--import", bundle});
      QVERIFY2(unread.exitCode == 1, qPrintable(failure(unread)));
      QVERIFY2(jsonOf(unread)["outputs_agree"].isNull(),
               qPrintable(unread.out));
    }
  }

  void aGfx942ProgramTunesCompileOnly() {
    auto run =
        cli({"tune", TILESCOPE_SOURCE_DIR "/examples/sources/mlp_f16.mlir",
             "--target", "gfx942", "--workspace", workspace.path(),
             "--candidates", "3", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(failure(run)));
    const QJsonObject tuned = jsonOf(run);
    QVERIFY(!tuned["measured"].toBool());
    QVERIFY(!tuned["not_measured_because"].toString().isEmpty());
    for (const QJsonValue &value : tuned["dispatches"].toArray()) {
      const QJsonObject d = value.toObject();
      QCOMPARE(d["share_from"].toString(), QString("predicted"));
      QCOMPARE(d["neighbourhood"].toString(), QString("iree-constraints"));
      QVERIFY(!d["kept"].toBool()); // nothing measured: nothing kept
      QVERIFY(d["default_time"].isNull());
    }
    checkSpec(tuned, "gfx942");
    QVERIFY2(!tuned["spec"].isNull(), qPrintable(run.out));
    QVERIFY(tuned["default_program"].toObject()["error"].toString().startsWith(
        "compiled only"));
    QVERIFY(tuned["tuned_program"].toObject()["error"].toString().startsWith(
        "compiled only"));
  }

  // A dispatch whose IREE config gives its fused op a lowering_config too
  // (RMSNorm's sum of squares and its normalizing op) cannot be carried by
  // a spec, IREE's own config included: the tune proves that before
  // sweeping it and says so, and writes no spec that breaks the program.
  void aDispatchASpecCannotCarryIsNotSwept() {
    auto run =
        cli({"tune", TILESCOPE_SOURCE_DIR "/tests/e2e/data/rmsnorm_f16.mlir",
             "--target", "sm_90", "--workspace", workspace.path(),
             "--candidates", "2", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(failure(run)));
    const QJsonObject tuned = jsonOf(run);
    const QJsonArray dispatches = tuned["dispatches"].toArray();
    QCOMPARE(dispatches.size(), 1);
    const QJsonObject d = dispatches[0].toObject();
    QVERIFY2(d["outcome"].toString().startsWith(
                 "not tuned: a tuning spec cannot carry its config"),
             qPrintable(d["outcome"].toString()));
    QVERIFY(d["outcome"].toString().contains("failed to distribute"));
    QVERIFY(tuned["spec"].isNull());
    QCOMPARE(tuned["tries"].toInt(), 1); // IREE's default alone
  }

  // An ONNX model as iree-import-onnx writes it (torch dialect, a module of
  // its own) tunes as it is, for both GPU targets: the spec is proven on
  // the program (IREE, configuring it with the spec, gives each op in it
  // the winner's config), sm_90's device put among the module's attributes.
  void anOnnxImportedProgramTunesCompileOnly() {
    for (const QString target : {"gfx942", "sm_90"}) {
      auto run = cli({"tune",
                      TILESCOPE_SOURCE_DIR
                      "/examples/models/resnet50_bottleneck_onnx.mlir",
                      "--target", target, "--workspace", workspace.path(),
                      "--candidates", "3", "--json"});
      QVERIFY2(run.exitCode == 0, qPrintable(target + ": " + failure(run)));
      const QJsonObject tuned = jsonOf(run);
      QVERIFY2(tuned["dispatches"].toArray().size() == 6,
               qPrintable(target + ": " + run.out.left(4000) + run.err));
      QVERIFY2(!tuned["spec"].isNull(), qPrintable(run.out.left(4000)));
      checkSpec(tuned, "onnx " + target);
    }
  }

  // A GroupNorm's sums, which IREE configures for sm_90 with one lane of
  // each subgroup at work (lane_basis all ones): the tune's candidates
  // spread the reduction over every lane, compile, and the cost model
  // predicts them faster; the winner goes into the spec matched by the
  // reduction's whole body (IREE's cast_compatible_dag_from_root), and
  // IREE, configuring the program with the spec, gives it that config.
  void aReductionThatLeavesLanesIdleGetsThemFilled() {
    auto run =
        cli({"tune", TILESCOPE_SOURCE_DIR "/tests/e2e/data/group_sums.mlir",
             "--target", "sm_90", "--workspace", workspace.path(),
             "--candidates", "4", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(failure(run)));
    const QJsonObject tuned = jsonOf(run);
    const QJsonArray dispatches = tuned["dispatches"].toArray();
    QCOMPARE(dispatches.size(), 1);
    const QJsonObject d = dispatches[0].toObject();
    const QString where = QJsonDocument(d).toJson(QJsonDocument::Compact);
    QVERIFY2(d["winner"].toString().startsWith("lanes 32 x subgroups"),
             qPrintable(where));
    QVERIFY2(d["predicted_only"].toBool(), qPrintable(where));
    QVERIFY2(d["winner_predicted_us"].toDouble() <
                 d["default_predicted_us"].toDouble(),
             qPrintable(where));
    QVERIFY2(d["lowering_config"].toString().contains("lane_basis = [[1, 1, "
                                                      "32, 1]"),
             qPrintable(where));
    QVERIFY2(!d.contains("not_in_spec"), qPrintable(where));
    checkSpec(tuned, "group sums");
    QFile spec(tuned["spec"].toString());
    QVERIFY(spec.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(spec.readAll());
    QVERIFY2(
        text.contains("transform.iree.match.cast_compatible_dag_from_root"),
        qPrintable(text));
    QVERIFY2(text.contains("lane_basis = [[1, 1, 32, 1]"), qPrintable(text));
    // The matcher's body is the op before configuration: the only config
    // in the spec is the one it gives.
    QCOMPARE(text.count("#iree_gpu.lowering_config<"), 1);
  }
};

QTEST_GUILESS_MAIN(CliTuneTest)
#include "tst_cli_tune.moc"
