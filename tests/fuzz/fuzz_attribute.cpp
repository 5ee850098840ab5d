// libFuzzer target for the attribute reader and everything that reads its
// output: no input may crash, hang or trip a sanitizer, and what the writer
// prints must read back to the same text.
#include "core/config/Conversions.h"
#include "core/config/LayoutAttributes.h"
#include "core/config/LoweringConfig.h"
#include "core/config/TargetAttribute.h"
#include "core/config/TranslationInfo.h"
#include "core/config/Validation.h"

#include <cstdio>
#include <cstdlib>

using namespace tilescope::config;

namespace {

void exercise(const Attribute &attribute) {
  if (auto config = LoweringConfig::fromAttribute(attribute)) {
    ValidationContext context;
    context.iterationSpace = *IterationSpace::parse("4x6656x16384:ppr");
    context.target = builtinTarget("gfx942");
    (void)validate(*config, context);
    (void)config->print();
  }
  (void)TranslationInfo::fromAttribute(attribute);
  (void)CompilationInfo::fromAttribute(attribute);
  (void)NestedLayoutAttr::fromAttribute(attribute);
  (void)XorShuffleAttr::fromAttribute(attribute);
  (void)gpuTargetFromAttribute(attribute);
  (void)convertForRelease(attribute, "3.11");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  ParseLimits limits;
  limits.maximumDepth = 64;
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
