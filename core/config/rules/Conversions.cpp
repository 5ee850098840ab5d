#include "core/config/rules/Conversions.h"

#include "core/config/configs/TranslationInfo.h"
#include "core/config/rules/Validation.h"
#include "core/config/syntax/IreeSyntax.h"

#include <algorithm>

namespace tilescope::config {
namespace {

using Kind = Attribute::Kind;

class Converter {
public:
  explicit Converter(const std::string &release) : release(release) {}
  ConversionResult result;

  void visit(Attribute &a, const std::string &context) {
    if (a.isDialect("iree_codegen", "translation_info") ||
        (a.is(Kind::Elided) && context == "translation_info"))
      convertPipeline(a);
    if (a.isDialect("iree_gpu", "pipeline_options"))
      convertPipelineOptions(a);
    if (a.isDialect("iree_gpu", "lowering_config") && !a.parameters.empty() &&
        a.parameters.front().get().is(Kind::Dictionary))
      convertLoweringConfig(a.parameters.front().get());
    for (Attribute &element : a.elements)
      visit(element, "");
    for (Parameter &parameter : a.parameters)
      visit(parameter.get(), parameter.name);
  }

private:
  std::string release;

  bool atLeast(const char *version) const {
    return compareRelease(release, version) >= 0;
  }

  void applied(const char *name) {
    if (std::find(result.applied.begin(), result.applied.end(), name) ==
        result.applied.end())
      result.applied.emplace_back(name);
  }

  void convertPipeline(Attribute &info) {
    Attribute *pipeline = info.find("pipeline");
    if (!pipeline)
      return;
    if (atLeast("3.12") && pipeline->is(Kind::Keyword) &&
        pipeline->text.rfind("LLVMGPU", 0) == 0) {
      *pipeline = Attribute::dialectAttribute(
          "iree_gpu", "pipeline",
          {Attribute::parameter("",
                                Attribute::keyword(pipeline->text.substr(7)))});
      applied("pipeline-keyword-to-attribute");
    } else if (!atLeast("3.12") &&
               pipeline->isDialect("iree_gpu", "pipeline") &&
               !pipeline->positional().empty()) {
      *pipeline =
          Attribute::keyword("LLVMGPU" + pipeline->positional().front()->text);
      applied("pipeline-attribute-to-keyword");
    }
  }

  void convertPipelineOptions(Attribute &options) {
    for (Parameter &p : options.parameters) {
      if (atLeast("3.10") && p.name == "prefetch_shared_memory") {
        p.name = "prefetch_num_stages";
        p.get() = Attribute::integer(p.get().text == "true" ? 2 : 0);
        applied("prefetch-shared-memory-to-num-stages");
      } else if (!atLeast("3.10") && p.name == "prefetch_num_stages") {
        const bool on = p.get().asInt64().value_or(0) >= 2;
        p.name = "prefetch_shared_memory";
        p.get() = Attribute::boolean(on);
        applied("prefetch-num-stages-to-shared-memory");
      }
    }
  }

  void convertLoweringConfig(Attribute &dictionary) {
    for (Parameter &p : dictionary.parameters) {
      if (atLeast("3.7") && p.name == "thread_basis") {
        p.name = "lane_basis";
        applied("thread-basis-to-lane-basis");
      } else if (!atLeast("3.7") && p.name == "lane_basis") {
        p.name = "thread_basis";
        applied("lane-basis-to-thread-basis");
      } else if (atLeast("3.12") && p.name == "expand_dims") {
        result.impossible.push_back(
            "expand_dims has no equivalent in IREE " + release +
            ": remove it and keep partial_reduction and thread tiles on the "
            "original reduction dimension (GPUPackPartialReductions splits it "
            "since 3.12)");
      } else if (!atLeast("3.11") && p.name == "expand_dims") {
        result.impossible.push_back("expand_dims needs IREE 3.11");
      } else if (atLeast("3.8") && (p.name == "subgroup_m_count" ||
                                    p.name == "subgroup_n_count")) {
        result.impossible.push_back(
            p.name + " was replaced by subgroup_basis in IREE 3.8; the basis "
                     "needs the op's dimension order, so write it by hand");
      }
    }
  }
};

} // namespace

const std::vector<ConversionInfo> &conversions() {
  static const std::vector<ConversionInfo> list = {
      {"pipeline-keyword-to-attribute",
       "pipeline = LLVMGPUVectorDistribute -> "
       "#iree_gpu.pipeline<VectorDistribute> (3.12+)"},
      {"pipeline-attribute-to-keyword",
       "#iree_gpu.pipeline<VectorDistribute> -> pipeline = "
       "LLVMGPUVectorDistribute (<= 3.11)"},
      {"prefetch-shared-memory-to-num-stages",
       "prefetch_shared_memory = true/false -> prefetch_num_stages = 2/0 "
       "(3.10+)"},
      {"prefetch-num-stages-to-shared-memory",
       "prefetch_num_stages = N -> prefetch_shared_memory = (N >= 2) (<= 3.9)"},
      {"thread-basis-to-lane-basis", "thread_basis -> lane_basis (3.7+)"},
      {"lane-basis-to-thread-basis", "lane_basis -> thread_basis (<= 3.6)"},
  };
  return list;
}

ConversionResult convertForRelease(const Attribute &attribute,
                                   const std::string &release) {
  Converter converter(release);
  converter.result.attribute = attribute;
  converter.visit(converter.result.attribute, "");
  return std::move(converter.result);
}

} // namespace tilescope::config
