// The scenes built from the layout math: their cells say what the math says,
// the fast colour path agrees with the full one, and every kind of scene
// writes a PNG and an SVG.
#include "TestSupport.h"

#include "widgets/render/SceneExport.h"
#include "widgets/render/Scenes.h"

#include <QTemporaryDir>

using namespace tilescope;

namespace {

void checkFastPathAgrees(const render::GridScene &scene) {
  for (const render::Panel &panel : scene.panels) {
    if (!panel.colorKey)
      continue;
    for (int64_t r = 0; r < panel.rows;
         r += std::max<int64_t>(1, panel.rows / 17))
      for (int64_t c = 0; c < panel.columns;
           c += std::max<int64_t>(1, panel.columns / 13))
        QCOMPARE(panel.colorKey(r, c), panel.cell(r, c).colorKey);
  }
}

void checkWrites(const render::GridScene &scene, const QString &name) {
  QTemporaryDir dir;
  for (const char *extension : {"png", "svg"}) {
    const QString path = dir.filePath(name + "." + extension);
    QString error;
    QVERIFY2(
        render::writeScene(scene, path, render::Theme::light(), 16, &error),
        qPrintable(error));
    QVERIFY(QFileInfo(path).size() > 100);
  }
  QImage image(dir.filePath(name + ".png"));
  QVERIFY(!image.isNull());
}

} // namespace

class ScenesTest : public QObject {
  Q_OBJECT

private slots:
  void nestedLayoutCellsAreTheOwners() {
    auto layout = std::make_shared<const layout::NestedLayout>(
        *layout::NestedLayout::create(
            {{2, 1}, {2, 4}, {1, 1}, {16, 4}, {1, 4}, {1, 0}, {1, 16}}, 4, 64));
    const auto scene =
        render::nestedLayoutScene(layout, render::ColorBy::Lane, 0, 1, {0, 0});
    QCOMPARE(scene.panels.size(), size_t(1));
    const render::Panel &panel = scene.panels.front();
    QCOMPARE(panel.rows, int64_t(64));
    QCOMPARE(panel.columns, int64_t(64));
    for (int64_t r : {0, 5, 17, 63})
      for (int64_t c : {0, 3, 17, 60}) {
        const auto owners = layout->ownersOf({r, c});
        QCOMPARE(panel.cell(r, c).colorKey, owners.front().lane);
      }
    checkFastPathAgrees(scene);
    checkFastPathAgrees(render::nestedLayoutScene(
        layout, render::ColorBy::Register, 0, 1, {0, 0}));
    checkWrites(scene, "layout");
  }

  // Two subgroups and a layout that names one: both hold every element.
  // The cell is marked, the other subgroup's key marks it too, and the
  // hover text says who else holds it.
  void replicationIsShown() {
    auto layout = std::make_shared<const layout::NestedLayout>(
        *layout::NestedLayout::create(
            {{1, 1}, {1, 1}, {1, 1}, {4, 16}, {1, 1}, {0, 0}, {16, 1}}, 2, 64));
    const auto scene = render::nestedLayoutScene(
        layout, render::ColorBy::Subgroup, 0, 1, {0, 0});
    const render::CellInfo cell = scene.panels.front().cell(1, 2);
    QVERIFY(cell.marked);
    QCOMPARE(cell.colorKey, int64_t(0));
    QCOMPARE(cell.otherKeys, std::vector<int64_t>{1});
    QVERIFY2(cell.detail.contains("replicated: 2 threads hold it (also "
                                  "subgroup 1 lane 18)"),
             qPrintable(cell.detail));
    QVERIFY(render::markColorKey(scene, 1).panels.front().cell(1, 2).marked);
  }

