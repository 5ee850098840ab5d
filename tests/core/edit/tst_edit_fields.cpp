// The fields a person edits, each where it lives: attention's own config
// beside the qk and pv configs of its decomposition_config, a
// compilation_info's two halves, a CPU config edited whole; field names as
// typed, and bare intrinsic and pipeline names spelled as IREE spells them.
// Each edit is read back by the real IREE.
#include "EditFixture.h"

#include "core/edit/ConfigDiff.h"
#include "core/edit/EditableDocument.h"
#include "core/edit/FieldEdit.h"
#include "core/edit/OpLayoutInputs.h"
#include "core/edit/RootOpContext.h"

#include <QTest>

#include <algorithm>

using namespace tilescope;

class EditFieldsTest : public QObject {
  Q_OBJECT

  test::EditFixture fixture;

private slots:
  void initTestCase() { fixture.load(); }

  // Attention's decomposition_config holds the qk and pv lowering_configs
  // before the op's own: an edit of the op's config rewrites that one, and
  // the two inside stay as IREE wrote them.
  void attentionEditsItsOwnConfig() {
    edit::EditableDocument document = fixture.editable(
        test::sourceDir() / "tests/core/edit/data/attention_sm_90.mlir");
    const std::string original = document.text();
    const auto decompositionOf = [](const std::string &text) {
      const size_t at = text.find("decomposition_config = ");
      const size_t end = text.find("}}>", at);
      return at == std::string::npos || end == std::string::npos
                 ? std::string()
                 : text.substr(at, end - at);
    };
    const std::string decomposition = decompositionOf(original);
    QVERIFY(decomposition.find("qk_attrs") != std::string::npos);
    // Read from IREE's IR: an inherent attribute of the op, not a
    // discardable one.
    QVERIFY(
        document.document().dispatches[0].rootOps[0].decompositionConfig.find(
            "qk_attrs") != std::string::npos);
    auto edited = document.set({0, 0}, "workgroup", "[1, 128, 0, 0, 64]");
    QVERIFY2(edited.ok(), edited.ok() ? "" : edited.error().c_str());
    QCOMPARE(decompositionOf(document.text()), decomposition);
    QVERIFY(document.document().dispatches[0].rootOps[0].loweringConfig.find(
                "workgroup = [1, 128, 0, 0, 64]") != std::string::npos);
    QVERIFY(document.text().find("reduction = [0, 0, 0, 64, 0], workgroup = "
                                 "[1, 128, 0, 0, 64]}>, root_op") !=
            std::string::npos);
    fixture.verifyWithIree(document);
    QVERIFY(document.undo());
    QCOMPARE(document.text(), original);
  }

  // qk_attrs.KEY and pv_attrs.KEY edit the contractions' own configs inside
  // the decomposition_config (read back, diffed and judged as fields); the
  // rules find a subgroup basis that covers fewer subgroups than the
  // workgroup has, and an intrinsic without a fragment layout.
  void attentionDecompositionFields() {
    edit::EditableDocument document = fixture.editable(
        test::sourceDir() / "tests/core/edit/data/attention_sm_90.mlir");
    const std::string original = document.text();
    const document::Document before = document.document();
    auto qk = document.set({0, 0}, "qk_attrs.subgroup_basis",
                           "[[1, 2, 1, 1, 1], [0, 1, 2, 3]]");
    QVERIFY2(qk.ok(), qk.ok() ? "" : qk.error().c_str());
    QCOMPARE(QString::fromStdString(qk->attributeKey),
             QString("decomposition_config"));
    const document::RootOp &op = document.document().dispatches[0].rootOps[0];
    auto decomposition = edit::decompositionOf(op);
    QVERIFY(decomposition.ok());
    QCOMPARE(decomposition->qk->subgroupBasis()->counts,
             (std::vector<int64_t>{1, 2, 1, 1, 1}));
    QCOMPARE(decomposition->pv->subgroupBasis()->counts,
             (std::vector<int64_t>{1, 4, 1, 1, 1}));
    // The op's own config is untouched; the diff names the field.
    QCOMPARE(op.loweringConfig, before.dispatches[0].rootOps[0].loweringConfig);
    const auto differences =
        edit::loweringConfigDifferences(before.dispatches[0].rootOps[0], op);
    QCOMPARE(differences.size(), size_t(1));
    QCOMPARE(QString::fromStdString(differences[0].field),
             QString("qk_attrs.subgroup_basis"));
    auto verdict =
        edit::ruleVerdict(edit::contextOf(document.document(), {0, 0}));
    QVERIFY(!verdict.hasErrors());
    QVERIFY(std::any_of(verdict.problems.begin(), verdict.problems.end(),
                        [](const config::Problem &p) {
                          return p.rule == "attention-subgroups" &&
                                 p.field == "qk_attrs.subgroup_basis";
                        }));
    fixture.verifyWithIree(document);
    // NV_WMMA has no fragment layout: an error (IREE 3.13 dies on it).
    QVERIFY(document.undo());
    auto pv = document.set({0, 0}, "pv_attrs.mma_kind",
                           "#iree_gpu.mma_layout<NV_WMMA_F32_16x16x16_F16>");
    QVERIFY2(pv.ok(), pv.ok() ? "" : pv.error().c_str());
    verdict = edit::ruleVerdict(edit::contextOf(document.document(), {0, 0}));
    QVERIFY(verdict.hasErrors());
    QCOMPARE(QString::fromStdString(verdict.firstError()->rule),
             QString("attention-layout"));
    QVERIFY(document.undo());
    QCOMPARE(document.text(), original);
    QVERIFY(!document.set({0, 0}, "qk_attrs.", "1").ok());
  }

