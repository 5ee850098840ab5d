// The cost model on the kinds a model brings beyond matmuls and reductions,
// against kernels measured on an NVIDIA H200 (tests/data/gpu/README.md):
// convolutions IREE builds as an implicit GEMM (read on the IGEMM loops
// IREE states) and a batch matmul, each IREE's default and its neighbours,
// every row with the configs as compiled and the resources Tilescope read
// from the compiled kernel; and attention, predicted from its op's tiles
// and the decomposition_config IREE gave it.
#include "core/config/configs/GpuTarget.h"
#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/OtherConfigs.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/layout/AttentionCost.h"
#include "core/layout/CostModel.h"
#include "core/util/Csv.h"
#include "core/util/Files.h"

#include <QtTest>

#include <algorithm>

using namespace tilescope;
using namespace tilescope::layout;

namespace {

// An implicit GEMM's loops as IREE states them (ireeCodegenGetIGEMMGeneric
// ConvDetails, as `tilescope-cli show --json` prints them): batch, output
// rows and columns, output channels, and K = filter window x input channels;
// the im2col input (n, oh, ow, K), the collapsed filter (K, f).
config::IterationSpace implicitGemm(int64_t n, int64_t oh, int64_t ow,
                                    int64_t f, int64_t k) {
  const auto s = [](int64_t v) { return std::to_string(v); };
  auto space = config::IterationSpace::fromLinalgOp(
      "[affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, "
      "affine_map<(d0, d1, d2, d3, d4) -> (d4, d3)>, "
      "affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]",
      "[\"parallel\", \"parallel\", \"parallel\", \"parallel\", "
      "\"reduction\"]",
      {"tensor<" + s(n) + "x" + s(oh) + "x" + s(ow) + "x" + s(k) + "xf16>",
       "tensor<" + s(k) + "x" + s(f) + "xf16>",
       "tensor<" + s(n) + "x" + s(oh) + "x" + s(ow) + "x" + s(f) + "xf32>"},
      "linalg.generic");
  if (!space)
    qFatal("%s", space.error().c_str());
  return *space;
}

// linalg.batch_matmul: A b x m x k, B b x k x n.
config::IterationSpace batchMatmul(int64_t b, int64_t m, int64_t n, int64_t k) {
  const auto s = [](int64_t v) { return std::to_string(v); };
  auto space = config::IterationSpace::fromLinalgOp(
      "[affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, "
      "affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, "
      "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]",
      "[\"parallel\", \"parallel\", \"parallel\", \"reduction\"]",
      {"tensor<" + s(b) + "x" + s(m) + "x" + s(k) + "xf16>",
       "tensor<" + s(b) + "x" + s(k) + "x" + s(n) + "xf16>",
       "tensor<" + s(b) + "x" + s(m) + "x" + s(n) + "xf32>"},
      "linalg.generic");
  if (!space)
    qFatal("%s", space.error().c_str());
  return *space;
}

// The Llama-3-8B layer's attention as IREE's online_attention reads it:
// Q (batch, M, K1), K (batch, K2, K1), V (batch, N, K2), the output
// (batch, M, N).
config::IterationSpace attention() {
  auto space = config::IterationSpace::fromLinalgOp(
      "[affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, "
      "affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, "
      "affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, "
      "affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]",
      "[\"parallel\", \"parallel\", \"reduction\", \"reduction\", "
      "\"parallel\"]",
      {"tensor<32x2048x128xf16>", "tensor<32x2048x128xf16>",
       "tensor<32x128x2048xf16>", "tensor<32x2048x128xf32>"},
      "linalg.generic");
  if (!space)
    qFatal("%s", space.error().c_str());
  return *space;
}

// Its decomposition_config as the pinned IREE wrote it for sm_90, the same
// in every measured row (tests/core/edit/data/attention_sm_90.mlir).
constexpr const char *kAttentionDecomposition =
    "{pv_attrs = {lowering_config = #iree_gpu.lowering_config<{mma_kind = "
    "#iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = "
    "[1], promotion_types = [#iree_gpu.derived_thread_config], "
    "subgroup_basis = [[1, 4, 1, 1, 1], [0, 1, 3, 4]]}>}, qk_attrs = "
    "{lowering_config = #iree_gpu.lowering_config<{mma_kind = "
    "#iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = "
    "[0, 1], promotion_types = [#iree_gpu.derived_thread_config, "
    "#iree_gpu.derived_thread_config], subgroup_basis = [[1, 4, 1, 1, 1], "
    "[0, 1, 2, 3]]}>}}";

struct Row {
  std::string name;
  config::LoweringConfig config;
  config::TranslationInfo translation;
  CompiledKernel compiled;
  double measured = 0;
};

std::vector<Row> rowsOf(const char *file) {
  auto text = readTextFile(std::filesystem::path(TILESCOPE_SOURCE_DIR) /
                           "tests/data/gpu" / file);
  if (!text)
    qFatal("%s", text.error().c_str());
  auto csv = parseCsv(*text);
  if (!csv)
    qFatal("%s", csv.error().c_str());
  CsvTable table(std::move(*csv));
  std::vector<Row> rows;
  for (const CsvRow &r : table.rows()) {
    auto config =
        config::LoweringConfig::parse(table.value(r, "lowering_config"));
    auto translation =
        config::TranslationInfo::parse(table.value(r, "translation_info"));
    const auto time = table.number(r, "dispatch_us_back_to_back");
    if (!config || !translation || !time)
      qFatal("%s: a row without configs or time", file);
    double threads = 1;
    for (int64_t size :
         translation->workgroupSize.value_or(std::vector<int64_t>{}))
      threads *= static_cast<double>(size);
    const double occupancy = *table.number(r, "theoretical_occupancy_pct");
    rows.push_back(
        {table.value(r, "candidate"), *config, *translation,
         CompiledKernel{
             static_cast<int>(*table.number(r, "registers")),
             static_cast<long long>(*table.number(r, "shared_memory_bytes")),
             static_cast<int>(occupancy / 100 * 64 / (threads / 32) + 0.5)},
         *time});
  }
  if (rows.empty())
    qFatal("no rows in %s", file);
  return rows;
}

struct Verdict {
  double correlation = 0;
  double firstOverFastest = 0;
  double worstRatio = 0; // the farthest of measured / predicted from 1
  double defaultRatio = 0;
};

Verdict judge(const char *file, const config::IterationSpace &space,
              const config::DecompositionConfig *decomposition = nullptr) {
  static const config::GpuTarget target = *config::builtinTarget("sm_90");
  const std::vector<Row> rows = rowsOf(file);
  std::vector<double> predicted, measured;
  for (const Row &row : rows) {
    CostModelInput in{&space, &row.config, &row.translation, &target,
                      row.compiled};
    auto p = decomposition ? predictAttentionTime(in, *decomposition)
                           : predictKernelTime(in);
    if (!p)
      qFatal("%s %s: %s", file, row.name.c_str(), p.error().c_str());
    predicted.push_back(p->microseconds);
    measured.push_back(row.measured);
    if (qEnvironmentVariableIsSet("TILESCOPE_COST_DETAIL"))
      qInfo("  %8.1f measured %8.1f predicted %5.2f  %s | %s", row.measured,
            p->microseconds, row.measured / p->microseconds, row.name.c_str(),
            p->summary().c_str());
  }
  const size_t first = static_cast<size_t>(
      std::min_element(predicted.begin(), predicted.end()) - predicted.begin());
  Verdict v{rankCorrelation(predicted, measured),
            measured[first] /
                *std::min_element(measured.begin(), measured.end())};
  for (size_t i = 0; i < rows.size(); ++i) {
    const double ratio = measured[i] / predicted[i];
    v.worstRatio = std::max({v.worstRatio, ratio, 1 / ratio});
    if (rows[i].name == "IREE default")
      v.defaultRatio = ratio;
  }
  qInfo("%s, %zu kernels: rank correlation %.3f, predicted first %s runs "
        "%.3fx the fastest; measured / predicted %.2f for IREE's default, "
        "%.2fx at worst",
        file, rows.size(), v.correlation, rows[first].name.c_str(),
        v.firstOverFastest, v.defaultRatio, v.worstRatio);
  return v;
}

} // namespace

