// tilescope-cli show / set-config / diff on real IREE files, as a user runs
// them: a root op in context, edits written back through IREE (atomically,
// refused ones changing nothing), and configs compared field by field.
#include "CliRunner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using tilescope::test::cli;
using tilescope::test::CliRun;

namespace {

const QString kMatmul = TILESCOPE_SOURCE_DIR
    "/examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";
const QString kAliases =
    TILESCOPE_SOURCE_DIR "/tests/core/edit/data/aliases.mlir";

QByteArray read(const QString &path) {
  QFile file(path);
  file.open(QIODevice::ReadOnly);
  return file.readAll();
}

QJsonObject json(const CliRun &run) {
  return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

} // namespace

class CliDocumentsTest : public QObject {
  Q_OBJECT

private slots:
  // check FILE --op: IREE's own verdict (its pipeline constraints for the
  // op, checked by the pinned iree-opt) beside the rules', marked by origin
  // and tied to the fields; where IREE checks nothing, the reason.
  void checkAddsIreesConstraintVerdict() {
    const CliRun holds = cli({"check", kMatmul, "--op", "0:0", "--json"});
    QCOMPARE(holds.exitCode, 0);
    const QJsonObject verdict = json(holds)["iree_constraints"].toObject();
    QCOMPARE(verdict["outcome"].toString(), QString("holds"));
    QCOMPARE(verdict["pipeline"].toString(), QString("TileAndFuse"));
    QCOMPARE(verdict["knob_fields"].toObject()["wg_0"].toString(),
             QString("workgroup[0]"));

    QTemporaryDir folder;
    const QString edited = folder.filePath("edited.mlir");
    cli({"set-config", kMatmul, "--op", "0:0", "--set", "workgroup=[48,128,0]",
         "-o", edited, "--force"});
    const CliRun violated = cli({"check", edited, "--op", "0:0", "--json"});
    QCOMPARE(violated.exitCode, 1);
    QCOMPARE(
        json(violated)["iree_constraints"].toObject()["outcome"].toString(),
        QString("violated"));
    bool found = false;
    for (const QJsonValue &p : json(violated)["problems"].toArray()) {
      const QJsonObject problem = p.toObject();
      if (problem["origin"].toString() == "iree-constraints" &&
          problem["message"].toString() ==
              "dim_0 must be divisible by wg_0 (1024 % 48 == 0)") {
        QCOMPARE(problem["field"].toString(), QString("workgroup[0]"));
        found = true;
      }
    }
    QVERIFY2(found, qPrintable(violated.out));
    const CliRun text = cli({"check", edited, "--op", "0:0"});
    QVERIFY2(text.out.contains("IREE's pipeline constraints: violated (44 for "
                               "TileAndFuse)"),
             qPrintable(text.out));
    QVERIFY(text.out.contains("[iree-pipeline-constraint, found by IREE]"));

    // IREE's VectorDistribute template needs promotion_types; this config
    // (from a hand-written compilation_info) has none, and IREE says so.
    const CliRun notChecked =
        cli({"check",
             TILESCOPE_SOURCE_DIR "/examples/rocm_gfx942/"
                                  "matmul_f16_vector_distribute_dispatch_0."
                                  "benchmark.mlir",
             "--op", "0:0", "--json"});
    const QJsonObject skipped = json(notChecked)["iree_constraints"].toObject();
    QCOMPARE(skipped["outcome"].toString(), QString("not checked"));
    QVERIFY2(skipped["reason"].toString().contains("promotion_types"),
             qPrintable(notChecked.out));

    const CliRun without = cli(
        {"check", edited, "--op", "0:0", "--no-iree-constraints", "--json"});
    QVERIFY(!json(without).contains("iree_constraints"));
  }

