// tilescope-cli as a user runs it: doctor, dispatches, check, convert,
// explain and render, with clear errors for bad input. check, convert,
// explain and render need no IREE: they run with TILESCOPE_IREE_DIR pointing
// nowhere.
#include "CliRunner.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = tilescope::test::CliRun;
using tilescope::test::cli;

const QString kSeedReduction =
    "#iree_gpu.lowering_config<{expand_dims = #iree_gpu.expand_dims<[[0], [1], "
    "[2, 3]], output_shape = [?, ?, ?, 8]>, lane_basis = [[1, 1, 64, 1], [0, "
    "1, 2, "
    "3]], partial_reduction = [0, 0, 64, 0], subgroup_basis = [[1, 1, 1, 1], "
    "[0, "
    "1, 2, 3]], thread = [0, 0, 1, 8], workgroup = [4, 1, 0, 0]}>";
const QString kMatmulConfig =
    "#iree_gpu.lowering_config<{mma_kind = "
    "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, promote_operands = [0, 1], "
    "reduction = [0, 0, 64], subgroup_basis = [[2, 2, 1], [0, 1, 2]], "
    "workgroup = [64, 64, 0]}>";
const QString kLayout =
    "#iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [2, "
    "4], "
    "outer_tile = [1, 1], thread_tile = [16, 4], element_tile = [1, 4], "
    "subgroup_strides = [1, 0], thread_strides = [1, 16]>";

} // namespace

