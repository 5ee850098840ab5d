// The layout math against every worked example of the seed documents, with
// IREE's code as the truth where a seed sentence disagrees.
#include "TestSupport.h"

#include "core/config/configs/TranslationInfo.h"
#include "core/layout/Basis.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/NestedLayout.h"
#include "core/layout/Roofline.h"
#include "core/layout/Swizzle.h"
#include "core/util/Numbers.h"

#include <limits>
#include <map>
#include <random>

using namespace tilescope;
using namespace tilescope::layout;
using V = std::vector<int64_t>;

namespace {

NestedLayout makeLayout(const config::NestedLayoutAttr &attr,
                        int64_t subgroups = 0, int64_t lanes = 0) {
  auto layout = NestedLayout::create(attr, subgroups, lanes);
  if (!layout)
    qFatal("%s", layout.error().c_str());
  return *layout;
}

// The seed's full example: vector<64x64xf16>.
config::NestedLayoutAttr seed64x64() {
  return {{2, 1}, {2, 4}, {1, 1}, {16, 4}, {1, 4}, {1, 0}, {1, 16}};
}

std::vector<V> rowsOf(const Swizzle &s, int64_t rows) {
  std::vector<V> table;
  for (int64_t i = 0; i < rows; ++i) {
    V row;
    for (int64_t p = 0; p < s.accessesPerRow(); ++p)
      row.push_back(s.logicalColumn(i, p));
    table.push_back(row);
  }
  return table;
}

// An iteration space with operands: `maps` lists each operand's loop dims,
// inputs first, the output last.
config::IterationSpace spaceWith(const char *shape,
                                 std::vector<std::vector<int>> maps) {
  config::IterationSpace space = *config::IterationSpace::parse(shape);
  for (size_t i = 0; i < maps.size(); ++i)
    space.operands.push_back(
        {"f32", maps[i], /*isOutput=*/i + 1 == maps.size()});
  return space;
}

config::LoweringConfig configOf(const char *dictionary) {
  auto config = config::LoweringConfig::parse(
      std::string("#iree_gpu.lowering_config<") + dictionary + ">");
  if (!config)
    qFatal("%s", config.error().c_str());
  return *config;
}

} // namespace

class LayoutTest : public QObject {
  Q_OBJECT

private slots:
  // Every bound and tile divides to its exact ceiling (128-bit arithmetic
  // says which), up to 2^63 - 1: (a + b - 1) / b overflowed there.
  void boundsDivideUpWithoutOverflow() {
    const int64_t max = std::numeric_limits<int64_t>::max();
    QCOMPARE(ceilDiv(max, 64), max / 64 + 1);
    QCOMPARE(ceilDiv(max, max), int64_t(1));
    QCOMPARE(ceilDiv(max - 1, max), int64_t(1));
    QCOMPARE(ceilDiv(0, 8), int64_t(0));
    QCOMPARE(ceilDiv(7, 0), int64_t(7)); // no tile: the bound, one step
    std::mt19937_64 random(20261207);
    for (int i = 0; i < 20000; ++i) {
      const int shift = static_cast<int>(random() % 63);
      const int64_t a = static_cast<int64_t>(random() >> 1) >> shift;
      const int64_t b =
          std::max<int64_t>(1, static_cast<int64_t>(random() >> 1) >>
                                   static_cast<int>(random() % 63));
      __extension__ typedef __int128 Wide; // GCC's and clang's 128 bits
      const Wide exact = (static_cast<Wide>(a) + b - 1) / b;
      QCOMPARE(ceilDiv(a, b), static_cast<int64_t>(exact));
    }
  }

