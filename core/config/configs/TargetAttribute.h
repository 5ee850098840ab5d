// Reads a GpuTarget from the target attribute IREE writes into a file:
// #iree_gpu.target<...> on its own, or inside
// #hal.executable.target<"rocm", "rocm-hsaco-fb", {iree_codegen.target_info =
// ...}>.
#pragma once

#include "core/config/configs/GpuTarget.h"
#include "core/config/syntax/Attribute.h"

#include <string_view>

namespace tilescope::config {

// Whether an executable target's text states GPU target facts (an
// #iree_gpu.target inside it).
inline bool namesGpuTarget(std::string_view executableTarget) {
  return executableTarget.find("#iree_gpu.target") != std::string_view::npos;
}

Result<GpuTarget> gpuTargetFromAttribute(const Attribute &attribute);
Result<GpuTarget> gpuTargetFromText(std::string_view text);

// A target by name (built-in) or from attribute text.
Result<GpuTarget> resolveTarget(std::string_view nameOrAttribute);

} // namespace tilescope::config
