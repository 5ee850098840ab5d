#include "core/layout/OpCost.h"
#include "core/layout/Roofline.h"

#include "core/layout/AttentionCost.h"

namespace tilescope::layout {
namespace {

// A copy or elementwise op IREE runs on its Distribute pipeline (the
// `slow_memcpy` dispatches of every ONNX import: an
// #iree_codegen.lowering_config of tile_sizes, no GPU config): every
// element read and written once, so its time is its bytes at DRAM
// bandwidth and a launch. Nothing else is modelled of it.
std::optional<CostPrediction>
predictDistributedCopy(const config::ValidationContext &v,
                       const config::GpuTarget &target) {
  if (!v.iterationSpace || !v.translationInfo ||
      v.translationInfo->pipelineName() != "Distribute")
    return std::nullopt;
  const config::IterationSpace &space = *v.iterationSpace;
  for (size_t d = 0; d < space.rank(); ++d)
    if (space.isReduction(d))
      return std::nullopt;
  const auto arch = microArchitecture(target.arch);
  auto floor = rooflineFloor(space, target, config::OpKind::Elementwise);
  if (!arch || !floor)
    return std::nullopt;
  CostPrediction p;
  p.model = "elementwise on IREE's Distribute pipeline: its bytes at DRAM "
            "bandwidth (its tile_sizes are not modelled)";
  p.globalBytes = floor->bytes;
  p.floorMicroseconds = floor->floorSeconds * 1e6;
  p.microseconds = arch->launchMicroseconds + p.floorMicroseconds;
  p.boundBy = "DRAM";
  p.terms.push_back(
      {"DRAM", p.floorMicroseconds, "every element read and written once"});
  return p;
}

} // namespace

Result<CostPrediction> predictOpTime(const OpCostInputs &inputs,
                                     std::optional<CompiledKernel> compiled) {
  if (!inputs.validation)
    return Error{inputs.whyNoOp.empty() ? std::string("no such root op")
                                        : inputs.whyNoOp};
  if (!inputs.target)
    return Error{inputs.whyNoTarget.empty()
                     ? std::string("not a GPU target: nothing to predict")
                     : inputs.whyNoTarget};
  const config::ValidationContext &v = *inputs.validation;
  if (!inputs.loweringConfig) {
    if (auto copy = predictDistributedCopy(v, *inputs.target))
      return std::move(*copy);
    return Error{inputs.whyNoConfig.empty()
                     ? std::string("the op has no GPU lowering config")
                     : inputs.whyNoConfig};
  }
  if (!v.iterationSpace || !v.translationInfo)
    return Error{"the op's loops or translation_info are not known"};
  const CostModelInput input{&*v.iterationSpace, inputs.loweringConfig,
                             &*v.translationInfo, inputs.target,
                             std::move(compiled)};
  if (inputs.attention) {
    // Its two contractions follow the decomposition_config's qk and pv
    // configs, inside the tiles the op's own config gives.
    if (!v.decomposition)
      return Error{inputs.whyNoDecomposition + " (not predicted)"};
    return predictAttentionTime(input, *v.decomposition);
  }
  return predictKernelTime(input);
}

} // namespace tilescope::layout
