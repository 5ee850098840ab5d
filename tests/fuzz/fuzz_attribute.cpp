// libFuzzer target for the attribute reader and everything that reads its
// output: no input may crash, hang or trip a sanitizer, and what the writer
// prints must read back to the same text.
#include "core/config/configs/LayoutAttributes.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/OtherConfigs.h"
#include "core/config/configs/TargetAttribute.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/rules/Conversions.h"
#include "core/config/rules/Validation.h"
#include "core/config/syntax/IreeSyntax.h"
#include "core/layout/LayoutValidation.h"

#include <cstdio>
#include <cstdlib>

using namespace tilescope::config;

namespace {

// Validation sees both pipelines' rules: a reduction space and a matmul
// whose operands make a contraction, each with a translation_info.
std::vector<ValidationContext> validationContexts() {
  std::vector<ValidationContext> contexts;
  for (const char *pipeline : {"VectorDistribute", "TileAndFuse"}) {
    ValidationContext reduction;
    reduction.iterationSpace = *IterationSpace::parse("4x6656x16384:ppr");
    reduction.target = builtinTarget("gfx942");
    reduction.translationInfo = *TranslationInfo::parse(
        std::string("#iree_codegen.translation_info<pipeline = "
                    "#iree_gpu.pipeline<") +
        pipeline + "> workgroup_size = [256, 1, 1] subgroup_size = 64>");
    ValidationContext matmul = reduction;
    matmul.iterationSpace = *IterationSpace::parse("1024x1024x1024:ppr");
    matmul.iterationSpace->operands = {
        {"f16", {0, 2}, false}, {"f16", {1, 2}, false}, {"f32", {0, 1}, true}};
    contexts.push_back(std::move(reduction));
    contexts.push_back(std::move(matmul));
  }
  return contexts;
}

void exercise(const Attribute &attribute) {
  static const std::vector<ValidationContext> contexts = validationContexts();
  if (auto config = LoweringConfig::fromAttribute(attribute)) {
    for (ValidationContext context : contexts) {
      context.loweringConfigText = attribute;
      (void)tilescope::layout::validate(*config, context);
    }
    (void)promotionTypes(*config);
    (void)config->print();
  }
  if (auto info = TranslationInfo::fromAttribute(attribute))
    (void)info->print();
  (void)CompilationInfo::fromAttribute(attribute);
  (void)DecompositionConfig::fromAttribute(attribute);
  (void)CpuLoweringConfig::fromAttribute(attribute);
  (void)PromotionType::fromAttribute(attribute);
  (void)NestedLayoutAttr::fromAttribute(attribute);
  (void)XorShuffleAttr::fromAttribute(attribute);
  (void)RotateRowsAttr::fromAttribute(attribute);
  (void)gpuTargetFromAttribute(attribute);
  (void)convertForRelease(attribute, "3.11");
  (void)ireeParserProblems(attribute, "3.13");
  (void)printLikeIree(attribute);
  (void)convertForRelease(attribute, "3.13");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  // The limits every caller gets.
  const ParseLimits limits;
  auto document = parseAttributeDocument(text, limits);
  auto *parsed = std::get_if<AttributeDocument>(&document);
  if (!parsed)
    return 0;
  for (const Attribute &attribute : parsed->attributes) {
    auto resolved = resolveAliases(attribute, parsed->aliases);
    if (resolved)
      exercise(*resolved);
    // Writing is a fixed point: print, read, print gives the same text.
    const std::string printed = printAttribute(attribute);
    auto again = parseAttributeDocument(printed, limits);
    auto *reread = std::get_if<AttributeDocument>(&again);
    if (!reread || reread->attributes.size() != 1 ||
        printAttribute(reread->attributes.front()) != printed) {
      std::fprintf(stderr, "writer is not a fixed point:\n  %s\n",
                   printed.c_str());
      std::abort();
    }
  }
  return 0;
}
