// A root op written as the dispatch function IREE's own codegen tests use:
// a func.func carrying hal.executable.target and translation_info, whose
// operands come from hal.interface.binding.subspan and whose one
// linalg.generic carries the lowering_config. IREE's GPU lowering pipelines
// run on it directly (iree-opt --iree-codegen-llvmgpu-*-lowering-pipeline),
// so IREE can be asked what it does with any config on any iteration space
// without compiling a whole program.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/util/Result.h"

#include <string>
#include <vector>

namespace tilescope::devices {

enum class ProbeBody {
  Automatic,   // (scaled) contraction for LHS x RHS (x scales) -> ACC maps,
               // else a sum
  Sum,         // out + in0 + in1 ... (a reduction), or in0 + in1 (elementwise)
  MultiplyAdd, // out + in0 * in1: what IREE recognises as a contraction
  // out + scaling_extf(in0, in2) * scaling_extf(in1, in3): a scaled (MX)
  // contraction, inputs LHS, RHS, LHS scales, RHS scales
  ScaledMultiplyAdd,
};

struct ProbeOp {
  std::string function; // symbol name, [A-Za-z0-9_]
  // Bounds (static), loop kinds and operands: inputs first, then one output,
  // each with its element type ("f16", "f32", "i8", "i32", ...) and the loop
  // dimension of each of its dimensions (a projected permutation).
  config::IterationSpace space;
  std::string loweringConfig;  // #iree_gpu.lowering_config<...> text
  std::string translationInfo; // #iree_codegen.translation_info<...> text
  // #hal.executable.target<...> text. Empty: `#hal.executable.target<"rocm",
  // "rocm-hsaco-fb">`, completed by iree-opt's --iree-gpu-test-target.
  std::string executableTarget;
  ProbeBody body = ProbeBody::Automatic;
};

// With a full executableTarget, a probe is written as IREE compiles a
// dispatch: the function inside hal.executable / hal.executable.variant
// (which carries the target) with its export, so passes that look the
// target up on the variant (ConvertToNVVM does) find it. Without one, as a
// bare function for --iree-gpu-test-target.
inline bool usesExecutableForm(const ProbeOp &op) {
  return !op.executableTarget.empty();
}

// The MLIR text of one probe function; an error names what cannot be
// written (a dynamic bound, an operand map that is not a projected
// permutation, an element type with no arithmetic).
Result<std::string> probeFunctionText(const ProbeOp &op);

// Several probes in one file, separated by `// -----` lines so that
// iree-opt --split-input-file runs each on its own.
Result<std::string> probeModuleText(const std::vector<ProbeOp> &ops);

} // namespace tilescope::devices
