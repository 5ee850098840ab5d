// #iree_codegen.translation_info<...> (the pipeline, workgroup and subgroup
// size of a dispatch), its #iree_gpu.pipeline_options, and
// #iree_codegen.compilation_info<lowering_config = ..., translation_info =
// ...>.
//
// Both pipeline syntaxes are read: `pipeline = LLVMGPUVectorDistribute`
// (IREE <= 3.11) and `pipeline = #iree_gpu.pipeline<VectorDistribute>` (3.12+).
#pragma once

#include "core/config/configs/LoweringConfig.h"
#include "core/config/syntax/Attribute.h"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::config {

enum class PipelineSyntax {
  GpuPipelineAttribute, // #iree_gpu.pipeline<VectorDistribute> (3.12+)
  LegacyKeyword,        // LLVMGPUVectorDistribute (<= 3.11)
  Other,                // #iree_codegen.pass_pipeline<"...">, no_pipeline, ...
};

// #iree_gpu.pipeline_options<...>, new and old fields.
struct PipelineOptions {
  std::optional<int64_t> prefetchNumStages; // 3.10+
  std::optional<bool> prefetchSharedMemory; // before 3.10
  std::optional<bool> noReduceSharedMemoryBankConflicts;
  std::optional<bool> useIgemmConvolution;
  std::optional<std::string> reorderWorkgroupsStrategy; // "None", "Transpose"
  static Result<PipelineOptions> fromAttribute(const Attribute &attribute);
  Attribute toAttribute() const; // fields in IREE's declaration order
};

class TranslationInfo {
public:
  static Result<TranslationInfo> fromAttribute(const Attribute &attribute);
  static Result<TranslationInfo> parse(std::string_view text);

  // The pipeline as written, and its name without syntax: "VectorDistribute"
  // for both `#iree_gpu.pipeline<VectorDistribute>` and
  // `LLVMGPUVectorDistribute`.
  const Attribute &pipeline() const { return pipelineAttribute; }
  std::string pipelineName() const;
  PipelineSyntax pipelineSyntax() const;
  std::optional<std::vector<int64_t>> workgroupSize;
  std::optional<int64_t> subgroupSize;
  std::optional<Attribute> codegenSpec;   // @symbol
  std::optional<Attribute> configuration; // the trailing dictionary

  std::optional<PipelineOptions> pipelineOptions() const;
  void setPipelineOptions(const PipelineOptions &options);
  const Attribute *llvmFuncAttrs() const;
  const Attribute *denormalFpMathF32() const;

  // Sets the pipeline: "VectorDistribute", "TileAndFuse", ... in the given
  // syntax.
  void
  setPipeline(const std::string &name,
              PipelineSyntax syntax = PipelineSyntax::GpuPipelineAttribute);
  void setPipelineAttribute(Attribute pipeline) {
    pipelineAttribute = std::move(pipeline);
  }

  // `#iree_codegen.translation_info<...>` in IREE's order; elided prints the
  // `<...>` form used inside compilation_info.
  Attribute toAttribute(bool elided = false) const;
  std::string print() const;

private:
  Attribute pipelineAttribute;
};

// A pipeline attribute's name without syntax (what pipelineName() says of
// a translation_info's), e.g. of a constraints op's `pipeline = ...`.
std::string pipelineNameOf(const Attribute &pipeline);

class CompilationInfo {
public:
  static Result<CompilationInfo> fromAttribute(const Attribute &attribute);
  static Result<CompilationInfo> parse(std::string_view text);
  Attribute loweringConfig; // kept as an attribute: GPU or CPU config
  TranslationInfo translationInfo;
  std::optional<LoweringConfig> gpuLoweringConfig() const;
  Attribute toAttribute() const;
  std::string print() const;
};

// Parses text with optional `#alias = ...` lines into one resolved attribute.
Result<Attribute> parseResolvedAttribute(std::string_view text);

} // namespace tilescope::config
