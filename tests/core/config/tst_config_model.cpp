// The typed config models: every key and attribute read, modelled and written
// back; conversions between releases; targets. (tst_config_rules holds the
// validation rules.)
#include "ConfigTestSupport.h"
#include "TestSupport.h"

#include "core/config/configs/LayoutAttributes.h"
#include "core/config/configs/OtherConfigs.h"
#include "core/config/configs/TargetAttribute.h"
#include "core/config/rules/Conversions.h"
#include "core/config/rules/Validation.h"
#include "core/iree/DocumentParser.h"
#include "core/layout/LayoutValidation.h"

#include <limits>
#include <random>
#include <regex>
#include <set>

using namespace tilescope;
using namespace tilescope::config;
using test::kSeedReduction;
using test::makeConfig;
using test::translation;

class ConfigModelTest : public QObject {
  Q_OBJECT

private slots:
  void readsTheSeedReduction() {
    const LoweringConfig c = makeConfig(kSeedReduction);
    QCOMPARE(c.tileSizes(TilingLevel::Workgroup).value(),
             (std::vector<int64_t>{4, 1, 0, 0}));
    QCOMPARE(c.tileSizes(TilingLevel::PartialReduction).value(),
             (std::vector<int64_t>{0, 0, 64, 0}));
    QCOMPARE(c.tileSizes(TilingLevel::Thread).value(),
             (std::vector<int64_t>{0, 0, 1, 8}));
    QCOMPARE(c.laneBasis()->counts, (std::vector<int64_t>{1, 1, 64, 1}));
    QCOMPARE(c.laneBasis()->product(), int64_t(64));
    QCOMPARE(c.subgroupBasis()->mapping, (std::vector<int64_t>{0, 1, 2, 3}));
    const ExpandDims dims = c.expandDims().value();
    QCOMPARE(dims.reassociation.size(), size_t(3));
    QCOMPARE(dims.reassociation[2], (std::vector<int64_t>{2, 3}));
    QVERIFY(!dims.outputShape[0].has_value());
    QCOMPARE(dims.outputShape[3].value(), int64_t(8));
    QVERIFY(c.notes().empty() ||
            c.notes().front().kind == ReadNote::Kind::LegacyKey);
    QCOMPARE(c.print(), std::string(kSeedReduction));
  }

  void readsEveryKey() {
    const LoweringConfig c = makeConfig(
        "#iree_gpu.lowering_config<{convert_acc_gemm, lane = [1, 2], "
        "lowering_strategy = \"seq\", mma_kind = "
        "#iree_gpu.virtual_mma_layout<VMFMA_F32_32x32x16_F16, col_major = "
        "true>, "
        "padding = [1, 2], padding_conv = [1], promote_operands = [0, 1], "
        "promotion_types = [#iree_gpu.derived_thread_config, "
        "#iree_gpu.use_global_load_dma], reduction = [0, 0, 4], serial = [0, "
        "1], "
        "subgroup = [2, 4, 0], subgroup_m_count = 2 : i64, thread_basis = "
        "[[16, "
        "4], [1, 0]], workgroup_reordering_strategy = "
        "#iree_gpu.conditional_transpose<8, 38>, zzz_unknown = 3 : i64}>");
    QVERIFY(c.convertAccGemm());
    QCOMPARE(c.tileSizes(TilingLevel::Lane).value(),
             (std::vector<int64_t>{1, 2}));
    QCOMPARE(c.loweringStrategy().value(), std::string("seq"));
    QCOMPARE(c.mmaKind()->intrinsic, std::string("VMFMA_F32_32x32x16_F16"));
    QVERIFY(c.mmaKind()->colMajor && c.mmaKind()->isVirtual());
    QCOMPARE(c.padding().value(), (std::vector<int64_t>{1, 2}));
    QCOMPARE(c.paddingConv().value(), (std::vector<int64_t>{1}));
    QCOMPARE(c.promotionTypes()->elements.size(), size_t(2));
    QCOMPARE(c.tileSizes(TilingLevel::Serial).value(),
             (std::vector<int64_t>{0, 1}));
    QCOMPARE(c.subgroupMCount().value(), int64_t(2));
    QCOMPARE(c.laneBasis()->counts,
             (std::vector<int64_t>{16, 4})); // thread_basis
    QVERIFY(c.workgroupReorderingStrategy()->isDialect(
        "iree_gpu", "conditional_transpose"));
    const auto notes = c.notes();
    QVERIFY(std::any_of(notes.begin(), notes.end(), [](const ReadNote &n) {
      return n.kind == ReadNote::Kind::UnknownKey && n.key == "zzz_unknown";
    }));
    QVERIFY(std::any_of(notes.begin(), notes.end(), [](const ReadNote &n) {
      return n.kind == ReadNote::Kind::LegacyKey && n.key == "thread_basis";
    }));
    // Unknown keys are kept verbatim through a write.
    QVERIFY(c.print().find("zzz_unknown = 3 : i64") != std::string::npos);
  }

