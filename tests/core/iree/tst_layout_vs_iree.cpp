// core/layout against the real IREE: every MMA intrinsic and fragment
// layout, the XOR-shuffle rules, and the nested layouts IREE's
// configure-tensor-layouts pass gives the examples' configs.
#include "TestSupport.h"

#include "core/iree/DocumentParser.h"
#include "core/iree/MmaQuery.h"
#include "core/layout/MmaLayouts.h"
#include "core/layout/Swizzle.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeLayouts.h"

#include <QTemporaryDir>
#include <regex>
#include <set>

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
    // Scaled intrinsics are no MMAIntrinsic of IREE's C API: the targets
    // test finds them in gfx950's scaled_mma and the lane-fragments test
    // holds their layouts to IREE's distribution.
    for (const layout::MmaIntrinsic &mine : layout::mmaIntrinsics())
      QVERIFY2(mine.isScaled || ireeNames.count(mine.name),
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
        const std::string name =
            std::string(folder) + "/" + path.filename().string();
        QTest::newRow(name.c_str())
            << QString::fromStdString(name) << QString();
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
    iree::DocumentParser parser(test::projectCompiler());
    auto document = parser.parseFile(path);
    QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());
    service::DocumentWorker worker(test::binaryDir() / "app" /
                                       "tilescope-iree-worker",
                                   test::projectIree().compilerLibrary);
    auto answer =
        service::ireeLayouts(test::projectIree(), worker, *document, {});
    QVERIFY2(answer.ok(), answer.ok() ? "" : answer.error().c_str());
    QVERIFY(!answer->ops.empty());
    std::string report;
    for (const service::OpLayoutAnswer &op : answer->ops) {
      report += "\n  op " + std::to_string(op.rootOp) + " " + op.problem;
      for (const service::OperandLayoutAnswer &operand : op.operands) {
        report += "\n    " + operand.operand + "\n      ours " + operand.ours +
                  "\n      IREE " + operand.iree;
        for (const auto &d : operand.differences)
          report += "\n      " + d.field + ": " + d.ours + " vs " + d.iree;
      }
      if (op.forall)
        for (const auto &d : op.forall->differences)
          report += "\n    " + d.field + ": " + d.ours + " vs " + d.iree;
      // Every configured op was compared: anchored by IREE, derived by us.
      QVERIFY2(op.problem.empty(), report.c_str());
      QVERIFY2(!op.operands.empty() || op.forall, report.c_str());
    }
    QVERIFY2(answer->agrees(), report.c_str());
  }

  // The comparison names each differing field, in IREE's order, and an
  // unreadable layout as one difference.
  void nestedLayoutDifferencesNameTheField() {
    const std::string a =
        "#iree_vector_ext.nested_layout<subgroup_tile = [1, 16], batch_tile = "
        "[1, 1], outer_tile = [1, 1], thread_tile = [1, 64], element_tile = "
        "[1, 4], subgroup_strides = [0, 1], thread_strides = [0, 1]>";
    QVERIFY(service::compareNestedLayouts(a, a).empty());
    std::string b = a;
    b.replace(b.find("thread_tile = [1, 64]"), 21, "thread_tile = [64, 1]");
    b.replace(b.find("thread_strides = [0, 1]"), 23, "thread_strides = [1, 0]");
    const auto differences = service::compareNestedLayouts(a, b);
    QCOMPARE(differences.size(), size_t(2));
    QCOMPARE(differences[0].field, std::string("thread_tile"));
    QCOMPARE(differences[0].ours, std::string("[1, 64]"));
    QCOMPARE(differences[0].iree, std::string("[64, 1]"));
    QCOMPARE(differences[1].field, std::string("thread_strides"));
    const auto broken =
        service::compareNestedLayouts(a, "#iree_vector_ext.nested");
    QCOMPARE(broken.size(), size_t(1));
    QCOMPARE(broken[0].field, std::string("layout"));
  }

  // A CPU dispatch has no layouts to ask IREE for: said, not crashed.
  void cpuDispatchesAreRefusedByName() {
    iree::DocumentParser parser(test::projectCompiler());
    auto document =
        parser.parseFile(test::examplesDir() /
                         "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir");
    QVERIFY(document.ok());
    service::DocumentWorker worker(test::binaryDir() / "app" /
                                       "tilescope-iree-worker",
                                   test::projectIree().compilerLibrary);
    auto answer =
        service::ireeLayouts(test::projectIree(), worker, *document, {});
    QVERIFY(!answer.ok());
    QVERIFY2(answer.error().find("\"llvm-cpu\"") != std::string::npos,
             answer.error().c_str());
  }
};

QTEST_GUILESS_MAIN(LayoutVsIreeTest)
#include "tst_layout_vs_iree.moc"
