// The rules' table (which IREE code each rule mirrors, and what IREE does
// with a config that breaks it), problems made from it, and the reporter
// the checks in Validation.cpp write to.
#include "core/config/rules/Validation.h"

#include "core/config/rules/detail/ValidationReporter.h"

#include <algorithm>
#include <map>

namespace tilescope::config {

using detail::Reporter;

namespace {

using Severity = Problem::Severity;

struct RuleInfo {
  const char *source; // the IREE code the rule mirrors
  Problem::IreeResponse response;
};

// The IREE code each rule mirrors (IREE 3.13 paths under
// compiler/src/iree/compiler/Codegen/) and what IREE does with a config
// that breaks it. tests/property/property_validation.cpp holds the
// responses to the real IREE.
const std::map<std::string, RuleInfo> &ruleTable() {
  using R = Problem::IreeResponse;
  static const std::map<std::string, RuleInfo> rules = {
      {"iree-parser",
       {"the attribute parsers and verifiers of the iree_gpu, "
        "iree_codegen and iree_vector_ext dialects",
        R::Refuses}},
      {"unknown-key",
       {"Dialect/GPU/IR/IREEGPUAttrs.cpp, LoweringConfigAttr "
        "(unknown keys are ignored)",
        R::Compiles}},
      {"value-shape",
       {"Dialect/GPU/IR/GPULoweringConfigUtils.cpp, getBasis and "
        "getStaticTilingLevelSizes",
        R::Refuses}},
      {"key-release",
       {"Dialect/GPU/IR/IREEGPUAttrs.td (the keys of each "
        "release)",
        R::Refuses}},
      {"tile-rank",
       {"Common/TileAndFuseUtils.cpp, applyTileAndFuseToEachRoot "
        "(more tile sizes than loops fails)",
        R::Refuses}},
      {"tile-negative",
       {"Common/GPU/GPUApplyTilingLevel.cpp and "
        "scf::tileUsingSCF (tile sizes are sizes)",
        R::Unchecked}},
      {"workgroup-on-reduction",
       {"Common/TileDispatchUsingForall.cpp (non-partitionable loops get a "
        "workgroup tile of 0)",
        R::Compiles}},
      {"reduction-on-parallel",
       {"Common/GPU/GPUApplyTilingLevel.cpp "
        "(reduction levels tile reduction loops)",
        R::Refuses}},
      {"tile-exceeds-bound",
       {"scf::tileUsingSCF (a tile is clamped to its "
        "loop)",
        R::Compiles}},
      {"workgroup-divides-bound",
       {"Common/TileDispatchUsingForall.cpp (the "
        "last workgroup tile is partial)",
        R::Compiles}},
      {"workgroup-divides-bound-fused-consumer",
       {"LLVMGPU VectorDistribute of a reduction with a consumer fused "
        "after it: the partial last workgroup's consumer keeps a static "
        "tensor.empty (the verifier fails after GPUPackToIntrinsicsPass, "
        "iree-compile 3.13)",
        R::Refuses}},
      {"partial-reduction-divides-bound",
       {"Common/GPU/GPUApplyPaddingLevel.cpp (partial_reduction is padded)",
        R::Compiles}},
      {"basis-count",
       {"Dialect/GPU/IR/GPULoweringConfigUtils.cpp, getBasis", R::Refuses}},
      {"basis-mapping-range",
       {"LLVMGPU/LLVMGPUConfigureTensorLayouts.cpp, distributeTilingSizes "
        "(mapping indexes counts)",
        R::Unchecked}},
      {"basis-permutation",
       {"LLVMGPU/LLVMGPUConfigureTensorLayouts.cpp, distributeTilingSizes",
        R::Unchecked}},
      {"basis-rank",
       {"LLVMGPU/LLVMGPUConfigureTensorLayouts.cpp, distributeTilingSizes "
        "(one mapping entry per loop)",
        R::Asserts}},
      {"basis-product",
       {"LLVMGPU/LLVMGPUConfigureTensorLayouts.cpp, distributeTilingSizes "
        "(lane ids past the basis replicate)",
        R::Compiles}},
      {"workgroup-size-from-bases",
       {"LLVMGPU/LLVMGPUConstraintGenerator.cpp (workgroup_size = subgroups x "
        "subgroup_size)",
        R::Compiles}},
      {"promotion-length",
       {"Dialect/GPU/IR/IREEGPUAttrs.cpp, verifyPromotedOperandsList",
        R::Refuses}},
      {"promotion-operand",
       {"LLVMGPU/LLVMGPUConfigureTensorLayouts.cpp, getPromotedOperandAttrs "
        "(assert: the operand index is in range)",
        R::Asserts}},
      {"pipeline-syntax",
       {"Dialect/Codegen/IR/IREECodegenAttrs.td, "
        "TranslationInfoAttr's parser",
        R::Refuses}},
      {"pipeline-name",
       {"Dialect/GPU/IR/IREEGPUEnums.td, LoweringPipeline", R::Refuses}},
      {"pipeline-options-release",
       {"Dialect/GPU/IR/IREEGPUAttrs.td, GPUPipelineOptionsAttr", R::Refuses}},
      {"target-subgroup-size",
       {"the target's #iree_gpu.target subgroup_size_choices", R::Unchecked}},
      {"target-workgroup-size",
       {"the target's #iree_gpu.target max_workgroup_sizes", R::Unchecked}},
      {"target-thread-count",
       {"the target's #iree_gpu.target max_thread_count_per_workgroup",
        R::Unchecked}},
      {"target-mma", {"the target's #iree_gpu.target mma list", R::Unchecked}},
      {"mma-subgroup-size",
       {"Dialect/GPU/IR/IREEGPUAttrs.cpp, getIntrinsicSubgroupSize",
        R::Unchecked}},
      {"mma-element-types",
       {"Dialect/GPU/IR/IREEGPUAttrs.cpp, getABCElementTypes", R::Refuses}},
      {"tile-and-fuse-workgroup-size",
       {"LLVMGPU/LLVMGPUConstraintGenerator.cpp, TileAndFuse constraints",
        R::Compiles}},
      {"tile-and-fuse-reduction-multiple",
       {"LLVMGPU/LLVMGPUConstraintGenerator.cpp, TileAndFuse constraints",
        R::Compiles}},
      // Measured with the pinned IREE (the gfx950 scaled FP4 example with
      // reduction = [0, 0, 3, 1], the gfx942 and sm_90 f16 matmuls with
      // reduction = [0, 0, 3]; property_compile_claims): a reduction step
      // that leaves a partial last step of a loop that runs more than once
      // fails in bufferization ("Yield operand #0 is not equivalent to the
      // corresponding iter bbArg"), scaled or not.
      {"tile-and-fuse-padded-reduction-loop",
       {"Common/GPU/GPUPackToIntrinsics.cpp (k packing) and one-shot "
        "bufferization of the padded reduction loop",
        R::Refuses}},
      {"contraction-workgroup-padded",
       {"LLVMGPU/LLVMGPUConstraintGenerator.cpp, VectorDistribute and "
        "TileAndFuse constraints",
        R::Compiles}},
      {"contraction-reduction-multiple",
       {"LLVMGPU/LLVMGPUConstraintGenerator.cpp, VectorDistribute "
        "constraints",
        R::Compiles}},
      {"shared-memory",
       {"LLVMGPU/LLVMGPUConstraintGenerator.cpp, shared "
        "memory estimate",
        R::Refuses}},
      {"partial-reduction-thread-multiple",
       {"Common/GPU/GPUPackPartialReductions.cpp (assert: partial_reduction "
        "is a multiple of thread)",
        R::Asserts}},
      {"lanes-past-the-step",
       {"LLVMGPU/LLVMGPUConfigureTensorLayouts.cpp, distributeTilingSizes "
        "(a basis of more lanes than a step's loop holds; measured with the "
        "pinned iree-compile)",
        R::Compiles}},
      {"basis-product-over",
       {"LLVMGPU/LLVMGPUConfigureTensorLayouts.cpp, distributeTilingSizes (a "
        "basis of more lanes than the subgroup has names lanes that do not "
        "exist)",
        R::Unchecked}},
      {"workgroup-size-short",
       {"LLVMGPU/LLVMGPUConfigureTensorLayouts.cpp, distributeTilingSizes "
        "(subgroup ids past the workgroup do not exist)",
        R::Unchecked}},
      {"mma-pipeline",
       {"Dialect/GPU/IR/IREEGPUAttrs.cpp, VirtualMMAAttr, and the "
        "inner_tiled verifier and lane distribution (measured with the "
        "pinned IREE)",
        R::Refuses}},
      {"mma-col-major-shape",
       {"LLVMGPU/LLVMGPUConfigureTensorLayouts.cpp, getContractionLayout "
        "(batch counts from getMNKShape)",
        R::Refuses}},
      {"tile-and-fuse-subgroup-tile-over",
       {"Common/GPU/GPUApplyTilingLevel.cpp, subgroup tiling of the packed "
        "intrinsic tiles (a subgroup tile past the workgroup's; measured "
        "with the pinned iree-compile)",
        R::Compiles}},
      {"tile-and-fuse-subgroup-share",
       {"Common/GPU/GPUApplyTilingLevel.cpp, subgroup tiling of the packed "
        "intrinsic tiles",
        R::Refuses}},
      {"attention-layout",
       {"LinalgExt/IR/AggregatedOpInterfaceImpl.cpp (decomposeOperation) "
        "and LLVMGPUConfigureTensorLayouts.cpp (getContractionLayout for "
        "the Q.K^T and P.V contractions)",
        R::Refuses}},
      {"attention-intrinsics",
       {"Codegen/Common tile-size analysis on the attention's output fill "
        "(Q.K^T and P.V with intrinsics of two shapes, a subgroup's query "
        "rows padded to one of them; measured with the pinned iree-compile)",
        R::Refuses}},
      {"attention-k2-step",
       {"Codegen/Common tile-size analysis on the packed Q.K^T and P.V "
        "operands (a K2 step not a multiple of the intrinsics; measured with "
        "the pinned iree-compile)",
        R::Refuses}},
      {"attention-shared-memory",
       {"the shared-memory limit on the promoted Q, K, V (and P) tiles "
        "(measured with the pinned iree-compile; IREE's attention "
        "constraints state it too)",
        R::Refuses}},
      {"attention-subgroups",
       {"LLVMGPUConfigureTensorLayouts.cpp, the qk and pv subgroup_basis "
        "against the workgroup's subgroups",
        R::Compiles}},
      {"promoted-copy-layout",
       {"Common/GPU/GPUVectorAlloc.cpp and GPUNestedLayoutUtils.cpp, "
        "getDerivedThreadLayout for a promoted operand",
        R::Refuses}},
      {"tile-and-fuse-mma-partial-tile",
       {"LLVMGPU/Passes.cpp, addGPUTileAndFusePassPipeline (a partial "
        "workgroup tile through GPUPackToIntrinsics, subgroup tiling and "
        "bufferization; measured with the pinned IREE)",
        R::Refuses}},
  };
  return rules;
}

// A rule missing from the table is a programming error the rule tests
// catch (tst_config_model checks every problem names a source).
const RuleInfo &ruleInfo(const std::string &rule) {
  static const RuleInfo unknown{"", Problem::IreeResponse::Refuses};
  auto it = ruleTable().find(rule);
  return it == ruleTable().end() ? unknown : it->second;
}

} // namespace

bool hasErrors(const std::vector<Problem> &problems) {
  return std::any_of(problems.begin(), problems.end(),
                     [](const Problem &p) { return p.isError(); });
}

std::string toString(Problem::Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

std::string toString(Problem::IreeResponse response) {
  switch (response) {
  case Problem::IreeResponse::Refuses:
    return "IREE refuses it";
  case Problem::IreeResponse::Asserts:
    return "IREE's code asserts against it";
  case Problem::IreeResponse::Unchecked:
    return "IREE does not check it";
  case Problem::IreeResponse::Compiles:
    return "IREE compiles it";
  }
  return "";
}

std::string toString(Problem::Origin origin) {
  switch (origin) {
  case Problem::Origin::Tilescope:
    return "tilescope";
  case Problem::Origin::IreeConstraints:
    return "iree-constraints";
  }
  return "";
}

std::vector<RuleDescription> validationRules() {
  std::vector<RuleDescription> rules;
  for (const auto &[name, info] : ruleTable())
    rules.push_back({name, info.source, info.response});
  return rules;
}

Problem makeProblem(std::string field, std::string message,
                    const std::string &rule) {
  const RuleInfo &info = ruleInfo(rule);
  Problem problem;
  problem.severity = info.response == Problem::IreeResponse::Compiles
                         ? Problem::Severity::Warning
                         : Problem::Severity::Error;
  problem.field = std::move(field);
  problem.message = std::move(message);
  problem.rule = rule;
  problem.source = info.source;
  problem.iree = info.response;
  return problem;
}

namespace detail {

Problem &Reporter::add(std::string field, std::string message,
                       const std::string &rule) {
  problems.push_back(makeProblem(std::move(field), std::move(message), rule));
  return problems.back();
}

bool Reporter::hasError(const std::string &fieldPrefix) const {
  return std::any_of(problems.begin(), problems.end(), [&](const Problem &p) {
    return p.isError() && p.field.rfind(fieldPrefix, 0) == 0;
  });
}

std::optional<int64_t> Reporter::subgroupSize() const {
  if (context.translationInfo && context.translationInfo->subgroupSize)
    return context.translationInfo->subgroupSize;
  if (context.target && context.target->subgroupSizeChoices.size() == 1)
    return context.target->subgroupSizeChoices.front();
  return std::nullopt;
}

} // namespace detail

} // namespace tilescope::config
