// The typed config models: every key and attribute read, modelled and written
// back; conversions between releases; targets; validation rules, each firing
// on a minimal bad example and silent on what IREE itself configured.
#include "TestSupport.h"

#include "core/config/Conversions.h"
#include "core/config/LayoutAttributes.h"
#include "core/config/OtherConfigs.h"
#include "core/config/TargetAttribute.h"
#include "core/config/Validation.h"
#include "core/iree/Document.h"

using namespace tilescope;
using namespace tilescope::config;

namespace {

// The seed's reduction (lowering-configs.txt, "Example").
const char *kSeedReduction =
    "#iree_gpu.lowering_config<{expand_dims = #iree_gpu.expand_dims<[[0], [1], "
    "[2, 3]], output_shape = [?, ?, ?, 8]>, lane_basis = [[1, 1, 64, 1], [0, "
    "1, "
    "2, 3]], partial_reduction = [0, 0, 64, 0], subgroup_basis = [[1, 1, 1, "
    "1], "
    "[0, 1, 2, 3]], thread = [0, 0, 1, 8], workgroup = [4, 1, 0, 0]}>";

LoweringConfig makeConfig(const std::string &text) {
  auto parsed = LoweringConfig::parse(text);
  if (!parsed)
    qFatal("%s", parsed.error().c_str());
  return *parsed;
}

TranslationInfo translation(const std::string &text) {
  auto parsed = TranslationInfo::parse(text);
  if (!parsed)
    qFatal("%s", parsed.error().c_str());
  return *parsed;
}

std::vector<std::string> rules(const std::vector<Problem> &problems) {
  std::vector<std::string> names;
  for (const Problem &p : problems)
    names.push_back(p.rule);
  return names;
}

bool hasMessage(const std::vector<Problem> &problems, const std::string &text) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const Problem &p) { return p.message == text; });
}

std::string describe(const std::vector<Problem> &problems) {
  std::string out;
  for (const Problem &p : problems)
    out += "\n  " + p.rule + ": " + p.message;
  return out;
}

