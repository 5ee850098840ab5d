// Property test: Tilescope's attribute reader and printer against IREE's own
// parser and printer, on random config texts and on the mistakes people
// make in them (swapped or duplicated fields, commas where IREE wants
// spaces, negative sizes, unknown intrinsics, truncated text).
//
// For each text: Tilescope's verdict (config::parseAttribute, then
// config::ireeParserProblems for the pinned release) must equal IREE's
// (does it parse and verify?), and where both accept it,
// config::printLikeIree must print exactly what IREE prints.
#include "PropertySupport.h"

#include "core/config/syntax/Attribute.h"
#include "core/config/syntax/IreeSyntax.h"
#include "core/iree/CompilerLibrary.h"
#include "core/iree/DocumentParser.h"
#include "core/layout/MmaLayouts.h"

using namespace tilescope;
using property::list;

namespace {

const std::vector<std::string> kPipelines = {
    "Default",          "BaseLowering",      "Distribute", "Vectorize",
    "VectorDistribute", "WinogradVectorize", "TileAndFuse"};

std::string intList(property::Random &random, size_t length, int64_t low,
                    int64_t high) {
  std::string text = "[";
  for (size_t i = 0; i < length; ++i) {
    text += (i ? ", " : "") + std::to_string(random.range(low, high));
    if (random.chance(0.03))
      text += " : index";
  }
  return text + "]";
}

std::string intrinsicName(property::Random &random, bool &isVirtual) {
  if (random.chance(0.08)) {
    isVirtual = false;
    return random.pick<std::string>({"MFMA_F32_99x99x9_F16",
                                     "WMMA_F32_16x16x16_F16",
                                     "NV_MMA_F32_16x8x16"});
  }
  const auto &all = layout::mmaIntrinsics();
  const layout::MmaIntrinsic &intrinsic = all[static_cast<size_t>(
      random.range(0, static_cast<int64_t>(all.size()) - 1))];
  isVirtual = intrinsic.isVirtual;
  return intrinsic.name;
}

std::string mmaKind(property::Random &random) {
  bool isVirtual = false;
  const std::string name = intrinsicName(random, isVirtual);
  std::string text = std::string("#iree_gpu.") +
                     (isVirtual ? "virtual_mma_layout<" : "mma_layout<") + name;
  if (random.chance(0.3))
    text += random.chance(0.5) ? ", col_major = true" : ", col_major = false";
  return text + ">";
}

std::string basis(property::Random &random) {
  const size_t axes = static_cast<size_t>(random.range(1, 4));
  const size_t rank = static_cast<size_t>(random.range(1, 3));
  return "[" + intList(random, axes, 1, 64) + ", " +
         intList(random, rank, 0, static_cast<int64_t>(axes) - 1) + "]";
}

std::string promotionType(property::Random &random) {
  return random.pick<std::string>(
      {"#iree_gpu.derived_thread_config", "#iree_gpu.use_global_load_dma",
       "#iree_gpu.promote_with_cache_swizzle<#iree_gpu.derived_thread_config>",
       "#iree_gpu.swizzle_operand<copy_config = #iree_gpu.use_global_load_dma, "
       "swizzle = #iree_codegen.xor_shuffle<128, 16>>"});
}

std::string loweringConfig(property::Random &random) {
  std::vector<std::string> entries;
  const size_t rank = static_cast<size_t>(random.range(1, 4));
  for (const char *level : {"workgroup", "reduction", "partial_reduction",
                            "serial", "thread", "subgroup", "lane"})
    if (random.chance(0.35))
      entries.push_back(
          std::string(level) + " = " +
          intList(random, rank, random.chance(0.1) ? -8 : 0, 512));
  if (random.chance(0.4))
    entries.push_back("lane_basis = " + basis(random));
  if (random.chance(0.4))
    entries.push_back("subgroup_basis = " + basis(random));
  if (random.chance(0.3))
    entries.push_back("mma_kind = " + mmaKind(random));
  if (random.chance(0.3)) {
    const size_t count = static_cast<size_t>(random.range(1, 3));
    entries.push_back("promote_operands = " + intList(random, count, 0, 2));
    if (random.chance(0.5)) {
      std::string types = "[";
      const size_t typeCount = random.chance(0.85) ? count : count + 1;
      for (size_t i = 0; i < typeCount; ++i)
        types += (i ? ", " : "") + promotionType(random);
      entries.push_back("promotion_types = " + types + "]");
    }
  }
  if (random.chance(0.15))
    entries.push_back("padding = " + intList(random, rank, 0, 128));
  if (random.chance(0.1))
    entries.push_back("convert_acc_gemm");
  if (random.chance(0.05))
    entries.push_back("lowering_strategy = \"my_strategy\"");
  if (random.chance(0.05))
    entries.push_back("workgroup_reordering_strategy = "
                      "#iree_gpu.conditional_transpose<8, 38>");
  if (random.chance(0.05))
    entries.push_back("subgroup_m_count = 2");
  if (random.chance(0.05))
    entries.push_back("my_unknown_key = 1");
  std::shuffle(entries.begin(), entries.end(), random.generator());
  std::string text = "#iree_gpu.lowering_config<{";
  for (size_t i = 0; i < entries.size(); ++i)
    text += (i ? ", " : "") + entries[i];
  return text + "}>";
}

std::string pipelineOptions(property::Random &random) {
  std::vector<std::string> fields;
  if (random.chance(0.6))
    fields.push_back("prefetch_num_stages = " +
                     std::to_string(random.range(0, 3)));
  if (random.chance(0.5))
    fields.push_back(std::string("no_reduce_shared_memory_bank_conflicts = ") +
                     (random.chance(0.5) ? "true" : "false"));
  if (random.chance(0.5))
    fields.push_back(std::string("use_igemm_convolution = ") +
                     (random.chance(0.5) ? "true" : "false"));
  if (random.chance(0.2))
    fields.push_back(std::string("reorder_workgroups_strategy = ") +
                     (random.chance(0.5) ? "<None>" : "<Transpose>"));
  if (random.chance(0.1))
    fields.push_back("prefetch_shared_memory = true"); // IREE <= 3.9
  if (random.chance(0.3))
    std::shuffle(fields.begin(), fields.end(), random.generator());
  std::string text = "#iree_gpu.pipeline_options<";
  for (size_t i = 0; i < fields.size(); ++i)
    text += (i ? ", " : "") + fields[i];
  return text + ">";
}

std::string translationInfo(property::Random &random, bool elided = false) {
  std::string pipeline;
  const int64_t kind = random.range(0, 9);
  if (kind < 7)
    pipeline = "#iree_gpu.pipeline<" + random.pick(kPipelines) + ">";
  else if (kind == 7)
    pipeline = random.chance(0.5) ? "#iree_gpu.pipeline<Nope>"
                                  : "LLVMGPUVectorDistribute";
  else if (kind == 8)
    pipeline = "#iree_cpu.pipeline<DoubleTilingExpert>";
  else
    pipeline = "#iree_codegen.no_pipeline";
  std::string text =
      std::string(elided ? "<" : "#iree_codegen.translation_info<") +
      "pipeline = " + pipeline;
  if (random.chance(0.7))
    text += " workgroup_size = " +
            intList(random, static_cast<size_t>(random.range(1, 3)),
                    random.chance(0.1) ? -1 : 1, 1024);
  if (random.chance(0.6))
    text += " subgroup_size = " +
            std::to_string(random.pick<int64_t>({32, 64, 64, 0, -64}));
  if (random.chance(0.5)) {
    std::vector<std::string> entries;
    if (random.chance(0.7))
      entries.push_back("gpu_pipeline_options = " + pipelineOptions(random));
    if (random.chance(0.3))
      entries.push_back("llvm_func_attrs = {\"amdgpu-waves-per-eu\" = \"2\"}");
    std::string dict;
    for (size_t i = 0; i < entries.size(); ++i)
      dict += (i ? ", " : "") + entries[i];
    text += ", {" + dict + "}";
  }
  return text + ">";
}

std::string nestedLayout(property::Random &random) {
  const size_t rank = static_cast<size_t>(random.range(1, 3));
  std::vector<std::pair<std::string, std::string>> fields = {
      {"subgroup_tile", intList(random, rank, 1, 4)},
      {"batch_tile", intList(random, rank, 1, 4)},
      {"outer_tile", intList(random, rank, 1, 2)},
      {"thread_tile", intList(random, rank, 1, 16)},
      {"element_tile", intList(random, rank, 1, 8)},
      {"subgroup_strides", intList(random, rank, 0, 4)},
      {"thread_strides", intList(random, rank, 0, 16)}};
  if (random.chance(0.08))
    std::swap(fields[0], fields[1]);
  if (random.chance(0.08))
    fields[3].second = intList(random, rank + 1, 1, 4);
  std::string text = "#iree_vector_ext.nested_layout<";
  for (size_t i = 0; i < fields.size(); ++i)
    text += (i ? ", " : "") + fields[i].first + " = " + fields[i].second;
  return text + ">";
}

std::string swizzle(property::Random &random) {
  if (random.chance(0.3))
    return "#iree_codegen.rotate_rows<" +
           std::to_string(random.pick<int64_t>({32, 64, 128})) + ", " +
           std::to_string(random.pick<int64_t>({2, 4, 8})) + ">";
  std::string text = "#iree_codegen.xor_shuffle<" +
                     std::to_string(random.pick<int64_t>({64, 128, 256})) +
                     ", " + std::to_string(random.pick<int64_t>({4, 8, 16}));
  if (random.chance(0.4))
    text += ", " + std::to_string(random.pick<int64_t>({128, 256}));
  if (random.chance(0.3))
    text += ", " + std::to_string(random.pick<int64_t>({1, 2}));
  return text + ">";
}

std::string attribute(property::Random &random, std::string &family) {
  switch (random.range(0, 5)) {
  case 0:
    family = "lowering_config";
    return loweringConfig(random);
  case 1:
    family = "translation_info";
    return translationInfo(random);
  case 2: {
    family = "compilation_info";
    const bool elided = random.chance(0.5);
    if (random.chance(0.1))
      return "#iree_codegen.compilation_info<translation_info = " +
             translationInfo(random) +
             ", lowering_config = " + loweringConfig(random) + ">";
    return "#iree_codegen.compilation_info<lowering_config = " +
           loweringConfig(random) +
           ", translation_info = " + translationInfo(random, elided) + ">";
  }
  case 3:
    family = "nested_layout";
    return nestedLayout(random);
  case 4:
    family = "mma_layout";
    return mmaKind(random);
  default:
    family = "swizzle";
    return swizzle(random);
  }
}

// The mistakes people make, applied to a generated text.
std::string mutate(property::Random &random, std::string text) {
  switch (random.range(0, 5)) {
  case 0: { // duplicate the first dictionary entry
    const size_t open = text.find("{");
    const size_t end = text.find_first_of(",}", open);
    if (open != std::string::npos && end != std::string::npos && end > open + 1)
      text.insert(open + 1, text.substr(open + 1, end - open - 1) + ", ");
    return text;
  }
  case 1: { // a comma between translation_info's fields
    const size_t at = text.find(" workgroup_size");
    if (at != std::string::npos)
      text.insert(at, ",");
    return text;
  }
  case 2: { // a negative size
    const size_t at = text.find_first_of("123456789");
    if (at != std::string::npos && at > 0 && text[at - 1] == ' ')
      text.insert(at, "-");
    return text;
  }
  case 3: // truncated
    return text.substr(0, static_cast<size_t>(random.range(
                              1, static_cast<int64_t>(text.size()) - 1)));
  case 4: { // a comma dropped
    const size_t at = text.find(", ");
    if (at != std::string::npos)
      text.erase(at, 1);
    return text;
  }
  default: { // swap subgroup_size and workgroup_size
    const size_t w = text.find(" workgroup_size = ");
    const size_t s = text.find(" subgroup_size = ");
    if (w != std::string::npos && s != std::string::npos && w < s) {
      const size_t wEnd = text.find(']', w) + 1;
      const std::string workgroup = text.substr(w, wEnd - w);
      text.erase(w, wEnd - w);
      const size_t s2 = text.find(" subgroup_size = ");
      size_t sEnd = s2 + 17;
      while (sEnd < text.size() &&
             (std::isdigit(static_cast<unsigned char>(text[sEnd])) ||
              text[sEnd] == '-'))
        ++sEnd;
      text.insert(sEnd, workgroup);
    }
    return text;
  }
  }
}

} // namespace

