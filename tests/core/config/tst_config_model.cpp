// The typed config models: every key and attribute read, modelled and written
// back; conversions between releases; targets; validation rules, each firing
// on a minimal bad example and silent on what IREE itself configured.
#include "TestSupport.h"

#include "core/config/Conversions.h"
#include "core/config/LayoutAttributes.h"
#include "core/config/OtherConfigs.h"
#include "core/config/TargetAttribute.h"
#include "core/config/Validation.h"
#include "core/iree/Document.h"
#include "core/layout/LayoutValidation.h"

#include <limits>
#include <random>
#include <regex>
#include <set>

using namespace tilescope;
using namespace tilescope::config;

namespace {

// The seed's reduction (lowering-configs.txt, "Example").
const char *kSeedReduction =
    "#iree_gpu.lowering_config<{expand_dims = #iree_gpu.expand_dims<[[0], [1], "
    "[2, 3]], output_shape = [?, ?, ?, 8]>, lane_basis = [[1, 1, 64, 1], [0, "
    "1, "
    "2, 3]], partial_reduction = [0, 0, 64, 0], subgroup_basis = [[1, 1, 1, "
    "1], "
    "[0, 1, 2, 3]], thread = [0, 0, 1, 8], workgroup = [4, 1, 0, 0]}>";

LoweringConfig makeConfig(const std::string &text) {
  auto parsed = LoweringConfig::parse(text);
  if (!parsed)
    qFatal("%s", parsed.error().c_str());
  return *parsed;
}

TranslationInfo translation(const std::string &text) {
  auto parsed = TranslationInfo::parse(text);
  if (!parsed)
    qFatal("%s", parsed.error().c_str());
  return *parsed;
}

std::vector<std::string> rules(const std::vector<Problem> &problems) {
  std::vector<std::string> names;
  for (const Problem &p : problems)
    names.push_back(p.rule);
  return names;
}

bool hasMessage(const std::vector<Problem> &problems, const std::string &text) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const Problem &p) { return p.message == text; });
}

std::string describe(const std::vector<Problem> &problems) {
  std::string out;
  for (const Problem &p : problems)
    out += "\n  " + p.rule + ": " + p.message;
  return out;
}

ValidationContext vectorDistribute(const std::string &space, int64_t threads,
                                   const char *target = "gfx942") {
  ValidationContext context;
  context.iterationSpace = *IterationSpace::parse(space);
  context.target = *builtinTarget(target);
  context.translationInfo =
      translation("#iree_codegen.translation_info<pipeline = "
                  "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [" +
                  std::to_string(threads) + ", 1, 1] subgroup_size = 64>");
  return context;
}

} // namespace

