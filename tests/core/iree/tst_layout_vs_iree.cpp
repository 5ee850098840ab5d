// core/layout against the real IREE: every MMA intrinsic and fragment
// layout, the XOR-shuffle rules, and the nested layouts IREE's
// configure-tensor-layouts pass gives the examples' configs.
#include "TestSupport.h"

#include "core/config/TranslationInfo.h"
#include "core/iree/Document.h"
#include "core/iree/MmaQuery.h"
#include "core/jobs/Process.h"
#include "core/iree/LoweredIr.h"
#include "core/jobs/IreeLowering.h"
#include "core/layout/ConfigLayout.h"
#include "core/layout/OpLayouts.h"
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

  // Compile each example with IREE, print the IR after its
  // configure-tensor-layouts pass (VectorDistribute) and after its thread and
  // subgroup tiling (TileAndFuse), and compare what IREE decided for every
  // configured op with what Tilescope's views show for it (opLayouts, the
  // function the window and `render` draw from): per op, every operand's
  // layout; per TileAndFuse root op, the thread or subgroup forall.
  void examplesAgreeWithIree_data() {
    QTest::addColumn<QString>("example");
    // Replaces the root op's lowering_config before compiling, if not empty.
    QTest::addColumn<QString>("replacement");
    for (const char *folder : {"rocm_gfx942", "cuda_sm_90"})
      for (const auto &path : test::exampleBenchmarks(folder)) {
        const std::string name = std::string(folder) + "/" +
                                 path.filename().string();
        QTest::newRow(name.c_str()) << QString::fromStdString(name) << QString();
      }
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

  void examplesAgreeWithIree() {
    QFETCH(QString, example);
    QFETCH(QString, replacement);
    QTemporaryDir dir;
    auto path = test::examplesDir() / example.toStdString();
    if (!replacement.isEmpty()) {
      const std::string text = test::readFile(path);
      static const std::regex rootConfig(
          "lowering_config = #iree_gpu\\.lowering_config<\\{[^>]*\\}>");
      const std::string edited = std::regex_replace(
          text, rootConfig, "lowering_config = " + replacement.toStdString());
      QVERIFY(edited != text);
      path = dir.filePath("edited.mlir").toStdString();
      test::writeFile(path, edited);
    }
    jobs::ProcessSpec spec;
    spec.program = *test::projectIree().tool(iree::kIreeCompile);
    spec.arguments = {path.string(), "-o",
                      dir.filePath("out.vmfb").toStdString(),
                      std::string("--mlir-print-ir-after=") +
                          jobs::kConfigureTensorLayoutsPass,
                      std::string("--mlir-print-ir-after=") +
                          jobs::kApplyTilingLevelPass,
                      "--mlir-disable-threading"};
    spec.timeout = std::chrono::minutes(5);
    const jobs::ProcessResult result = jobs::runProcess(spec);
    QVERIFY2(result.succeeded(), result.describe().c_str());
    jobs::LoweringProbeResult dumps;
    jobs::parseLoweringOutput(result.standardError, path.string(), dumps, {});

    iree::DocumentParser parser(test::projectCompiler());
    auto document = parser.parseFile(path);
    QVERIFY(document.ok());
    const iree::Dispatch &dispatch = document->dispatches.front();
    auto info = config::TranslationInfo::parse(dispatch.translationInfo);
    QVERIFY(info.ok());
    const auto &ops = dispatch.rootOps;
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

    auto reader = iree::LoweredIrReader::create(test::projectCompiler());
    QVERIFY(reader.ok());
    const std::string function = dumps.dumps.empty() ? "" : dumps.dumps.front().function;
    QVERIFY2(!function.empty(), "IREE printed no IR for the dispatch");

    if (info->pipelineName() == "TileAndFuse") {
      const jobs::IrDump *dump = dumps.dump(function, jobs::kApplyTilingLevelPass,
                                            "tiling-level", "subgroup");
      QVERIFY(dump);
      auto lowered = reader->read(dump->text);
      QVERIFY2(lowered.ok(), lowered.ok() ? "" : lowered.error().c_str());
      layout::OpLayoutRequest request{&*rootConfig, &*rootSpace, &*info, {}};
      auto ours = layout::opLayouts(request);
      QVERIFY2(ours.ok(), ours.ok() ? "" : ours.error().c_str());
      const layout::ForallDistribution &distribution =
          ours->view == layout::OpView::ThreadTiles ? *ours->threads
                                                    : *ours->subgroups;
      const std::string kind =
          ours->view == layout::OpView::ThreadTiles ? "thread" : "warp";
      std::vector<const iree::ForallLoop *> loops;
      for (const iree::ForallLoop &loop : lowered->foralls)
        if (loop.mappedTo(kind))
          loops.push_back(&loop);
      QCOMPARE(loops.size(), size_t(1));
      QCOMPARE(loops.front()->tripCounts(), distribution.tripCounts);
      std::vector<int> linear = loops.front()->linearDims();
      QCOMPARE(linear, distribution.linearDims);
      return;
    }

    const jobs::IrDump *dump = dumps.dump(function, jobs::kConfigureTensorLayoutsPass);
    QVERIFY2(dump, "IREE printed no IR after configure-tensor-layouts");
    auto lowered = reader->read(dump->text);
    QVERIFY2(lowered.ok(), lowered.ok() ? "" : lowered.error().c_str());
    // IREE's anchored ops, each as the tuple of its operand layouts.
    std::multiset<std::vector<std::string>> theirs;
    for (const iree::AnchoredOp &op : lowered->anchoredOps) {
      if (op.loweringConfig.empty())
        continue;
      std::vector<std::string> layouts;
      for (const auto &operand : op.operands)
        layouts.push_back(operand ? operand->layout : "(none)");
      theirs.insert(layouts);
    }
    QVERIFY2(!theirs.empty(), "IREE anchored no configured op");
    std::multiset<std::vector<std::string>> ours;
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
      if (info->subgroupSize)
        options.subgroupSize = *info->subgroupSize;
      layout::OpLayoutRequest request{&*config, &*space, &*info, options};
      auto derived = layout::opLayouts(request);
      QVERIFY2(derived.ok(), derived.ok() ? "" : derived.error().c_str());
      std::vector<std::string> layouts;
      if (derived->view == layout::OpView::ContractionLayout) {
        layouts = {derived->contraction->lhs.print(),
                   derived->contraction->rhs.print(),
                   derived->contraction->acc.print()};
      } else {
        for (const auto &projected : layout::operandLayouts(*derived->derived, *space))
          layouts.push_back(projected.print());
      }
      ours.insert(layouts);
    }
    auto text = [](const std::multiset<std::vector<std::string>> &set) {
      std::string out;
      for (const auto &op : set) {
        out += "\n  op:";
        for (const std::string &layout : op)
          out += "\n    " + layout;
      }
      return out;
    };
    QVERIFY2(theirs == ours,
             ("IREE:" + text(theirs) + "\nours:" + text(ours)).c_str());
  }
};

QTEST_GUILESS_MAIN(LayoutVsIreeTest)
#include "tst_layout_vs_iree.moc"