int main(int argc, char **argv) {
  const property::Options options = property::parseOptions(argc, argv);
  const int cases = options.cases > 0 ? options.cases
                    : options.longRun ? 20000
                                      : 1500;
  property::Random random(options.seed);
  const auto library = property::projectLibrary();
  property::Tally tally;
  for (int i = 0; i < cases; ++i) {
    std::string family;
    std::string text = attribute(random, family);
    if (random.chance(0.3)) {
      text = mutate(random, text);
      family += " (mutated)";
    }
    tally.generated(family);
    auto theirs = iree::printAttributeWithIree(library, text);
    std::string ourVerdict;
    std::string ourPrint;
    auto parsed = config::parseAttribute(text);
    if (auto *error = std::get_if<config::ParseError>(&parsed)) {
      ourVerdict = "reject: " + error->message;
    } else {
      const config::Attribute &attribute = std::get<config::Attribute>(parsed);
      auto problems = config::ireeParserProblems(attribute, "3.13");
      if (!problems.empty())
        ourVerdict = "reject: " + problems.front().message +
                     (problems.front().field.empty()
                          ? ""
                          : " (" + problems.front().field + ")");
      else
        ourPrint = config::printLikeIree(attribute);
    }
    const bool weAccept = ourVerdict.empty();
    if (weAccept != theirs.ok()) {
      tally.disagreed(
          family,
          text + "\n  IREE: " +
              (theirs.ok() ? "accepts: " + *theirs
                           : "rejects: " + theirs.error().substr(0, 300)) +
              "\n  ours: " + (weAccept ? "accepts: " + ourPrint : ourVerdict));
      continue;
    }
    if (theirs.ok() && *theirs != ourPrint) {
      tally.disagreed(family, text + "\n  IREE prints " + *theirs +
                                  "\n  ours prints " + ourPrint);
      continue;
    }
    tally.agreed(family);
  }
  tally.print(std::cout, options.seed);
  return tally.disagreements() == 0 ? 0 : 1;
}