  void everySceneKindDraws() {
    auto basis = std::make_shared<const layout::BasisMap>(
        *layout::BasisMap::create({{16, 4}, {1, 0}}));
    const auto basisScene = render::basisScene(basis);
    QCOMPARE(basisScene.panels.size(), size_t(2));
    QCOMPARE(basisScene.panels[0].cell(10, 2).colorKey,
             int64_t(42)); // digits [10, 2]
    QCOMPARE(basisScene.panels[1].cell(2, 10).colorKey,
             int64_t(42)); // iteration [2, 10]
    checkWrites(basisScene, "basis");
    // Marking thread 42: its cells (and only those) in both panels, named in
    // the footer, and drawn at every zoom (no colour-only path).
    const auto marked = render::markColorKey(basisScene, 42);
    QVERIFY(marked.panels[0].cell(10, 2).marked);
    QVERIFY(marked.panels[1].cell(2, 10).marked);
    QVERIFY(!marked.panels[0].cell(10, 1).marked);
    QVERIFY(!marked.panels[1].cell(2, 9).marked);
    QVERIFY(!marked.panels[0].colorKey && !marked.panels[1].colorKey);
    QVERIFY(marked.footer.startsWith("marked: thread 42\n"));
    QVERIFY(!render::markColorKey(basisScene, -1).footer.contains("marked"));
    // A basis with an unmapped digit: threads 0 and 16 share iteration
    // [0, 0]; marking either marks the shared cell.
    auto replicated = std::make_shared<const layout::BasisMap>(
        *layout::BasisMap::create({{4, 16}, {1}}));
    const auto shared = render::basisScene(replicated);
    QCOMPARE(shared.panels[1].cell(0, 0).colorKey, int64_t(0));
    QVERIFY(render::markColorKey(shared, 16).panels[1].cell(0, 0).marked);
    QVERIFY(!render::markColorKey(shared, 17).panels[1].cell(0, 0).marked);

    auto config = config::LoweringConfig::parse(
        "#iree_gpu.lowering_config<{lane_basis = [[1, 64], [0, 1]], "
        "partial_reduction = [0, 512], subgroup_basis = [[1, 1], [0, 1]], "
        "thread "
        "= [0, 8], workgroup = [1, 0]}>");
    auto derived =
        std::make_shared<const layout::DerivedLayout>(*layout::deriveLayout(
            *config, *config::IterationSpace::parse("26624x16384:pr")));
    const auto configScene =
        render::configScene(derived, render::ColorBy::Lane, 1, 2, 3);
    // d1.outer x d1.inner: row r is lane r, its 8 elements across.
    QCOMPARE(configScene.panels.front().rows, int64_t(64));
    QCOMPARE(configScene.panels.front().columns, int64_t(8));
    QCOMPARE(configScene.panels.front().cell(42, 7).colorKey, int64_t(42));
    QVERIFY(configScene.panels.front().title.contains("d1 in [1536, 2048)"));
    // Hovering names the element by the op's own loops (step 3 starts at
    // 1536; outer 42 x 8 + inner 7), not by the folded picture's cell.
    const QString detail = configScene.panels.front().cell(42, 7).detail;
    QVERIFY2(detail.startsWith("d0=0, d1=1879 (picture: d1.outer 42, "
                               "d1.inner 7): subgroup 0, lane 42"),
             qPrintable(detail));
    checkFastPathAgrees(configScene);
    checkWrites(configScene, "config");

    // A contraction's panels name the loop dimension of each drawn axis, in
    // the operand's own order (the CLI's matmul has a transposed B: N x K).
    auto matmul = config::LoweringConfig::parse(
        "#iree_gpu.lowering_config<{mma_kind = "
        "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, reduction = [0, 0, 64], "
        "subgroup_basis = [[2, 2, 1], [0, 1, 2]], workgroup = [64, 64, 0]}>");
    auto matmulSpace = config::IterationSpace::fromLinalgOp(
        "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> "
        "(d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]",
        "[\"parallel\", \"parallel\", \"reduction\"]",
        {"tensor<1024x1024xf16>", "tensor<1024x1024xf16>",
         "tensor<1024x1024xf32>"});
    QVERIFY(matmul.ok() && matmulSpace.ok());
    auto layouts = layout::deriveContractionLayouts(*matmul, *matmulSpace);
    QVERIFY(layouts.ok());
    auto contraction =
        render::contractionScene(*layouts, render::ColorBy::Lane);
    QVERIFY(contraction.ok());
    QCOMPARE(contraction->panels.size(), size_t(3));
    QCOMPARE(contraction->panels[0].rowAxis, QString("d0 (M)"));
    QCOMPARE(contraction->panels[0].columnAxis, QString("d2 (K)"));
    QCOMPARE(contraction->panels[1].rowAxis, QString("d1 (N)"));
    QCOMPARE(contraction->panels[1].columnAxis, QString("d2 (K)"));
    QCOMPARE(contraction->panels[2].columnAxis, QString("d1 (N)"));

    const auto grid = render::workgroupGridScene(derived, 0, 1);
    QCOMPARE(grid.panels.front().columns, int64_t(1));
    QCOMPARE(grid.panels.front().rows, int64_t(26624));
    checkWrites(grid, "grid");

    const auto mma =
        render::mmaScene(*layout::findMmaIntrinsic("MFMA_F32_32x32x8_F16"),
                         render::ColorBy::Lane, 0);
    QCOMPARE(mma.panels.size(), size_t(3));
    QCOMPARE(mma.panels[2].rows, int64_t(32));
    // ACC: lane 0 holds C[0..3, 0], C[8..11, 0], ...
    QCOMPARE(mma.panels[2].cell(9, 0).colorKey, int64_t(0));
    QVERIFY(mma.panels[2].cell(9, 0).marked);
    QCOMPARE(mma.panels[2].cell(4, 0).colorKey, int64_t(32));
    checkWrites(mma, "mma");

    auto swizzle =
        *layout::Swizzle::xorShuffle({128, 8, std::nullopt, std::nullopt});
    const auto swizzleScene =
        render::swizzleScene(swizzle, layout::columnMajorAccesses(32, 32, 8), 2,
                             layout::BankModel::forArch("gfx942"));
    QCOMPARE(swizzleScene.panels.size(), size_t(2));
    QVERIFY(swizzleScene.panels[0].cell(3, 0).marked);  // conflicts before
    QVERIFY(!swizzleScene.panels[1].cell(3, 3).marked); // none after
    QCOMPARE(swizzleScene.panels[1].cell(3, 3).label, QString("l3"));
    checkWrites(swizzleScene, "swizzle");
  }
};

QTEST_MAIN(ScenesTest)
#include "tst_scenes.moc"
