#include "core/layout/OpCost.h"

#include "core/layout/AttentionCost.h"

namespace tilescope::layout {

Result<CostPrediction> predictOpTime(const OpCostInputs &inputs,
                                     std::optional<CompiledKernel> compiled) {
  if (!inputs.validation)
    return Error{inputs.whyNoOp.empty() ? std::string("no such root op")
                                        : inputs.whyNoOp};
  if (!inputs.target)
    return Error{inputs.whyNoTarget.empty()
                     ? std::string("not a GPU target: nothing to predict")
                     : inputs.whyNoTarget};
  if (!inputs.loweringConfig)
    return Error{inputs.whyNoConfig.empty()
                     ? std::string("the op has no GPU lowering config")
                     : inputs.whyNoConfig};
  const config::ValidationContext &v = *inputs.validation;
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