namespace {

// One minimal bad example per rule of the rule table, with what IREE does
// with it (the severity follows: a warning only where IREE compiles it).
struct RuleExample {
  RuleExample(const char *rule, Problem::IreeResponse iree, std::string config,
              std::string space = "4x16:pr", std::string translationText = {},
              std::string target = "gfx942", std::string decomposition = {})
      : rule(rule), iree(iree), config(std::move(config)),
        space(std::move(space)), translationText(std::move(translationText)),
        target(std::move(target)), decomposition(std::move(decomposition)) {}
  const char *rule;
  Problem::IreeResponse iree;
  std::string config; // the lowering_config's dictionary
  std::string space;
  std::string translationText; // empty: VectorDistribute, 64 threads
  std::string target;
  // An attention op's decomposition_config (the space is then attention's
  // (batch, M, K1, K2, N) with Q, K, V, scale and O operands).
  std::string decomposition;
  // The dispatch computes an op after this one (ValidationContext's).
  bool fusedConsumer = false;
};

// An attention decomposition_config: qk and pv configs of `qkKind` and
// `pvKind` with `qkSubgroupsOnM` / `pvSubgroupsOnM` subgroups along M.
std::string attentionDecomposition(const char *qkKind, const char *pvKind,
                                   int qkSubgroupsOnM, int pvSubgroupsOnM,
                                   bool qkBasis = true) {
  auto half = [](const char *kind, int onM, const char *mapping, bool basis) {
    return std::string("{lowering_config = #iree_gpu.lowering_config<{"
                       "mma_kind = #iree_gpu.mma_layout<") +
           kind + ">" +
           (basis ? ", subgroup_basis = [[1, " + std::to_string(onM) +
                        ", 1, 1, 1], " + mapping + "]"
                  : std::string()) +
           "}>}";
  };
  return "{pv_attrs = " + half(pvKind, pvSubgroupsOnM, "[0, 1, 3, 4]", true) +
         ", qk_attrs = " +
         half(qkKind, qkSubgroupsOnM, "[0, 1, 2, 3]", qkBasis) + "}";
}

std::string translationText(const char *pipeline, const char *size,
                            const char *subgroup = "64") {
  return std::string("#iree_codegen.translation_info<pipeline = "
                     "#iree_gpu.pipeline<") +
         pipeline + "> workgroup_size = " + size +
         " subgroup_size = " + subgroup + ">";
}

std::vector<RuleExample> ruleExamples() {
  using R = Problem::IreeResponse;
  const std::string vd64 = translationText("VectorDistribute", "[64, 1, 1]");
  const std::string mfma16 =
      "mma_kind = #iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, ";
  const std::string tf256 = translationText("TileAndFuse", "[256, 1, 1]");
  const std::string matmul = "64x64x64:ppr";
  std::vector<RuleExample> examples{
      {"iree-parser", R::Refuses, "workgroup = [1, 0], workgroup = [1, 0]"},
      {"unknown-key", R::Compiles, "bogus"},
      {"value-shape", R::Refuses, "workgroup = 5"},
      {"key-release", R::Refuses, "thread_basis = [[1, 64], [0, 1]]"},
      {"tile-rank", R::Refuses, "workgroup = [1]"},
      {"tile-negative", R::Unchecked, "workgroup = [-1, 0]"},
      {"workgroup-on-reduction", R::Compiles, "workgroup = [1, 4]"},
      {"reduction-on-parallel", R::Refuses, "partial_reduction = [4, 0]"},
      {"tile-exceeds-bound", R::Compiles, "workgroup = [8, 0]"},
      {"workgroup-divides-bound", R::Compiles, "workgroup = [3, 0]"},
      {"partial-reduction-divides-bound", R::Compiles,
       "partial_reduction = [0, 5]"},
      {"partial-reduction-thread-multiple", R::Asserts,
       "partial_reduction = [0, 12], thread = [0, 8]", "4x48:pr"},
      {"basis-count", R::Refuses, "lane_basis = [[0, 64], [0, 1]]"},
      {"basis-mapping-range", R::Unchecked, "lane_basis = [[64], [0, 3]]"},
      {"basis-permutation", R::Unchecked, "lane_basis = [[8, 8], [0, 0]]"},
      {"basis-rank", R::Asserts, "lane_basis = [[64], [0]]"},
      {"basis-product", R::Compiles, "lane_basis = [[1, 32], [0, 1]]"},
      {"basis-product-over", R::Unchecked, "lane_basis = [[2, 64], [0, 1]]"},
      {"workgroup-size-from-bases", R::Compiles,
       "subgroup_basis = [[1, 1], [0, 1]]", "4x16:pr",
       translationText("VectorDistribute", "[128, 1, 1]")},
      {"workgroup-size-short", R::Unchecked,
       "subgroup_basis = [[2, 1], [0, 1]]"},
      {"promotion-length", R::Refuses,
       "promote_operands = [0], promotion_types = []"},
      {"promotion-operand", R::Asserts, "promote_operands = [5]", matmul},
      {"pipeline-syntax", R::Refuses, "workgroup = [1, 0]", "4x16:pr",
       "#iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute "
       "workgroup_size = [64, 1, 1] subgroup_size = 64>"},
      {"pipeline-name", R::Refuses, "workgroup = [1, 0]", "4x16:pr",
       translationText("Bogus", "[64, 1, 1]")},
      {"pipeline-options-release", R::Refuses, "workgroup = [1, 0]", "4x16:pr",
       "#iree_codegen.translation_info<pipeline = "
       "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, "
       "1] subgroup_size = 64, {gpu_pipeline_options = "
       "#iree_gpu.pipeline_options<prefetch_shared_memory = true>}>"},
      {"target-subgroup-size", R::Unchecked, "workgroup = [1, 0]", "4x16:pr",
       translationText("VectorDistribute", "[64, 1, 1]", "32")},
      {"target-workgroup-size", R::Unchecked, "workgroup = [1, 0]", "4x16:pr",
       translationText("VectorDistribute", "[1, 2048, 1]")},
      {"target-thread-count", R::Unchecked, "workgroup = [1, 0]", "4x16:pr",
       translationText("VectorDistribute", "[512, 4, 1]")},
      {"target-mma", R::Unchecked,
       "mma_kind = #iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>", matmul, vd64,
       "sm_90"},
      {"mma-element-types", R::Refuses,
       "mma_kind = #iree_gpu.mma_layout<MFMA_I32_16x16x32_I8>", matmul},
      {"mma-subgroup-size", R::Unchecked,
       "mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>", matmul},
      {"mma-pipeline", R::Refuses,
       "mma_kind = #iree_gpu.virtual_mma_layout<VDMFMA_F32_8x16x64x2_F16>",
       matmul},
      {"mma-col-major-shape", R::Refuses,
       "mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16, "
       "col_major = true>",
       matmul, translationText("VectorDistribute", "[32, 1, 1]", "32"),
       "sm_90"},
      {"contraction-workgroup-padded", R::Compiles,
       "mma_kind = #iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>, reduction "
       "= [0, 0, 8], subgroup_basis = [[2, 2, 1], [0, 1, 2]], workgroup = "
       "[32, 64, 0]",
       matmul, translationText("VectorDistribute", "[256, 1, 1]")},
      {"contraction-reduction-multiple", R::Compiles,
       "mma_kind = #iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>, reduction "
       "= [0, 0, 12], subgroup_basis = [[1, 1, 1], [0, 1, 2]], workgroup = "
       "[32, 32, 0]",
       matmul, vd64},
      {"shared-memory", R::Refuses,
       mfma16 + "promote_operands = [0, 1], reduction = [0, 0, 128], "
                "subgroup_basis = [[2, 2, 1], [0, 1, 2]], workgroup = [128, "
                "192, 0]",
       "1024x1024x1024:ppr",
       translationText("VectorDistribute", "[256, 1, 1]")},
      // Attention's Q.K^T config without a subgroup basis: IREE cannot
      // distribute it.
      {"attention-layout", R::Refuses,
       "reduction = [0, 0, 0, 64, 0], workgroup = [1, 64, 0, 0, 64]",
       "4x256x64x512x64:pprrp", vd64, "gfx942",
       attentionDecomposition("MFMA_F32_16x16x16_F16", "MFMA_F32_16x16x16_F16",
                              1, 1, false)},
      // 16x16 against 32x32 at 16 query rows a subgroup: IREE's tile-size
      // analysis fails on the fill.
      {"attention-intrinsics", R::Refuses,
       "reduction = [0, 0, 0, 64, 0], workgroup = [1, 64, 0, 0, 64]",
       "4x256x64x512x64:pprrp",
       translationText("VectorDistribute", "[256, 1, 1]"), "gfx942",
       attentionDecomposition("MFMA_F32_16x16x16_F16", "MFMA_F32_32x32x8_F16",
                              4, 4)},
      // A K2 step of 16 under a 32x32 intrinsic's N.
      {"attention-k2-step", R::Refuses,
       "reduction = [0, 0, 0, 16, 0], workgroup = [1, 64, 0, 0, 64]",
       "4x256x64x512x64:pprrp", vd64, "gfx942",
       attentionDecomposition("MFMA_F32_32x32x8_F16", "MFMA_F32_32x32x8_F16", 1,
                              1)},
      // Q 256x64 + K 128x64 + V 128x64 + P 256x128 (S's accumulator is not
      // P.V's LHS layout without col_major), f16: 128 KiB.
      {"attention-shared-memory", R::Refuses,
       "reduction = [0, 0, 0, 128, 0], workgroup = [1, 256, 0, 0, 64]",
       "4x256x64x512x64:pprrp", vd64, "gfx942",
       attentionDecomposition("MFMA_F32_16x16x16_F16", "MFMA_F32_16x16x16_F16",
                              1, 1)},
      // One subgroup's basis on a workgroup of two.
      {"attention-subgroups", R::Compiles,
       "reduction = [0, 0, 0, 64, 0], workgroup = [1, 64, 0, 0, 64]",
       "4x256x64x512x64:pprrp",
       translationText("VectorDistribute", "[128, 1, 1]"), "gfx942",
       attentionDecomposition("MFMA_F32_16x16x16_F16", "MFMA_F32_16x16x16_F16",
                              1, 1)},
      // 144 rows of LHS (128 rounded up to 3 subgroups of 16) cannot take
      // 192 threads.
      {"promoted-copy-layout", R::Refuses,
       mfma16 + "promote_operands = [0, 1], reduction = [0, 0, 16], "
                "subgroup_basis = [[3, 1, 1], [0, 1, 2]], workgroup = [128, "
                "16, 0]",
       "384x64x64:ppr", translationText("VectorDistribute", "[192, 1, 1]")},
      // 64 / (2 x 16) = 2 subgroups on M and on N: 4 x 64 = 256 threads.
      {"tile-and-fuse-workgroup-size", R::Compiles,
       mfma16 + "reduction = [0, 0, 2], subgroup = [2, 2, 0], workgroup = "
                "[64, 64, 0]",
       matmul, translationText("TileAndFuse", "[512, 1, 1]")},
      // K = 40 (48 aligned to the intrinsic) in one step of 4 x 16 = 64:
      // padded, compiled.
      {"tile-and-fuse-reduction-multiple", R::Compiles,
       mfma16 + "reduction = [0, 0, 4], subgroup = [2, 2, 0], workgroup = "
                "[64, 64, 0]",
       "256x256x40:ppr", tf256},
      // 3 steps of 4 scale blocks leave a padded last step of a loop over
      // 32 blocks (one step covering all of K would compile); the same for
      // 3 x 16 over K = 256.
      {"tile-and-fuse-padded-reduction-loop", R::Refuses,
       "mma_kind = #iree_gpu.scaled_mma_layout<intrinsic = "
       "MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, "
       "rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, reduction = [0, 0, "
       "3, 1], subgroup = [2, 2, 0, 0], workgroup = [64, 64, 0, 0]",
       "256x256x32x32:pprr", tf256, "gfx950"},
      // 64 lanes on d1, whose step holds 256 / 8 = 32 vectors.
      {"lanes-past-the-step", R::Compiles,
       "lane_basis = [[1, 64], [0, 1]], partial_reduction = [0, 256], "
       "subgroup_basis = [[1, 1], [0, 1]], thread = [0, 8], workgroup = [1, "
       "0]",
       "26624x16384:pr"},
      // 16 = 1 intrinsic tile of M, 3 to a subgroup.
      {"tile-and-fuse-subgroup-tile-over", R::Compiles,
       mfma16 + "reduction = [0, 0, 2], subgroup = [3, 2, 0], workgroup = "
                "[16, 64, 0]",
       matmul, translationText("TileAndFuse", "[128, 1, 1]")},
      {"tile-and-fuse-subgroup-share", R::Refuses,
       mfma16 + "reduction = [0, 0, 2], subgroup = [3, 2, 0], workgroup = "
                "[64, 64, 0]",
       matmul, tf256},
      // 81 = 2 x 32 + 17, and each subgroup takes two intrinsic tiles of M.
      {"tile-and-fuse-mma-partial-tile", R::Refuses,
       mfma16 + "reduction = [0, 0, 4], subgroup = [2, 2, 0], workgroup = "
                "[32, 64, 0]",
       "81x64x64:ppr", translationText("TileAndFuse", "[128, 1, 1]")},
  };
  // A reduction whose last workgroup is partial, with a bias add fused
  // after it (examples/sources/matvec_bias_f16.mlir).
  RuleExample fused("workgroup-divides-bound-fused-consumer", R::Refuses,
                    "lane_basis = [[1, 64], [0, 1]], workgroup = [3, 0]");
  fused.fusedConsumer = true;
  examples.push_back(std::move(fused));
  return examples;
}

} // namespace

