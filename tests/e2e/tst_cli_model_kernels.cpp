// The kernels that dominate real models, through tilescope-cli as a user
// meets them: a convolution IREE builds as an implicit GEMM (its config is
// read on IREE's IGEMM loops, never called an error; explain shows the
// im2col map; a sweep finds candidates), a batch matmul whose neighbourhood
// keeps workgroup_size following its subgroups, a configured program whose
// dispatch compiles to a kernel, a source with top-level aliases configured
// for sm_90, a CPU dispatch whose default op is IREE's root op and whose
// CPU config's lists can be varied, and an attention dispatch whose
// decomposition_config is read, kept through edits and used to rank a
// sweep.
#include "CliRunner.h"
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace tilescope;
using test::cli;
using test::failure;
using test::jsonOf;
using test::kExamples;

class CliModelKernelsTest : public QObject {
  Q_OBJECT

  QTemporaryDir workspace;
  QStringList inWorkspace(QStringList arguments) {
    return arguments << "--workspace" << workspace.path();
  }

private slots:
  // IREE's own IGEMM config (5 entries over the IGEMM loops of a 7-loop
  // convolution) is no error on either target, and check says which loops
  // it read.
  void aConvolutionIsCheckedOnIreesIgemmLoops() {
    for (const char *target : {"rocm_gfx942", "cuda_sm_90"}) {
      const QString file =
          kExamples + target + "/conv_3x3_f16_dispatch_0.benchmark.mlir";
      auto checked = cli({"check", file, "--json"});
      QVERIFY2(checked.exitCode == 0, qPrintable(failure(checked)));
      const QJsonObject out = jsonOf(checked);
      for (const QJsonValue &problem : out["problems"].toArray())
        QVERIFY2(problem.toObject()["severity"].toString() != "error",
                 qPrintable(checked.out));
      auto shown = cli({"show", file, "--json"});
      QVERIFY2(shown.exitCode == 0, qPrintable(failure(shown)));
      const QJsonObject op = jsonOf(shown)["root_op"].toObject();
      QCOMPARE(op["iteration_space"].toObject()["bounds"].toArray().size(), 5);
      QVERIFY2(op.contains("implicit_gemm"), qPrintable(shown.out));
      const QJsonObject igemm = op["implicit_gemm"].toObject();
      QCOMPARE(igemm["convolution"].toObject()["bounds"].toArray().size(), 7);
    }
  }

  // explain tiles the IGEMM loops: 16 x 64 x 64 x 256 outputs in tiles of
  // 1 x 2 x 64 x 64 are 2,048 workgroups (not the 128 a 7-loop reading
  // gave), K is 3 x 3 x 256, and workgroup 0 reads input rows 0-3 of the
  // padded image (2 output rows and the 3-tap window).
  void explainShowsTheIgemmLoopsAndTheIm2colMap() {
    const QString file =
        kExamples + "rocm_gfx942/conv_3x3_f16_dispatch_0.benchmark.mlir";
    auto explained = cli({"explain", file, "--json"});
    QVERIFY2(explained.exitCode == 0, qPrintable(failure(explained)));
    const QJsonObject out = jsonOf(explained);
    const QJsonObject igemm = out["implicit_gemm"].toObject();
    QCOMPARE(igemm["workgroups"].toInt(), 2048);
    QCOMPARE(igemm["loops"].toArray()[4].toObject()["made_of"].toString(),
             QString("3x3x256 (d4, d5, d6)"));
    const QJsonArray input = igemm["workgroup_0_input"].toArray();
    QCOMPARE(input.size(), 4);
    QCOMPARE(input[1].toArray()[0].toInt(), 0);
    QCOMPARE(input[1].toArray()[1].toInt(), 4);
    QCOMPARE(input[2].toArray()[1].toInt(), 66);
    QCOMPARE(input[3].toArray()[1].toInt(), 256);
    auto text = cli({"explain", file});
    QVERIFY2(text.out.contains("implicit GEMM"), qPrintable(text.out));
    QVERIFY2(text.out.contains("workgroup 0 reads input [0:1, 0:4, 0:66, "
                               "0:256] (im2col: output pixel x stride + "
                               "filter tap x dilation), its first reduction "
                               "step [0:1, 0:2, 0:64, 0:128]"),
             qPrintable(text.out));
    QVERIFY2(text.out.contains("IGEMM d4 = convolution 3x3x256 (d4, d5, d6)"),
             qPrintable(text.out));
  }

