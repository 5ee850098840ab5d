// core/layout against the real IREE: every MMA intrinsic and fragment
// layout, the XOR-shuffle rules, and the nested layouts IREE's
// configure-tensor-layouts pass gives the examples' configs.
#include "TestSupport.h"

#include "core/config/TranslationInfo.h"
#include "core/iree/Document.h"
#include "core/iree/MmaQuery.h"
#include "core/jobs/Process.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/Swizzle.h"

#include <QTemporaryDir>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace tilescope;

const char *const kReduceMiddle =
    "rocm_gfx942/reduce_middle_dispatch_0.benchmark.mlir";

class LayoutVsIreeTest : public QObject {
  Q_OBJECT

  std::optional<iree::MmaQuery> query;

private slots:
  void initTestCase() {
    auto created = iree::MmaQuery::create(test::projectCompiler());
    QVERIFY2(created.ok(), created.ok() ? "" : created.error().c_str());
    query.emplace(std::move(*created));
  }

  void everyIntrinsicAndFragmentMatchesIree() {
    const auto known = query->intrinsics();
    QVERIFY(known.size() >= 100);
    std::set<std::string> ireeNames;
    for (const iree::QueriedIntrinsic &intrinsic : known) {
      ireeNames.insert(intrinsic.name);
      const layout::MmaIntrinsic *ours =
          layout::findMmaIntrinsic(intrinsic.name);
      // A missing intrinsic is a failure: regenerate the table.
      QVERIFY2(
          ours,
          (intrinsic.name + " is missing from MmaIntrinsicTable.inc").c_str());
      QCOMPARE(ours->isVirtual, intrinsic.isVirtual);
      auto fragments = query->fragments(intrinsic);
      QVERIFY(fragments.ok());
      for (int operand = 0; operand < 3; ++operand) {
        const iree::QueriedFragment &theirs =
            (*fragments)[static_cast<size_t>(operand)];
        const layout::FragmentLayout &mine =
            ours->fragment(static_cast<layout::MmaOperand>(operand));
        const std::string where =
            intrinsic.name + " operand " + std::to_string(operand);
        QVERIFY2(mine.outer == theirs.outer, where.c_str());
        QVERIFY2(mine.thread == theirs.thread, where.c_str());
        QVERIFY2(mine.tstrides == theirs.tstrides, where.c_str());
        QVERIFY2(mine.element == theirs.element, where.c_str());
      }
      // M, N, K from the name agree with the layouts (IREE's
      // getMNKShapeFromIntrinsic) wherever the intrinsic has one.
      if (!ours->lhs.outer.empty()) {
        const auto lhs = ours->lhs.shape(), rhs = ours->rhs.shape();
        QCOMPARE(lhs[lhs.size() - 2], ours->m);
        QCOMPARE(lhs.back(), ours->k);
        QCOMPARE(rhs.back(), ours->n);
      }
    }
    for (const layout::MmaIntrinsic &mine : layout::mmaIntrinsics())
      QVERIFY2(ireeNames.count(mine.name),
               (mine.name + " is not known to the loaded IREE").c_str());
  }

  void xorShuffleValidityMatchesIree() {
    int checked = 0;
    for (int64_t row : {0, 1, 2, 3, 4, 6, 8, 16, 24, 32, 64, 96, 128, 256, 512})
      for (int64_t access : {1, 2, 3, 4, 8, 16, 32, 128})
        for (int64_t total : {0, 16, 64, 96, 128, 256, 384, 1024, 4096, 8192}) {
          if (row == 0)
            continue; // IREE divides by it
          auto theirs = query->isXorShuffleValid(row, access, total);
          QVERIFY(theirs.ok());
          QVERIFY2(layout::isXorShuffleValid(row, access, total) == *theirs,
                   (std::to_string(row) + ", " + std::to_string(access) + ", " +
                    std::to_string(total))
                       .c_str());
          ++checked;
        }
    QVERIFY(checked > 1000);
  }

  void xorShuffleBoundsMatchIree() {
    for (const iree::QueriedIntrinsic &intrinsic : query->intrinsics()) {
      const layout::MmaIntrinsic *ours =
          layout::findMmaIntrinsic(intrinsic.name);
      QVERIFY(ours);
      for (int operand = 0; operand < 3; ++operand) {
        auto theirs = query->xorShuffleBounds(intrinsic, operand);
        QVERIFY2(theirs.ok(), theirs.ok() ? "" : theirs.error().c_str());
        const auto mine = layout::xorShuffleBounds(
            ours->fragment(static_cast<layout::MmaOperand>(operand)));
        const std::string where =
            intrinsic.name + " operand " + std::to_string(operand);
        QVERIFY2(mine.has_value() == theirs->has_value(), where.c_str());
        if (mine) {
          QVERIFY2(mine->minAccessElements == (*theirs)->first, where.c_str());
          QVERIFY2(mine->totalTileElements == (*theirs)->second, where.c_str());
        }
      }
    }
  }