  // A compilation_info holds both halves: each field edit rewrites it whole
  // (here its alias, used once).
  void compilationInfoFields() {
    edit::EditableDocument document = fixture.editable(
        test::examplesDir() / "sources/matmul_f16_vector_distribute.mlir");
    QCOMPARE(document.document().dispatches.size(), size_t(1));
    const document::RootOp &op = document.document().dispatches[0].rootOps[0];
    QVERIFY(!op.compilationInfo.empty());
    auto workgroup = document.set({0, 0}, "workgroup", "[128, 64, 0]");
    QVERIFY2(workgroup.ok(), workgroup.ok() ? "" : workgroup.error().c_str());
    QCOMPARE(QString::fromStdString(workgroup->attributeKey),
             QString("compilation_info"));
    auto size = document.set({0, 0}, "workgroup_size", "[512, 1, 1]");
    QVERIFY2(size.ok(), size.ok() ? "" : size.error().c_str());
    const std::string &info =
        document.document().dispatches[0].rootOps[0].compilationInfo;
    QVERIFY(info.find("workgroup = [128, 64, 0]") != std::string::npos);
    QVERIFY(info.find("workgroup_size = [512, 1, 1]") != std::string::npos);
    QVERIFY(document.text().find("#compilation = "
                                 "#iree_codegen.compilation_info<lowering_"
                                 "config = #iree_gpu.lowering_config<") !=
            std::string::npos);
    fixture.verifyWithIree(document);
    // The fields a person edits: the lowering config's and the
    // translation_info inside the compilation_info.
    const auto fields =
        edit::opFields(document.document().dispatches[0],
                       document.document().dispatches[0].rootOps[0]);
    auto valueOf = [&fields](const std::string &name) {
      for (const edit::FieldValue &f : fields)
        if (f.field == name)
          return f.value;
      return std::string("absent");
    };
    QCOMPARE(valueOf("workgroup"), std::string("[128, 64, 0]"));
    QCOMPARE(valueOf("translation_info.workgroup_size"),
             std::string("[512, 1, 1]"));
    auto context = edit::contextOf(document.document(), {0, 0});
    QVERIFY(context.loweringConfig.has_value());
    QCOMPARE(context.validation.translationInfo->workgroupSize,
             std::optional<std::vector<int64_t>>({512, 1, 1}));
  }

  // CPU configs are not edited field by field; the whole attribute is.
  void cpuConfigWhole() {
    edit::EditableDocument document =
        fixture.editable(test::examplesDir() /
                         "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir");
    const std::string config =
        document.document().dispatches[0].rootOps[1].loweringConfig;
    auto field = document.set({0, 1}, "workgroup", "[8, 8, 0]");
    QVERIFY(!field.ok());
    QVERIFY2(field.error().find("lowering_config=") != std::string::npos,
             field.error().c_str());
    std::string changed = config;
    const std::string from = "distribution = [16, 64, 0]";
    const size_t at = changed.find(from);
    QVERIFY2(at != std::string::npos, config.c_str());
    changed.replace(at, from.size(), "distribution = [32, 64, 0]");
    auto whole = document.set({0, 1}, "lowering_config", changed);
    QVERIFY2(whole.ok(), whole.ok() ? "" : whole.error().c_str());
    fixture.verifyWithIree(document);
  }