class ConfigModelTest : public QObject {
  Q_OBJECT

private slots:
  void readsTheSeedReduction() {
    const LoweringConfig c = makeConfig(kSeedReduction);
    QCOMPARE(c.tileSizes(TilingLevel::Workgroup).value(),
             (std::vector<int64_t>{4, 1, 0, 0}));
    QCOMPARE(c.tileSizes(TilingLevel::PartialReduction).value(),
             (std::vector<int64_t>{0, 0, 64, 0}));
    QCOMPARE(c.tileSizes(TilingLevel::Thread).value(),
             (std::vector<int64_t>{0, 0, 1, 8}));
    QCOMPARE(c.laneBasis()->counts, (std::vector<int64_t>{1, 1, 64, 1}));
    QCOMPARE(c.laneBasis()->product(), int64_t(64));
    QCOMPARE(c.subgroupBasis()->mapping, (std::vector<int64_t>{0, 1, 2, 3}));
    const ExpandDims dims = c.expandDims().value();
    QCOMPARE(dims.reassociation.size(), size_t(3));
    QCOMPARE(dims.reassociation[2], (std::vector<int64_t>{2, 3}));
    QVERIFY(!dims.outputShape[0].has_value());
    QCOMPARE(dims.outputShape[3].value(), int64_t(8));
    QVERIFY(c.notes().empty() ||
            c.notes().front().kind == ReadNote::Kind::LegacyKey);
    QCOMPARE(c.print(), std::string(kSeedReduction));
  }

  void readsEveryKey() {
    const LoweringConfig c = makeConfig(
        "#iree_gpu.lowering_config<{convert_acc_gemm, lane = [1, 2], "
        "lowering_strategy = \"seq\", mma_kind = "
        "#iree_gpu.virtual_mma_layout<VMFMA_F32_32x32x16_F16, col_major = "
        "true>, "
        "padding = [1, 2], padding_conv = [1], promote_operands = [0, 1], "
        "promotion_types = [#iree_gpu.derived_thread_config, "
        "#iree_gpu.use_global_load_dma], reduction = [0, 0, 4], serial = [0, "
        "1], "
        "subgroup = [2, 4, 0], subgroup_m_count = 2 : i64, thread_basis = "
        "[[16, "
        "4], [1, 0]], workgroup_reordering_strategy = "
        "#iree_gpu.conditional_transpose<8, 38>, zzz_unknown = 3 : i64}>");
    QVERIFY(c.convertAccGemm());
    QCOMPARE(c.tileSizes(TilingLevel::Lane).value(),
             (std::vector<int64_t>{1, 2}));
    QCOMPARE(c.loweringStrategy().value(), std::string("seq"));
    QCOMPARE(c.mmaKind()->intrinsic, std::string("VMFMA_F32_32x32x16_F16"));
    QVERIFY(c.mmaKind()->colMajor && c.mmaKind()->isVirtual());
    QCOMPARE(c.padding().value(), (std::vector<int64_t>{1, 2}));
    QCOMPARE(c.paddingConv().value(), (std::vector<int64_t>{1}));
    QCOMPARE(c.promotionTypes()->elements.size(), size_t(2));
    QCOMPARE(c.tileSizes(TilingLevel::Serial).value(),
             (std::vector<int64_t>{0, 1}));
    QCOMPARE(c.subgroupMCount().value(), int64_t(2));
    QCOMPARE(c.laneBasis()->counts,
             (std::vector<int64_t>{16, 4})); // thread_basis
    QVERIFY(c.workgroupReorderingStrategy()->isDialect(
        "iree_gpu", "conditional_transpose"));
    const auto notes = c.notes();
    QVERIFY(std::any_of(notes.begin(), notes.end(), [](const ReadNote &n) {
      return n.kind == ReadNote::Kind::UnknownKey && n.key == "zzz_unknown";
    }));
    QVERIFY(std::any_of(notes.begin(), notes.end(), [](const ReadNote &n) {
      return n.kind == ReadNote::Kind::LegacyKey && n.key == "thread_basis";
    }));
    // Unknown keys are kept verbatim through a write.
    QVERIFY(c.print().find("zzz_unknown = 3 : i64") != std::string::npos);
  }