  // For every intrinsic and operand, the owner the pictures draw for a
  // coordinate is a lane that holds it, at that register: ownerOf and
  // laneElements (split VDMFMA lanes and scaled operands included) agree.
  void everyFragmentOwnerHoldsItsElement() {
    int checked = 0;
    for (const layout::MmaIntrinsic &intrinsic : layout::mmaIntrinsics()) {
      for (layout::MmaOperand operand : intrinsic.operands()) {
        const layout::FragmentLayout &f = intrinsic.fragment(operand);
        if (f.outer.empty())
          continue;
        std::map<std::vector<int64_t>, std::pair<int64_t, int64_t>> held;
        for (int64_t lane = intrinsic.subgroupSize; lane-- > 0;) {
          const auto elements = intrinsic.laneElements(operand, lane);
          for (size_t reg = 0; reg < elements.size(); ++reg)
            held[elements[reg]] = {lane, static_cast<int64_t>(reg)};
        }
        // Every coordinate of the operand is held (lowest lane kept).
        int64_t size = 1;
        for (int64_t extent : f.shape())
          size *= extent;
        QCOMPARE(static_cast<int64_t>(held.size()), size);
        for (const auto &[coordinate, owner] : held) {
          const auto drawn = intrinsic.ownerOf(operand, coordinate);
          QVERIFY2(drawn.lane == owner.first && drawn.reg == owner.second,
                   (intrinsic.name + " " + layout::toString(operand)).c_str());
        }
        ++checked;
      }
    }
    QVERIFY(checked > 300);
    // VDMFMA's LHS: 32 threads on 64 lanes, K split between lane pairs.
    const auto *vdmfma = layout::findMmaIntrinsic("VDMFMA_F32_8x16x64x2_F16");
    QVERIFY(vdmfma);
    const auto split = vdmfma->laneSplit(layout::MmaOperand::Lhs);
    QVERIFY(split && split->parts == 2 && split->dim == 1 &&
            split->laneStride == 1);
    QCOMPARE(vdmfma->laneElements(layout::MmaOperand::Lhs, 1).front(),
             (std::vector<int64_t>{0, 8}));
    QVERIFY(!vdmfma->laneSplit(layout::MmaOperand::Acc));
  }

  // lowering-configs seed: "Thread 42 with [[16, 4], [1, 0]]".
  void thread42() {
    auto basis = BasisMap::create({{16, 4}, {1, 0}});
    QVERIFY(basis.ok());
    QCOMPARE(basis->digits(42), (V{10, 2}));
    // IREE: dimension i takes digit mapping[i] -> [d1, d0] = [2, 10].
    QCOMPARE(basis->coordinates(42), (V{2, 10}));
    QCOMPARE(basis->idsAt({2, 10}), (V{42}));
    QCOMPARE(basis->sizes(), (V{4, 16}));
    QCOMPARE(basis->strides(), (V{1, 4}));
  }

  // ARCHITECTURE.md: a 3-cycle mapping tells IREE's rule from the seed's
  // sentence "iteration_dim[mapping[i]] = d_i". IREE's code wins.
  void threeCycleMappingFollowsIreesCode() {
    auto basis = BasisMap::create({{2, 3, 4}, {1, 2, 0}});
    QVERIFY(basis.ok());
    QCOMPARE(basis->digits(23), (V{1, 2, 3}));
    QCOMPARE(basis->coordinates(23),
             (V{2, 3, 1})); // coordinate[i] = d[mapping[i]]
    QVERIFY(basis->coordinates(23) != (V{3, 1, 2})); // the seed's reading
    for (int64_t id = 0; id < basis->idCount(); ++id)
      QCOMPARE(basis->idsAt(basis->coordinates(id)), (V{id}));
  }

  void basisCountsLongerThanTheRankReplicate() {
    auto basis = BasisMap::create({{2, 4}, {1}});
    QVERIFY(basis.ok());
    QCOMPARE(basis->idsAt({3}), (V{3, 7}));
    QVERIFY(!BasisMap::create({{2, 2}, {0, 0}}).ok());
  }

  // The seed's reduction, as IREE 3.11 runs it with expand_dims.
  void seedReductionWithExpandDims() {
    auto config = config::LoweringConfig::parse(
        "#iree_gpu.lowering_config<{expand_dims = #iree_gpu.expand_dims<[[0], "
        "[1], [2, 3]], output_shape = [?, ?, ?, 8]>, lane_basis = [[1, 1, 64, "
        "1], [0, 1, 2, 3]], partial_reduction = [0, 0, 64, 0], subgroup_basis "
        "= "
        "[[1, 1, 1, 1], [0, 1, 2, 3]], thread = [0, 0, 1, 8], workgroup = [4, "
        "1, "
        "0, 0]}>");
    QVERIFY(config.ok());
    DeriveOptions options;
    options.ireeRelease = "3.11";
    auto derived = deriveLayout(
        *config, *config::IterationSpace::parse("4x6656x16384:ppr"), options);
    QVERIFY2(derived.ok(), derived.ok() ? "" : derived.error().c_str());
    QCOMPARE(derived->space.bounds, (V{4, 6656, 2048, 8}));
    QCOMPARE(derived->reductionLoops.size(), size_t(1));
    QCOMPARE(derived->reductionLoops[0].iterations, int64_t(32));
    QCOMPARE(derived->reductionElementsPerSubgroup, int64_t(512));
    QCOMPARE(derived->reductionElementsPerThread, int64_t(8));
    QCOMPARE(derived->workgroupCount, int64_t(6656));
    QCOMPARE(derived->subgroupSize, int64_t(64));
    // Under 3.13 the same config ignores expand_dims, and says so.
    auto modern = deriveLayout(
        *config, *config::IterationSpace::parse("4x6656x16384:ppr"));
    QVERIFY2(modern.ok(), modern.ok() ? "" : modern.error().c_str());
    QVERIFY(std::any_of(
        modern->notes.begin(), modern->notes.end(), [](const std::string &n) {
          return n.find("expand_dims ignored") != std::string::npos;
        }));
    // A size the static factors do not divide: IREE 3.11 ignores it too.
    QVERIFY(!expandSpace(*config::IterationSpace::parse("4x6656x16380:ppr"),
                         *config->expandDims())
                 .ok());
  }