class CliTest : public QObject {
  Q_OBJECT

private slots:
  void doctorReportsTheRealIree() {
    const Run text = cli({"doctor"});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("IREE revision:"));
    QVERIFY(text.out.contains("rocm"));
    QVERIFY(text.out.contains("local-task"));
    QVERIFY(text.out.contains("GPUs:"));
    const Run json = cli({"doctor", "--json"});
    QCOMPARE(json.exitCode, 0);
    const QJsonObject report =
        QJsonDocument::fromJson(json.out.toUtf8()).object();
    QVERIFY(report["iree"].toObject()["revision"].toString().contains("@"));
    QVERIFY(report.contains("gpus"));
    // Pointed at nothing: a clear error, not a crash.
    const Run missing = cli({"doctor", "--iree", "/nonexistent/iree"});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY(missing.out.contains("/nonexistent/iree"));
  }

  void listsDispatches() {
    const Run run = cli({"dispatches", TILESCOPE_SOURCE_DIR
                         "/examples/rocm_gfx942/"
                         "reduction_4x6656x16384_dispatch_0.benchmark.mlir"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("1 dispatch"));
    QVERIFY(run.out.contains("partial_reduction = [0, 512]"));
    // An empty path is no document of nothing.
    const Run empty = cli({"dispatches", ""});
    QCOMPARE(empty.exitCode, 4);
    QVERIFY2(empty.err.contains("the path is empty"), qPrintable(empty.err));
    // An outcome that is none is a usage error naming the ones there are.
    const Run bogus = cli({"history", "--outcome", "bogus", "--workspace",
                           "/nonexistent/workspace"});
    QCOMPARE(bogus.exitCode, 2);
    QVERIFY2(bogus.err.contains("interrupted"), qPrintable(bogus.err));
  }

  void checksWithoutIree() {
    const Run seed = cli({"check", "--config", kSeedReduction,
                          "--iteration-space", "4x6656x16384:ppr", "--target",
                          "gfx942", "--iree-release", "3.11"},
                         true);
    QCOMPARE(seed.exitCode, 0);
    QVERIFY2(seed.out.contains("no problems found"), qPrintable(seed.out));
    const Run bad = cli({"check", "--config",
                         "#iree_gpu.lowering_config<{workgroup = [1, 96, 0]}>",
                         "--iteration-space", "4x6656x16384:ppr", "--json"},
                        true);
    // IREE compiles it (the last workgroup is masked): a warning.
    QCOMPARE(bad.exitCode, 0);
    QVERIFY(bad.out.contains(
        "workgroup[1]=96 does not divide 6656 (6656 = 69 x 96 + 32)"));
    QVERIFY(bad.out.contains("\"iree\": \"IREE compiles it\""));
    // IREE refuses a partial_reduction tile on a parallel dimension.
    const Run refused = cli({"check", "--config",
                             "#iree_gpu.lowering_config<{partial_reduction = "
                             "[0, 4, 0]}>",
                             "--iteration-space", "4x6656x16384:ppr"},
                            true);
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.out.contains("error: partial_reduction[1]"),
             qPrintable(refused.out));
    QVERIFY2(refused.out.contains("IREE refuses it; the rule mirrors"),
             qPrintable(refused.out));
    const Run broken = cli(
        {"check", "--config", "#iree_gpu.lowering_config<{workgroup = [1, 96"},
        true);
    QCOMPARE(broken.exitCode, 1);
    QVERIFY2(broken.err.contains("line 1, column"), qPrintable(broken.err));
  }

  void convertsWithoutIree() {
    const Run run = cli(
        {"convert", "--to", "3.13",
         "#iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute "
         "workgroup_size = [64, 1, 1] subgroup_size = 64>"},
        true);
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("#iree_gpu.pipeline<VectorDistribute>"));
    QVERIFY(run.err.contains("pipeline-keyword-to-attribute"));
  }

  void explainsWithoutIree() {
    const Run basis = cli(
        {"explain", "--basis", "[[16, 4], [1, 0]]", "--thread", "42"}, true);
    QCOMPARE(basis.exitCode, 0);
    QVERIFY(basis.out.contains(
        "thread 42 -> basis digits [10, 2] -> iteration [2, 10]"));
    const Run layout =
        cli({"explain", "--layout", kLayout, "--subgroups", "4",
             "--subgroup-size", "64", "--element", "16,17", "--json"},
            true);
    QCOMPARE(layout.exitCode, 0);
    const QJsonObject json =
        QJsonDocument::fromJson(layout.out.toUtf8()).object();
    QCOMPARE(json["owners"].toArray().size(),
             2); // replicated in subgroups 0 and 2
    const Run config =
        cli({"explain", "--config", kSeedReduction, "--iteration-space",
             "4x6656x16384:ppr", "--iree-release", "3.11"},
            true);
    QCOMPARE(config.exitCode, 0);
    QVERIFY(config.out.contains("32 iterations"));
    QVERIFY(config.out.contains("512 reduction elements per subgroup"));
    // An mma_kind config: IREE's getContractionLayout per operand. M and N
    // are split over 2 x 2 subgroups (basis strides 2 and 1); the 64x64 LHS
    // tile is 2 subgroups x 2 batches x 16 lanes on M, 4 batches x 4 lanes x
    // 4 elements on K.
    const Run contraction =
        cli({"explain", "--config", kMatmulConfig, "--iteration-space",
             "1024x1024x1024:ppr", "--types", "f16,f16,f32", "--json"},
            true);
    QVERIFY2(contraction.exitCode == 0, qPrintable(contraction.err));
    const QJsonObject layouts =
        QJsonDocument::fromJson(contraction.out.toUtf8())
            .object()["operand_layouts"]
            .toObject();
    QCOMPARE(layouts["lhs"].toString(),
             QString("#iree_vector_ext.nested_layout<subgroup_tile = [2, 1], "
                     "batch_tile = [2, 4], outer_tile = [1, 1], thread_tile = "
                     "[16, 4], element_tile = [1, 4], subgroup_strides = [2, "
                     "0], thread_strides = [1, 16]>"));
    QCOMPARE(layouts["acc"].toString(),
             QString("#iree_vector_ext.nested_layout<subgroup_tile = [2, 2], "
                     "batch_tile = [2, 2], outer_tile = [1, 1], thread_tile = "
                     "[4, 16], element_tile = [4, 1], subgroup_strides = [2, "
                     "1], thread_strides = [16, 1]>"));
    // `reduction` (not partial_reduction) makes the K loop: 1024 / 64.
    const QJsonObject loop = QJsonDocument::fromJson(contraction.out.toUtf8())
                                 .object()["reduction_loops"]
                                 .toArray()
                                 .first()
                                 .toObject();
    QCOMPARE(loop["level"].toString(), QString("reduction"));
    QCOMPARE(loop["iterations"].toInt(), 16);
    const Run outside =
        cli({"explain", "--layout", kLayout, "--element", "64,0"}, true);
    QCOMPARE(outside.exitCode, 1);
    QVERIFY(outside.err.contains("outside dimension 0"));
  }

  // --maps states any projected-permutation contraction; --types alone only
  // the two patterns it names, and refuses the rest instead of guessing.
  void explainTakesIndexingMaps() {
    auto lhsOf = [](const Run &run) {
      return QJsonDocument::fromJson(run.out.toUtf8())
          .object()["operand_layouts"]
          .toObject()["lhs"]
          .toString();
    };
    // The default maps written out give the pattern's answer.
    const Run plain =
        cli({"explain", "--config", kMatmulConfig, "--iteration-space",
             "1024x1024x1024:ppr", "--types", "f16,f16,f32", "--json"},
            true);
    const Run stated =
        cli({"explain", "--config", kMatmulConfig, "--iteration-space",
             "1024x1024x1024:ppr", "--types", "f16,f16,f32", "--maps",
             "affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> "
             "(d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>",
             "--json"},
            true);
    QVERIFY2(stated.exitCode == 0, qPrintable(stated.err));
    QCOMPARE(lhsOf(stated), lhsOf(plain));
    // A transposed LHS (K, M): the same layout over swapped dimensions.
    const Run transposed =
        cli({"explain", "--config", kMatmulConfig, "--iteration-space",
             "1024x1024x1024:ppr", "--types", "f16,f16,f32", "--maps",
             "(d0, d1, d2) -> (d2, d0), (d0, d1, d2) -> (d1, d2), "
             "(d0, d1, d2) -> (d0, d1)",
             "--json"},
            true);
    QVERIFY2(transposed.exitCode == 0, qPrintable(transposed.err));
    QCOMPARE(lhsOf(transposed),
             QString("#iree_vector_ext.nested_layout<subgroup_tile = [1, 2], "
                     "batch_tile = [4, 2], outer_tile = [1, 1], thread_tile = "
                     "[4, 16], element_tile = [4, 1], subgroup_strides = [0, "
                     "2], thread_strides = [16, 1]>"));
    // Two reduction dims with three types: not a stated pattern.
    const Run unstated =
        cli({"explain", "--config", kMatmulConfig, "--iteration-space",
             "64x64x16x4:pprr", "--types", "f16,f16,f32"},
            true);
    QCOMPARE(unstated.exitCode, 1);
    QVERIFY2(unstated.err.contains("give --maps"), qPrintable(unstated.err));
    const Run affine =
        cli({"check", "--config", kMatmulConfig, "--iteration-space",
             "64x64x16:ppr", "--types", "f16,f16,f32", "--maps",
             "(d0, d1, d2) -> (d0 + d2, d2), (d0, d1, d2) -> (d1, d2), "
             "(d0, d1, d2) -> (d0, d1)"},
            true);
    QCOMPARE(affine.exitCode, 1);
    QVERIFY2(affine.err.contains("--maps: map 1") &&
                 affine.err.contains("projected permutations"),
             qPrintable(affine.err));
    const Run rankMismatch =
        cli({"explain", "--config", kMatmulConfig, "--iteration-space",
             "64x64x16:ppr", "--types", "f16,f32", "--maps",
             "(d0, d1) -> (d0, d1), (d0, d1) -> (d0)"},
            true);
    QCOMPARE(rankMismatch.exitCode, 1);
    QVERIFY2(rankMismatch.err.contains("has 2 dimensions; the iteration space "
                                       "has 3"),
             qPrintable(rankMismatch.err));
  }

  // mma-layouts asks the loaded IREE; with none it shows the built-in table
  // (which equals IREE's answer for the pin) and says so.
  void mmaLayoutsFallsBackToTheBuiltInTable() {
    const Run fromIree = cli({"mma-layouts"});
    QVERIFY2(fromIree.exitCode == 0, qPrintable(fromIree.err));
    QVERIFY(fromIree.err.isEmpty());
    const Run builtIn = cli({"mma-layouts"}, true);
    QCOMPARE(builtIn.exitCode, 0);
    QVERIFY2(builtIn.err.contains("showing Tilescope's built-in table") &&
                 builtIn.err.contains("/nonexistent/iree"),
             qPrintable(builtIn.err));
    QCOMPARE(builtIn.out, fromIree.out);
    const Run regenerate = cli({"mma-layouts", "--cpp"}, true);
    QCOMPARE(regenerate.exitCode, 1);
    QVERIFY(regenerate.out.isEmpty());
  }

  // Target facts come from the IREE in use (gfx1250 is in no built-in
  // table); with none, the built-in table answers and the output says so.
  void targetsComeFromIreeOrSayTheyDoNot() {
    const Run gfx1250 = cli({"targets", "gfx1250", "--json"});
    QVERIFY2(gfx1250.exitCode == 0, qPrintable(gfx1250.err));
    QVERIFY(gfx1250.out.contains("\"from_iree\": true"));
    QVERIFY(gfx1250.out.contains("WMMA_F32_16x16x32_F16"));
    const Run unknownWithout = cli({"targets", "gfx1250"}, true);
    QCOMPARE(unknownWithout.exitCode, 2);
    QVERIFY2(unknownWithout.err.contains("no IREE to ask") &&
                 unknownWithout.err.contains("gfx942"),
             qPrintable(unknownWithout.err));
    const Run builtIn = cli({"targets", "gfx942"}, true);
    QCOMPARE(builtIn.exitCode, 0);
    QVERIFY2(builtIn.out.contains("built-in description of gfx942"),
             qPrintable(builtIn.out));
    // A name IREE does not know is a wrong argument (exit 2), in IREE's
    // words, for targets and configure alike (configure once ran
    // iree-compile and exited 4 on its "device alias" complaint).
    const Run bogus = cli({"targets", "gfx9999"});
    QCOMPARE(bogus.exitCode, 2);
    QVERIFY(bogus.err.contains("Unknown ROCM target 'gfx9999'"));
    const Run configured =
        cli({"configure",
             TILESCOPE_SOURCE_DIR "/examples/sources/matmul_f16_1024.mlir",
             "--target", "gfx9999", "-o", QDir::temp().filePath("never.mlir")});
    QCOMPARE(configured.exitCode, 2);
    QVERIFY2(configured.err.contains("--target: IREE knows no GPU target "
                                     "'gfx9999'") &&
                 !configured.err.contains("device alias"),
             qPrintable(configured.err));
    // check takes the facts IREE states: gfx1250's 32-wide subgroups.
    const Run check =
        cli({"check", "--config",
             "#iree_gpu.lowering_config<{workgroup = [64, 64, 0], reduction "
             "= [0, 0, 32]}>",
             "--translation-info",
             "#iree_codegen.translation_info<pipeline = "
             "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] "
             "subgroup_size = 64>",
             "--target", "gfx1250"});
    QVERIFY2(check.out.contains("target: gfx1250") &&
                 check.out.contains("subgroup_size"),
             qPrintable(check.out + check.err));
  }

  // Scaled intrinsics list their five operands; a TileAndFuse config is
  // explained as IREE distributes it.
  void explainsScaledIntrinsicsAndTileAndFuse() {
    const Run scaled = cli({"explain", "--mma", "MFMA_SCALE_F32_16x16x128_B32",
                            "--operand", "lhs_scale", "--lane", "17"});
    QVERIFY2(scaled.exitCode == 0, qPrintable(scaled.err));
    QVERIFY2(scaled.out.contains("lhs_scale [16, 4]") &&
                 scaled.out.contains("lane 17 holds: [1, 1]"),
             qPrintable(scaled.out));
    const Run noScale = cli({"explain", "--mma", "MFMA_F32_16x16x16_F16",
                             "--operand", "lhs_scale"});
    QCOMPARE(noScale.exitCode, 1);
    QVERIFY(noScale.err.contains("has no lhs_scale operand"));
    const Run split = cli({"explain", "--mma", "VDMFMA_F32_8x16x64x2_F16",
                           "--operand", "lhs", "--lane", "1"});
    QVERIFY2(split.out.contains("lane 1 holds: [0, 8]") &&
                 split.out.contains("2 lanes share each thread position"),
             qPrintable(split.out));
    const Run forall =
        cli({"explain",
             TILESCOPE_SOURCE_DIR "/examples/rocm_gfx950/"
                                  "scaled_matmul_f4_dispatch_0.benchmark.mlir",
             "--subgroup", "3"});
    QVERIFY2(forall.exitCode == 0, qPrintable(forall.err));
    QVERIFY2(forall.out.contains("8 subgroups of 64 lanes") &&
                 forall.out.contains("subgroup 3 runs: tile 3 at [64, 128, "
                                     "0, 0]"),
             qPrintable(forall.out));
  }

  // An op whose config is #iree_gpu.derived_thread_config is drawn with the
  // tiles IREE derives (iree-opt's thread tiling of this file makes the same
  // 32 x 8 forall: property_layouts holds the rule to IREE on random ops).
  void explainsDerivedThreadConfig() {
    const QString file =
        TILESCOPE_SOURCE_DIR "/tests/e2e/data/derived_thread_config.mlir";
    const Run explained = cli({"explain", file, "--thread", "127"});
    QVERIFY2(explained.exitCode == 0, qPrintable(explained.err));
    QVERIFY2(explained.out.contains("d0 (32 tiles, linear_dim_1), d1 (8 "
                                    "tiles, linear_dim_0); 128 threads") &&
                 explained.out.contains("thread 127 runs: tile 127 at [15, "
                                        "56] tile 255 at [31, 56]"),
             qPrintable(explained.out));
    const Run checked = cli({"check", file});
    QCOMPARE(checked.exitCode, 0);
    QVERIFY(checked.out.contains("no problems found"));
    // It has no fields to set: said so (it was read as an undefined alias).
    const Run set = cli({"set-config", file, "--op", "0:0", "--set",
                         "workgroup=[32, 64]", "--diff"});
    QCOMPARE(set.exitCode, 1);
    QVERIFY2(set.err.contains("#iree_gpu.derived_thread_config, which has no "
                              "fields"),
             qPrintable(set.err));
  }

  // The same config given bare: without the result's type there are no
  // derived tiles, and explain says what to give rather than drawing one
  // thread holding everything (issue 30); with it, the tiles IREE derives.
  void explainsABareDerivedThreadConfigOnlyWithTypes() {
    const QStringList bare = {
        "explain",
        "--config",
        "#iree_gpu.derived_thread_config",
        "--translation-info",
        "#iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] "
        "subgroup_size = 64>",
        "--iteration-space",
        "64x128:pp"};
    const Run refused = cli(bare, true);
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("result element type") &&
                 refused.err.contains("--types"),
             qPrintable(refused.err));
    QVERIFY(!refused.out.contains("thread_tile = [1, 1]"));
    const Run typed = cli(QStringList(bare) << "--types"
                                            << "f16,f16"
                                            << "--maps"
                                            << "(d0, d1) -> (d0, d1), (d0, d1) "
                                               "-> (d0, d1)",
                          true);
    QVERIFY2(typed.exitCode == 0, qPrintable(typed.err));
    QVERIFY2(typed.out.contains("64 threads"), qPrintable(typed.out));
  }

  void rendersEverySceneKindWithoutIree_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("layout")
        << QStringList{"--layout", kLayout, "--shape", "64x64"};
    QTest::newRow("basis") << QStringList{"--basis", "[[16, 4], [1, 0]]"};
    QTest::newRow("config") << QStringList{"--config",
                                           kSeedReduction,
                                           "--iteration-space",
                                           "4x6656x16384:ppr",
                                           "--iree-release",
                                           "3.11",
                                           "--step",
                                           "5"};
    QTest::newRow("grid") << QStringList{"--config", kSeedReduction,
                                         "--iteration-space",
                                         "4x6656x16384:ppr", "--grid"};
    QTest::newRow("contraction")
        << QStringList{"--config",           kMatmulConfig, "--iteration-space",
                       "1024x1024x1024:ppr", "--types",     "f16,f16,f32"};
    QTest::newRow("mma") << QStringList{"--mma", "MFMA_F32_32x32x8_F16"};
    QTest::newRow("swizzle")
        << QStringList{"--swizzle", "#iree_codegen.xor_shuffle<128, 8>"};
  }

  void rendersEverySceneKindWithoutIree() {
    QFETCH(QStringList, arguments);
    QTemporaryDir dir;
    for (const char *extension : {"png", "svg", "pdf"}) {
      const QString path = dir.filePath(QString("scene.") + extension);
      const Run run = cli(
          QStringList{"render"} + arguments + QStringList{"-o", path}, true);
      QVERIFY2(run.exitCode == 0, qPrintable(run.err));
      QVERIFY(QFileInfo(path).size() > 100);
    }
    // The picture holds a scene, not a blank page: many colours (owners,
    // banks) and text in the SVG.
    const QImage image(dir.filePath("scene.png"));
    QVERIFY(!image.isNull());
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
      for (int x = 0; x < image.width(); x += 7)
        colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() >= 8, qPrintable(QString::number(colours.size())));
    QFile svg(dir.filePath("scene.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray svgText = svg.readAll();
    QVERIFY(svgText.contains("<svg") && svgText.contains("<text"));
  }

  // --thread, --subgroup and --lane mark an owner's cells; what a picture
  // cannot mark is an error, not a silently plain picture.
  void renderMarksAnOwner() {
    QTemporaryDir dir;
    const QString svg = dir.filePath("marked.svg");
    const auto footerOf = [&](const QStringList &arguments) {
      const Run run =
          cli(QStringList{"render"} + arguments + QStringList{"-o", svg}, true);
      QFile file(svg);
      return run.exitCode == 0 && file.open(QIODevice::ReadOnly)
                 ? QString::fromUtf8(file.readAll())
                 : "exit " + QString::number(run.exitCode) + ": " + run.err;
    };
    QVERIFY(footerOf({"--basis", "[[16, 4], [1, 0]]", "--thread", "42"})
                .contains("marked: thread 42"));
    QVERIFY(
        footerOf({"--layout", kLayout, "--subgroups", "2", "--subgroup", "1"})
            .contains("marked: subgroup 1"));
    QVERIFY(footerOf({"--config", kMatmulConfig, "--iteration-space",
                      "1024x1024x1024:ppr", "--types", "f16,f16,f32", "--lane",
                      "5"})
                .contains("marked: lane 5"));
    QVERIFY(footerOf({"--mma", "MFMA_F32_32x32x8_F16", "--lane", "7",
                      "--color-by", "register"})
                .contains("marked: lane 7"));
    // No Qt warning about a missing runtime directory on any render.
    {
      QProcess process;
      QProcessEnvironment environment =
          QProcessEnvironment::systemEnvironment();
      environment.remove("XDG_RUNTIME_DIR");
      environment.insert("QT_QPA_PLATFORM", "offscreen");
      process.setProcessEnvironment(environment);
      process.start(TILESCOPE_BINARY_DIR "/app/tilescope-cli",
                    {"render", "--basis", "[[16, 4], [1, 0]]", "-o", svg});
      QVERIFY(process.waitForFinished(120000));
      QCOMPARE(process.exitCode(), 0);
      const QString errors = QString::fromUtf8(process.readAllStandardError());
      QVERIFY2(!errors.contains("XDG_RUNTIME_DIR"), qPrintable(errors));
    }
    const struct {
      QStringList arguments;
      const char *message;
    } errors[] = {
        {{"--layout", kLayout, "--lane", "64"},
         "lane 64 is not in the picture"},
        {{"--layout", kLayout, "--subgroup", "1", "--lane", "3"},
         "give --subgroup or --lane, not both"},
        {{"--layout", kLayout, "--thread", "3"}, "--thread marks a thread"},
        {{"--mma", "MFMA_F32_32x32x8_F16", "--thread", "3"},
         "for an MMA give --lane"},
        {{"--mma", "MFMA_F32_32x32x8_F16", "--lane", "3", "--color-by",
          "subgroup"},
         "needs --color-by lane or register"},
        {{"--config", kSeedReduction, "--iteration-space", "4x6656x16384:ppr",
          "--grid", "--lane", "3"},
         "no lanes or subgroups to mark"},
        {{"--layout", kLayout, "--subgroup", "1", "--color-by", "lane"},
         "needs --color-by subgroup"},
        {{"--mma", "MFMA_F32_32x32x8_F16", "--lane", "70"},
         "lane 70 is not in MFMA_F32_32x32x8_F16's 64 lanes"},
        {{"--swizzle", "#iree_codegen.xor_shuffle<128, 8>", "--lane", "3"},
         "coloured by bank"},
        {{"--basis", "[[16, 4], [1, 0]]", "--thread", "64"},
         "thread 64 is not in the picture"},
        {{"--layout", kLayout, "--lane", "-3"},
         "--lane -3: ids and steps count from 0"},
        {{"--config", kSeedReduction, "--iteration-space", "4x6656x16384:ppr",
          "--at", "0,x"},
         "--at: 'x' is not an index"},
    };
    for (const auto &error : errors) {
      const Run run =
          cli(QStringList{"render"} + error.arguments + QStringList{"-o", svg},
              true);
      QCOMPARE(run.exitCode, 1);
      QVERIFY2(run.err.contains(error.message), qPrintable(run.err));
    }
  }

  void renderErrorsSayWhat() {
    const Run shape = cli(
        {"render", "--layout", kLayout, "--shape", "64x32", "-o", "/tmp/x.png"},
        true);
    QCOMPARE(shape.exitCode, 1);
    QVERIFY(shape.err.contains(
        "the layout's tiles multiply to 64x64; --shape says 64x32"));
    const Run format = cli(
        {"render", "--mma", "MFMA_F32_32x32x8_F16", "-o", "/tmp/x.bmp"}, true);
    QCOMPARE(format.exitCode, 1);
    QVERIFY(format.err.contains(".png"));
    const Run unknown =
        cli({"render", "--mma", "NOT_AN_MMA", "-o", "/tmp/x.png"}, true);
    QCOMPARE(unknown.exitCode, 1);
    QVERIFY(unknown.err.contains("NOT_AN_MMA"));
  }
};

QTEST_GUILESS_MAIN(CliTest)
#include "tst_cli.moc"