  void editsAndWritesInIreesOrder() {
    LoweringConfig c =
        makeConfig("#iree_gpu.lowering_config<{workgroup = [1, 0]}>");
    c.setTileSizes(TilingLevel::Thread, {0, 8});
    c.setLaneBasis({{1, 64}, {0, 1}});
    c.setMmaKind({"mma_layout", "MFMA_F32_16x16x16_F16", false});
    c.set("convert_acc_gemm", Attribute::unit());
    QCOMPARE(
        c.print(),
        std::string("#iree_gpu.lowering_config<{convert_acc_gemm, lane_basis = "
                    "[[1, 64], [0, 1]], mma_kind = "
                    "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, thread = [0, "
                    "8], workgroup = [1, 0]}>"));
    c.erase("mma_kind");
    QVERIFY(!c.has("mma_kind"));
    QVERIFY(
        !LoweringConfig::parse("#iree_codegen.translation_info<pipeline = x>")
             .ok());
    QVERIFY(!LoweringConfig::parse("#iree_gpu.lowering_config<[1]>").ok());
  }

  void readsTranslationInfoInBothSyntaxes() {
    const TranslationInfo modern = translation(
        "#iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] "
        "subgroup_size = 64, {gpu_pipeline_options = "
        "#iree_gpu.pipeline_options<prefetch_num_stages = 2, "
        "no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution "
        "= "
        "false>, iree_codegen.denormal_fp_math_f32 = "
        "#iree_codegen.denormal_fp_math<\"preserve-sign\">, llvm_func_attrs = "
        "{\"amdgpu-waves-per-eu\" = \"2\"}}>");
    QCOMPARE(modern.pipelineName(), std::string("VectorDistribute"));
    QVERIFY(modern.pipelineSyntax() == PipelineSyntax::GpuPipelineAttribute);
    QCOMPARE(modern.workgroupSize.value(), (std::vector<int64_t>{64, 1, 1}));
    QCOMPARE(modern.subgroupSize.value(), int64_t(64));
    QCOMPARE(modern.pipelineOptions()->prefetchNumStages.value(), int64_t(2));
    QVERIFY(modern.llvmFuncAttrs());
    QVERIFY(modern.denormalFpMathF32());

    const TranslationInfo legacy = translation(
        "#iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute "
        "workgroup_size = [64, 1, 1] subgroup_size = 64, {gpu_pipeline_options "
        "= "
        "#iree_gpu.pipeline_options<prefetch_shared_memory = true>}>");
    QCOMPARE(legacy.pipelineName(), std::string("VectorDistribute"));
    QVERIFY(legacy.pipelineSyntax() == PipelineSyntax::LegacyKeyword);
    QCOMPARE(legacy.pipelineOptions()->prefetchSharedMemory.value(), true);

    // Written in IREE's order whatever order it was read in.
    TranslationInfo edited =
        translation("#iree_codegen.translation_info<pipeline = "
                    "#iree_gpu.pipeline<VectorDistribute> subgroup_size = 64 "
                    "workgroup_size = "
                    "[128, 1, 1]>");
    edited.setPipeline("TileAndFuse");
    PipelineOptions options;
    options.useIgemmConvolution = true;
    options.prefetchNumStages = 3;
    edited.setPipelineOptions(options);
    QCOMPARE(
        edited.print(),
        std::string("#iree_codegen.translation_info<pipeline = "
                    "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, "
                    "1] subgroup_size = 64, {gpu_pipeline_options = "
                    "#iree_gpu.pipeline_options<prefetch_num_stages = 3, "
                    "use_igemm_convolution = true>}>"));
  }

  void readsCompilationInfoAndLayouts() {
    auto info = CompilationInfo::parse(
        "#iree_codegen.compilation_info<lowering_config = "
        "#iree_gpu.lowering_config<{workgroup = [1, 0]}>, translation_info = "
        "#iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] "
        "subgroup_size = 64>>");
    QVERIFY(info.ok());
    // Inside compilation_info IREE prints translation_info type-elided.
    QCOMPARE(
        info->print(),
        std::string("#iree_codegen.compilation_info<lowering_config = "
                    "#iree_gpu.lowering_config<{workgroup = [1, 0]}>, "
                    "translation_info = <pipeline = "
                    "#iree_gpu.pipeline<VectorDistribute> workgroup_size = "
                    "[64, 1, 1] subgroup_size = 64>>"));
    QVERIFY(info->gpuLoweringConfig().has_value());

    auto layout = NestedLayoutAttr::parse(
        "#iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = "
        "[3, "
        "2], outer_tile = [1, 1], thread_tile = [32, 2], element_tile = [1, "
        "4], "
        "subgroup_strides = [1, 1], thread_strides = [1, 32]>");
    QVERIFY(layout.ok());
    QCOMPARE(layout->threadTile, (std::vector<int64_t>{32, 2}));
    // Strides of unit tiles normalize to 0, as NestedLayoutAttr::get does.
    QVERIFY(layout->print().find("subgroup_strides = [0, 0]") !=
            std::string::npos);
    QVERIFY(
        !NestedLayoutAttr::parse(
             "#iree_vector_ext.nested_layout<subgroup_tile = [1], batch_tile = "
             "[1, 2], outer_tile = [1], thread_tile = [1], element_tile = [1], "
             "subgroup_strides = [0], thread_strides = [0]>")
             .ok());

    auto xorShuffle = XorShuffleAttr::fromAttribute(
        *parseResolvedAttribute("#iree_codegen.xor_shuffle<128, 16, 256, 2>"));
    QVERIFY(xorShuffle.ok());
    QCOMPARE(xorShuffle->effectivePerPhase(), int64_t(2));
    QCOMPARE(printAttribute(xorShuffle->toAttribute()),
             std::string("#iree_codegen.xor_shuffle<128, 16, 256, 2>"));
    auto defaults = XorShuffleAttr::fromAttribute(
        *parseResolvedAttribute("#iree_codegen.xor_shuffle<128, 16>"));
    QCOMPARE(defaults->effectiveRowStride(), int64_t(128));
    QCOMPARE(defaults->effectivePerPhase(), int64_t(1));
    auto rotate = RotateRowsAttr::fromAttribute(
        *parseResolvedAttribute("#iree_codegen.rotate_rows<64, 4>"));
    QCOMPARE(rotate->accessWidth, int64_t(4));
    QVERIFY(!RotateRowsAttr::fromAttribute(
                 *parseResolvedAttribute("#iree_codegen.rotate_rows<64>"))
                 .ok());
  }