  // Compile each VectorDistribute example with IREE, print the IR after
  // iree-llvmgpu-configure-tensor-layouts, and compare IREE's to_layout ops
  // with the layouts Tilescope derives for the root op's config.
  void configureTensorLayoutsAgrees_data() {
    QTest::addColumn<QString>("example");
    // Replaces the root op's lowering_config before compiling, if not empty.
    QTest::addColumn<QString>("replacement");
    QTest::newRow("reduction")
        << "rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir"
        << QString();
    QTest::newRow("contraction")
        << "rocm_gfx942/matmul_f16_vector_distribute_dispatch_0.benchmark.mlir"
        << QString();
    QTest::newRow("softmax")
        << "rocm_gfx942/softmax_f32_dispatch_0.benchmark.mlir" << QString();
    QTest::newRow("reduction sm_90")
        << "cuda_sm_90/reduction_4x6656x16384_dispatch_0.benchmark.mlir"
        << QString();
    QTest::newRow("softmax sm_90")
        << "cuda_sm_90/softmax_f32_dispatch_0.benchmark.mlir" << QString();
    QTest::newRow("reduce middle") << kReduceMiddle << QString();
    // A 3-cycle lane_basis mapping tells IREE's reading (dimension i takes
    // basis axis mapping[i]) from the seed's inverse one: d0 gets axis 1
    // (2 lanes, stride 8), d1 axis 2 (8 lanes, stride 1), d2 axis 0 (4 lanes,
    // stride 16).
    QTest::newRow("3-cycle lane_basis")
        << kReduceMiddle
        << "#iree_gpu.lowering_config<{lane_basis = [[4, 2, 8], [1, 2, 0]], "
           "partial_reduction = [0, 0, 256], subgroup_basis = [[1, 1, 1], [0, "
           "1, 2]], thread = [0, 0, 4], workgroup = [2, 8, 0]}>";
  }

  void configureTensorLayoutsAgrees() {
    QFETCH(QString, example);
    QFETCH(QString, replacement);
    QTemporaryDir dir;
    auto path = test::examplesDir() / example.toStdString();
    if (!replacement.isEmpty()) {
      std::ifstream in(path);
      std::stringstream text;
      text << in.rdbuf();
      static const std::regex rootConfig(
          "lowering_config = #iree_gpu\\.lowering_config<\\{[^>]*\\}>");
      const std::string edited =
          std::regex_replace(text.str(), rootConfig,
                             "lowering_config = " + replacement.toStdString());
      QVERIFY(edited != text.str());
      path = dir.filePath("edited.mlir").toStdString();
      std::ofstream(path) << edited;
    }
    jobs::ProcessSpec spec;
    spec.program = *test::projectIree().tool(iree::kIreeCompile);
    spec.arguments = {
        path.string(), "-o", dir.filePath("out.vmfb").toStdString(),
        "--mlir-print-ir-after=iree-llvmgpu-configure-tensor-layouts",
        "--mlir-disable-threading"};
    spec.timeout = std::chrono::minutes(5);
    const jobs::ProcessResult result = jobs::runProcess(spec);
    QVERIFY2(result.succeeded(), result.describe().c_str());
    static const std::regex toLayout(
        "to_layout %[A-Za-z0-9_]+ to "
        "layout\\((#iree_vector_ext\\.nested_layout<[^>]*>)\\)");
    std::set<std::string> ireeLayouts;
    for (auto it = std::sregex_iterator(result.standardError.begin(),
                                        result.standardError.end(), toLayout);
         it != std::sregex_iterator(); ++it)
      ireeLayouts.insert((*it)[1]);
    QVERIFY2(!ireeLayouts.empty(), "IREE printed no to_layout");

    iree::DocumentParser parser(test::projectCompiler());
    auto document = parser.parseFile(path);
    QVERIFY(document.ok());
    // Every configured op of the dispatch: the layouts of each, the ops
    // fused into the root op on the root's workgroup tile.
    const auto &ops = document->dispatches.front().rootOps;
    auto spaceOf = [](const iree::RootOp &op) {
      return config::IterationSpace::fromLinalgOp(
          op.indexingMaps, op.iteratorTypes, op.operandTypes, op.name);
    };
    const auto root =
        std::find_if(ops.begin(), ops.end(),
                     [](const iree::RootOp &op) { return op.rootOpSet; });
    // A dispatch of one configured op may carry no root_op mark.
    const iree::RootOp &rootOp = root != ops.end() ? *root : ops.front();
    auto rootConfig = config::LoweringConfig::parse(rootOp.loweringConfig);
    auto rootSpace = spaceOf(rootOp);
    QVERIFY(rootConfig.ok() && rootSpace.ok());
    std::set<std::string> ours;
    for (const iree::RootOp &op : ops) {
      if (op.loweringConfig.empty())
        continue;
      auto space = spaceOf(op);
      QVERIFY2(space.ok(), space.ok() ? "" : space.error().c_str());
      auto config = config::LoweringConfig::parse(op.loweringConfig);
      QVERIFY(config.ok());
      layout::DeriveOptions options;
      options.fusedWorkgroupTile = layout::inheritedWorkgroupTile(
          *config, *space, *rootConfig, *rootSpace);
      if (config->mmaKind()) {
        auto layouts = layout::deriveContractionLayouts(*config, *space);
        QVERIFY2(layouts.ok(), layouts.ok() ? "" : layouts.error().c_str());
        ours.insert(
            {layouts->lhs.print(), layouts->rhs.print(), layouts->acc.print()});
      } else {
        auto derived = layout::deriveLayout(*config, *space, options);
        QVERIFY2(derived.ok(), derived.ok() ? "" : derived.error().c_str());
        for (const auto &projected : layout::operandLayouts(*derived, *space))
          ours.insert(projected.print());
      }
    }
    std::string oursText;
    for (const std::string &layout : ours)
      oursText += "\n  " + layout;
    for (const std::string &theirs : ireeLayouts)
      QVERIFY2(ours.count(theirs),
               ("IREE: " + theirs + "\nours:" + oursText).c_str());
  }
};

QTEST_GUILESS_MAIN(LayoutVsIreeTest)
#include "tst_layout_vs_iree.moc"
