// The cost model against kernels measured on real GPUs (tests/data/gpu/:
// H100s' and an H200's 1024^3 and 4096^3 f16 matmul candidates, an H100's
// f32 TileAndFuse matmul on the vector units and its reduction configs):
// its order of the candidates against the measured kernel times, with the
// resources the compile reports and with the resources it estimates before
// any compile. Also the
// shape of what it says (terms, notes, summary) and Spearman's correlation.
#include "core/config/configs/GpuTarget.h"
#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
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

// IREE 3.13's configs for the seed's reduction (26624 rows of 16384 f16)
// and a 2048^3 f32 matmul (TileAndFuse on the vector units, no MMA) on
// sm_90, as scripts/gpu-check.sh compiles them.
constexpr const char *kReductionConfig =
    "#iree_gpu.lowering_config<{lane_basis = [[1, 32], [0, 1]], "
    "partial_reduction = [0, 256], subgroup_basis = [[1, 1], [0, 1]], "
    "thread = [0, 8], workgroup = [1, 0]}>";
constexpr const char *kReductionTranslation =
    "#iree_codegen.translation_info<pipeline = "
    "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [32, 1, 1] "
    "subgroup_size = 32>";
constexpr const char *kSimtConfig =
    "#iree_gpu.lowering_config<{reduction = [0, 0, 32], thread = [1, 16, 0], "
    "workgroup = [32, 128, 1]}>";
constexpr const char *kSimtTranslation =
    "#iree_codegen.translation_info<pipeline = "
    "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [32, 8, 1] "
    "subgroup_size = 32>";

enum class Problem { MatmulF16, MatmulF32, Reduction };

// A measured set of tests/data/gpu/: its file, the problem and its size,
// IREE's default configs, and which column holds the kernel's time.
struct MeasuredSet {
  const char *file;
  Problem problem;
  int64_t size;
  const char *defaultConfig;
  const char *timeColumn;
  const char *defaultTranslation = kDefaultTranslation;
};
constexpr MeasuredSet kH100At1024{"h100-matmul-f16-1024.csv",
                                  Problem::MatmulF16, 1024, kDefaultConfig,
                                  "kernel_us_nsight"};
constexpr MeasuredSet kH200At1024{"h200-matmul-f16-1024.csv",
                                  Problem::MatmulF16, 1024, kDefaultConfig,
                                  "kernel_us_nsight"};
constexpr MeasuredSet kH200At4096{"h200-matmul-f16-4096.csv",
                                  Problem::MatmulF16, 4096, kDefaultConfig4096,
                                  "dispatch_us_back_to_back"};
// Its 17 that Nsight Compute read (the default and its 16 nearest).
constexpr MeasuredSet kH200At4096Profiled{
    "h200-matmul-f16-4096.csv", Problem::MatmulF16, 4096, kDefaultConfig4096,
    "kernel_us_nsight"};
// The project's own H100 run (scripts/gpu-check.sh): the same two matmuls
// per dispatch and profiled, the seed's reduction over 24 configs and the
// f32 TileAndFuse matmul over 32.
constexpr MeasuredSet kH100At1024Batched{
    "h100-matmul-f16-1024-batched.csv", Problem::MatmulF16, 1024,
    kDefaultConfig, "dispatch_us_back_to_back"};
constexpr MeasuredSet kH100At1024Profiled{"h100-matmul-f16-1024-batched.csv",
                                          Problem::MatmulF16, 1024,
                                          kDefaultConfig, "kernel_us_nsight"};
constexpr MeasuredSet kH100At4096{"h100-matmul-f16-4096.csv",
                                  Problem::MatmulF16, 4096, kDefaultConfig4096,
                                  "dispatch_us_back_to_back"};
constexpr MeasuredSet kH100At4096Profiled{
    "h100-matmul-f16-4096.csv", Problem::MatmulF16, 4096, kDefaultConfig4096,
    "kernel_us_nsight"};
constexpr MeasuredSet kH100Reduction{"h100-reduction-f16-26624x16384.csv",
                                     Problem::Reduction,
                                     0,
                                     kReductionConfig,
                                     "dispatch_us_back_to_back",
                                     kReductionTranslation};
constexpr MeasuredSet kH100SimtMatmul{"h100-matmul-f32-2048-tileandfuse.csv",
                                      Problem::MatmulF32,
                                      2048,
                                      kSimtConfig,
                                      "dispatch_us_back_to_back",
                                      kSimtTranslation};