  void readsPromotionDecompositionAndCpuConfigs() {
    const LoweringConfig c =
        makeConfig("#iree_gpu.lowering_config<{promote_operands = [0, 1, 2], "
                   "promotion_types "
                   "= [#iree_gpu.swizzle_operand<copy_config = "
                   "#iree_gpu.use_global_load_dma, "
                   "swizzle = #iree_codegen.xor_shuffle<128, 16>>, "
                   "#iree_gpu.promote_with_cache_swizzle<#iree_gpu.derived_"
                   "thread_config>, "
                   "#iree_gpu.swizzle_operand<copy_config = "
                   "#iree_gpu.derived_thread_config, "
                   "swizzle = #iree_codegen.rotate_rows<64, 4>>]}>");
    const auto types = promotionTypes(c);
    QCOMPARE(types.size(), size_t(3));
    QCOMPARE(types[0].xorShuffle->rowWidth, int64_t(128));
    QVERIFY(types[0].copyConfig->isDialect("iree_gpu", "use_global_load_dma"));
    QCOMPARE(types[1].kind, std::string("promote_with_cache_swizzle"));
    QVERIFY(types[1].inner->isDialect("iree_gpu", "derived_thread_config"));
    QCOMPARE(types[2].rotateRows->accessWidth, int64_t(4));

    auto decomposition =
        DecompositionConfig::fromAttribute(*parseResolvedAttribute(
            "{pv_attrs = {lowering_config = #iree_gpu.lowering_config<{thread "
            "= [0, "
            "0, 4]}>}, qk_attrs = {attention_qk_matmul, lowering_config = "
            "#iree_gpu.lowering_config<{lane_basis = [[1, 1, 64], [0, 1, "
            "2]]}>}}"));
    QVERIFY(decomposition.ok());
    QCOMPARE(decomposition->qk->laneBasis()->product(), int64_t(64));
    QCOMPARE(decomposition->pv->tileSizes(TilingLevel::Thread).value(),
             (std::vector<int64_t>{0, 0, 4}));

    auto cpu = CpuLoweringConfig::fromAttribute(
        *parseResolvedAttribute("#iree_cpu.lowering_config<cache_parallel = "
                                "[16, 64, 0], distribution = "
                                "[16, 64, 0], vector_common_parallel = [8, 4, "
                                "0], vector_reduction = [0, "
                                "0, 4]>"));
    QCOMPARE(cpu->levels.at("vector_reduction"),
             (std::vector<int64_t>{0, 0, 4}));
    auto legacy = CpuLoweringConfig::fromAttribute(
        *parseResolvedAttribute("#iree_codegen.lowering_config<tile_sizes = "
                                "[[64, 64, 0], [8, 8, 0]]>"));
    QCOMPARE(legacy->levels.at("tile_sizes[1]"),
             (std::vector<int64_t>{8, 8, 0}));
  }

  void convertsBetweenReleases() {
    const std::string old =
        "#iree_codegen.compilation_info<lowering_config = "
        "#iree_gpu.lowering_config<{thread_basis = [[1, 64], [0, 1]], "
        "workgroup = "
        "[1, 0]}>, translation_info = <pipeline = LLVMGPUVectorDistribute "
        "workgroup_size = [64, 1, 1] subgroup_size = 64, {gpu_pipeline_options "
        "= "
        "#iree_gpu.pipeline_options<prefetch_shared_memory = true>}>>";
    auto modern = convertForRelease(*parseResolvedAttribute(old), "3.13");
    QCOMPARE(modern.applied,
             (std::vector<std::string>{
                 "thread-basis-to-lane-basis", "pipeline-keyword-to-attribute",
                 "prefetch-shared-memory-to-num-stages"}));
    const std::string converted = printAttribute(modern.attribute);
    QVERIFY(converted.find("lane_basis") != std::string::npos);
    QVERIFY(converted.find("#iree_gpu.pipeline<VectorDistribute>") !=
            std::string::npos);
    QVERIFY(converted.find("prefetch_num_stages = 2") != std::string::npos);
    // And back.
    auto back = convertForRelease(modern.attribute, "3.6");
    QCOMPARE(printAttribute(back.attribute), old);
    // No conversion for expand_dims: say what to do instead.
    auto seed =
        convertForRelease(*parseResolvedAttribute(kSeedReduction), "3.13");
    QCOMPARE(seed.impossible.size(), size_t(1));
    QVERIFY(seed.impossible.front().find("partial_reduction") !=
            std::string::npos);
  }

  void describesTargets() {
    for (const char *name :
         {"gfx942", "gfx950", "gfx1100", "sm_80", "sm_90", "mi300x", "H100"}) {
      auto target = builtinTarget(name);
      QVERIFY2(target.has_value(), name);
      QVERIFY(target->maxWorkgroupMemoryBytes > 0);
      QVERIFY(!target->subgroupSizeChoices.empty());
      QVERIFY(target->peakMemoryBytesPerSecond > 0);
      QVERIFY(!target->peakMatrixOpsPerSecond.empty());
    }
    QVERIFY(builtinTarget("gfx942")->offersMma("MFMA_F32_32x32x8_F16"));
    QVERIFY(!builtinTarget("sm_90")->offersMma("MFMA_F32_32x32x8_F16"));
    QCOMPARE(builtinTarget("gfx942")->maxWorkgroupMemoryBytes, int64_t(65536));
    QVERIFY(!resolveTarget("tpu-v9").ok());
  }

  void readsTargetsFromExamples() {
    // The target IREE wrote into each example reads back as the built-in one.
    iree::DocumentParser parser(test::projectCompiler());
    for (const auto &[folder, arch] : {std::pair{"rocm_gfx942", "gfx942"},
                                       std::pair{"cuda_sm_90", "sm_90"}}) {
      for (const auto &path : test::exampleBenchmarks(folder)) {
        auto document = parser.parseFile(path);
        QVERIFY(document.ok());
        auto target = gpuTargetFromText(document->dispatches.front().target);
        QVERIFY2(target.ok(), target.ok() ? "" : target.error().c_str());
        const GpuTarget builtin = *builtinTarget(arch);
        QCOMPARE(target->arch, builtin.arch);
        QCOMPARE(target->mmaIntrinsics, builtin.mmaIntrinsics);
        QCOMPARE(target->maxWorkgroupMemoryBytes,
                 builtin.maxWorkgroupMemoryBytes);
        QCOMPARE(target->subgroupSizeChoices, builtin.subgroupSizeChoices);
        QVERIFY(target->peakMemoryBytesPerSecond > 0);
      }
    }
  }

  void intrinsicShapes() {
    auto s = intrinsicShape("MFMA_F32_32x32x8_F16").value();
    QCOMPARE(s.m, int64_t(32));
    QCOMPARE(s.k, int64_t(8));
    QCOMPARE(s.subgroupSize, int64_t(64));
    QCOMPARE(s.aType, std::string("f16"));
    QCOMPARE(s.cType, std::string("f32"));
    auto nv = intrinsicShape("NV_MMA_SYNC_F32_16x8x16_F16").value();
    QCOMPARE(nv.n, int64_t(8));
    QCOMPARE(nv.subgroupSize, int64_t(32));
    auto block = intrinsicShape("MFMA_F32_16x16x4x4B_F16").value();
    QCOMPARE(block.blocks, int64_t(4));
    auto fp8 =
        intrinsicShape("MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ").value();
    QCOMPARE(fp8.bType, std::string("f8E4M3FNUZ"));
    QVERIFY(!intrinsicShape("NOT_AN_INTRINSIC").has_value());
    QVERIFY(!intrinsicShape("MFMA_F32_16x16x0_F16").has_value());
  }

  // --- validation: each rule fires on a minimal bad example -----------------