  // What IREE 3.13 configured for the reduction example, and the layout its
  // configure-tensor-layouts pass derives (checked against the real pass in
  // tst_layout_vs_iree).
  void ireeReductionConfigUnder313() {
    auto config = config::LoweringConfig::parse(
        "#iree_gpu.lowering_config<{lane_basis = [[1, 64], [0, 1]], "
        "partial_reduction = [0, 512], subgroup_basis = [[1, 1], [0, 1]], "
        "thread "
        "= [0, 8], workgroup = [1, 0]}>");
    auto derived =
        deriveLayout(*config, *config::IterationSpace::parse("26624x16384:pr"));
    QVERIFY(derived.ok());
    QCOMPARE(
        derived->layout.print(),
        std::string("#iree_vector_ext.nested_layout<subgroup_tile = [1, 1, "
                    "1], batch_tile = [1, 1, 1], outer_tile = [1, 1, 1], "
                    "thread_tile = [1, 64, 1], element_tile = [1, 1, 8], "
                    "subgroup_strides = [0, 0, 0], thread_strides = [0, 1, "
                    "0]>"));
    QCOMPARE(derived->accumulatorLayout.threadTile, (V{1, 64}));
    QCOMPARE(derived->reductionLoops[0].iterations, int64_t(32));
    QCOMPARE(derived->reductionElementsPerSubgroup, int64_t(512));
    QCOMPARE(derived->workgroupCount, int64_t(26624));
  }

  // IREE-NOTES 3.3 / configure_tensor_layout.mlir: MFMA_F32_32x32x8_F16 on a
  // 96x64x16 matmul.
  void contractionLayoutOfTheLitTest() {
    auto config = config::LoweringConfig::parse(
        "#iree_gpu.lowering_config<{mma_kind = "
        "#iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>, reduction = [0, 0, 16], "
        "subgroup_basis = [[1, 1, 1], [0, 1, 2]], workgroup = [96, 64, 0]}>");
    config::IterationSpace space =
        *config::IterationSpace::parse("96x64x16:ppr");
    space.operands = {
        {"f16", {0, 2}, false}, {"f16", {2, 1}, false}, {"f32", {0, 1}, true}};
    auto layouts = deriveContractionLayouts(*config, space);
    QVERIFY2(layouts.ok(), layouts.ok() ? "" : layouts.error().c_str());
    QCOMPARE(layouts->lhs.batchTile, (V{3, 2}));
    QCOMPARE(layouts->lhs.threadTile, (V{32, 2}));
    QCOMPARE(layouts->lhs.elementTile, (V{1, 4}));
    QCOMPARE(layouts->lhs.threadStrides, (V{1, 32}));
    QCOMPARE(layouts->lhs.subgroupStrides, (V{0, 0}));
    QCOMPARE(layouts->acc.batchTile, (V{3, 2}));
    QCOMPARE(layouts->acc.outerTile, (V{4, 1}));
    QCOMPARE(layouts->acc.threadTile, (V{2, 32}));
    QCOMPARE(layouts->acc.elementTile, (V{4, 1}));
    QCOMPARE(layouts->acc.threadStrides, (V{32, 1}));
  }