config::IterationSpace matmul(int64_t size, const std::string &in = "f16") {
  const std::string s = std::to_string(size);
  auto space = config::IterationSpace::fromLinalgOp(
      "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> "
      "(d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]",
      "[\"parallel\", \"parallel\", \"reduction\"]",
      {"tensor<" + s + "x" + s + "x" + in + ">",
       "tensor<" + s + "x" + s + "x" + in + ">",
       "tensor<" + s + "x" + s + "xf32>"},
      "linalg.generic");
  if (!space)
    qFatal("%s", space.error().c_str());
  return *space;
}

// linalg.matmul's maps: B is K x N, its rows contiguous along N.
config::IterationSpace matmulKN(int64_t size) {
  const std::string s = std::to_string(size);
  auto space = config::IterationSpace::fromLinalgOp(
      "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> "
      "(d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]",
      "[\"parallel\", \"parallel\", \"reduction\"]",
      {"tensor<" + s + "x" + s + "xf32>", "tensor<" + s + "x" + s + "xf32>",
       "tensor<" + s + "x" + s + "xf32>"},
      "linalg.generic");
  if (!space)
    qFatal("%s", space.error().c_str());
  return *space;
}

config::IterationSpace reductionSpace() {
  auto space = config::IterationSpace::fromLinalgOp(
      "[affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]",
      "[\"parallel\", \"reduction\"]",
      {"tensor<26624x16384xf16>", "tensor<26624xf32>"}, "linalg.generic");
  if (!space)
    qFatal("%s", space.error().c_str());
  return *space;
}

config::IterationSpace spaceOf(const MeasuredSet &set) {
  switch (set.problem) {
  case Problem::MatmulF16:
    return matmul(set.size);
  case Problem::MatmulF32:
    return matmulKN(set.size);
  case Problem::Reduction:
    return reductionSpace();
  }
  qFatal("unknown problem");
}

struct Candidate {
  std::string name;
  config::LoweringConfig config;
  config::TranslationInfo translation;
  std::optional<CompiledKernel> compiled;
  double measured = 0;
};

config::TilingLevel levelNamed(const std::string &key) {
  if (key == "workgroup")
    return config::TilingLevel::Workgroup;
  if (key == "subgroup")
    return config::TilingLevel::Subgroup;
  if (key == "reduction")
    return config::TilingLevel::Reduction;
  if (key == "partial_reduction")
    return config::TilingLevel::PartialReduction;
  if (key == "thread")
    return config::TilingLevel::Thread;
  qFatal("unknown candidate field %s", key.c_str());
}

// The default with a candidate's fields put in: whole lists
// ("workgroup=[64, 128, 0] translation_info.workgroup_size=[256, 1, 1]") or
// single entries ("workgroup[1]=32 reduction[2]=16").
Candidate candidate(const std::string &name,
                    const char *defaultConfig = kDefaultConfig,
                    const char *defaultTranslation = kDefaultTranslation) {
  Candidate c{name, *config::LoweringConfig::parse(defaultConfig),
              *config::TranslationInfo::parse(defaultTranslation), std::nullopt,
              0};
  static const std::regex list(R"(([a-z_.]+)=\[([0-9, ]+)\])");
  for (auto it = std::sregex_iterator(name.begin(), name.end(), list);
       it != std::sregex_iterator(); ++it) {
    std::vector<int64_t> values;
    std::string text = (*it)[2];
    std::replace(text.begin(), text.end(), ',', ' ');
    std::istringstream in(text);
    for (int64_t v; in >> v;)
      values.push_back(v);
    const std::string key = (*it)[1];
    if (key == "translation_info.workgroup_size")
      c.translation.workgroupSize = values;
    else
      c.config.setTileSizes(levelNamed(key), values);
  }
  static const std::regex entry(R"(([a-z_]+)\[([0-9]+)\]=([0-9]+))");
  for (auto it = std::sregex_iterator(name.begin(), name.end(), entry);
       it != std::sregex_iterator(); ++it) {
    const config::TilingLevel level = levelNamed((*it)[1]);
    std::vector<int64_t> values =
        c.config.tileSizes(level).value_or(std::vector<int64_t>{});
    const size_t index = std::stoul((*it)[2]);
    values.resize(std::max(values.size(), index + 1), 0);
    values[index] = std::stoll((*it)[3]);
    c.config.setTileSizes(level, values);
  }
  return c;
}

