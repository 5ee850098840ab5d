// The cost model against kernels measured on real GPUs (tests/data/gpu/:
// an H100's and an H200's 1024^3 f16 matmul candidates, an H200's 4096^3):
// its order of the candidates against the measured kernel times, with the
// resources the compile reports and with the resources it estimates before
// any compile. Also the
// shape of what it says (terms, notes, summary) and Spearman's correlation.
#include "core/config/GpuTarget.h"
#include "core/config/IterationSpace.h"
#include "core/config/LoweringConfig.h"
#include "core/config/TranslationInfo.h"
#include "core/layout/CostModel.h"
#include "core/util/Csv.h"
#include "core/util/Files.h"

#include <QtTest>

#include <algorithm>
#include <regex>

using namespace tilescope;
using namespace tilescope::layout;

namespace {

// IREE 3.13's configs for the sm_90 matmuls (its defaults): the 1024^3
// example and the 4096^3 one scripts/gpu-check.sh makes.
constexpr const char *kDefaultConfig =
    "#iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = "
    "#iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = "
    "[0, 1], reduction = [0, 0, 8], subgroup = [2, 4, 0], workgroup = [64, "
    "64, 0]}>";
constexpr const char *kDefaultConfig4096 =
    "#iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = "
    "#iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = "
    "[0, 1], reduction = [0, 0, 2], subgroup = [4, 4, 0], workgroup = [128, "
    "64, 0]}>";
constexpr const char *kDefaultTranslation =
    "#iree_codegen.translation_info<pipeline = "
    "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] "
    "subgroup_size = 32, {gpu_pipeline_options = "
    "#iree_gpu.pipeline_options<prefetch_num_stages = 2>}>";

// A measured set of tests/data/gpu/: its file, the matmul's size and
// default, and which column holds the kernel's time.
struct MeasuredSet {
  const char *file;
  int64_t size;
  const char *defaultConfig;
  const char *timeColumn;
};
constexpr MeasuredSet kH100At1024{"h100-matmul-f16-1024.csv", 1024,
                                  kDefaultConfig, "kernel_us_nsight"};
constexpr MeasuredSet kH200At1024{"h200-matmul-f16-1024.csv", 1024,
                                  kDefaultConfig, "kernel_us_nsight"};
constexpr MeasuredSet kH200At4096{"h200-matmul-f16-4096.csv", 4096,
                                  kDefaultConfig4096,
                                  "dispatch_us_back_to_back"};
// Its 17 that Nsight Compute read (the default and its 16 nearest).
constexpr MeasuredSet kH200At4096Profiled{
    "h200-matmul-f16-4096.csv", 4096, kDefaultConfig4096, "kernel_us_nsight"};

config::IterationSpace matmul(int64_t size) {
  const std::string s = std::to_string(size);
  auto space = config::IterationSpace::fromLinalgOp(
      "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> "
      "(d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]",
      "[\"parallel\", \"parallel\", \"reduction\"]",
      {"tensor<" + s + "x" + s + "xf16>", "tensor<" + s + "x" + s + "xf16>",
       "tensor<" + s + "x" + s + "xf32>"},
      "linalg.generic");
  if (!space)
    qFatal("%s", space.error().c_str());
  return *space;
}

struct Candidate {
  std::string name;
  config::LoweringConfig config;
  config::TranslationInfo translation;
  std::optional<CompiledKernel> compiled;
  double measured = 0;
};

// The default with a candidate's fields ("workgroup=[64, 128, 0]
// translation_info.workgroup_size=[256, 1, 1]") put in.
Candidate candidate(const std::string &name,
                    const char *defaultConfig = kDefaultConfig) {
  Candidate c{name, *config::LoweringConfig::parse(defaultConfig),
              *config::TranslationInfo::parse(kDefaultTranslation),
              std::nullopt, 0};
  static const std::regex field(R"(([a-z_.]+)=\[([0-9, ]+)\])");
  for (auto it = std::sregex_iterator(name.begin(), name.end(), field);
       it != std::sregex_iterator(); ++it) {
    std::vector<int64_t> values;
    std::string list = (*it)[2];
    std::replace(list.begin(), list.end(), ',', ' ');
    std::istringstream in(list);
    for (int64_t v; in >> v;)
      values.push_back(v);
    const std::string key = (*it)[1];
    if (key == "workgroup")
      c.config.setTileSizes(config::TilingLevel::Workgroup, values);
    else if (key == "subgroup")
      c.config.setTileSizes(config::TilingLevel::Subgroup, values);
    else if (key == "reduction")
      c.config.setTileSizes(config::TilingLevel::Reduction, values);
    else if (key == "translation_info.workgroup_size")
      c.translation.workgroupSize = values;
    else
      qFatal("unknown candidate field %s", key.c_str());
  }
  return c;
}

std::vector<Candidate> measuredSet(const MeasuredSet &set) {
  auto text = readTextFile(std::filesystem::path(TILESCOPE_SOURCE_DIR) /
                           "tests/data/gpu" / set.file);
  if (!text)
    qFatal("%s", text.error().c_str());
  CsvTable table(parseCsv(*text));
  std::vector<Candidate> out;
  for (const CsvRow &row : table.rows()) {
    if (row.size() < 5)
      continue;
    const auto time = table.number(row, set.timeColumn);
    if (!time)
      continue; // not measured that way
    const std::string name = table.value(row, "candidate");
    Candidate c =
        candidate(name == "IREE default" ? "" : name, set.defaultConfig);
    c.name = name;
    c.measured = *time;
    const double warps =
        static_cast<double>((*c.translation.workgroupSize)[0]) / 32;
    c.compiled = CompiledKernel{
        static_cast<int>(*table.number(row, "registers")),
        static_cast<long long>(*table.number(row, "shared_memory_bytes")),
        static_cast<int>(*table.number(row, "theoretical_occupancy_pct") / 100 *
                             64 / warps +
                         0.5)};
    out.push_back(std::move(c));
  }
  if (out.empty())
    qFatal("no rows in %s", set.file);
  return out;
}

double predict(const Candidate &c, const config::IterationSpace &space,
               bool withCompiled) {
  static const config::GpuTarget target = *config::builtinTarget("sm_90");
  CostModelInput in{&space, &c.config, &c.translation, &target,
                    withCompiled ? c.compiled : std::nullopt};
  auto p = predictKernelTime(in);
  if (!p)
    qFatal("%s: %s", c.name.c_str(), p.error().c_str());
  return p->microseconds;
}

struct Verdict {
  double correlation = 0;
  double firstOverFastest = 0;
  double medianRatio = 0; // measured / predicted
};

Verdict judge(const MeasuredSet &measuredFile, bool withCompiled) {
  const std::vector<Candidate> set = measuredSet(measuredFile);
  const config::IterationSpace space = matmul(measuredFile.size);
  std::vector<double> predicted, measured;
  for (const Candidate &c : set) {
    predicted.push_back(predict(c, space, withCompiled));
    measured.push_back(c.measured);
  }
  const size_t first = static_cast<size_t>(
      std::min_element(predicted.begin(), predicted.end()) - predicted.begin());
  const double fastest = *std::min_element(measured.begin(), measured.end());
  Verdict v{rankCorrelation(predicted, measured), measured[first] / fastest};
  std::vector<double> ratio;
  for (size_t i = 0; i < predicted.size(); ++i)
    ratio.push_back(measured[i] / predicted[i]);
  // TILESCOPE_COST_DETAIL=1: each kernel's prediction against its time (for
  // calibrating against a new measured set).
  if (qEnvironmentVariableIsSet("TILESCOPE_COST_DETAIL"))
    for (size_t i = 0; i < set.size(); ++i) {
      static const config::GpuTarget target = *config::builtinTarget("sm_90");
      CostModelInput in{&space, &set[i].config, &set[i].translation, &target,
                        withCompiled ? set[i].compiled : std::nullopt};
      qInfo("  %8.1f measured %8.1f predicted %5.2f  %s | %s", measured[i],
            predicted[i], measured[i] / predicted[i], set[i].name.c_str(),
            predictKernelTime(in)->summary().c_str());
    }
  std::sort(ratio.begin(), ratio.end());
  v.medianRatio = ratio[ratio.size() / 2];
  qInfo("%s, %s resources, %zu kernels: rank correlation %.3f, predicted "
        "first %s runs %.3fx the fastest; measured / predicted %.2f (median)",
        measuredFile.file, withCompiled ? "compiled" : "estimated", set.size(),
        v.correlation, set[first].name.c_str(), v.firstOverFastest,
        v.medianRatio);
  return v;
}

} // namespace

