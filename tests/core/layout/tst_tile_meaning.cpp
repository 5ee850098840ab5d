// What a tile list's numbers mean, loop by loop: elements, or intrinsic
// tiles under TileAndFuse with mma_kind; the pieces they make. Checked on
// the gfx942 matmul by hand, and on generated contractions against the
// subgroup distribution the layout views draw (the same units, the same
// trip counts).
#include "core/layout/MmaLayouts.h"
#include "core/layout/ThreadDistribution.h"
#include "core/layout/TileMeaning.h"

#include <QTest>

#include <random>

using namespace tilescope;

namespace {

// A matmul C[m, n] += A[m, k] B[k, n].
config::IterationSpace matmulSpace(int64_t m, int64_t n, int64_t k) {
  config::IterationSpace space;
  space.bounds = {m, n, k};
  space.kinds = {config::LoopKind::Parallel, config::LoopKind::Parallel,
                 config::LoopKind::Reduction};
  space.operands = {{"f16", {0, 2}, false},
                    {"f16", {2, 1}, false},
                    {"f32", {0, 1}, true}};
  return space;
}

config::LoweringConfig configOf(const std::string &dictionary) {
  auto config = config::LoweringConfig::parse("#iree_gpu.lowering_config<" +
                                              dictionary + ">");
  if (!config)
    qFatal("%s", config.error().c_str());
  return *config;
}

const char *kF16Matmul =
    "{mma_kind = #iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, "
    "promote_operands = [0, 1], reduction = [0, 0, 8], subgroup = [2, 4, 0], "
    "workgroup = [64, 128, 0]}";

} // namespace

class TileMeaningTest : public QObject {
  Q_OBJECT

private slots:
  // The example's TileAndFuse matmul: reduction counts intrinsic K's,
  // subgroup intrinsic M and N tiles of the workgroup tile.
  void tileAndFuseCountsIntrinsicTiles() {
    const auto space = matmulSpace(1024, 1024, 1024);
    const auto config = configOf(kF16Matmul);
    auto reduction = layout::describeTileLevel("reduction", {0, 0, 8}, config,
                                               space, "TileAndFuse");
    QVERIFY(reduction);
    QCOMPARE(reduction->pieces, std::string("steps"));
    const layout::TileEntryMeaning &k = reduction->entries[2];
    QCOMPARE(k.unit, int64_t(16));
    QCOMPARE(k.elements, int64_t(128));
    QCOMPARE(k.count, int64_t(8));
    QCOMPARE(k.text, std::string("d2 (1024, reduction): 8 x "
                                 "MFMA_F32_16x16x16_F16 K (16) = 128 "
                                 "elements per step -> 8 steps"));
    QCOMPARE(reduction->entries[0].text,
             std::string("d0 (1024): 0, not tiled at this level"));

    auto subgroup = layout::describeTileLevel("subgroup", {2, 4, 0}, config,
                                              space, "TileAndFuse");
    QVERIFY(subgroup);
    QCOMPARE(subgroup->entries[0].elements, int64_t(32));
    QCOMPARE(subgroup->entries[0].over, int64_t(64));
    QCOMPARE(subgroup->entries[0].count, int64_t(2));
    QCOMPARE(subgroup->entries[1].text,
             std::string("d1 (1024): 4 x MFMA_F32_16x16x16_F16 N (16) = 64 "
                         "elements per subgroup -> 2 subgroup tiles of the "
                         "128-element workgroup tile"));

    auto workgroup = layout::describeTileLevel("workgroup", {64, 100, 0},
                                               config, space, "TileAndFuse");
    QVERIFY(workgroup);
    QCOMPARE(workgroup->entries[0].text,
             std::string("d0 (1024): 64 elements per workgroup -> 16 "
                         "workgroups"));
    QCOMPARE(workgroup->entries[1].text,
             std::string("d1 (1024): 100 elements per workgroup -> 11 "
                         "workgroups (the last holds 24)"));
  }

  // VectorDistribute (and TileAndFuse without mma_kind) count elements.
  void otherPipelinesCountElements() {
    const auto space = matmulSpace(1024, 1024, 1024);
    auto reduction = layout::describeTileLevel(
        "reduction", {0, 0, 8}, configOf(kF16Matmul), space,
        "VectorDistribute");
    QVERIFY(reduction);
    QCOMPARE(reduction->entries[2].unit, int64_t(1));
    QCOMPARE(reduction->entries[2].count, int64_t(128));
    auto thread = layout::describeTileLevel(
        "thread", {1, 4, 0},
        configOf("{thread = [1, 4, 0], workgroup = [64, 128, 0]}"), space,
        "TileAndFuse");
    QVERIFY(thread);
    QCOMPARE(thread->entries[1].count, int64_t(32));
    QCOMPARE(thread->pieces, std::string("thread tiles"));
  }