  // split-k on the RFC's example: IREE's heuristic splits K = 40960 into
  // 128 chunks of 320 (the matmul-like rule), the outer-reduction rule
  // splits the channel sum, the short sum stays whole; a split set or
  // cleared by hand forms other dispatches, and the written program builds.
  void splitKShowsIreesSplitsAndFormsDispatches() {
    const QString program =
        TILESCOPE_SOURCE_DIR "/examples/sources/split_k_program.mlir";
    const CliRun run =
        cli({"split-k", program, "--target", "gfx942", "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonArray reductions = json(run)["reductions"].toArray();
    QCOMPARE(reductions.size(), 3);
    const QJsonObject matmul = reductions[0].toObject();
    QCOMPARE(matmul["name"].toString(), QString("linalg.matmul"));
    QCOMPARE(matmul["iree_split"].toArray()[0].toInt(), 320);
    QCOMPARE(matmul["chunks"].toArray()[0].toInt(), 128);
    QCOMPARE(matmul["rule"].toString(), QString("matmul-like"));
    QVERIFY(matmul["tilescope_agrees"].toBool());
    QCOMPARE(matmul["source"].toObject()["line"].toInt(), 15);
    QCOMPARE(reductions[1].toObject()["rule"].toString(),
             QString("outer-reduction"));
    QVERIFY(reductions[2].toObject()["iree_split"].isNull());
    QStringList names;
    for (const QJsonValue &d : json(run)["dispatches"].toArray())
      names << d.toObject()["name"].toString();
    QVERIFY2(
        names.contains("split_k_program_dispatch_0_matmul_32x32x320_f32") &&
            names.contains("split_k_program_dispatch_1_reduce_32x32x128_f32"),
        qPrintable(names.join(", ")));

    QTemporaryDir folder;
    const QString written = folder.filePath("split.mlir");
    const CliRun edited = cli({"split-k", program, "--target", "gfx942",
                               "--set", "split_k_program:0=640", "--clear",
                               "split_k_program:1", "-o", written, "--json"});
    QCOMPARE(edited.exitCode, 0);
    QStringList after;
    for (const QJsonValue &d :
         json(edited)["applied"].toObject()["dispatches"].toArray())
      after << d.toObject()["name"].toString();
    QVERIFY2(
        after.contains("split_k_program_dispatch_0_matmul_32x32x640_f32") &&
            after.contains("split_k_program_dispatch_1_reduce_32x32x64_f32") &&
            after.contains("split_k_program_dispatch_2_reduction_64x65536_f32"),
        qPrintable(after.join(", ")));
    QVERIFY(read(written).contains(
        "iree_linalg_ext.split_reduction = [640 : index]"));

    const CliRun wrong = cli({"split-k", program, "--target", "gfx942", "--set",
                              "split_k_program:0=[1,2]"});
    QCOMPARE(wrong.exitCode, 2);
    QVERIFY2(wrong.err.contains("has 2 tile size(s); the op has 1 reduction "
                                "loop(s) (40960)"),
             qPrintable(wrong.err));
    const CliRun unknown = cli({"split-k", program, "--target", "gfx942",
                                "--clear", "split_k_program:7"});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("split_k_program:0, split_k_program:1, "
                                  "split_k_program:2"),
             qPrintable(unknown.err));
  }

  // A `// -----` file: --part compiles one part alone, and the locations
  // name the file and its own lines.
  void splitKTakesOnePartOfASplitFile() {
    const QString program =
        read(TILESCOPE_SOURCE_DIR "/examples/sources/split_k_program.mlir");
    const QString first =
        "func.func @first(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
        "  return %a : tensor<8xf32>\n}\n";
    QTemporaryDir folder;
    const QString split = folder.filePath("two_parts.mlir");
    QFile file(split);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write((first + "\n// -----\n\n" + program).toUtf8());
    file.close();
    const int shift = int(first.count('\n')) + 3; // the marker's lines

    const CliRun run =
        cli({"split-k", split, "--target", "gfx942", "--part", "1", "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonArray reductions = json(run)["reductions"].toArray();
    QCOMPARE(reductions.size(), 3);
    const QJsonObject source = reductions[0].toObject()["source"].toObject();
    QCOMPARE(source["line"].toInt(), 15 + shift);
    QCOMPARE(source["file"].toString(), split);

    // The picture of one reduction, as the window's Split-k tab draws it.
    const QString picture = folder.filePath("split.svg");
    const CliRun drawn =
        cli({"split-k", split, "--target", "gfx942", "--part", "1", "--picture",
             picture, "--of", "split_k_program:1"});
    QCOMPARE(drawn.exitCode, 0);
    QVERIFY2(read(picture).contains("d0 = 65536 in 256 chunks of 256"),
             qPrintable(drawn.err));
    const CliRun unknown =
        cli({"split-k", split, "--target", "gfx942", "--part", "1", "--picture",
             picture, "--of", "split_k_program:9"});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("--of split_k_program:9: no such reduction"),
             qPrintable(unknown.err));

    const CliRun none =
        cli({"split-k", split, "--target", "gfx942", "--part", "0", "--json"});
    QCOMPARE(none.exitCode, 0);
    QCOMPARE(json(none)["reductions"].toArray().size(), 0);
    const CliRun past =
        cli({"split-k", split, "--target", "gfx942", "--part", "2"});
    QCOMPARE(past.exitCode, 4);
    QVERIFY2(past.err.contains("has 2 parts, no part 2"), qPrintable(past.err));
  }

  // A file from IREE 3.11 (bare pipeline keyword): the loaded 3.13 refuses
  // it in its own words, and Tilescope offers the conversion it knows;
  // accepted, only the config changes and IREE reads the result.
  void offersTheReleaseConversionForAnOlderFile() {
    const QString old = TILESCOPE_SOURCE_DIR
        "/tests/e2e/data/matmul_vector_distribute_iree_3_11.mlir";
    const CliRun refused = cli({"show", old, "--op", "0:0"});
    QCOMPARE(refused.exitCode, 4);
    QVERIFY2(refused.err.contains("error: expected attribute value") &&
                 refused.err.contains(
                     "looks written for another IREE release: 1 config(s) "
                     "convert for IREE 3.13 (pipeline-keyword-to-attribute)") &&
                 refused.err.contains("tilescope-cli convert --file"),
             qPrintable(refused.err));

    QTemporaryDir folder;
    const QString converted = folder.filePath("converted.mlir");
    const CliRun run = cli({"convert", "--file", old, "-o", converted});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(":12: pipeline-keyword-to-attribute"),
             qPrintable(run.out));
    const QList<QByteArray> before = read(old).split('\n');
    const QList<QByteArray> after = read(converted).split('\n');
    QCOMPARE(after.size(), before.size());
    int changed = 0;
    for (int i = 0; i < before.size(); ++i)
      if (before[i] != after[i]) {
        ++changed;
        QVERIFY(after[i].contains("#iree_gpu.pipeline<VectorDistribute>"));
      }
    QCOMPARE(changed, 1);
    const CliRun shown = cli({"show", converted, "--op", "0:0"});
    QCOMPARE(shown.exitCode, 0);
    QVERIFY(shown.out.contains("VectorDistribute"));

    const CliRun current = cli({"convert", "--file", kMatmul});
    QCOMPARE(current.exitCode, 0);
    QVERIFY(current.out.contains("nothing to convert for IREE 3.13"));
  }

  // explain --tiles: each tile list loop by loop, as the pipeline reads it
  // (the window's tile editor says the same).
  void explainsWhatTileNumbersMean() {
    const CliRun text = cli({"explain", kMatmul, "--op", "0:0", "--tiles"});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("d2 (1024, reduction): 8 x "
                               "MFMA_F32_16x16x16_F16 K (16) = 128 elements "
                               "per step -> 8 steps"),
             qPrintable(text.out));
    const CliRun data =
        cli({"explain", kMatmul, "--op", "0:0", "--tiles", "--json"});
    QCOMPARE(data.exitCode, 0);
    const QJsonObject tiles = json(data)["tiles"].toObject();
    QCOMPARE(tiles["subgroup"]
                 .toObject()["entries"]
                 .toArray()[0]
                 .toObject()["unit"]
                 .toInt(),
             16);
    QCOMPARE(json(data)["pipeline"].toString(), QString("TileAndFuse"));
    const CliRun refused =
        cli({"explain", "--basis", "[[4, 16], [0, 1]]", "--tiles"});
    QVERIFY(refused.exitCode != 0);
    QVERIFY2(refused.err.contains("--tiles reads a lowering config"),
             qPrintable(refused.err));
  }