class CostModelTest : public QObject {
  Q_OBJECT

private slots:
  void rankCorrelationIsSpearmans() {
    QCOMPARE(rankCorrelation({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
    QCOMPARE(rankCorrelation({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
    // Ties share their mean rank.
    QVERIFY(std::abs(rankCorrelation({1, 1, 2}, {1, 2, 3}) - 0.8660254) < 1e-6);
    QCOMPARE(rankCorrelation({1, 1}, {1, 2}), 0.0);
  }

  // The measured H100 set, with the resources the compile reports (a
  // compile-only sweep's view).
  void ordersTheMeasuredMatmulWithCompiledResources() {
    const Verdict v = judge(kH100At1024, true);
    QVERIFY2(v.correlation >= 0.7, "rank correlation below 0.7");
    QVERIFY2(v.firstOverFastest <= 1.10,
             "the predicted first runs over 10% slower than the fastest");
    // Its microseconds are the kernel's, within a factor of two (Nsight
    // Compute holds the clocks at base, a little under what the model
    // assumes).
    QVERIFY(v.medianRatio > 0.5 && v.medianRatio < 2);
  }

  // The same before any compile (a plan's view): registers and shared
  // memory estimated. The registers the compiler really gives decide how
  // many of a step's loads are in flight, which the estimate cannot know:
  // the order is weaker (docs/cost-model.md), its first pick as good.
  void ordersTheMeasuredMatmulBeforeAnyCompile() {
    const Verdict v = judge(kH100At1024, false);
    QVERIFY2(v.correlation >= 0.35, "rank correlation below 0.35");
    QVERIFY2(v.firstOverFastest <= 1.10,
             "the predicted first runs over 10% slower than the fastest");
  }

  // Sets measured on an H200 (the same SMs and clocks as the H100, more
  // memory bandwidth), judged with the sm_90 target's figures as a user's
  // compile-only sweep would: IREE's 1024^3 default and its 24 nearest
  // (Nsight Compute, clocks unlocked), and the 4096^3 default and its 48
  // nearest (per dispatch, 20 ms of back-to-back dispatches), a set the
  // model was never calibrated on.
  void ordersTheH200Matmuls() {
    const Verdict small = judge(kH200At1024, true);
    const Verdict large = judge(kH200At4096, true);
    const Verdict profiled = judge(kH200At4096Profiled, true);
    const Verdict smallEstimated = judge(kH200At1024, false);
    const Verdict largeEstimated = judge(kH200At4096, false);
    QVERIFY2(small.correlation >= 0.75, "1024^3: rank correlation below 0.75");
    QVERIFY2(small.firstOverFastest <= 1.10, "1024^3: first pick over 10%");
    QVERIFY2(large.correlation >= 0.8, "4096^3: rank correlation below 0.8");
    QVERIFY2(large.firstOverFastest <= 1.10, "4096^3: first pick over 10%");
    QVERIFY2(profiled.correlation >= 0.85,
             "4096^3, the 17 profiled: rank correlation below 0.85");
    QVERIFY2(profiled.firstOverFastest <= 1.10,
             "4096^3, the 17 profiled: first pick over 10%");
    // Its microseconds, at the H200's unlocked clocks, within 25 %.
    QVERIFY(small.medianRatio > 0.8 && small.medianRatio < 1.25);
    QVERIFY(large.medianRatio > 0.8 && large.medianRatio < 1.25);
    // Before any compile: the large matmul's order holds, the small one's
    // (every candidate one round, a few hundred cycles a step apart) less.
    QVERIFY2(largeEstimated.correlation >= 0.75,
             "4096^3 before any compile: rank correlation below 0.75");
    QVERIFY2(largeEstimated.firstOverFastest <= 1.10,
             "4096^3 before any compile: first pick over 10%");
    QVERIFY2(smallEstimated.correlation >= 0.35,
             "1024^3 before any compile: rank correlation below 0.35");
  }

  // What the issue measured on the 4096^3 f16 matmul on the H100: the
  // fastest of 64 candidates was workgroup [128, 128, 0], subgroup [4, 8,
  // 0], reduction [0, 0, 4] (551 us) against IREE's default (960 us); small
  // tiles with high occupancy ran far slower than both.
  void largeMatmulsFavourLargeTilesOverOccupancy() {
    const config::IterationSpace space = matmul(4096);
    const double best = predict(
        candidate("workgroup=[128, 128, 0] subgroup=[4, 8, 0] reduction=[0, "
                  "0, 4]"),
        space, false);
    const double byDefault = predict(candidate(""), space, false);
    const double small = predict(
        candidate("workgroup=[32, 64, 0] subgroup=[1, 4, 0]"), space, false);
    qInfo("4096^3: best %.0f us, default %.0f us, small tiles %.0f us", best,
          byDefault, small);
    QVERIFY(best < 0.8 * byDefault);
    QVERIFY(byDefault < small);
    // And in microseconds, near the measured 551 and 960.
    QVERIFY(best > 551 / 2.0 && best < 551 * 2.0);
    QVERIFY(byDefault > 960 / 2.0 && byDefault < 960 * 2.0);
  }

  void aPredictionSaysWhatBindsIt() {
    const config::IterationSpace space = matmul(1024);
    const config::GpuTarget target = *config::builtinTarget("sm_90");
    const Candidate c = candidate("");
    auto p = predictKernelTime(
        {&space, &c.config, &c.translation, &target, std::nullopt});
    QVERIFY(p);
    QCOMPARE(p->workgroups, int64_t{256});
    QCOMPARE(p->steps, int64_t{8});
    QVERIFY(p->resourcesEstimated);
    QVERIFY(!p->boundBy.empty());
    QVERIFY(p->terms.size() >= 4);
    QVERIFY(p->summary().find("us predicted, bound by") != std::string::npos);
    QVERIFY(p->floorMicroseconds > 0 && p->floorMicroseconds < p->microseconds);
  }

  void aReductionIsStreamingBound() {
    auto space = config::IterationSpace::fromLinalgOp(
        "[affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]",
        "[\"parallel\", \"reduction\"]",
        {"tensor<26624x16384xf16>", "tensor<26624xf32>"}, "linalg.generic");
    QVERIFY(space);
    auto config = config::LoweringConfig::parse(
        "#iree_gpu.lowering_config<{lane_basis = [[1, 32], [0, 1]], "
        "partial_reduction = [0, 256], subgroup_basis = [[1, 1], [0, 1]], "
        "thread = [0, 8], workgroup = [1, 0]}>");
    auto translation = config::TranslationInfo::parse(
        "#iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [32, 1, 1] "
        "subgroup_size = 32>");
    QVERIFY(config && translation);
    const config::GpuTarget target = *config::builtinTarget("sm_90");
    auto p = predictKernelTime(
        {&*space, &*config, &*translation, &target, std::nullopt});
    QVERIFY2(p, p ? "" : p.error().c_str());
    qInfo("reduction: %s", p->summary().c_str());
    QCOMPARE(p->workgroups, int64_t{26624});
    QCOMPARE(p->steps, int64_t{64});
    // Measured: 278-286 us (Nsight Compute), 92-94 % of DRAM peak; the
    // floor is 260 us.
    QVERIFY(p->microseconds >= p->floorMicroseconds);
    QVERIFY(p->microseconds < 2 * p->floorMicroseconds);
    // A narrower load (2 elements a thread) keeps fewer bytes in flight.
    auto narrow = *config;
    narrow.setTileSizes(config::TilingLevel::Thread, {0, 2});
    narrow.setTileSizes(config::TilingLevel::PartialReduction, {0, 64});
    auto q = predictKernelTime(
        {&*space, &narrow, &*translation, &target, std::nullopt});
    QVERIFY(q);
    QVERIFY(q->microseconds > p->microseconds);
  }

  void noFiguresNoPrediction() {
    const config::IterationSpace space = matmul(1024);
    config::GpuTarget target = *config::builtinTarget("sm_90");
    target.arch = "sm_42";
    const Candidate c = candidate("");
    auto p = predictKernelTime(
        {&space, &c.config, &c.translation, &target, std::nullopt});
    QVERIFY(!p);
    QVERIFY(p.error().find("sm_42") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(CostModelTest)
#include "tst_cost_model.moc"