  // A sweep of the convolution finds valid candidates in IREE's space.
  void aConvolutionSweepHasValidCandidates() {
    const QString file =
        kExamples + "rocm_gfx942/conv_3x3_f16_dispatch_0.benchmark.mlir";
    auto plan = cli({"sweep", file, "--plan", "--json"});
    QVERIFY2(plan.exitCode == 0, qPrintable(failure(plan)));
    const QJsonObject out = jsonOf(plan);
    QVERIFY2(out["valid"].toInt() >= 8, qPrintable(plan.out.left(4000)));
  }

  // The batch matmul's rules neighbourhood halves and doubles its tiles; the
  // workgroup_size follows the subgroups each candidate's tiles make, so no
  // candidate keeps a workgroup_size its tiles contradict.
  void aBatchMatmulNeighbourhoodStaysConsistent() {
    const QString file =
        kExamples + "rocm_gfx942/batch_matmul_f16_dispatch_0.benchmark.mlir";
    auto plan = cli({"sweep", file, "--plan", "--json", "--no-iree-space"});
    QVERIFY2(plan.exitCode == 0, qPrintable(failure(plan)));
    const QJsonArray candidates = jsonOf(plan)["candidates"].toArray();
    QVERIFY(candidates.size() >= 8);
    int valid = 0;
    for (const QJsonValue &value : candidates) {
      const QJsonObject candidate = value.toObject();
      valid += candidate["valid"].toBool() ? 1 : 0;
      for (const QJsonValue &problem : candidate["problems"].toArray())
        QVERIFY2(problem.toObject()["rule"].toString() !=
                     "tile-and-fuse-workgroup-size",
                 qPrintable(candidate["candidate"].toString() + ": " +
                            problem.toObject()["message"].toString()));
    }
    QVERIFY2(valid >= 8, qPrintable(plan.out.left(4000)));
  }

  // The Llama-3-8B layer's attention as the pinned IREE configures it for
  // sm_90: show prints its decomposition_config (one of the op's own
  // attributes), a sweep of its outer tiles is ranked by the attention
  // model, and a compiled candidate still carries IREE's qk and pv configs.
  void anAttentionSweepIsRankedOnItsDecomposition() {
    const QString file =
        TILESCOPE_SOURCE_DIR "/tests/core/edit/data/attention_sm_90.mlir";
    auto shown = cli({"show", file});
    QVERIFY2(shown.exitCode == 0, qPrintable(failure(shown)));
    QVERIFY2(shown.out.contains("decomposition_config: {pv_attrs"),
             qPrintable(shown.out));
    auto plan = cli(inWorkspace({"sweep", file, "--plan", "--json", "--vary",
                                 "workgroup[4]=32,64,128"}));
    QVERIFY2(plan.exitCode == 0, qPrintable(failure(plan)));
    const QJsonArray candidates = jsonOf(plan)["candidates"].toArray();
    QCOMPARE(candidates.size(), 3);
    // A plan's predictions say they rest on estimated resources.
    QVERIFY2(jsonOf(plan)["predicted_from"].toString().startsWith(
                 "estimated resources"),
             qPrintable(plan.out.left(500)));
    double previous = 0;
    for (const QJsonValue &value : candidates) {
      const QJsonObject candidate = value.toObject();
      QVERIFY2(candidate.contains("predicted_us"),
               qPrintable(plan.out.left(3000)));
      // Whole value columns per workgroup compute Q.K^T once, not 4 times.
      const double us = candidate["predicted_us"].toDouble();
      QVERIFY2(previous == 0 || us < previous, qPrintable(plan.out));
      previous = us;
    }
    auto compiled = cli(inWorkspace({"sweep", file, "--compile-only", "--vary",
                                     "workgroup[4]=64", "--json"}));
    QVERIFY2(compiled.exitCode == 0, qPrintable(failure(compiled)));
    QVERIFY2(!compiled.out.contains("compile-failed"),
             qPrintable(compiled.out.left(3000)));
  }