  // The seed's reduction (VectorDistribute): 512 elements per iteration,
  // 8 per thread, so 64 threads share each partial_reduction chunk.
  void threadTilesDivideThePartialReductionChunk() {
    config::IterationSpace space = *config::IterationSpace::parse(
        "26624x16384:pr");
    auto thread = layout::describeTileLevel(
        "thread", {0, 8},
        configOf("{partial_reduction = [0, 512], thread = [0, 8], "
                 "workgroup = [1, 0]}"),
        space, "VectorDistribute");
    QVERIFY(thread);
    QCOMPARE(thread->entries[1].text,
             std::string("d1 (16384, reduction): 8 elements per thread -> 64 "
                         "thread tiles of the 512-element partial_reduction "
                         "chunk"));
  }

  void refusesWhatIsNotATileList() {
    const auto space = matmulSpace(64, 64, 64);
    auto wrongLevel = layout::describeTileLevel(
        "lane_basis", {1, 1, 1}, configOf(kF16Matmul), space, "TileAndFuse");
    QVERIFY(!wrongLevel);
    auto wrongRank = layout::describeTileLevel(
        "workgroup", {64, 64}, configOf(kF16Matmul), space, "TileAndFuse");
    QVERIFY(!wrongRank);
    QCOMPARE(wrongRank.error(),
             std::string("workgroup has 2 entries; the op has 3 loops"));
  }

  // Generated TileAndFuse matmuls (seeded): for every intrinsic of every
  // MMA table entry and random tiles, the subgroup level's units and piece
  // counts are the subgroup distribution's units and trip counts, which
  // the layout views draw.
  void agreesWithTheSubgroupDistribution() {
    std::mt19937_64 random(20261124);
    int checked = 0;
    const auto &intrinsics = layout::mmaIntrinsics();
    for (int round = 0; round < 400; ++round) {
      const layout::MmaIntrinsic &intrinsic =
          intrinsics[random() % intrinsics.size()];
      if (intrinsic.isScaled)
        continue; // a scaled matmul has a block loop this space lacks
      auto pick = [&](std::initializer_list<int64_t> options) {
        return *(options.begin() + static_cast<long>(random() % options.size()));
      };
      const auto space = matmulSpace(pick({256, 512, 1000, 1024}),
                                     pick({256, 384, 1024}),
                                     pick({512, 1024, 4096}));
      const std::vector<int64_t> subgroup = {pick({1, 2, 4}), pick({1, 2, 4}),
                                             0};
      const std::vector<int64_t> workgroup = {pick({64, 128, 256}),
                                              pick({64, 128, 256}), 0};
      const auto config = configOf(
          "{mma_kind = #iree_gpu.mma_layout<" + intrinsic.name +
          ">, reduction = [0, 0, " + std::to_string(pick({1, 2, 4, 8})) +
          "], subgroup = [" + std::to_string(subgroup[0]) + ", " +
          std::to_string(subgroup[1]) + ", 0], workgroup = [" +
          std::to_string(workgroup[0]) + ", " + std::to_string(workgroup[1]) +
          ", 0]}");
      auto distribution = layout::tileAndFuseSubgroups(
          config, space, {256, 1, 1}, intrinsic.subgroupSize);
      if (!distribution)
        continue; // an intrinsic the table cannot shape
      auto meaning = layout::describeTileLevel("subgroup", subgroup, config,
                                               space, "TileAndFuse");
      QVERIFY(meaning);
      for (size_t d = 0; d < 2; ++d) {
        QCOMPARE(meaning->entries[d].unit, distribution->unit[d]);
        const auto loop = std::find(distribution->loops.begin(),
                                    distribution->loops.end(), d);
        QVERIFY(loop != distribution->loops.end());
        QCOMPARE(meaning->entries[d].count,
                 distribution->tripCounts[static_cast<size_t>(
                     loop - distribution->loops.begin())]);
      }
      ++checked;
    }
    QVERIFY2(checked >= 100, qPrintable(QString::number(checked)));
  }
};

QTEST_APPLESS_MAIN(TileMeaningTest)
#include "tst_tile_meaning.moc"