class CostModelKindsTest : public QObject {
  Q_OBJECT

private slots:
  // The issue's convolution: IREE's default ran 889 us on the H200, the
  // fastest of its 24 nearest candidates in IREE's space 535 us (1.66x),
  // cuDNN 109 us. The targets of issue 43: rank correlation >= 0.8, the
  // predicted first within 10 % of the fastest, every prediction within 2x.
  void ordersTheIssuesConvolution() {
    const Verdict v = judge("h200-conv-f16-16x64x64x256-igemm.csv",
                            implicitGemm(16, 64, 64, 256, 2304));
    QVERIFY2(v.correlation >= 0.8, "rank correlation below 0.8");
    QVERIFY2(v.firstOverFastest <= 1.10, "first pick over 10%");
    QVERIFY2(v.worstRatio <= 2, "a prediction over 2x from its time");
  }

  // Two of the SDXL res block's convolutions, 7 kernels each, all within
  // 16 % (2x128x128x320) and 24 % (2x64x64x640) of each other: too close
  // for an order; the model must pick one near the fastest and keep its
  // microseconds within 2x.
  void judgesTheUnetConvolutions() {
    const Verdict small = judge("h200-conv-f16-2x128x128x320-igemm.csv",
                                implicitGemm(2, 128, 128, 320, 2880));
    const Verdict large = judge("h200-conv-f16-2x64x64x640-igemm.csv",
                                implicitGemm(2, 64, 64, 640, 5760));
    for (const Verdict &v : {small, large}) {
      QVERIFY2(v.firstOverFastest <= 1.15, "first pick over 15%");
      QVERIFY2(v.worstRatio <= 2, "a prediction over 2x from its time");
    }
  }