  // A configured program's dispatch compiles to a kernel with resources
  // (IREE resumes from executable configurations), not to a module with no
  // kernel and exit 0.
  void aConfiguredProgramsDispatchBuildsAKernel() {
    const QString configured = workspace.filePath("matmul.configured.mlir");
    auto made = cli({"configure", kExamples + "sources/matmul_f16_1024.mlir",
                     "--target", "gfx942", "-o", configured});
    QVERIFY2(made.exitCode == 0, qPrintable(failure(made)));
    auto resources = cli(inWorkspace({"resources", configured, "--json"}));
    QVERIFY2(resources.exitCode == 0, qPrintable(failure(resources)));
    const QJsonArray kernels =
        jsonOf(resources)["resources"].toObject()["kernels"].toArray();
    QCOMPARE(kernels.size(), 1);
    QVERIFY(kernels[0].toObject()["vgprs"].toInt() > 0 ||
            kernels[0].toObject()["registers"].toInt() > 0);
  }

  // A source whose configs are top-level aliases configures for sm_90 (the
  // module Tilescope wraps it in keeps the aliases outside), and its lines
  // stay where they were.
  void aSourceWithAliasesConfiguresForSm90() {
    const QString out = workspace.filePath("aliases.sm_90.mlir");
    auto configured = cli(
        {"configure", kExamples + "sources/matmul_f16_vector_distribute.mlir",
         "--target", "sm_90", "-o", out});
    // The config names an AMD intrinsic: IREE refuses it on sm_90, and
    // says so about the source's own line, not "expected operation name".
    QVERIFY2(!configured.err.contains("expected operation name"),
             qPrintable(failure(configured)));
    const QString plain = workspace.filePath("aliases.mlir");
    QFile file(plain);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "// a comment before the aliases\n"
        "#translation = #iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] "
        "subgroup_size = 32>\n"
        "!lhs = tensor<256x64xf16>\n"
        "func.func @f(%a: !lhs, %b: tensor<64x256xf16>) -> tensor<256x256xf32> "
        "{\n"
        "  %zero = arith.constant 0.0 : f32\n"
        "  %e = tensor.empty() : tensor<256x256xf32>\n"
        "  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) "
        "-> tensor<256x256xf32>\n"
        "  %r = linalg.matmul ins(%a, %b : !lhs, tensor<64x256xf16>) outs(%acc "
        ": tensor<256x256xf32>) -> tensor<256x256xf32>\n"
        "  return %r : tensor<256x256xf32>\n"
        "}\n");
    file.close();
    auto ok = cli({"configure", plain, "--target", "sm_90", "-o",
                   workspace.filePath("plain.sm_90.mlir")});
    QVERIFY2(ok.exitCode == 0, qPrintable(failure(ok)));
    // The matmul is on line 8 of the source, and the configured op says so.
    QVERIFY2(ok.out.contains("aliases.mlir:8:"), qPrintable(failure(ok)));
  }

  // On a CPU dispatch the default op is IREE's root op (the matmul, not the
  // fill IREE configures too), and a CPU config's lists can be varied.
  void aCpuDispatchDefaultsToTheRootOpAndVaries() {
    const QString file =
        kExamples + "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir";
    auto shown = cli({"show", file, "--json"});
    QVERIFY2(shown.exitCode == 0, qPrintable(failure(shown)));
    QCOMPARE(jsonOf(shown)["root_op"].toObject()["name"].toString(),
             QString("linalg.matmul"));
    auto plan = cli({"sweep", file, "--vary", "vector_common_parallel[0]=4,16",
                     "--plan", "--json"});
    QVERIFY2(plan.exitCode == 0, qPrintable(failure(plan)));
    const QJsonArray candidates = jsonOf(plan)["candidates"].toArray();
    QCOMPARE(candidates.size(), 2);
    for (const QJsonValue &candidate : candidates)
      QVERIFY2(candidate.toObject()["why_not"].toString().isEmpty(),
               qPrintable(plan.out.left(3000)));
  }
};

QTEST_GUILESS_MAIN(CliModelKernelsTest)
#include "tst_cli_model_kernels.moc"