  void ruleWorkgroupDividesBound() {
    const auto problems = validate(
        makeConfig("#iree_gpu.lowering_config<{workgroup = [1, 96, 0]}>"),
        vectorDistribute("4x6656x16384:ppr", 64));
    QVERIFY2(hasMessage(
                 problems,
                 "workgroup[1]=96 does not divide 6656 (6656 = 69 x 96 + 32): "
                 "IREE compiles it, the last workgroup along d1 covering only "
                 "32 of its 96 (its loads and stores are masked)"),
             describe(problems).c_str());
    // A reduction-style VectorDistribute config: IREE refuses a partial
    // workgroup where an op is fused after it (ResNet's classifier with its
    // bias), which the config alone cannot tell: the message says so.
    const auto reduction = validate(
        makeConfig("#iree_gpu.lowering_config<{lane_basis = [[1, 1, 64], [0, "
                   "1, 2]], partial_reduction = [0, 0, 256], subgroup_basis = "
                   "[[1, 1, 1], [0, 1, 2]], thread = [0, 0, 4], workgroup = "
                   "[1, 16, 0]}>"),
        vectorDistribute("1x1000x256:ppr", 64));
    QVERIFY2(hasMessage(
                 reduction,
                 "workgroup[1]=16 does not divide 1000 (1000 = 62 x 16 + 8): "
                 "IREE compiles it, the last workgroup along d1 covering only "
                 "8 of its 16 (its loads and stores are masked); but where "
                 "the dispatch fuses an op after this one (a bias add), IREE "
                 "3.13 refuses it ('tensor.empty' op incorrect number of "
                 "dynamic sizes)"),
             describe(reduction).c_str());
    // Where the dispatch is known, the rule says which: an error when an op
    // is fused after it (property_compile_claims' matvec + bias holds it to
    // iree-compile), the plain warning when none is.
    const auto config = makeConfig(
        "#iree_gpu.lowering_config<{lane_basis = [[1, 1, 64], [0, 1, 2]], "
        "partial_reduction = [0, 0, 256], subgroup_basis = [[1, 1, 1], [0, 1, "
        "2]], thread = [0, 0, 4], workgroup = [1, 16, 0]}>");
    auto context = vectorDistribute("1x1000x256:ppr", 64);
    context.fusedConsumer = true;
    const auto fused = validate(config, context);
    QVERIFY2(hasMessage(fused,
                        "workgroup[1]=16 does not divide 1000 (1000 = 62 x 16 "
                        "+ 8) and the dispatch fuses an op after this one: "
                        "IREE 3.13 refuses the partial last workgroup "
                        "('tensor.empty' op incorrect number of dynamic "
                        "sizes); use a tile that divides 1000"),
             describe(fused).c_str());
    QVERIFY(std::any_of(fused.begin(), fused.end(), [](const Problem &p) {
      return p.rule == "workgroup-divides-bound-fused-consumer" &&
             p.severity == Problem::Severity::Error;
    }));
    context.fusedConsumer = false;
    QVERIFY2(hasMessage(validate(config, context),
                        "workgroup[1]=16 does not divide 1000 (1000 = 62 x 16 "
                        "+ 8): IREE compiles it, the last workgroup along d1 "
                        "covering only 8 of its 16 (its loads and stores are "
                        "masked)"),
             describe(validate(config, context)).c_str());
    for (const Problem &p : validate(config, context))
      QVERIFY2(p.message.find("but where the dispatch") == std::string::npos,
               p.message.c_str());
  }

  void ruleLaneBasisProduct() {
    const auto problems = validate(
        makeConfig("#iree_gpu.lowering_config<{lane_basis = [[8, 4], [0, 1, "
                   "2]], workgroup = [1, 1, 0]}>"),
        vectorDistribute("4x6656x16384:ppr", 64));
    QVERIFY2(
        hasMessage(problems,
                   "lane_basis counts multiply to 32 of the 64 lanes of a "
                   "subgroup: IREE compiles it, and lanes 32 to 63 hold the "
                   "same elements as lanes 0 to 31 (lane ids wrap), repeating "
                   "their work"),
        describe(problems).c_str());
  }

  // A count that is not positive is its own error; the lanes a product of
  // such counts would name are not described (a negative count saturated
  // the product, and "lanes 0 to product - 1" overflowed: found by
  // fuzz_attribute, regression_negative_basis_count in its corpus).
  void ruleLaneBasisProductNeedsPositiveCounts() {
    const auto problems = validate(
        makeConfig("#iree_gpu.lowering_config<{lane_basis = "
                   "[[9223372036854775807, -4], [0, 1]], workgroup = [1, 0]}>"),
        vectorDistribute("64x64:pr", 64));
    QVERIFY2(hasMessage(problems, "lane_basis count -4 must be positive"),
             describe(problems).c_str());
    for (const auto &problem : problems)
      QVERIFY2(problem.rule != "basis-product" &&
                   problem.rule != "basis-product-over",
               describe(problems).c_str());
  }

  void ruleMappingIsAPermutation() {
    const auto problems =
        validate(makeConfig("#iree_gpu.lowering_config<{lane_basis = [[1, 1, "
                            "64], [0, 0, 1]]}>"),
                 vectorDistribute("4x6656x16384:ppr", 64));
    QVERIFY2(
        hasMessage(problems,
                   "mapping [0, 0, 1] is not a permutation: each iteration "
                   "dimension needs its own basis axis"),
        describe(problems).c_str());
  }

  void ruleWorkgroupSizeFromBases() {
    const auto problems = validate(
        makeConfig(
            "#iree_gpu.lowering_config<{subgroup_basis = [[4, 1], [0, 1]], "
            "workgroup = [4, 0]}>"),
        vectorDistribute("4x16384:pr", 320));
    QVERIFY2(hasMessage(problems,
                        "workgroup_size [320, 1, 1] has 320 threads; "
                        "subgroup_basis (4 x 1) x subgroup_size 64 = 256 "
                        "threads: IREE compiles it, and the subgroups past the "
                        "basis repeat the work of the first ones (subgroup ids "
                        "wrap)"),
             describe(problems).c_str());
  }

  void ruleTileAndFuseWorkgroupSize() {
    ValidationContext context;
    context.iterationSpace = *IterationSpace::parse("1024x1024x1024:ppr");
    context.iterationSpace->operands = {
        {"f16", {0, 2}, false}, {"f16", {1, 2}, false}, {"f32", {0, 1}, true}};
    context.translationInfo =
        translation("#iree_codegen.translation_info<pipeline = "
                    "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [512, 1, "
                    "1] subgroup_size = 64>");
    context.target = builtinTarget("gfx942");
    const auto problems =
        validate(makeConfig("#iree_gpu.lowering_config<{mma_kind = "
                            "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, "
                            "promote_operands = [0, 1], reduction = [0, 0, 8], "
                            "subgroup = [2, 4, 0], workgroup = [64, 128, 0]}>"),
                 context);
    QVERIFY2(hasMessage(problems,
                        "workgroup_size [512, 1, 1] is not [256, 1, 1]: "
                        "TileAndFuse runs (64 / (2 x MFMA_F32_16x16x16_F16 M "
                        "16) = 2) x (128 / (4 x N 16) = 2) subgroups x "
                        "subgroup_size 64; the workgroup's accumulator tile "
                        "then goes to shared memory as well (the "
                        "shared-memory estimate counts it)"),
             describe(problems).c_str());
  }