  // The batch matmul (32 x 1024x1024x128): IREE's default and the rules'
  // 54 neighbours, 80-153 us.
  void ordersTheBatchMatmul() {
    const Verdict v = judge("h200-batch-matmul-f16-32x1024x1024x128.csv",
                            batchMatmul(32, 1024, 1024, 128));
    QVERIFY2(v.correlation >= 0.8, "rank correlation below 0.8");
    QVERIFY2(v.firstOverFastest <= 1.10, "first pick over 10%");
    QVERIFY2(v.worstRatio <= 2, "a prediction over 2x from its time");
  }

  // The Llama-3-8B layer's attention (32 heads x 2048 x 128, f16): IREE's
  // default 1,253 us on the H200 (PyTorch's scaled_dot_product_attention
  // 112 us) and 12 outer tilings from 596 to 2,641 us. What orders them:
  // a workgroup tile of the value columns under 128 repeats Q.K^T and the
  // softmax per column tile, and fewer than 16 query rows per subgroup pad
  // the intrinsic.
  void ordersTheAttention() {
    auto attribute = config::parseResolvedAttribute(kAttentionDecomposition);
    QVERIFY2(attribute.ok(), attribute.ok() ? "" : attribute.error().c_str());
    auto decomposition = config::DecompositionConfig::fromAttribute(*attribute);
    QVERIFY(decomposition.ok() && decomposition->qk && decomposition->pv);
    const Verdict v = judge("h200-attention-f16-32x2048x128.csv", attention(),
                            &*decomposition);
    QVERIFY2(v.correlation >= 0.8, "rank correlation below 0.8");
    QVERIFY2(v.firstOverFastest <= 1.10, "first pick over 10%");
    QVERIFY2(v.worstRatio <= 2, "a prediction over 2x from its time");
  }

  // Without the decomposition's MMA, or under another pipeline, the model
  // says it does not predict rather than guess.
  void attentionWithoutItsDecompositionIsNotPredicted() {
    static const config::GpuTarget target = *config::builtinTarget("sm_90");
    const std::vector<Row> rows = rowsOf("h200-attention-f16-32x2048x128.csv");
    const config::IterationSpace space = attention();
    CostModelInput in{&space, &rows[0].config, &rows[0].translation, &target,
                      std::nullopt};
    auto none = predictAttentionTime(in, config::DecompositionConfig{});
    QVERIFY(!none.ok());
    QVERIFY(none.error().find("decomposition_config") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(CostModelKindsTest)
#include "tst_cost_model_kinds.moc"
