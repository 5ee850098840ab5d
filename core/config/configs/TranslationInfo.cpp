#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/IreeSyntax.h"

#include <algorithm>

namespace tilescope::config {
namespace {

using Kind = Attribute::Kind;

constexpr const char *kLegacyGpuPrefix = "LLVMGPU";

std::optional<bool> boolValue(const Attribute &a) {
  if (a.is(Kind::Bool))
    return a.text == "true";
  return std::nullopt;
}

// The body of an attribute as dialect attribute or elided `<...>`.
bool isTranslationInfo(const Attribute &a) {
  return a.isDialect("iree_codegen", "translation_info") || a.is(Kind::Elided);
}

} // namespace

Result<Attribute> parseResolvedAttribute(std::string_view text) {
  auto document = parseAttributeDocument(text);
  if (auto *error = std::get_if<ParseError>(&document))
    return Error{error->toString()};
  auto &parsed = std::get<AttributeDocument>(document);
  if (parsed.attributes.size() != 1)
    return Error{"expected one attribute after the alias definitions, found " +
                 std::to_string(parsed.attributes.size())};
  return resolveAliases(parsed.attributes.front(), parsed.aliases);
}

Result<PipelineOptions> PipelineOptions::fromAttribute(const Attribute &a) {
  if (!a.isDialect("iree_gpu", "pipeline_options"))
    return Error{
        "gpu_pipeline_options must be #iree_gpu.pipeline_options<...>, "
        "not " +
        printAttribute(a)};
  PipelineOptions options;
  for (const Parameter &p : a.parameters) {
    const Attribute &v = p.get();
    if (p.name == "prefetch_num_stages" && v.asInt64())
      options.prefetchNumStages = v.asInt64();
    else if (p.name == "prefetch_shared_memory" && boolValue(v))
      options.prefetchSharedMemory = boolValue(v);
    else if (p.name == "no_reduce_shared_memory_bank_conflicts" && boolValue(v))
      options.noReduceSharedMemoryBankConflicts = boolValue(v);
    else if (p.name == "use_igemm_convolution" && boolValue(v))
      options.useIgemmConvolution = boolValue(v);
    else if (p.name == "reorder_workgroups_strategy" &&
             (v.is(Kind::Elided) || v.is(Kind::Dialect)) &&
             !v.positional().empty())
      options.reorderWorkgroupsStrategy = v.positional().front()->text;
    else
      return Error{"#iree_gpu.pipeline_options has no field '" + p.name +
                   " = " + printAttribute(v) +
                   "' (fields: prefetch_num_stages, "
                   "no_reduce_shared_memory_bank_conflicts, "
                   "use_igemm_convolution, reorder_workgroups_strategy; "
                   "before 3.10 prefetch_shared_memory)"};
  }
  return options;
}

Attribute PipelineOptions::toAttribute() const {
  std::vector<Parameter> parameters;
  if (prefetchSharedMemory)
    parameters.push_back(Attribute::parameter(
        "prefetch_shared_memory", Attribute::boolean(*prefetchSharedMemory)));
  if (prefetchNumStages)
    parameters.push_back(Attribute::parameter(
        "prefetch_num_stages", Attribute::integer(*prefetchNumStages)));
  if (noReduceSharedMemoryBankConflicts)
    parameters.push_back(Attribute::parameter(
        "no_reduce_shared_memory_bank_conflicts",
        Attribute::boolean(*noReduceSharedMemoryBankConflicts)));
  if (useIgemmConvolution)
    parameters.push_back(Attribute::parameter(
        "use_igemm_convolution", Attribute::boolean(*useIgemmConvolution)));
  if (reorderWorkgroupsStrategy) {
    Attribute strategy;
    strategy.kind = Kind::Elided;
    strategy.hasBody = true;
    strategy.parameters.push_back(Attribute::parameter(
        "", Attribute::keyword(*reorderWorkgroupsStrategy)));
    parameters.push_back(Attribute::parameter("reorder_workgroups_strategy",
                                              std::move(strategy)));
  }
  return Attribute::dialectAttribute("iree_gpu", "pipeline_options",
                                     std::move(parameters));
}

Result<TranslationInfo> TranslationInfo::fromAttribute(const Attribute &a) {
  if (!isTranslationInfo(a))
    return Error{"expected #iree_codegen.translation_info<...>, found " +
                 printAttribute(a)};
  TranslationInfo info;
  bool havePipeline = false;
  for (const Parameter &p : a.parameters) {
    const Attribute &v = p.get();
    if (p.name == "pipeline" ||
        (p.name.empty() && !havePipeline && !v.is(Kind::Dictionary))) {
      info.pipelineAttribute = v;
      havePipeline = true;
    } else if (p.name == "workgroup_size") {
      auto sizes = v.asInt64Array();
      if (!sizes)
        return Error{"workgroup_size must be an array of integers, not " +
                     printAttribute(v)};
      info.workgroupSize = *sizes;
    } else if (p.name == "subgroup_size") {
      auto size = v.asInt64();
      if (!size)
        return Error{"subgroup_size must be an integer, not " +
                     printAttribute(v)};
      info.subgroupSize = *size;
    } else if (p.name == "codegen_spec") {
      info.codegenSpec = v;
    } else if (p.name.empty() && v.is(Kind::Dictionary)) {
      info.configuration = v;
    } else {
      return Error{"translation_info has no parameter '" +
                   (p.name.empty() ? printAttribute(v) : p.name) +
                   "' (it takes pipeline, codegen_spec, workgroup_size, "
                   "subgroup_size and a configuration dictionary)"};
    }
  }
  if (!havePipeline)
    return Error{"translation_info needs a pipeline: pipeline = "
                 "#iree_gpu.pipeline<VectorDistribute>"};
  return info;
}

Result<TranslationInfo> TranslationInfo::parse(std::string_view text) {
  auto attribute = parseResolvedAttribute(text);
  if (!attribute)
    return Error{attribute.error()};
  return fromAttribute(*attribute);
}

std::string pipelineNameOf(const Attribute &p) {
  if (p.is(Kind::Keyword)) {
    if (p.text.rfind(kLegacyGpuPrefix, 0) == 0)
      return p.text.substr(std::char_traits<char>::length(kLegacyGpuPrefix));
    return p.text;
  }
  if ((p.isDialect("iree_gpu", "pipeline") ||
       p.isDialect("iree_gpu", "spirv_pipeline")) &&
      !p.positional().empty())
    return p.positional().front()->text;
  if (p.is(Kind::Dialect))
    return "#" + p.qualifiedName();
  return printAttribute(p);
}

std::string TranslationInfo::pipelineName() const {
  return pipelineNameOf(pipelineAttribute);
}

PipelineSyntax TranslationInfo::pipelineSyntax() const {
  if (pipelineAttribute.isDialect("iree_gpu", "pipeline"))
    return PipelineSyntax::GpuPipelineAttribute;
  if (pipelineAttribute.is(Kind::Keyword))
    return PipelineSyntax::LegacyKeyword;
  return PipelineSyntax::Other;
}

void TranslationInfo::setPipeline(const std::string &name,
                                  PipelineSyntax syntax) {
  if (syntax == PipelineSyntax::LegacyKeyword) {
    pipelineAttribute = Attribute::keyword(kLegacyGpuPrefix + name);
    return;
  }
  pipelineAttribute = Attribute::dialectAttribute(
      "iree_gpu", "pipeline",
      {Attribute::parameter("", Attribute::keyword(name))});
}

std::optional<PipelineOptions> TranslationInfo::pipelineOptions() const {
  if (!configuration)
    return std::nullopt;
  const Attribute *options = configuration->find("gpu_pipeline_options");
  if (!options)
    return std::nullopt;
  auto parsed = PipelineOptions::fromAttribute(*options);
  if (!parsed)
    return std::nullopt;
  return *parsed;
}

void TranslationInfo::setPipelineOptions(const PipelineOptions &options) {
  if (!configuration)
    configuration = Attribute::dictionary({});
  if (Attribute *existing = configuration->find("gpu_pipeline_options"))
    *existing = options.toAttribute();
  else
    configuration->parameters.push_back(
        Attribute::parameter("gpu_pipeline_options", options.toAttribute()));
}

const Attribute *TranslationInfo::llvmFuncAttrs() const {
  return configuration ? configuration->find("llvm_func_attrs") : nullptr;
}

const Attribute *TranslationInfo::denormalFpMathF32() const {
  return configuration
             ? configuration->find("iree_codegen.denormal_fp_math_f32")
             : nullptr;
}

Attribute TranslationInfo::toAttribute(bool elided) const {
  // IREE's assembly format: `pipeline = P [codegen_spec = @s]
  // [workgroup_size = [...]] [subgroup_size = N][, {configuration}]`.
  std::vector<Parameter> parameters;
  parameters.push_back(Attribute::parameter("pipeline", pipelineAttribute));
  if (codegenSpec)
    parameters.push_back(
        Attribute::parameter("codegen_spec", *codegenSpec, ' '));
  if (workgroupSize)
    parameters.push_back(Attribute::parameter(
        "workgroup_size", Attribute::integerArray(*workgroupSize), ' '));
  if (subgroupSize)
    parameters.push_back(Attribute::parameter(
        "subgroup_size", Attribute::integer(*subgroupSize), ' '));
  if (configuration)
    parameters.push_back(Attribute::parameter("", *configuration, ','));
  if (elided) {
    Attribute a;
    a.kind = Kind::Elided;
    a.hasBody = true;
    a.parameters = std::move(parameters);
    return a;
  }
  return Attribute::dialectAttribute("iree_codegen", "translation_info",
                                     std::move(parameters));
}

std::string TranslationInfo::print() const {
  return printLikeIree(toAttribute());
}

Result<CompilationInfo> CompilationInfo::fromAttribute(const Attribute &a) {
  if (!a.isDialect("iree_codegen", "compilation_info"))
    return Error{"expected #iree_codegen.compilation_info<...>, found " +
                 printAttribute(a)};
  const Attribute *config = a.find("lowering_config");
  const Attribute *translation = a.find("translation_info");
  if (!config || !translation)
    return Error{"compilation_info needs lowering_config = ... and "
                 "translation_info = ..."};
  auto info = TranslationInfo::fromAttribute(*translation);
  if (!info)
    return Error{info.error()};
  CompilationInfo result;
  result.loweringConfig = *config;
  result.translationInfo = *info;
  return result;
}

Result<CompilationInfo> CompilationInfo::parse(std::string_view text) {
  auto attribute = parseResolvedAttribute(text);
  if (!attribute)
    return Error{attribute.error()};
  return fromAttribute(*attribute);
}

std::optional<LoweringConfig> CompilationInfo::gpuLoweringConfig() const {
  auto config = LoweringConfig::fromAttribute(loweringConfig);
  if (!config || !loweringConfig.is(Kind::Dialect))
    return std::nullopt;
  return *config;
}

Attribute CompilationInfo::toAttribute() const {
  return Attribute::dialectAttribute(
      "iree_codegen", "compilation_info",
      {Attribute::parameter("lowering_config", loweringConfig),
       Attribute::parameter("translation_info",
                            translationInfo.toAttribute(/*elided=*/true))});
}

std::string CompilationInfo::print() const {
  return printLikeIree(toAttribute());
}

} // namespace tilescope::config