  // iree_vector_ext seed: "A full example", vector<64x64xf16>.
  void seedNestedLayout64x64() {
    const NestedLayout layout =
        makeLayout(seed64x64(), /*subgroups=*/4, /*lanes=*/64);
    QCOMPARE(layout.shape(), (V{64, 64}));
    QCOMPARE(layout.simtShape(),
             (V{2, 16})); // "the actual shape is vector<2x16>"
    QCOMPARE(layout.distributedShape(), (V{2, 4, 1, 1, 1, 4}));
    // Subgroups 0 and 2 see the same slice, 1 and 3 the other.
    QCOMPARE(layout.virtualSubgroupIds(0), (V{0, 0}));
    QCOMPARE(layout.virtualSubgroupIds(1), (V{1, 0}));
    QCOMPARE(layout.virtualSubgroupIds(2), (V{0, 0}));
    QCOMPARE(layout.virtualSubgroupIds(3), (V{1, 0}));
    // Threads 0, 1, 16 take thread slices [0,0], [1,0], [0,1].
    QCOMPARE(layout.virtualLaneIds(0), (V{0, 0}));
    QCOMPARE(layout.virtualLaneIds(1), (V{1, 0}));
    QCOMPARE(layout.virtualLaneIds(16), (V{0, 1}));
    const auto held = layout.elementsOf(0, 0);
    QCOMPARE(held.size(), size_t(32));
    QCOMPARE(held[0], (V{0, 0}));
    QCOMPARE(held[3], (V{0, 3}));
    QCOMPARE(held[4], (V{0, 16}));  // next batch along dim 1
    QCOMPARE(held[16], (V{16, 0})); // next batch along dim 0
    QCOMPARE(layout.elementsOf(0, 16)[0], (V{0, 4}));
    // Element [0, 0] is held by lane 0 of subgroups 0 and 2 (replication).
    const auto owners = layout.ownersOf({0, 0});
    QCOMPARE(owners.size(), size_t(2));
    QCOMPARE(owners[0].subgroup, int64_t(0));
    QCOMPARE(owners[1].subgroup, int64_t(2));
    QCOMPARE(owners[0].lane, int64_t(0));
    QCOMPARE(owners[0].registerIndex, int64_t(0));
    // Register order: row-major over [batch, outer, element].
    const auto second = layout.ownersOf({16, 17});
    QCOMPARE(second.front().lane, int64_t(0));
    QCOMPARE(second.front().registerIndex, int64_t(4 * 4 + 1 * 4 + 1));
    QVERIFY(layout.problems().empty());
  }

