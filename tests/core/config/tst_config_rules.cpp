// The validation rules on the typed config models, each firing on a minimal
// bad example and silent on what IREE itself configured; absurd sizes never
// overflow.
#include "ConfigTestSupport.h"
#include "TestSupport.h"

#include "core/config/configs/LayoutAttributes.h"
#include "core/config/configs/OtherConfigs.h"
#include "core/config/configs/TargetAttribute.h"
#include "core/config/rules/Conversions.h"
#include "core/config/rules/Validation.h"
#include "core/iree/DocumentParser.h"
#include "core/layout/LayoutValidation.h"

#include <limits>
#include <random>
#include <regex>
#include <set>

using namespace tilescope;
using namespace tilescope::config;
using test::kSeedReduction;
using test::makeConfig;
using test::translation;

namespace {

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

class ConfigRulesTest : public QObject {
  Q_OBJECT

private slots:
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
        const document::Dispatch &dispatch = document->dispatches.front();
        for (const document::RootOp &op : dispatch.rootOps) {
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

QTEST_GUILESS_MAIN(ConfigRulesTest)
#include "tst_config_rules.moc"