  void editsAndWritesInIreesOrder() {
    LoweringConfig c =
        makeConfig("#iree_gpu.lowering_config<{workgroup = [1, 0]}>");
    c.setTileSizes(TilingLevel::Thread, {0, 8});
    c.setLaneBasis({{1, 64}, {0, 1}});
    c.setMmaKind({"mma_layout", "MFMA_F32_16x16x16_F16", false});
    c.set("convert_acc_gemm", Attribute::unit());
    QCOMPARE(
        c.print(),
        std::string("#iree_gpu.lowering_config<{convert_acc_gemm, lane_basis = "
                    "[[1, 64], [0, 1]], mma_kind = "
                    "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, thread = [0, "
                    "8], workgroup = [1, 0]}>"));
    c.erase("mma_kind");
    QVERIFY(!c.has("mma_kind"));
    QVERIFY(
        !LoweringConfig::parse("#iree_codegen.translation_info<pipeline = x>")
             .ok());
    QVERIFY(!LoweringConfig::parse("#iree_gpu.lowering_config<[1]>").ok());
  }

  void readsTranslationInfoInBothSyntaxes() {
    const TranslationInfo modern = translation(
        "#iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] "
        "subgroup_size = 64, {gpu_pipeline_options = "
        "#iree_gpu.pipeline_options<prefetch_num_stages = 2, "
        "no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution "
        "= "
        "false>, iree_codegen.denormal_fp_math_f32 = "
        "#iree_codegen.denormal_fp_math<\"preserve-sign\">, llvm_func_attrs = "
        "{\"amdgpu-waves-per-eu\" = \"2\"}}>");
    QCOMPARE(modern.pipelineName(), std::string("VectorDistribute"));
    QVERIFY(modern.pipelineSyntax() == PipelineSyntax::GpuPipelineAttribute);
    QCOMPARE(modern.workgroupSize.value(), (std::vector<int64_t>{64, 1, 1}));
    QCOMPARE(modern.subgroupSize.value(), int64_t(64));
    QCOMPARE(modern.pipelineOptions()->prefetchNumStages.value(), int64_t(2));
    QVERIFY(modern.llvmFuncAttrs());
    QVERIFY(modern.denormalFpMathF32());

    const TranslationInfo legacy = translation(
        "#iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute "
        "workgroup_size = [64, 1, 1] subgroup_size = 64, {gpu_pipeline_options "
        "= "
        "#iree_gpu.pipeline_options<prefetch_shared_memory = true>}>");
    QCOMPARE(legacy.pipelineName(), std::string("VectorDistribute"));
    QVERIFY(legacy.pipelineSyntax() == PipelineSyntax::LegacyKeyword);
    QCOMPARE(legacy.pipelineOptions()->prefetchSharedMemory.value(), true);

    // Written in IREE's order whatever order it was read in.
    TranslationInfo edited =
        translation("#iree_codegen.translation_info<pipeline = "
                    "#iree_gpu.pipeline<VectorDistribute> subgroup_size = 64 "
                    "workgroup_size = "
                    "[128, 1, 1]>");
    edited.setPipeline("TileAndFuse");
    PipelineOptions options;
    options.useIgemmConvolution = true;
    options.prefetchNumStages = 3;
    edited.setPipelineOptions(options);
    QCOMPARE(
        edited.print(),
        std::string("#iree_codegen.translation_info<pipeline = "
                    "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, "
                    "1] subgroup_size = 64, {gpu_pipeline_options = "
                    "#iree_gpu.pipeline_options<prefetch_num_stages = 3, "
                    "use_igemm_convolution = true>}>"));
  }