std::vector<Candidate> measuredSet(const MeasuredSet &set) {
  auto text = readTextFile(std::filesystem::path(TILESCOPE_SOURCE_DIR) /
                           "tests/data/gpu" / set.file);
  if (!text)
    qFatal("%s", text.error().c_str());
  auto rows = parseCsv(*text);
  if (!rows)
    qFatal("%s", rows.error().c_str());
  CsvTable table(std::move(*rows));
  std::vector<Candidate> out;
  for (const CsvRow &row : table.rows()) {
    if (row.size() < 5)
      continue;
    const auto time = table.number(row, set.timeColumn);
    if (!time)
      continue; // not measured that way
    const std::string name = table.value(row, "candidate");
    Candidate c = candidate(name == "IREE default" ? "" : name,
                            set.defaultConfig, set.defaultTranslation);
    c.name = name;
    c.measured = *time;
    double threads = 1;
    for (int64_t size : *c.translation.workgroupSize)
      threads *= static_cast<double>(size);
    const double warps = threads / 32;
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
  double worstRatio = 0;  // the farthest of measured / predicted from 1 (>= 1)
};

Verdict judge(const MeasuredSet &measuredFile, bool withCompiled) {
  const std::vector<Candidate> set = measuredSet(measuredFile);
  const config::IterationSpace space = spaceOf(measuredFile);
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
  v.worstRatio = std::max(ratio.back(), 1 / ratio.front());
  qInfo("%s, %s resources, %zu kernels: rank correlation %.3f, predicted "
        "first %s runs %.3fx the fastest; measured / predicted %.2f (median), "
        "%.2fx at worst",
        measuredFile.file, withCompiled ? "compiled" : "estimated", set.size(),
        v.correlation, set[first].name.c_str(), v.firstOverFastest,
        v.medianRatio, v.worstRatio);
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

  // The measured H100 set (the issue's), with the resources the compile
  // reports (a compile-only sweep's view). Its times are Nsight Compute's of
  // one launch, caches flushed before it: this 1024^3 matmul's 4 MB then
  // come from DRAM each step, where back to back (and in a program) they
  // sit in L2 and the same kernels run 10-35 % faster in another order. The
  // model prices the warm dispatch Tilescope times (the back-to-back set
  // below meets the targets); against the cold launches it must still pick
  // a fast one.
  void ordersTheMeasuredMatmulWithCompiledResources() {
    const Verdict v = judge(kH100At1024, true);
    QVERIFY2(v.correlation >= 0.45, "rank correlation below 0.45");
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
    QVERIFY2(v.correlation >= 0.3, "rank correlation below 0.3");
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
    // The 1024^3 set's times are cold launches (as the H100's above).
    QVERIFY2(small.correlation >= 0.4, "1024^3: rank correlation below 0.4");
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
    QVERIFY2(smallEstimated.correlation >= 0.25,
             "1024^3 before any compile: rank correlation below 0.25");
  }

  // The project's own H100 run of the same two matmuls (gpu-check): per
  // dispatch, back to back (what Tilescope times and the model predicts:
  // the issue's targets hold), and one profiled launch each (cold caches:
  // the 1024^3 order differs, its first pick holds).
  void ordersTheH100Matmuls() {
    const Verdict small = judge(kH100At1024Batched, true);
    const Verdict smallEstimated = judge(kH100At1024Batched, false);
    const Verdict smallProfiled = judge(kH100At1024Profiled, true);
    const Verdict large = judge(kH100At4096, true);
    const Verdict largeProfiled = judge(kH100At4096Profiled, true);
    const Verdict largeEstimated = judge(kH100At4096, false);
    QVERIFY2(largeEstimated.correlation >= 0.85,
             "4096^3 before any compile: rank correlation below 0.85");
    QVERIFY2(largeEstimated.firstOverFastest <= 1.10,
             "4096^3 before any compile: first pick over 10%");
    QVERIFY2(large.correlation >= 0.85, "4096^3: rank correlation below 0.85");
    QVERIFY2(large.firstOverFastest <= 1.10, "4096^3: first pick over 10%");
    QVERIFY2(largeProfiled.correlation >= 0.85,
             "4096^3 profiled: rank correlation below 0.85");
    QVERIFY(large.medianRatio > 0.8 && large.medianRatio < 1.25);
    QVERIFY2(small.correlation >= 0.8, "1024^3: rank correlation below 0.8");
    QVERIFY2(small.firstOverFastest <= 1.10, "1024^3: first pick over 10%");
    QVERIFY(small.medianRatio > 0.8 && small.medianRatio < 1.25);
    QVERIFY2(smallEstimated.firstOverFastest <= 1.10,
             "1024^3 before any compile: first pick over 10%");
    // (0.38 before the staging floor that took the H200's batch matmul
    // from 0.69 to 0.81: cold launches are not what the model prices.)
    QVERIFY2(smallProfiled.correlation >= 0.3,
             "1024^3 profiled: rank correlation below 0.3");
    QVERIFY2(smallProfiled.firstOverFastest <= 1.10,
             "1024^3 profiled: first pick over 10%");
  }

  // A contraction on the vector units (no MMA): the H100's 2048^3 f32
  // TileAndFuse matmul over 32 workgroup and K tiles, 1.4 to 5.0 ms, the
  // same instructions in each; what orders them is how a subgroup's lanes
  // lie over the workgroup tile.
  void ordersTheVectorUnitMatmul() {
    const Verdict v = judge(kH100SimtMatmul, true);
    const Verdict estimated = judge(kH100SimtMatmul, false);
    QVERIFY2(v.correlation >= 0.8, "rank correlation below 0.8");
    QVERIFY2(v.firstOverFastest <= 1.10, "first pick over 10%");
    QVERIFY(v.medianRatio > 0.8 && v.medianRatio < 1.25);
    QVERIFY2(estimated.correlation >= 0.8,
             "before any compile: rank correlation below 0.8");
    QVERIFY2(estimated.firstOverFastest <= 1.10,
             "before any compile: first pick over 10%");
  }

  // The seed's reduction over 24 configs: all but one within 3 % of each
  // other (DRAM-bound at ~91 % of peak), so no order to judge, but the
  // model must neither pick a slow one nor invent a spread.
  void judgesTheReductionWithoutInventingASpread() {
    const Verdict v = judge(kH100Reduction, true);
    QVERIFY2(v.firstOverFastest <= 1.10, "first pick over 10%");
    QVERIFY2(v.worstRatio <= 1.25, "a prediction over 25% from its time");
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

  // What the model divides by or lists round by round, from a file: a
  // target of no compute units, a subgroup of no lanes, a grid of 2^40
  // workgroups (it listed them in rounds until memory ran out) is said,
  // not predicted.
  void absurdTargetsAndGridsAreSaid() {
    const config::IterationSpace space = matmul(1024);
    const Candidate c = candidate("");
    config::GpuTarget target = *config::builtinTarget("sm_90");
    target.wgpCount = 0;
    auto p = predictKernelTime(
        {&space, &c.config, &c.translation, &target, std::nullopt});
    QVERIFY(!p);
    QVERIFY2(p.error().find("wgp_count is 0") != std::string::npos,
             p.error().c_str());

    target = *config::builtinTarget("sm_90");
    Candidate noLanes = candidate("");
    noLanes.translation.subgroupSize = 0;
    p = predictKernelTime(
        {&space, &noLanes.config, &noLanes.translation, &target, std::nullopt});
    QVERIFY(!p);
    QVERIFY2(p.error().find("subgroup size is 0") != std::string::npos,
             p.error().c_str());

    const config::IterationSpace huge = matmul(int64_t{1} << 24);
    p = predictKernelTime(
        {&huge, &c.config, &c.translation, &target, std::nullopt});
    QVERIFY(!p);
    QVERIFY2(p.error().find("not priced") != std::string::npos,
             p.error().c_str());

    // A subgroup or reduction tile past any bound is the bound, however
    // large: 2^61 tiles of 16-wide intrinsics overflowed (to 0) on the way.
    const Candidate wide =
        candidate("subgroup=[1048576, 1048576, 0] reduction=[0, 0, 1048576]");
    const Candidate wider =
        candidate("subgroup=[2305843009213693952, 2305843009213693952, 0] "
                  "reduction=[0, 0, 2305843009213693952]");
    auto bounded = predictKernelTime(
        {&space, &wide.config, &wide.translation, &target, std::nullopt});
    auto past = predictKernelTime(
        {&space, &wider.config, &wider.translation, &target, std::nullopt});
    QVERIFY2(bounded, bounded ? "" : bounded.error().c_str());
    QVERIFY2(past, past ? "" : past.error().c_str());
    QCOMPARE(past->microseconds, bounded->microseconds);
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