  // Tile sizes near the top of int64_t give a message, not an overflow.
  void absurdSizesDoNotOverflow() {
    ValidationContext context = vectorDistribute("4x6656x16384:ppr", 64);
    const auto problems = validate(
        makeConfig("#iree_gpu.lowering_config<{lane_basis = [[4294967296, "
                   "4294967296, 9223372036854775807], [0, 1, 2]], "
                   "subgroup_basis = [[9223372036854775807, 2, 1], [0, 1, "
                   "2]], workgroup = [9223372036854775807, 1, 0]}>"),
        context);
    QVERIFY2(hasMessage(problems,
                        "lane_basis counts multiply to 9223372036854775807; "
                        "subgroup size is 64: the basis names lanes 64 to "
                        "9223372036854775806 that do not exist, so no lane "
                        "holds the elements it gives them (IREE does not "
                        "check this)"),
             describe(problems).c_str());
    const auto names = rules(problems);
    QVERIFY(std::find(names.begin(), names.end(), "workgroup-size-short") !=
            names.end());
  }

  void ruleSharedMemory() {
    ValidationContext context = vectorDistribute("1024x1024x1024:ppr", 256);
    context.iterationSpace->operands = {
        {"f16", {0, 2}, false}, {"f16", {1, 2}, false}, {"f32", {0, 1}, true}};
    const auto problems = validate(
        makeConfig(
            "#iree_gpu.lowering_config<{mma_kind = "
            "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, promote_operands = "
            "[0, "
            "1], reduction = [0, 0, 128], subgroup_basis = [[2, 2, 1], [0, 1, "
            "2]], workgroup = [128, 192, 0]}>"),
        context);
    QVERIFY2(hasMessage(problems,
                        "estimated shared memory 80 KiB > 64 KiB on gfx942 "
                        "(LHS 128x128 + RHS 192x128 per reduction step)"),
             describe(problems).c_str());
  }

  void ruleMmaOfferedByTarget() {
    ValidationContext context =
        vectorDistribute("1024x1024x1024:ppr", 256, "sm_90");
    const auto problems = validate(
        makeConfig(
            "#iree_gpu.lowering_config<{mma_kind = "
            "#iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>, workgroup = [64, 64, "
            "0]}>"),
        context);
    QVERIFY2(hasMessage(problems,
                        "MFMA_F32_32x32x8_F16 is not offered by sm_90: IREE "
                        "does not check mma_kind against the target before "
                        "generating code, and sm_90 has no such instruction"),
             describe(problems).c_str());
    QVERIFY(hasMessage(problems,
                       "subgroup_size 64 is not offered by sm_90 (choices: "
                       "32): IREE does not check it against the target and "
                       "compiles for subgroups the hardware does not have"));
  }

  void ruleContractionMultiples() {
    ValidationContext context = vectorDistribute("1024x1024x1024:ppr", 256);
    context.iterationSpace->operands = {
        {"f16", {0, 2}, false}, {"f16", {1, 2}, false}, {"f32", {0, 1}, true}};
    const auto problems =
        validate(makeConfig("#iree_gpu.lowering_config<{mma_kind = "
                            "#iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>, "
                            "reduction = [0, 0, 12], "
                            "subgroup_basis = [[2, 2, 1], [0, 1, 2]], "
                            "workgroup = [32, 64, 0]}>"),
                 context);
    const auto names = rules(problems);
    QVERIFY2(hasMessage(problems,
                        "workgroup[0]=32 (M) is not a multiple of 64 = "
                        "MFMA_F32_32x32x8_F16 M 32 x 2 subgroups: IREE "
                        "compiles it, padding the tile to 64 and masking the "
                        "rest"),
             describe(problems).c_str());
    QVERIFY(hasMessage(problems,
                       "reduction[2]=12 is not a multiple of "
                       "MFMA_F32_32x32x8_F16 K 8: IREE compiles it, padding "
                       "each K step to 16"));
    // Both compile: warnings, not errors.
    for (const Problem &problem : problems)
      QVERIFY2(problem.severity == Problem::Severity::Warning,
               describe(problems).c_str());
  }

  void ruleOtherShapes() {
    const auto problems =
        validate(makeConfig("#iree_gpu.lowering_config<{workgroup = [1, 0], "
                            "partial_reduction = "
                            "[4, 0], reduction = [0, -1], thread = [0, 8, 1], "
                            "promote_operands = "
                            "[0], promotion_types = [], bogus}>"),
                 vectorDistribute("4x16384:pr", 64));
    const auto names = rules(problems);
    for (const char *rule : {"reduction-on-parallel", "tile-negative",
                             "tile-rank", "promotion-length", "unknown-key"})
      QVERIFY2(std::find(names.begin(), names.end(), rule) != names.end(),
               (std::string(rule) + describe(problems)).c_str());
  }

  void ruleReleaseSyntax() {
    ValidationContext context = vectorDistribute("4x6656x16384:ppr", 64);
    context.translationInfo = translation(
        "#iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute "
        "workgroup_size = [64, 1, 1] subgroup_size = 64, {gpu_pipeline_options "
        "= "
        "#iree_gpu.pipeline_options<prefetch_shared_memory = true>}>");
    auto problems = validate(makeConfig(kSeedReduction), context);
    auto names = rules(problems);
    QCOMPARE(std::count(names.begin(), names.end(), "key-release"),
             1L); // expand_dims
    QCOMPARE(std::count(names.begin(), names.end(), "pipeline-syntax"), 1L);
    QCOMPARE(std::count(names.begin(), names.end(), "pipeline-options-release"),
             1L);
    // The same config is fine for 3.11, the release it was written for.
    context.ireeRelease = "3.11";
    context.translationInfo = translation(
        "#iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute "
        "workgroup_size = [64, 1, 1] subgroup_size = 64>");
    problems = validate(makeConfig(kSeedReduction), context);
    QVERIFY2(problems.empty(), describe(problems).c_str());
  }

  void everyRuleFiresOnAMinimalBadExample_data() {
    QTest::addColumn<int>("index");
    const auto examples = ruleExamples();
    for (size_t i = 0; i < examples.size(); ++i)
      QTest::newRow(examples[i].rule) << static_cast<int>(i);
  }