  void readsCompilationInfoAndLayouts() {
    auto info = CompilationInfo::parse(
        "#iree_codegen.compilation_info<lowering_config = "
        "#iree_gpu.lowering_config<{workgroup = [1, 0]}>, translation_info = "
        "#iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] "
        "subgroup_size = 64>>");
    QVERIFY(info.ok());
    // Inside compilation_info IREE prints translation_info type-elided.
    QCOMPARE(
        info->print(),
        std::string("#iree_codegen.compilation_info<lowering_config = "
                    "#iree_gpu.lowering_config<{workgroup = [1, 0]}>, "
                    "translation_info = <pipeline = "
                    "#iree_gpu.pipeline<VectorDistribute> workgroup_size = "
                    "[64, 1, 1] subgroup_size = 64>>"));
    QVERIFY(info->gpuLoweringConfig().has_value());

    auto layout = NestedLayoutAttr::parse(
        "#iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = "
        "[3, "
        "2], outer_tile = [1, 1], thread_tile = [32, 2], element_tile = [1, "
        "4], "
        "subgroup_strides = [1, 1], thread_strides = [1, 32]>");
    QVERIFY(layout.ok());
    QCOMPARE(layout->threadTile, (std::vector<int64_t>{32, 2}));
    // Strides of unit tiles normalize to 0, as NestedLayoutAttr::get does.
    QVERIFY(layout->print().find("subgroup_strides = [0, 0]") !=
            std::string::npos);
    QVERIFY(
        !NestedLayoutAttr::parse(
             "#iree_vector_ext.nested_layout<subgroup_tile = [1], batch_tile = "
             "[1, 2], outer_tile = [1], thread_tile = [1], element_tile = [1], "
             "subgroup_strides = [0], thread_strides = [0]>")
             .ok());

    auto xorShuffle = XorShuffleAttr::fromAttribute(
        *parseResolvedAttribute("#iree_codegen.xor_shuffle<128, 16, 256, 2>"));
    QVERIFY(xorShuffle.ok());
    QCOMPARE(xorShuffle->effectivePerPhase(), int64_t(2));
    QCOMPARE(printAttribute(xorShuffle->toAttribute()),
             std::string("#iree_codegen.xor_shuffle<128, 16, 256, 2>"));
    auto defaults = XorShuffleAttr::fromAttribute(
        *parseResolvedAttribute("#iree_codegen.xor_shuffle<128, 16>"));
    QCOMPARE(defaults->effectiveRowStride(), int64_t(128));
    QCOMPARE(defaults->effectivePerPhase(), int64_t(1));
    auto rotate = RotateRowsAttr::fromAttribute(
        *parseResolvedAttribute("#iree_codegen.rotate_rows<64, 4>"));
    QCOMPARE(rotate->accessWidth, int64_t(4));
    QVERIFY(!RotateRowsAttr::fromAttribute(
                 *parseResolvedAttribute("#iree_codegen.rotate_rows<64>"))
                 .ok());
  }