  // An NCHW convolution on IREE's IGEMM loops: IREE's contraction takes the
  // filter first (output channels first), and each operand is shown with
  // the type of the convolution operand it is made from.
  void showsAnNchwImplicitGemmsOperandsWithTheirOwnTypes() {
    QTemporaryDir folder;
    const QString configured = folder.filePath("bottleneck.gfx942.mlir");
    const CliRun made = cli({"configure",
                             TILESCOPE_SOURCE_DIR
                             "/examples/models/resnet50_bottleneck_onnx.mlir",
                             "--target", "gfx942", "-o", configured});
    QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    const CliRun listed = cli({"dispatches", configured, "--json"});
    QCOMPARE(listed.exitCode, 0);
    QString ref;
    const QJsonArray dispatches = json(listed)["dispatches"].toArray();
    for (int d = 0; d < dispatches.size() && ref.isEmpty(); ++d)
      for (const QJsonValue &op : dispatches[d].toObject()["root_ops"].toArray())
        if (op.toObject().contains("implicit_gemm"))
          ref = QString::number(d);
    QVERIFY2(!ref.isEmpty(), "no IGEMM convolution in the configured block");
    const CliRun shown = cli({"show", configured, "--op", ref});
    QCOMPARE(shown.exitCode, 0);
    const QStringList lines = shown.out.split('\n');
    auto line = [&](const QString &start) {
      for (const QString &l : lines)
        if (l.trimmed().startsWith(start))
          return l;
      return QString();
    };
    // NCHW: the filter (64x64x3x3) is the contraction's first operand.
    QVERIFY2(line("in  0").contains("x3x3xf32> filter"), qPrintable(shown.out));
    QVERIFY2(line("in  1").contains("im2col'd input") &&
                 !line("in  1").contains("x3x3x"),
             qPrintable(shown.out));
  }