  // iree_vector_ext seed: subgroup order 0, 4, 1, 5, 2, 6, 3, 7 and its mod-4
  // wrap.
  void subgroupOrderAndWrap() {
    const config::NestedLayoutAttr attr{{4, 2}, {1, 1}, {1, 1}, {1, 1},
                                        {1, 1}, {1, 4}, {0, 0}};
    const NestedLayout full = makeLayout(attr);
    V order;
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t j = 0; j < 2; ++j)
        order.push_back(full.subgroupIdOf({i, j}));
    QCOMPARE(order, (V{0, 4, 1, 5, 2, 6, 3, 7}));
    QCOMPARE(full.subgroupCount(), int64_t(8));
    const NestedLayout wrapped = makeLayout(attr, /*subgroups=*/4);
    V owners;
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t j = 0; j < 2; ++j) {
        const auto o = wrapped.ownersOf({i, j});
        QCOMPARE(o.size(), size_t(1));
        owners.push_back(o.front().subgroup);
      }
    QCOMPARE(owners, (V{0, 0, 1, 1, 2, 2, 3, 3}));
    QVERIFY(!wrapped.problems()
                 .empty()); // "names 8 subgroups; the workgroup has 4"
  }

  // iree_vector_ext seed: outer_tile = [2, 1], thread_tile = [2, 5].
  void outerTileDuplicatesTheThreadLayout() {
    const NestedLayout layout =
        makeLayout({{1, 1}, {1, 1}, {2, 1}, {2, 5}, {1, 1}, {0, 0}, {5, 1}});
    QCOMPARE(layout.shape(), (V{4, 5}));
    for (int64_t row = 0; row < 4; ++row)
      for (int64_t col = 0; col < 5; ++col) {
        const auto o = layout.ownersOf({row, col});
        QCOMPARE(o.size(), size_t(1));
        QCOMPARE(o.front().lane, (row % 2) * 5 + col);
        QCOMPARE(o.front().registerIndex, row / 2);
      }
  }

  void primaryOwnerAgreesWithOwnersOf() {
    for (const auto &attr :
         {seed64x64(),
          config::NestedLayoutAttr{
              {1, 2}, {3, 1}, {2, 1}, {4, 8}, {2, 2}, {0, 1}, {8, 1}},
          config::NestedLayoutAttr{{2}, {2}, {2}, {16}, {4}, {1}, {1}}}) {
      const NestedLayout layout = makeLayout(attr);
      for (int64_t flat = 0; flat < layout.elementCount(); ++flat) {
        Owner primary;
        const auto all = layout.ownersOf(layout.unflatten(flat));
        QCOMPARE(layout.primaryOwner(flat, primary), !all.empty());
        if (all.empty())
          continue;
        QCOMPARE(primary.subgroup, all.front().subgroup);
        QCOMPARE(primary.lane, all.front().lane);
        QCOMPARE(primary.registerIndex, all.front().registerIndex);
        // And the owner holds it: elementsOf lists it at that register.
        QCOMPARE(layout.elementsOf(
                     primary.subgroup,
                     primary.lane)[static_cast<size_t>(primary.registerIndex)],
                 layout.unflatten(flat));
      }
    }
  }

  void layoutProblems() {
    const auto only = [](const NestedLayout &layout, const std::string &text) {
      const auto problems = layout.problems();
      return problems.size() == 1 &&
             problems.front().find(text) != std::string::npos;
    };
    // d0's 4 lanes span ids 0..3, d1 starts at stride 2: lanes 2 and 3 would
    // hold elements of two rows.
    QVERIFY(only(
        makeLayout({{1, 1}, {1, 1}, {1, 1}, {4, 4}, {1, 1}, {0, 0}, {1, 2}}),
        "thread_strides [1, 2] overlap: dimension 0 spans 4 ids but "
        "dimension 1 starts at stride 2"));
    // A thread tile of 4 with stride 0: every lane sits at index 0 of d1.
    QVERIFY(only(
        makeLayout({{1, 1}, {1, 1}, {1, 1}, {4, 4}, {1, 1}, {0, 0}, {1, 0}}),
        "thread_tile[1]=4 with stride 0"));
    // 16 x 8 lanes named, 64 in the subgroup.
    QVERIFY(only(
        makeLayout({{1, 1}, {1, 1}, {1, 1}, {16, 8}, {1, 1}, {0, 0}, {1, 16}},
                   1, 64),
        "thread tiles name 128 lanes; the subgroup has 64"));
    // 8 subgroups named, 4 in the workgroup: ids wrap.
    QVERIFY(only(
        makeLayout({{8, 1}, {1, 1}, {1, 1}, {16, 4}, {1, 1}, {1, 0}, {1, 16}},
                   4, 64),
        "the layout names 8 subgroups; the workgroup has 4"));
    // A clean layout has none.
    QVERIFY(
        makeLayout({{2, 1}, {2, 4}, {1, 1}, {16, 4}, {1, 4}, {1, 0}, {1, 16}},
                   2, 64)
            .problems()
            .empty());
    QVERIFY(!NestedLayout::create({{1}, {0}, {1}, {1}, {1}, {0}, {0}}).ok());
    // Lanes or subgroups past what a GPU runs (drawing asks each of them
    // which element it holds) are refused, from the layout or the caller.
    auto lanes =
        NestedLayout::create({{1}, {1}, {1}, {1000000}, {1}, {0}, {1000000}});
    QVERIFY(!lanes.ok());
    QVERIFY2(lanes.error().find("more than a GPU runs") != std::string::npos,
             lanes.error().c_str());
    QVERIFY(!NestedLayout::create({{1}, {1}, {1}, {4}, {1}, {0}, {1}}, 1,
                                  int64_t{1} << 40)
                 .ok());
    QVERIFY(NestedLayout::create({{1}, {1}, {1}, {64}, {1}, {0}, {1}}, 16, 64)
                .ok());
  }

  // iree_codegen seed: the xor_shuffle tables (per_phase 1 and 2) and the
  // rotate_rows table (row_width 16, access_width 4).
  void swizzleTables() {
    auto xor1 = Swizzle::xorShuffle({16, 4, std::nullopt, std::nullopt});
    QCOMPARE(rowsOf(*xor1, 4),
             (std::vector<V>{
                 {0, 1, 2, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}}));
    auto xor2 = Swizzle::xorShuffle({16, 4, std::nullopt, 2});
    QCOMPARE(rowsOf(*xor2, 4),
             (std::vector<V>{
                 {0, 1, 2, 3}, {0, 1, 2, 3}, {1, 0, 3, 2}, {1, 0, 3, 2}}));
    auto rotate = Swizzle::rotateRows({16, 4});
    QCOMPARE(rowsOf(*rotate, 4),
             (std::vector<V>{
                 {0, 1, 2, 3}, {3, 0, 1, 2}, {2, 3, 0, 1}, {1, 2, 3, 0}}));
    for (int64_t row = 0; row < 8; ++row)
      for (int64_t column = 0; column < 4; ++column) {
        QCOMPARE(xor2->logicalColumn(row, xor2->physicalColumn(row, column)),
                 column);
        QCOMPARE(
            rotate->logicalColumn(row, rotate->physicalColumn(row, column)),
            column);
      }
    QCOMPARE(xor1->physicalOffset(1, 5), int64_t(16 + 0 * 4 + 1));
    QVERIFY(!Swizzle::xorShuffle({16, 5, std::nullopt, std::nullopt}).ok());
    // Sizes no shared memory holds are refused, not overflowed into a
    // negative offset (issue 45: xor_shuffle<INT64_MAX, INT64_MAX>).
    constexpr int64_t huge = std::numeric_limits<int64_t>::max();
    auto past = Swizzle::xorShuffle({huge, huge, std::nullopt, std::nullopt});
    QVERIFY(!past.ok());
    QVERIFY2(past.error().find("past any GPU's shared memory") !=
                 std::string::npos,
             past.error().c_str());
    auto rotated = Swizzle::rotateRows({huge, 1});
    QVERIFY(!rotated.ok());
    QVERIFY(rotated.error().find("rotate_rows row_width") != std::string::npos);
  }

  void bankConflictsBeforeAndAfterTheSwizzle() {
    // 64 lanes each read 8 f16 (16 bytes) from access column 0 of successive
    // 128-element rows: every row starts on bank 0, so without a swizzle the
    // 8 lanes of a phase collide 8 ways; xor_shuffle<128, 8> spreads them.
    const auto accesses = columnMajorAccesses(64, 64, 8);
    const BankModel banks = BankModel::forArch("gfx942");
    const auto before =
        analyzeBanks(accesses, 8, 2, Swizzle::identity(128, 8), banks);
    const auto after = analyzeBanks(
        accesses, 8, 2,
        *Swizzle::xorShuffle({128, 8, std::nullopt, std::nullopt}), banks);
    QCOMPARE(before.worstConflictDegree, int64_t(8));
    QCOMPARE(after.worstConflictDegree, int64_t(1));
    QCOMPARE(before.conflictDegreePerPhase.size(), size_t(8));
    QCOMPARE(after.accesses[1].physicalColumn, int64_t(8));
  }

  void mmaOperandReadsThroughASwizzle() {
    // MFMA_F32_16x16x16_F16's LHS: lane l reads 4 f16 of row l % 16 at
    // column 4 * (l / 16). A 16x16 tile has 32-byte rows, so gfx942's 32
    // banks of 4 bytes hold 4 rows: the 16 lanes of a phase (8-byte reads,
    // 128 bytes a phase) read rows r, r+4, r+8, r+12 from the same banks.
    const layout::MmaIntrinsic *mfma =
        findMmaIntrinsic("MFMA_F32_16x16x16_F16");
    const auto accesses = fragmentAccesses(mfma->lhs, 64);
    QCOMPARE(accesses.size(), size_t(64));
    QCOMPARE(accesses[17].row, int64_t(1));
    QCOMPARE(accesses[17].column, int64_t(4));
    const BankModel banks = BankModel::forArch("gfx942");
    const auto plain =
        analyzeBanks(accesses, 4, 2, Swizzle::identity(16, 4), banks);
    QCOMPARE(plain.worstConflictDegree, int64_t(4));
    QCOMPARE(plain.conflictDegreePerPhase, (V{4, 4, 4, 4}));
    // xor_shuffle<16, 4> XORs with row % 4, the same for rows 0, 4, 8, 12:
    // no help. per_phase = 4 XORs with row / 4 and spreads them over 4 bank
    // pairs: conflict-free.
    const auto perRow = analyzeBanks(
        accesses, 4, 2,
        *Swizzle::xorShuffle({16, 4, std::nullopt, std::nullopt}), banks);
    QCOMPARE(perRow.worstConflictDegree, int64_t(4));
    const auto perFourRows = analyzeBanks(
        accesses, 4, 2, *Swizzle::xorShuffle({16, 4, 16, 4}), banks);
    QCOMPARE(perFourRows.worstConflictDegree, int64_t(1));
  }

  // iree_gpu seed / IREEGPUAttrs: MFMA_F32_32x32x8_F16 lane shares.
  void mfma32x32x8LaneShares() {
    const MmaIntrinsic *mfma = findMmaIntrinsic("MFMA_F32_32x32x8_F16");
    QVERIFY(mfma);
    QCOMPARE(mfma->m, int64_t(32));
    QCOMPARE(mfma->k, int64_t(8));
    QCOMPARE(mfma->subgroupSize, int64_t(64));
    QCOMPARE(mfma->lhs.elementsPerLane(), int64_t(4));
    QCOMPARE(mfma->rhs.elementsPerLane(), int64_t(4));
    QCOMPARE(mfma->acc.elementsPerLane(), int64_t(16));
    QCOMPARE(mfma->lhs.shape(), (V{32, 8}));
    QCOMPARE(mfma->acc.shape(), (V{32, 32}));
    // Every operand element has exactly one lane.
    for (MmaOperand operand :
         {MmaOperand::Lhs, MmaOperand::Rhs, MmaOperand::Acc}) {
      const FragmentLayout &f = mfma->fragment(operand);
      const V shape = f.shape();
      for (int64_t r = 0; r < shape[0]; ++r)
        for (int64_t c = 0; c < shape[1]; ++c)
          QCOMPARE(f.lanesAt({r, c}, 64).size(), size_t(1));
    }
    // The header's worked example: MFMA_I32_32x32x8_I8 ACC, lane 0 holds
    // C[0..3, 0], C[8..11, 0], C[16..19, 0], C[24..27, 0].
    const MmaIntrinsic *i8 = findMmaIntrinsic("MFMA_I32_32x32x8_I8");
    QVERIFY(i8);
    const auto lane0 = i8->acc.elementsOf(0);
    QCOMPARE(lane0.size(), size_t(16));
    std::vector<V> expected;
    for (int64_t base : {0, 8, 16, 24})
      for (int64_t r = base; r < base + 4; ++r)
        expected.push_back({r, 0});
    QCOMPARE(lane0, expected);
    // col_major transposes only the accumulator (IREEGPUAttrs.cpp passes
    // `operandIndex == kMMAOperandAcc && getColMajor()`).
    const MmaIntrinsic colMajor = mfma->colMajor();
    QCOMPARE(colMajor.lhs.thread, mfma->lhs.thread);
    QCOMPARE(colMajor.rhs.thread, mfma->rhs.thread);
    QCOMPARE(colMajor.acc.thread,
             (V{mfma->acc.thread[1], mfma->acc.thread[0]}));
    QCOMPARE(colMajor.acc.outer, (V{mfma->acc.outer[1], mfma->acc.outer[0]}));
    QCOMPARE(colMajor.acc.element,
             (V{mfma->acc.element[1], mfma->acc.element[0]}));
    QCOMPARE(colMajor.acc.shape(), (V{32, 32}));
    QCOMPARE(colMajor.m, mfma->m);
    // Lane 0's first accumulator registers run along a row now, not a column.
    QCOMPARE(i8->colMajor().acc.elementsOf(0).at(1), (V{0, 1}));
    QVERIFY(mmaIntrinsics().size() >= 100);
  }

  void rooflineFloorOfTheF16Matmul() {
    config::IterationSpace space =
        *config::IterationSpace::parse("1024x1024x1024:ppr");
    space.operands = {
        {"f16", {0, 2}, false}, {"f16", {1, 2}, false}, {"f32", {0, 1}, true}};
    auto floor = rooflineFloor(space, *config::builtinTarget("gfx942"));
    QVERIFY(floor.ok());
    QCOMPARE(floor->bytes, double(2 * (1 << 20) * 2 + 4 * (1 << 20)));
    QCOMPARE(floor->operations, 2.0 * (1 << 30));
    QCOMPARE(floor->computePeak, std::string("f16 matrix"));
    QVERIFY(floor->floorSeconds > 0);
    QCOMPARE(floor->boundBy, std::string("compute"));
  }

  // The patterns IREE 3.13's configure-tensor-layouts showed on generated
  // partial-reduction configs (tests/property/property_layouts.cpp finds
  // them; the expected layouts here are what IREE printed for each).

  // A partially reduced loop keeps its place in the accumulator even when
  // GPUPackPartialReductions does not pack it (thread tile 1).
  void unpackedPartialReductionStaysInTheAccumulator() {
    auto derived = deriveLayout(
        configOf("{lane_basis = [[1, 64], [0, 1]], partial_reduction = [0, "
                 "512], subgroup_basis = [[1, 1], [0, 1]], thread = [0, 1], "
                 "workgroup = [1, 0]}"),
        spaceWith("256x4096:pr", {{0, 1}, {0}}));
    QVERIFY(derived.ok());
    QCOMPARE(derived->accumulatorDimensions,
             (std::vector<std::string>{"d0", "d1"}));
    QCOMPARE(
        derived->accumulatorLayout.print(),
        std::string("#iree_vector_ext.nested_layout<subgroup_tile = [1, "
                    "1], batch_tile = [1, 8], outer_tile = [1, 1], "
                    "thread_tile = [1, 64], element_tile = [1, 1], "
                    "subgroup_strides = [0, 0], thread_strides = [0, 1]>"));
  }

  // The accumulator lists the output's dimensions first, then the partially
  // reduced ones, whatever the loop order (here the reduction comes first).
  void accumulatorPutsTheOutputFirst() {
    const config::IterationSpace space =
        spaceWith("4096x256:rp", {{0, 1}, {1}});
    auto derived = deriveLayout(
        configOf("{lane_basis = [[64, 1], [0, 1]], partial_reduction = [512, "
                 "0], subgroup_basis = [[1, 1], [0, 1]], thread = [8, 0], "
                 "workgroup = [0, 1]}"),
        space);
    QVERIFY(derived.ok());
    QCOMPARE(derived->accumulatorDimensions,
             (std::vector<std::string>{"d1", "d0.outer"}));
    const auto layouts = operandLayouts(*derived, space);
    // Input tensor<64x1x8>: d0.outer, d1, then d0's inner tile.
    QCOMPARE(layouts[0].threadTile, (V{64, 1, 1}));
    QCOMPARE(layouts[0].elementTile, (V{1, 1, 8}));
    QCOMPARE(layouts[0].threadStrides, (V{1, 0, 0}));
    // Accumulator tensor<1x64>.
    QCOMPARE(layouts[1].threadTile, (V{1, 64}));
    QCOMPARE(layouts[1].threadStrides, (V{0, 1}));
  }

  // A basis with more counts than loops: packing keeps only the first `rank`
  // counts, so the lanes' stride along d1 changes from 4 to 1.
  void packingDropsBasisCountsPastTheRank() {
    const char *config = "{lane_basis = [[1, 16, 4], [0, 1]], "
                         "partial_reduction = [0, 512], subgroup_basis = [[1, "
                         "1], [0, 1]], thread = [0, %d], workgroup = [1, 0]}";
    char packedText[256], unpackedText[256];
    std::snprintf(packedText, sizeof packedText, config, 8);
    std::snprintf(unpackedText, sizeof unpackedText, config, 1);
    const config::IterationSpace space =
        spaceWith("256x4096:pr", {{0, 1}, {0}});
    auto packed = deriveLayout(configOf(packedText), space);
    auto unpacked = deriveLayout(configOf(unpackedText), space);
    QVERIFY(packed.ok() && unpacked.ok());
    QCOMPARE(packed->layout.threadStrides, (V{0, 1, 0}));
    QCOMPARE(packed->layout.batchTile, (V{1, 4, 1}));
    QCOMPARE(packed->effectiveLaneBasis->counts, (V{1, 16, 1}));
    QCOMPARE(unpacked->layout.threadStrides, (V{0, 4}));
    QCOMPARE(unpacked->layout.batchTile, (V{1, 32}));
  }

  // Two packed loops: an operand gets their inner tiles in loop order, even
  // when it lists the loops the other way round.
  void innerTilesFollowLoopOrder() {
    const config::IterationSpace space =
        spaceWith("32x32x32:rrp", {{1, 2, 0}, {2}});
    auto derived = deriveLayout(
        configOf("{lane_basis = [[1, 8, 4], [2, 1, 0]], partial_reduction = "
                 "[16, 32, 0], subgroup_basis = [[1, 1, 1], [0, 1, 2]], thread "
                 "= [4, 2, 2], workgroup = [0, 0, 8]}"),
        space);
    QVERIFY(derived.ok());
    const auto layouts = operandLayouts(*derived, space);
    // IREE: tensor<16x8x4x4x2>, element_tile = [1, 2, 1, 4, 2].
    QCOMPARE(layouts[0].elementTile, (V{1, 2, 1, 4, 2}));
    QCOMPARE(layouts[0].threadTile, (V{8, 1, 4, 1, 1}));
    QCOMPARE(layouts[0].threadStrides, (V{4, 0, 1, 0, 0}));
    QCOMPARE(layouts[0].batchTile, (V{2, 4, 1, 1, 1}));
    // The accumulator tensor<8x4x16>: d2, then d0.outer and d1.outer.
    QCOMPARE(layouts[1].batchTile, (V{4, 1, 2}));
    QCOMPARE(layouts[1].threadTile, (V{1, 4, 8}));
  }

  // getContractionLayout takes the batch counts of all three operands from
  // the intrinsic's M, N, K; col_major transposes the accumulator's fragment
  // but not its batch counts (IREE: ACC batch_tile = [2, 1] on 32 x 8).
  void colMajorKeepsTheIntrinsicsBatchCounts() {
    config::IterationSpace space =
        spaceWith("32x8x64:ppr", {{0, 2}, {2, 1}, {0, 1}});
    space.operands[0].elementType = space.operands[1].elementType = "f16";
    auto layouts = deriveContractionLayouts(
        configOf(
            "{mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16, "
            "col_major = true>, reduction = [0, 0, 64], subgroup_basis = "
            "[[1, 1, 1], [0, 1, 2]], workgroup = [32, 8, 0]}"),
        space);
    QVERIFY2(layouts.ok(), layouts.ok() ? "" : layouts.error().c_str());
    QCOMPARE(layouts->acc.batchTile, (V{2, 1}));
    QCOMPARE(layouts->lhs.batchTile, (V{2, 4}));
  }
};

QTEST_GUILESS_MAIN(LayoutTest)
#include "tst_layout.moc"
