// The cost model's one entry for a root op: a contraction's or a
// reduction's kernel time (CostModel.h), an attention op's two contractions
// and its softmax (AttentionCost.h), from what the op's reader gathered of
// it (edit::costInputsOf: its loops, translation_info, GPU config and
// target, or why each is missing). An Error says why there is no
// prediction (a CPU target, no config, no figures).
#pragma once

#include "core/config/rules/Validation.h"
#include "core/layout/CostModel.h"
#include "core/util/Result.h"

#include <optional>
#include <string>

namespace tilescope::layout {

struct OpCostInputs {
  // Unset: the op does not exist (`whyNoOp`).
  const config::ValidationContext *validation = nullptr;
  std::string whyNoOp;
  const config::LoweringConfig *loweringConfig = nullptr; // GPU, else why not
  std::string whyNoConfig;
  const config::GpuTarget *target = nullptr; // else why not ("": CPU, none)
  std::string whyNoTarget;
  // An attention op: predicted from its decomposition_config's qk and pv
  // configs (validation->decomposition), or why they could not be read.
  bool attention = false;
  std::string whyNoDecomposition;
};

// With what a compile says of the kernel when there is one.
Result<CostPrediction>
predictOpTime(const OpCostInputs &inputs,
              std::optional<CompiledKernel> compiled = std::nullopt);

} // namespace tilescope::layout