ValidationContext vectorDistribute(const std::string &space, int64_t threads,
                                   const char *target = "gfx942") {
  ValidationContext context;
  context.iterationSpace = *IterationSpace::parse(space);
  context.target = *builtinTarget(target);
  context.translationInfo =
      translation("#iree_codegen.translation_info<pipeline = "
                  "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [" +
                  std::to_string(threads) + ", 1, 1] subgroup_size = 64>");
  return context;
}

} // namespace

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

  void ruleWorkgroupDividesBound() {
    const auto problems = validate(
        makeConfig("#iree_gpu.lowering_config<{workgroup = [1, 96, 0]}>"),
        vectorDistribute("4x6656x16384:ppr", 64));
    QVERIFY2(hasMessage(
                 problems,
                 "workgroup[1]=96 does not divide 6656 (6656 = 69 x 96 + 32)"),
             describe(problems).c_str());
  }

  void ruleLaneBasisProduct() {
    const auto problems = validate(
        makeConfig("#iree_gpu.lowering_config<{lane_basis = [[8, 4], [0, 1, "
                   "2]], workgroup = [1, 1, 0]}>"),
        vectorDistribute("4x6656x16384:ppr", 64));
    QVERIFY2(
        hasMessage(problems,
                   "lane_basis counts multiply to 32; subgroup size is 64"),
        describe(problems).c_str());
  }

  void ruleMappingIsAPermutation() {
    const auto problems =
        validate(makeConfig("#iree_gpu.lowering_config<{lane_basis = [[1, 1, "
                            "64], [0, 0, 1]]}>"),
                 vectorDistribute("4x6656x16384:ppr", 64));
    QVERIFY2(
        hasMessage(problems,
                   "mapping [0, 0, 1] is not a permutation: each iteration "
                   "dimension needs its own basis axis"),
        describe(problems).c_str());
  }

  void ruleWorkgroupSizeFromBases() {
    const auto problems = validate(
        makeConfig(
            "#iree_gpu.lowering_config<{subgroup_basis = [[4, 1], [0, 1]], "
            "workgroup = [4, 0]}>"),
        vectorDistribute("4x16384:pr", 320));
    QVERIFY2(hasMessage(problems,
                        "workgroup_size [320, 1, 1] is not subgroup_basis "
                        "(4 x 1) x subgroup_size 64 = 256 threads"),
             describe(problems).c_str());
  }

  void ruleTileAndFuseWorkgroupSize() {
    ValidationContext context;
    context.iterationSpace = *IterationSpace::parse("1024x1024x1024:ppr");
    context.iterationSpace->operands = {
        {"f16", {0, 2}, false}, {"f16", {1, 2}, false}, {"f32", {0, 1}, true}};
    context.translationInfo =
        translation("#iree_codegen.translation_info<pipeline = "
                    "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [512, 1, "
                    "1] subgroup_size = 64>");
    context.target = builtinTarget("gfx942");
    const auto problems =
        validate(makeConfig("#iree_gpu.lowering_config<{mma_kind = "
                            "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, "
                            "promote_operands = [0, 1], reduction = [0, 0, 8], "
                            "subgroup = [2, 4, 0], workgroup = [64, 128, 0]}>"),
                 context);
    QVERIFY2(hasMessage(problems,
                        "workgroup_size [512, 1, 1] is not [256, 1, 1]: "
                        "TileAndFuse runs (64 / (2 x MFMA_F32_16x16x16_F16 M "
                        "16) = 2) x (128 / (4 x N 16) = 2) subgroups x "
                        "subgroup_size 64"),
             describe(problems).c_str());
  }

  // Tile sizes near the top of int64_t give a message, not an overflow.
  void absurdSizesDoNotOverflow() {
    ValidationContext context = vectorDistribute("4x6656x16384:ppr", 64);
    const auto problems = validate(
        makeConfig("#iree_gpu.lowering_config<{lane_basis = [[4294967296, "
                   "4294967296, 9223372036854775807], [0, 1, 2]], "
                   "subgroup_basis = [[9223372036854775807, 2, 1], [0, 1, "
                   "2]], workgroup = [9223372036854775807, 1, 0]}>"),
        context);
    QVERIFY2(hasMessage(problems, "lane_basis counts multiply to "
                                  "9223372036854775807; subgroup size is 64"),
             describe(problems).c_str());
    QVERIFY(std::find(rules(problems).begin(), rules(problems).end(),
                      "workgroup-size-from-bases") != rules(problems).end());
  }

  void ruleSharedMemory() {
    ValidationContext context = vectorDistribute("1024x1024x1024:ppr", 256);
    context.iterationSpace->operands = {
        {"f16", {0, 2}, false}, {"f16", {1, 2}, false}, {"f32", {0, 1}, true}};
    const auto problems = validate(
        makeConfig(
            "#iree_gpu.lowering_config<{mma_kind = "
            "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, promote_operands = "
            "[0, "
            "1], reduction = [0, 0, 128], subgroup_basis = [[2, 2, 1], [0, 1, "
            "2]], workgroup = [128, 192, 0]}>"),
        context);
    QVERIFY2(hasMessage(problems,
                        "estimated shared memory 80 KiB > 64 KiB on gfx942 "
                        "(LHS 128x128 + RHS 192x128 per reduction step)"),
             describe(problems).c_str());
  }

  void ruleMmaOfferedByTarget() {
    ValidationContext context =
        vectorDistribute("1024x1024x1024:ppr", 256, "sm_90");
    const auto problems = validate(
        makeConfig(
            "#iree_gpu.lowering_config<{mma_kind = "
            "#iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>, workgroup = [64, 64, "
            "0]}>"),
        context);
    QVERIFY2(
        hasMessage(problems, "MFMA_F32_32x32x8_F16 is not offered by sm_90"),
        describe(problems).c_str());
    QVERIFY(hasMessage(
        problems, "subgroup_size 64 is not offered by sm_90 (choices: 32)"));
  }

  void ruleContractionMultiples() {
    ValidationContext context = vectorDistribute("1024x1024x1024:ppr", 256);
    context.iterationSpace->operands = {
        {"f16", {0, 2}, false}, {"f16", {1, 2}, false}, {"f32", {0, 1}, true}};
    const auto problems =
        validate(makeConfig("#iree_gpu.lowering_config<{mma_kind = "
                            "#iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>, "
                            "reduction = [0, 0, 12], "
                            "subgroup_basis = [[2, 2, 1], [0, 1, 2]], "
                            "workgroup = [32, 64, 0]}>"),
                 context);
    const auto names = rules(problems);
    QVERIFY2(std::count(names.begin(), names.end(),
                        "contraction-workgroup-multiple") == 1,
             describe(problems).c_str());
    QVERIFY(std::count(names.begin(), names.end(),
                       "contraction-reduction-multiple") == 1);
  }

  void ruleOtherShapes() {
    const auto problems =
        validate(makeConfig("#iree_gpu.lowering_config<{workgroup = [1, 0], "
                            "partial_reduction = "
                            "[4, 0], reduction = [0, -1], thread = [0, 8, 1], "
                            "promote_operands = "
                            "[0], promotion_types = [], bogus}>"),
                 vectorDistribute("4x16384:pr", 64));
    const auto names = rules(problems);
    for (const char *rule : {"reduction-on-parallel", "tile-negative",
                             "tile-rank", "promotion-length", "unknown-key"})
      QVERIFY2(std::find(names.begin(), names.end(), rule) != names.end(),
               (std::string(rule) + describe(problems)).c_str());
  }

  void ruleReleaseSyntax() {
    ValidationContext context = vectorDistribute("4x6656x16384:ppr", 64);
    context.translationInfo = translation(
        "#iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute "
        "workgroup_size = [64, 1, 1] subgroup_size = 64, {gpu_pipeline_options "
        "= "
        "#iree_gpu.pipeline_options<prefetch_shared_memory = true>}>");
    auto problems = validate(makeConfig(kSeedReduction), context);
    auto names = rules(problems);
    QCOMPARE(std::count(names.begin(), names.end(), "key-release"),
             1L); // expand_dims
    QCOMPARE(std::count(names.begin(), names.end(), "pipeline-syntax"), 1L);
    QCOMPARE(std::count(names.begin(), names.end(), "pipeline-options-release"),
             1L);
    // The same config is fine for 3.11, the release it was written for.
    context.ireeRelease = "3.11";
    context.translationInfo = translation(
        "#iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute "
        "workgroup_size = [64, 1, 1] subgroup_size = 64>");
    problems = validate(makeConfig(kSeedReduction), context);
    QVERIFY2(problems.empty(), describe(problems).c_str());
  }

  void everyRuleFiresOnAMinimalBadExample_data() {
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("space");
    QTest::addColumn<QString>("translationText");
    QTest::addColumn<QString>("target");
    const QString vd64 =
        "#iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<VectorDistribute> workgroup_size = "
        "[64, 1, 1] subgroup_size = 64>";
    auto withWorkgroupSize = [](const char *size, const char *subgroup = "64") {
      return QString("#iree_codegen.translation_info<pipeline = "
                     "#iree_gpu.pipeline<VectorDistribute> workgroup_size = %1 "
                     "subgroup_size = %2>")
          .arg(size, subgroup);
    };
    auto row =
        [&](const char *rule, const char *config, const char *space = "4x16:pr",
            QString translationText = {}, const char *target = "gfx942") {
          QTest::newRow(rule)
              << rule << QString("#iree_gpu.lowering_config<{%1}>").arg(config)
              << space << (translationText.isEmpty() ? vd64 : translationText)
              << target;
        };
    row("unknown-key", "bogus");
    row("value-shape", "workgroup = 5");
    row("key-release", "thread_basis = [[1, 64], [0, 1]]");
    row("tile-rank", "workgroup = [1]");
    row("tile-negative", "workgroup = [-1, 0]");
    row("workgroup-on-reduction", "workgroup = [1, 4]");
    row("reduction-on-parallel", "partial_reduction = [4, 0]");
    row("tile-exceeds-bound", "workgroup = [8, 0]");
    row("workgroup-divides-bound", "workgroup = [3, 0]");
    row("partial-reduction-divides-bound", "partial_reduction = [0, 5]");
    row("basis-count", "lane_basis = [[0, 64], [0, 1]]");
    row("basis-mapping-range", "lane_basis = [[64], [0, 3]]");
    row("basis-permutation", "lane_basis = [[8, 8], [0, 0]]");
    row("basis-rank", "lane_basis = [[64], [0]]");
    row("basis-product", "lane_basis = [[1, 32], [0, 1]]");
    row("workgroup-size-from-bases", "subgroup_basis = [[2, 1], [0, 1]]");
    row("promotion-length", "promote_operands = [0], promotion_types = []");
    row("promotion-operand", "promote_operands = [5]", "64x64x64:ppr");
    row("pipeline-syntax", "workgroup = [1, 0]", "4x16:pr",
        "#iree_codegen.translation_info<pipeline = LLVMGPUVectorDistribute "
        "workgroup_size = [64, 1, 1] subgroup_size = 64>");
    row("pipeline-name", "workgroup = [1, 0]", "4x16:pr",
        "#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<Bogus> "
        "workgroup_size = [64, 1, 1] subgroup_size = 64>");
    row("pipeline-options-release", "workgroup = [1, 0]", "4x16:pr",
        "#iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] "
        "subgroup_size = 64, {gpu_pipeline_options = "
        "#iree_gpu.pipeline_options<prefetch_shared_memory = true>}>");
    row("target-subgroup-size", "workgroup = [1, 0]", "4x16:pr",
        withWorkgroupSize("[64, 1, 1]", "32"));
    row("target-workgroup-size", "workgroup = [1, 0]", "4x16:pr",
        withWorkgroupSize("[1, 2048, 1]"));
    row("target-thread-count", "workgroup = [1, 0]", "4x16:pr",
        withWorkgroupSize("[512, 4, 1]"));
    row("target-mma", "mma_kind = #iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>",
        "64x64x64:ppr", vd64, "sm_90");
    row("mma-element-types",
        "mma_kind = #iree_gpu.mma_layout<MFMA_I32_16x16x32_I8>",
        "64x64x64:ppr");
    row("mma-subgroup-size",
        "mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>",
        "64x64x64:ppr");
    const QString tileAndFuse256 =
        "#iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] "
        "subgroup_size = 64>";
    const char *mfma16 =
        "mma_kind = #iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>";
    auto tileAndFuseRow = [&](const char *rule, const std::string &tiles,
                              QString translationText) {
      const std::string config = std::string(mfma16) + ", " + tiles;
      QTest::newRow(rule) << rule
                          << QString("#iree_gpu.lowering_config<{%1}>")
                                 .arg(QString::fromStdString(config))
                          << "64x64x64:ppr" << translationText << "gfx942";
    };
    // 64 / (2 x 16) = 2 subgroups on M and on N: 4 x 64 = 256 threads.
    tileAndFuseRow(
        "tile-and-fuse-workgroup-size",
        "reduction = [0, 0, 2], subgroup = [2, 2, 0], workgroup = "
        "[64, 64, 0]",
        QString(tileAndFuse256).replace("[256, 1, 1]", "[512, 1, 1]"));
    tileAndFuseRow("tile-and-fuse-reduction-multiple",
                   "reduction = [0, 0, 3], subgroup = [2, 2, 0], workgroup = "
                   "[64, 64, 0]",
                   tileAndFuse256);
    tileAndFuseRow("contraction-workgroup-multiple",
                   "reduction = [0, 0, 2], subgroup = [3, 2, 0], workgroup = "
                   "[64, 64, 0]",
                   tileAndFuse256);
  }

  void everyRuleFiresOnAMinimalBadExample() {
    QFETCH(QString, rule);
    QFETCH(QString, config);
    QFETCH(QString, space);
    QFETCH(QString, translationText);
    QFETCH(QString, target);
    ValidationContext context;
    context.iterationSpace = *IterationSpace::parse(space.toStdString());
    if (context.iterationSpace->rank() == 3)
      context.iterationSpace->operands = {{"f16", {0, 2}, false},
                                          {"f16", {1, 2}, false},
                                          {"f32", {0, 1}, true}};
    context.translationInfo = translation(translationText.toStdString());
    context.target = *builtinTarget(target.toStdString());
    const auto problems = validate(makeConfig(config.toStdString()), context);
    const auto names = rules(problems);
    QVERIFY2(std::find(names.begin(), names.end(), rule.toStdString()) !=
                 names.end(),
             qPrintable(rule + " did not fire:" +
                        QString::fromStdString(describe(problems))));
  }

  // --- and silent on what IREE itself configured ---

  void silentOnTheExamplesIreeConfigured() {
    iree::DocumentParser parser(test::projectCompiler());
    int checked = 0;
    for (const char *folder : {"rocm_gfx942", "cuda_sm_90"}) {
      for (const auto &path : test::exampleBenchmarks(folder)) {
        auto document = parser.parseFile(path);
        QVERIFY(document.ok());
        const iree::Dispatch &dispatch = document->dispatches.front();
        for (const iree::RootOp &op : dispatch.rootOps) {
          if (op.loweringConfig.empty())
            continue;
          ValidationContext context;
          context.translationInfo = translation(dispatch.translationInfo);
          context.target = *gpuTargetFromText(dispatch.target);
          std::vector<std::string> types = op.operandTypes;
          auto space = IterationSpace::fromLinalgOp(
              op.indexingMaps, op.iteratorTypes, types, op.name);
          QVERIFY2(space, (path.filename().string() + ": " + op.name +
                           " has no iteration space")
                              .c_str());
          context.iterationSpace = *space;
          const auto problems =
              validate(makeConfig(op.loweringConfig), context);
          QVERIFY2(problems.empty(),
                   (path.filename().string() + describe(problems)).c_str());
          ++checked;
        }
      }
    }
    QVERIFY(checked >= 6);
  }
};

QTEST_GUILESS_MAIN(ConfigModelTest)
#include "tst_config_model.moc"