  void readsPromotionDecompositionAndCpuConfigs() {
    const LoweringConfig c =
        makeConfig("#iree_gpu.lowering_config<{promote_operands = [0, 1, 2], "
                   "promotion_types "
                   "= [#iree_gpu.swizzle_operand<copy_config = "
                   "#iree_gpu.use_global_load_dma, "
                   "swizzle = #iree_codegen.xor_shuffle<128, 16>>, "
                   "#iree_gpu.promote_with_cache_swizzle<#iree_gpu.derived_"
                   "thread_config>, "
                   "#iree_gpu.swizzle_operand<copy_config = "
                   "#iree_gpu.derived_thread_config, "
                   "swizzle = #iree_codegen.rotate_rows<64, 4>>]}>");
    const auto types = promotionTypes(c);
    QCOMPARE(types.size(), size_t(3));
    QCOMPARE(types[0].xorShuffle->rowWidth, int64_t(128));
    QVERIFY(types[0].copyConfig->isDialect("iree_gpu", "use_global_load_dma"));
    QCOMPARE(types[1].kind, std::string("promote_with_cache_swizzle"));
    QVERIFY(types[1].inner->isDialect("iree_gpu", "derived_thread_config"));
    QCOMPARE(types[2].rotateRows->accessWidth, int64_t(4));

    auto decomposition =
        DecompositionConfig::fromAttribute(*parseResolvedAttribute(
            "{pv_attrs = {lowering_config = #iree_gpu.lowering_config<{thread "
            "= [0, "
            "0, 4]}>}, qk_attrs = {attention_qk_matmul, lowering_config = "
            "#iree_gpu.lowering_config<{lane_basis = [[1, 1, 64], [0, 1, "
            "2]]}>}}"));
    QVERIFY(decomposition.ok());
    QCOMPARE(decomposition->qk->laneBasis()->product(), int64_t(64));
    QCOMPARE(decomposition->pv->tileSizes(TilingLevel::Thread).value(),
             (std::vector<int64_t>{0, 0, 4}));

    auto cpu = CpuLoweringConfig::fromAttribute(
        *parseResolvedAttribute("#iree_cpu.lowering_config<cache_parallel = "
                                "[16, 64, 0], distribution = "
                                "[16, 64, 0], vector_common_parallel = [8, 4, "
                                "0], vector_reduction = [0, "
                                "0, 4]>"));
    QCOMPARE(cpu->levels.at("vector_reduction"),
             (std::vector<int64_t>{0, 0, 4}));
    auto legacy = CpuLoweringConfig::fromAttribute(
        *parseResolvedAttribute("#iree_codegen.lowering_config<tile_sizes = "
                                "[[64, 64, 0], [8, 8, 0]]>"));
    QCOMPARE(legacy->levels.at("tile_sizes[1]"),
             (std::vector<int64_t>{8, 8, 0}));
  }

  void convertsBetweenReleases() {
    const std::string old =
        "#iree_codegen.compilation_info<lowering_config = "
        "#iree_gpu.lowering_config<{thread_basis = [[1, 64], [0, 1]], "
        "workgroup = "
        "[1, 0]}>, translation_info = <pipeline = LLVMGPUVectorDistribute "
        "workgroup_size = [64, 1, 1] subgroup_size = 64, {gpu_pipeline_options "
        "= "
        "#iree_gpu.pipeline_options<prefetch_shared_memory = true>}>>";
    auto modern = convertForRelease(*parseResolvedAttribute(old), "3.13");
    QCOMPARE(modern.applied,
             (std::vector<std::string>{
                 "thread-basis-to-lane-basis", "pipeline-keyword-to-attribute",
                 "prefetch-shared-memory-to-num-stages"}));
    const std::string converted = printAttribute(modern.attribute);
    QVERIFY(converted.find("lane_basis") != std::string::npos);
    QVERIFY(converted.find("#iree_gpu.pipeline<VectorDistribute>") !=
            std::string::npos);
    QVERIFY(converted.find("prefetch_num_stages = 2") != std::string::npos);
    // And back.
    auto back = convertForRelease(modern.attribute, "3.6");
    QCOMPARE(printAttribute(back.attribute), old);
    // No conversion for expand_dims: say what to do instead.
    auto seed =
        convertForRelease(*parseResolvedAttribute(kSeedReduction), "3.13");
    QCOMPARE(seed.impossible.size(), size_t(1));
    QVERIFY(seed.impossible.front().find("partial_reduction") !=
            std::string::npos);
  }