  void fieldNames() {
    auto check = [](const char *name, edit::ConfigPart part, const char *key,
                    const char *canonical) {
      auto field = edit::parseField(name);
      QVERIFY2(field.ok(), name);
      QCOMPARE(field->part, part);
      QCOMPARE(QString::fromStdString(field->key), QString(key));
      QCOMPARE(QString::fromStdString(field->name()), QString(canonical));
    };
    using edit::ConfigPart;
    check("workgroup", ConfigPart::LoweringConfig, "workgroup", "workgroup");
    check("lowering_config.lane_basis", ConfigPart::LoweringConfig,
          "lane_basis", "lane_basis");
    check("lowering_config", ConfigPart::LoweringConfig, "", "lowering_config");
    check("workgroup_size", ConfigPart::TranslationInfo, "workgroup_size",
          "translation_info.workgroup_size");
    check("prefetch_num_stages", ConfigPart::TranslationInfo,
          "prefetch_num_stages", "translation_info.prefetch_num_stages");
    check("translation_info.llvm_func_attrs", ConfigPart::TranslationInfo,
          "llvm_func_attrs", "translation_info.llvm_func_attrs");
    QVERIFY(!edit::parseField("").ok());
    QVERIFY(!edit::parseField("work group").ok());
    QVERIFY(!edit::parseField("translation_info.").ok());
  }

  // A bare intrinsic or pipeline name, as a person types it, is spelled as
  // IREE spells it (the window shows such values by their names); a name
  // that is no bare word is left to IREE's reading, which refuses it.
  void bareNamesAreSpelled() {
    edit::EditableDocument document = fixture.editable(
        (test::examplesDir() /
         "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir")
            .string());
    auto mma = document.set({0, 0}, "mma_kind", "MFMA_F32_32x32x8_F16");
    QVERIFY2(mma.ok(), mma.ok() ? "" : mma.error().c_str());
    QCOMPARE(QString::fromStdString(mma->newValue),
             QString("#iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>"));
    QVERIFY(mma->readByIree);
    auto pipeline = document.set({0, 0}, "pipeline", "VectorDistribute");
    QVERIFY2(pipeline.ok(), pipeline.ok() ? "" : pipeline.error().c_str());
    QCOMPARE(QString::fromStdString(pipeline->newValue),
             QString("#iree_gpu.pipeline<VectorDistribute>"));
    fixture.verifyWithIree(document);
    const edit::Field kind = edit::parseField("qk_attrs.mma_kind").value();
    QCOMPARE(QString::fromStdString(
                 *edit::spelledValue("", kind, "VMFMA_F32_16x16x32_F16")),
             QString("#iree_gpu.virtual_mma_layout<VMFMA_F32_16x16x32_F16>"));
    QCOMPARE(QString::fromStdString(*edit::spelledValue(
                 "", kind, "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>")),
             QString("#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>"));
    QVERIFY(!document.set({0, 0}, "mma_kind", "mfma 32x32").ok());
    // Shown by its name, spelled back the same: the window's round trip.
    for (const char *attribute :
         {"#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>",
          "#iree_gpu.virtual_mma_layout<VMFMA_F32_16x16x32_F16>"}) {
      const std::string name = edit::bareName(kind, attribute);
      QVERIFY(name.find('<') == std::string::npos);
      QCOMPARE(QString::fromStdString(*edit::spelledValue("", kind, name)),
               QString(attribute));
    }
    const edit::Field pipelineField = edit::parseField("pipeline").value();
    QCOMPARE(QString::fromStdString(edit::bareName(
                 pipelineField, "#iree_gpu.pipeline<TileAndFuse>")),
             QString("TileAndFuse"));
    // Not one bare name, or not such a field: as given.
    QCOMPARE(QString::fromStdString(edit::bareName(
                 kind, "#iree_gpu.scaled_mma_layout<intrinsic = X>")),
             QString("#iree_gpu.scaled_mma_layout<intrinsic = X>"));
    QCOMPARE(QString::fromStdString(
                 edit::bareName(edit::parseField("workgroup").value(),
                                "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>")),
             QString("#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>"));
  }
};

QTEST_GUILESS_MAIN(EditFieldsTest)
#include "tst_edit_fields.moc"