  void everyRuleFiresOnAMinimalBadExample() {
    QFETCH(int, index);
    const RuleExample example = ruleExamples()[static_cast<size_t>(index)];
    ValidationContext context;
    context.iterationSpace = *IterationSpace::parse(example.space);
    if (context.iterationSpace->rank() == 3)
      context.iterationSpace->operands = {{"f16", {0, 2}, false},
                                          {"f16", {1, 2}, false},
                                          {"f32", {0, 1}, true}};
    // Rank 5 with a decomposition_config: attention (b, m, k1, k2, n).
    if (!example.decomposition.empty()) {
      context.iterationSpace->operands = {{"f16", {0, 1, 2}, false},
                                          {"f16", {0, 3, 2}, false},
                                          {"f16", {0, 3, 4}, false},
                                          {"f16", {}, false},
                                          {"f32", {0, 1, 4}, true}};
      auto decomposition = DecompositionConfig::fromAttribute(
          *parseResolvedAttribute(example.decomposition));
      QVERIFY2(decomposition, example.decomposition.c_str());
      context.decomposition = *decomposition;
    }
    // Rank 4 (M, N, K/block, block): a scaled FP4 contraction.
    if (context.iterationSpace->rank() == 4)
      context.iterationSpace->operands = {{"f4E2M1FN", {0, 2, 3}, false},
                                          {"f4E2M1FN", {1, 2, 3}, false},
                                          {"f8E8M0FNU", {0, 2}, false},
                                          {"f8E8M0FNU", {1, 2}, false},
                                          {"f32", {0, 1}, true}};
    const std::string text =
        "#iree_gpu.lowering_config<{" + example.config + "}>";
    context.loweringConfigText = *parseResolvedAttribute(text);
    const std::string info =
        example.translationText.empty()
            ? translationText("VectorDistribute", "[64, 1, 1]")
            : example.translationText;
    context.translationInfo = translation(info);
    context.translationInfoText = *parseResolvedAttribute(info);
    context.target = *builtinTarget(example.target);
    if (example.fusedConsumer)
      context.fusedConsumer = true;
    const auto problems = layout::validate(makeConfig(text), context);
    auto fired =
        std::find_if(problems.begin(), problems.end(),
                     [&](const Problem &p) { return p.rule == example.rule; });
    QVERIFY2(fired != problems.end(),
             (std::string(example.rule) + " did not fire:" + describe(problems))
                 .c_str());
    QCOMPARE(toString(fired->iree), toString(example.iree));
    QCOMPARE(toString(fired->severity),
             toString(example.iree == Problem::IreeResponse::Compiles
                          ? Problem::Severity::Warning
                          : Problem::Severity::Error));
    // Every problem names the IREE code its rule mirrors (a rule missing
    // from the rule table would not).
    for (const Problem &problem : problems)
      QVERIFY2(!problem.source.empty(), problem.rule.c_str());
  }

  // Tile sizes up to INT64_MAX (a person can type them) never wrap a
  // figure a rule prints: with no negative value in the config, no message
  // holds a negative number. Seeded random configs on a TileAndFuse matmul
  // and a VectorDistribute reduction.
  void hugeTilesNeverPrintNegativeNumbers() {
    std::mt19937_64 random(29);
    const int64_t huge[] = {std::numeric_limits<int64_t>::max(),
                            std::numeric_limits<int64_t>::max() - 1,
                            int64_t{1} << 62,
                            int64_t{1} << 31,
                            4096,
                            3};
    auto pick = [&]() -> int64_t {
      return random() % 3 == 0 ? static_cast<int64_t>(random() % 257)
                               : huge[random() % std::size(huge)];
    };
    const std::regex negative("(^|[^0-9A-Za-z_])-[0-9]");
    for (int i = 0; i < 300; ++i) {
      const bool matmul = i % 2 == 0;
      ValidationContext context =
          matmul ? vectorDistribute("1024x1024x1024:ppr", 256)
                 : vectorDistribute("4x6656x16384:ppr", 64);
      std::string fixed;
      if (matmul) {
        context.iterationSpace->operands = {{"f16", {0, 2}, false},
                                            {"f16", {1, 2}, false},
                                            {"f32", {0, 1}, true}};
        context.translationInfo =
            translation(translationText("TileAndFuse", "[256, 1, 1]"));
        fixed = "#iree_gpu.lowering_config<{mma_kind = "
                "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, "
                "promote_operands = [0, 1], reduction = [0, 0, " +
                std::to_string(pick()) + "], subgroup = [" +
                std::to_string(pick()) + ", " + std::to_string(pick()) +
                ", 0], workgroup = [" + std::to_string(pick()) + ", " +
                std::to_string(pick()) + ", 0]}>";
      } else {
        fixed = "#iree_gpu.lowering_config<{lane_basis = [[1, 64], [0, 1]], "
                "partial_reduction = [0, " +
                std::to_string(pick()) +
                "], subgroup_basis = [[1, 1], [0, 1]], thread = [0, " +
                std::to_string(pick()) + "], workgroup = [" +
                std::to_string(pick()) + ", 0]}>";
      }
      auto config = LoweringConfig::parse(fixed);
      QVERIFY2(config, fixed.c_str());
      for (const Problem &p : layout::validate(*config, context))
        QVERIFY2(!std::regex_search(p.message, negative),
                 (fixed + "\n  " + p.rule + ": " + p.message).c_str());
    }
  }

  // The examples above cover the whole rule table.
  void everyRuleHasAnExample() {
    std::set<std::string> covered;
    for (const RuleExample &example : ruleExamples())
      covered.insert(example.rule);
    for (const RuleDescription &rule : validationRules())
      QVERIFY2(covered.count(rule.name), rule.name.c_str());
    QCOMPARE(covered.size(), validationRules().size());
  }

  // --- and silent on what IREE itself configured ---

  void silentOnTheExamplesIreeConfigured() {
    iree::DocumentParser parser(test::projectCompiler());
    int checked = 0;
    for (const char *folder : {"rocm_gfx942", "rocm_gfx950", "cuda_sm_90"}) {
      for (const auto &path : test::exampleBenchmarks(folder)) {
        auto document = parser.parseFile(path);
        QVERIFY(document.ok());
        const iree::Dispatch &dispatch = document->dispatches.front();
        for (const iree::RootOp &op : dispatch.rootOps) {
          if (op.loweringConfig.empty())
            continue;
          ValidationContext context;
          context.translationInfo = translation(dispatch.translationInfo);
          context.target = *gpuTargetFromText(dispatch.target);
          // The loops the config indexes, as the document reads them from
          // IREE (a convolution's implicit-GEMM loops where IREE tiles
          // those); the printed maps for an op IREE gave none.
          std::vector<std::string> types = op.operandTypes;
          auto space = op.space ? Result<IterationSpace>(*op.space)
                                : IterationSpace::fromLinalgOp(op.indexingMaps,
                                                               op.iteratorTypes,
                                                               types, op.name);
          QVERIFY2(space, (path.filename().string() + ": " + op.name +
                           " has no iteration space")
                              .c_str());
          context.iterationSpace = *space;
          const auto problems =
              validate(makeConfig(op.loweringConfig), context);
          QVERIFY2(problems.empty(),
                   (path.filename().string() + describe(problems)).c_str());
          ++checked;
        }
      }
    }
    QVERIFY(checked >= 6);
  }
};

QTEST_GUILESS_MAIN(ConfigModelTest)
#include "tst_config_model.moc"