  void describesTargets() {
    for (const char *name :
         {"gfx942", "gfx950", "gfx1100", "sm_80", "sm_90", "mi300x", "H100"}) {
      auto target = builtinTarget(name);
      QVERIFY2(target.has_value(), name);
      QVERIFY(target->maxWorkgroupMemoryBytes > 0);
      QVERIFY(!target->subgroupSizeChoices.empty());
      QVERIFY(target->peakMemoryBytesPerSecond > 0);
      QVERIFY(!target->peakMatrixOpsPerSecond.empty());
    }
    QVERIFY(builtinTarget("gfx942")->offersMma("MFMA_F32_32x32x8_F16"));
    QVERIFY(!builtinTarget("sm_90")->offersMma("MFMA_F32_32x32x8_F16"));
    QCOMPARE(builtinTarget("gfx942")->maxWorkgroupMemoryBytes, int64_t(65536));
    QVERIFY(!resolveTarget("tpu-v9").ok());
  }

  void readsTargetsFromExamples() {
    // The target IREE wrote into each example reads back as the built-in one.
    iree::DocumentParser parser(test::projectCompiler());
    for (const auto &[folder, arch] : {std::pair{"rocm_gfx942", "gfx942"},
                                       std::pair{"cuda_sm_90", "sm_90"}}) {
      for (const auto &path : test::exampleBenchmarks(folder)) {
        auto document = parser.parseFile(path);
        QVERIFY(document.ok());
        auto target = gpuTargetFromText(document->dispatches.front().target);
        QVERIFY2(target.ok(), target.ok() ? "" : target.error().c_str());
        const GpuTarget builtin = *builtinTarget(arch);
        QCOMPARE(target->arch, builtin.arch);
        QCOMPARE(target->mmaIntrinsics, builtin.mmaIntrinsics);
        QCOMPARE(target->maxWorkgroupMemoryBytes,
                 builtin.maxWorkgroupMemoryBytes);
        QCOMPARE(target->subgroupSizeChoices, builtin.subgroupSizeChoices);
        QVERIFY(target->peakMemoryBytesPerSecond > 0);
      }
    }
  }

  void intrinsicShapes() {
    auto s = intrinsicShape("MFMA_F32_32x32x8_F16").value();
    QCOMPARE(s.m, int64_t(32));
    QCOMPARE(s.k, int64_t(8));
    QCOMPARE(s.subgroupSize, int64_t(64));
    QCOMPARE(s.aType, std::string("f16"));
    QCOMPARE(s.cType, std::string("f32"));
    auto nv = intrinsicShape("NV_MMA_SYNC_F32_16x8x16_F16").value();
    QCOMPARE(nv.n, int64_t(8));
    QCOMPARE(nv.subgroupSize, int64_t(32));
    auto block = intrinsicShape("MFMA_F32_16x16x4x4B_F16").value();
    QCOMPARE(block.blocks, int64_t(4));
    auto fp8 =
        intrinsicShape("MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ").value();
    QCOMPARE(fp8.bType, std::string("f8E4M3FNUZ"));
    QVERIFY(!intrinsicShape("NOT_AN_INTRINSIC").has_value());
    QVERIFY(!intrinsicShape("MFMA_F32_16x16x0_F16").has_value());
  }

  // --- validation: each rule fires on a minimal bad example -----------------
};

QTEST_GUILESS_MAIN(ConfigModelTest)
#include "tst_config_model.moc"