  void showsARootOpInContext() {
    const CliRun text = cli({"show", kMatmul, "--op", "0:0"});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("kind:        contraction (batch [], m [0], "
                               "n [1], k [2])"),
             qPrintable(text.out));
    QVERIFY(text.out.contains("d0=1024 parallel, d1=1024 parallel, d2=1024 "
                              "reduction"));
    QVERIFY(text.out.contains("fused with:  linalg.fill"));
    QVERIFY(text.out.contains("gfx942 (AMD Instinct MI300X)"));
    QVERIFY(text.out.contains("problems:    none found"));

    const CliRun data =
        cli({"show", kMatmul, "--op", "matmul_f16_1024_dispatch_0", "--json"});
    QCOMPARE(data.exitCode, 0);
    const QJsonObject op = json(data)["root_op"].toObject();
    QCOMPARE(op["kind"].toString(), QString("contraction"));
    QCOMPARE(op["iteration_space"].toObject()["text"].toString(),
             QString("1024x1024x1024:ppr"));
    QCOMPARE(json(data)["target"].toObject()["arch"].toString(),
             QString("gfx942"));

    const CliRun noOp = cli({"show", kMatmul, "--op", "0:5"});
    QCOMPARE(noOp.exitCode, 2);
    QVERIFY2(noOp.err.contains("has no root op \"5\""), qPrintable(noOp.err));
    const CliRun noFile = cli({"show", "/nonexistent.mlir"});
    QCOMPARE(noFile.exitCode, 4);
    QVERIFY(noFile.err.contains("/nonexistent.mlir"));
  }

  void setConfigWritesThroughIree() {
    QTemporaryDir dir;
    const QString out = dir.filePath("edited.mlir");
    const CliRun run = cli({"set-config", kAliases, "--op", "shared_b:1",
                            "--set", "thread=[2,2,0]", "--set",
                            "workgroup_size=[128, 1, 1]", "-o", out, "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject report = json(run);
    QCOMPARE(report["edits"].toArray().size(), 2);
    QCOMPARE(report["edits"].toArray()[0].toObject()["new"].toString(),
             QString("[2, 2, 0]"));
    QVERIFY(report["edits"].toArray()[0].toObject()["read_by_iree"].toBool());
    QCOMPARE(report["written"].toString(), out);
    const QByteArray edited = read(out);
    // #config_once is this op's alone: its definition changed.
    QVERIFY(edited.contains("#config_once = #iree_gpu.lowering_config<{"
                            "reduction = [0, 0, 8], thread = [2, 2, 0], "
                            "workgroup = [32, 32, 0]}>"));
    // The edited file opens, and diff names exactly the two fields.
    const CliRun difference = cli({"diff", kAliases, out});
    QCOMPARE(difference.exitCode, 1);
    QVERIFY2(difference.out.contains("  thread: [1, 4, 0] -> [2, 2, 0]"),
             qPrintable(difference.out));
    QVERIFY(difference.out.contains(
        "  translation_info.workgroup_size: [64, 1, 1] -> [128, 1, 1]"));
    const CliRun same = cli({"diff", kAliases, kAliases});
    QCOMPARE(same.exitCode, 0);
    QVERIFY(same.out.contains("the configs are the same"));

    // --in-place on a copy; without -o, the edited text goes to stdout.
    const QString copy = dir.filePath("copy.mlir");
    QVERIFY(QFile::copy(kMatmul, copy));
    // [128, 128] takes 8 subgroups: 512 threads.
    const CliRun inPlace =
        cli({"set-config", copy, "--op", "0", "--set", "workgroup=[128,128,0]",
             "--set", "workgroup_size=[512,1,1]", "--in-place"});
    QCOMPARE(inPlace.exitCode, 0);
    QVERIFY(read(copy).contains("workgroup = [128, 128, 0]"));
    const CliRun toStdout =
        cli({"set-config", kMatmul, "--op", "0", "--set",
             "workgroup=[128,128,0]", "--set", "workgroup_size=[512,1,1]"});
    QCOMPARE(toStdout.exitCode, 0);
    QCOMPARE(toStdout.out.toUtf8(), read(copy));
    const CliRun asDiff = cli({"set-config", kMatmul, "--op", "0", "--unset",
                               "promote_operands", "--diff"});
    QCOMPARE(asDiff.exitCode, 0);
    QVERIFY(asDiff.out.startsWith("--- a/"));
    QVERIFY(asDiff.out.contains("\n-") && asDiff.out.contains("\n+"));
  }

  void refusedEditsWriteNothing() {
    QTemporaryDir dir;
    const QString copy = dir.filePath("copy.mlir");
    QVERIFY(QFile::copy(kMatmul, copy));
    const QByteArray before = read(copy);
    // The first edit is fine, the second refused by IREE: nothing written.
    const CliRun refused =
        cli({"set-config", copy, "--op", "0", "--set", "workgroup=[32,32,0]",
             "--set", "mma_kind=#iree_gpu.mma_layout<MFMA_NOT_AN_INTRINSIC>",
             "--in-place"});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("mma_kind: IREE refuses the new "
                                  "lowering_config"),
             qPrintable(refused.err));
    QVERIFY(refused.err.contains("nothing written"));
    QCOMPARE(read(copy), before);
    // A value that is no attribute: the rules say what shape it takes,
    // where IREE's parser names only a column.
    const CliRun bare =
        cli({"set-config", copy, "--set", "mma_kind=mfma", "--in-place"});
    QCOMPARE(bare.exitCode, 1);
    QVERIFY2(bare.err.contains("mma_kind: mma_kind must be an #iree_gpu MMA "
                               "attribute such as "
                               "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>"),
             qPrintable(bare.err));
    QCOMPARE(read(copy), before);
    // An intrinsic by its name alone is spelled as IREE spells it.
    const CliRun spelled = cli({"set-config", copy, "--set",
                                "mma_kind=MFMA_F32_32x32x8_F16", "--force"});
    QCOMPARE(spelled.exitCode, 0);
    QVERIFY2(spelled.out.contains(
                 "mma_kind = #iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>"),
             qPrintable(spelled.err));
    QCOMPARE(read(copy), before);
    const CliRun unreadable = cli(
        {"set-config", copy, "--op", "0", "--set", "workgroup=[1,2", "--json"});
    QCOMPARE(unreadable.exitCode, 1);
    QCOMPARE(json(unreadable)["refused"].toObject()["field"].toString(),
             QString("workgroup"));
    QCOMPARE(json(unreadable)["written"].toBool(), false);
    // Without --op, the op every other command defaults to.
    const CliRun defaulted =
        cli({"set-config", copy, "--set", "workgroup=[32, 32, 0]", "--diff"});
    const CliRun named = cli({"set-config", copy, "--op", "0", "--set",
                              "workgroup=[32, 32, 0]", "--diff"});
    QCOMPARE(defaulted.exitCode, named.exitCode);
    QVERIFY(!defaulted.out.isEmpty());
    QCOMPARE(defaulted.out, named.out);
    const CliRun noIree =
        cli({"set-config", copy, "--op", "0", "--set", "workgroup=[1, 1, 0]",
             "--iree", "/nonexistent/iree"});
    QCOMPARE(noIree.exitCode, 3);
    QCOMPARE(read(copy), before);
  }

  // check, explain and render take a root op of a file instead of typed
  // configs, loops and targets.
  void layoutCommandsTakeARootOp() {
    const QString reduction =
        TILESCOPE_SOURCE_DIR "/examples/rocm_gfx942/"
                             "reduction_4x6656x16384_dispatch_0.benchmark.mlir";
    const CliRun check = cli({"check", reduction, "--op", "0:0", "--json"});
    QCOMPARE(check.exitCode, 0);
    const QJsonObject report = json(check);
    QCOMPARE(report["iteration_space"].toObject()["text"].toString(),
             QString("26624x16384:pr"));
    QCOMPARE(report["target"].toObject()["arch"].toString(), QString("gfx942"));
    QVERIFY(report["translation_info"].toObject().contains("pipeline"));

    const CliRun explain =
        cli({"explain",
             TILESCOPE_SOURCE_DIR
             "/examples/rocm_gfx942/"
             "matmul_f16_vector_distribute_dispatch_0.benchmark.mlir",
             "--op", "0"});
    QCOMPARE(explain.exitCode, 0);
    QVERIFY2(explain.out.contains("iteration space 256x256x64:ppr"),
             qPrintable(explain.out));
    QVERIFY(explain.out.contains("MFMA_F32_32x32x8_F16"));
    QTemporaryDir dir;
    const QString png = dir.filePath("op.png");
    const CliRun render = cli({"render", reduction, "--op", "0", "-o", png});
    QCOMPARE(render.exitCode, 0);
    QVERIFY(QFile::exists(png));

    const CliRun both =
        cli({"explain", kMatmul, "--op", "0", "--basis", "[[1],[0]]"});
    QCOMPARE(both.exitCode, 1);
    QVERIFY(both.err.contains("not both"));
    const CliRun cpu =
        cli({"check",
             TILESCOPE_SOURCE_DIR
             "/examples/llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir",
             "--op", "0:1"});
    QCOMPARE(cpu.exitCode, 1);
    QVERIFY2(cpu.err.contains("not an #iree_gpu.lowering_config"),
             qPrintable(cpu.err));
  }

  // IREE's own default beside the file's config: every example gets one;
  // an IREE-chosen config is its default, an edited one differs by field.
  void defaultConfigOfEveryExample_data() {
    QTest::addColumn<QString>("path");
    for (const char *folder : {"rocm_gfx942", "cuda_sm_90", "llvm_cpu"}) {
      const QDir dir(QString(TILESCOPE_SOURCE_DIR "/examples/") + folder);
      for (const QString &name :
           dir.entryList({"*.benchmark.mlir"}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(QString(folder) + "/" + name))
            << dir.filePath(name);
    }
  }

  void defaultConfigOfEveryExample() {
    QFETCH(QString, path);
    const CliRun run = cli({"default-config", path, "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject report = json(run);
    QCOMPARE(report["iree_defaults"].toArray().size(), 1);
    const QJsonArray ops =
        report["iree_defaults"].toArray()[0].toObject()["root_ops"].toArray();
    QVERIFY(!ops.isEmpty());
    QVERIFY(report["command"].toString().contains("select-lowering-strategy"));
  }

  void defaultConfigBesideAnEdit() {
    const CliRun same = cli({"default-config", kMatmul});
    QCOMPARE(same.exitCode, 0);
    QVERIFY2(same.out.contains("the file's configs are IREE's defaults"),
             qPrintable(same.out));
    QTemporaryDir dir;
    const QString edited = dir.filePath("edited.mlir");
    QCOMPARE(cli({"set-config", kMatmul, "--op", "0", "--set",
                  "workgroup=[128,128,0]", "--set", "workgroup_size=[512,1,1]",
                  "-o", edited})
                 .exitCode,
             0);
    const CliRun differs = cli({"default-config", edited, "--op", "0:0"});
    QCOMPARE(differs.exitCode, 0);
    QVERIFY2(differs.out.contains("  workgroup: [128, 128, 0] -> [64, 128, 0]"),
             qPrintable(differs.out));
    // The op is named by its line in the user's file, not in IREE's print.
    QVERIFY2(differs.out.contains("linalg.generic (line 23)"),
             qPrintable(differs.out));
    const CliRun bare = cli({"default-config", kAliases});
    QCOMPARE(bare.exitCode, 1);
    QVERIFY2(bare.err.contains("configure the source program"),
             qPrintable(bare.err));
  }

  // IREE's own layouts beside Tilescope's, after an edit made with
  // set-config: agreement (exit 0) op by op in JSON, one op with --op, and
  // a CPU dispatch refused by name (exit 1).
  void ireeLayoutsBesideOurs() {
    const QString softmax = TILESCOPE_SOURCE_DIR
        "/examples/rocm_gfx942/softmax_f32_dispatch_0.benchmark.mlir";
    const CliRun all = cli({"iree-layouts", softmax, "--json"});
    QCOMPARE(all.exitCode, 0);
    QJsonObject report = json(all);
    QVERIFY(report["agrees"].toBool());
    QCOMPARE(report["pipeline"].toString(), QString("VectorDistribute"));
    QCOMPARE(report["ops"].toArray().size(), 3);
    for (const QJsonValue op : report["ops"].toArray())
      QVERIFY(!op.toObject()["operands"].toArray().isEmpty());

    QTemporaryDir dir;
    const QString edited = dir.filePath("edited.mlir");
    QCOMPARE(cli({"set-config", kMatmul, "--op", "0", "--set",
                  "subgroup=[4, 2, 0]", "-o", edited})
                 .exitCode,
             0);
    const CliRun one = cli({"iree-layouts", edited, "--op", "0:0"});
    QCOMPARE(one.exitCode, 0);
    QVERIFY2(one.out.contains("(TileAndFuse): IREE's layouts and Tilescope's "
                              "agree") &&
                 one.out.contains("subgroup forall: trip counts 1 4"),
             qPrintable(one.out));

    const CliRun cpu =
        cli({"iree-layouts", TILESCOPE_SOURCE_DIR "/examples/llvm_cpu/"
                                                  "softmax_f32_dispatch_0."
                                                  "benchmark.mlir"});
    QCOMPARE(cpu.exitCode, 1);
    QVERIFY2(cpu.err.contains("\"llvm-cpu\""), qPrintable(cpu.err));
  }

  // A source program opens as configured dispatches, each root op linked
  // to the source op it came from; the result is a file like any other.
  void configuresASourceProgram() {
    QTemporaryDir dir;
    const QString out = dir.filePath("softmax.configured.mlir");
    const CliRun run = cli(
        {"configure", TILESCOPE_SOURCE_DIR "/examples/sources/softmax_f32.mlir",
         "--target", "gfx942", "-o", out, "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject report = json(run);
    const QJsonArray dispatches = report["dispatches"].toArray();
    QCOMPARE(dispatches.size(), 1);
    const QJsonArray ops = dispatches[0].toObject()["root_ops"].toArray();
    QCOMPARE(ops.size(), 3);
    for (const QJsonValue &op : ops) {
      const QJsonObject source = op.toObject()["source"].toObject();
      QVERIFY(source["file"].toString().endsWith(
          "examples/sources/softmax_f32.mlir"));
      QCOMPARE(source["line"].toInt(), 5); // the linalg.softmax
    }
    QCOMPARE(report["commands"].toArray().size(), 2);
    QVERIFY(QFile::exists(out));
    // Only what -o names is written: the located print is the configure's own.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files),
             QStringList{"softmax.configured.mlir"});
    // The configured file is edited like any other.
    const CliRun edited = cli({"set-config", out, "--op", "0:2", "--set",
                               "workgroup=[2, 0]", "--in-place"});
    QCOMPARE(edited.exitCode, 0);
    QVERIFY(read(out).contains("workgroup = [2, 0]"));

    // A target the loaded IREE cannot name by flag (3.13 and sm_90):
    // Tilescope's own; one Tilescope carries none either: the compiler's
    // error without its IR dump, and what to do.
    const CliRun cuda =
        cli({"configure",
             TILESCOPE_SOURCE_DIR "/examples/sources/matmul_f16_1024.mlir",
             "--target", "sm_90", "-o", dir.filePath("x.mlir")});
    QCOMPARE(cuda.exitCode, 0);
    QVERIFY2(cuda.out.contains("Tilescope's sm_90 target"),
             qPrintable(cuda.out));
    // A source with a module of its own (iree-import-onnx writes `module
    // {`, others name it and give it attributes) gets the device among its
    // attributes; its ops keep their own lines.
    const QString source =
        read(TILESCOPE_SOURCE_DIR "/examples/sources/matmul_f16_1024.mlir");
    const QStringList headers = {"module {", "module @m {",
                                 "module @m attributes {a.b = 1} {",
                                 "module attributes {} {"};
    for (int h = 0; h < headers.size(); ++h) {
      const QString own = dir.filePath(QString("own%1.mlir").arg(h));
      QFile file(own);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(
          ("// a model\n" + headers[h] + "\n" + source + "}\n").toUtf8());
      file.close();
      const CliRun moduled =
          cli({"configure", own, "--target", "sm_90", "-o",
               dir.filePath(QString("own%1.sm_90.mlir").arg(h)), "--json"});
      QVERIFY2(moduled.exitCode == 0,
               qPrintable(headers[h] + ": " + moduled.err));
      const QJsonObject op = json(moduled)["dispatches"]
                                 .toArray()[0]
                                 .toObject()["root_ops"]
                                 .toArray()[0]
                                 .toObject();
      QVERIFY2(op["source"].toObject()["file"].toString() == own &&
                   op["source"].toObject()["line"].toInt() == 9,
               qPrintable(moduled.out.left(3000)));
    }
    const CliRun other =
        cli({"configure",
             TILESCOPE_SOURCE_DIR "/examples/sources/matmul_f16_1024.mlir",
             "--target", "sm_100", "-o", dir.filePath("y.mlir")});
    QCOMPARE(other.exitCode, 4);
    QVERIFY2(other.err.contains("missing GPU target"), qPrintable(other.err));
    QVERIFY(other.err.contains("cuda_sm_90.device.mlir"));
    QVERIFY(!other.err.contains("hal.interface.binding.subspan"));
    // A source that names no device needs --target; one that is not
    // there is bad input.
    const CliRun noTarget = cli({"configure", TILESCOPE_SOURCE_DIR
                                 "/examples/sources/matmul_f16_1024.mlir"});
    QCOMPARE(noTarget.exitCode, 2);
    QVERIFY(noTarget.err.contains("--target"));
    QCOMPARE(cli({"configure", "x.mlir"}).exitCode, 4);
  }

  // An edit the rules find wrong is reported, with exit code 1 (written to
  // a file only with --force).
  void editsAreValidated() {
    const CliRun run = cli({"set-config", kAliases, "--op", "reduce", "--set",
                            "subgroup_size=32", "--diff"});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("lane_basis counts multiply to 64; subgroup "
                              "size is 32"),
             qPrintable(run.err));
    QVERIFY(run.out.contains("+#translation = "));
  }
};

QTEST_GUILESS_MAIN(CliDocumentsTest)
#include "tst_cli_documents.moc"
