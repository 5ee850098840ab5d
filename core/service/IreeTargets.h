// What the loaded IREE says a GPU target offers. IREE's target facts (the
// subgroup sizes, workgroup limits, shared memory, MMA and scaled MMA
// intrinsics of #iree_gpu.target) live in its known-target table, which grows
// with every release (gfx1250 in 3.13). Tilescope asks the IREE in use: the
// pinned iree-compile assigns the device for the name to an empty module
// (--compile-to=preprocessing, ~20 ms) and the #iree_gpu.target it prints is
// read by core/config. Tilescope's built-in table (config::builtinTarget) is
// the fallback with no IREE, and for names IREE has no facts for (3.13 knows
// sm_90 only as an LLVM CPU name, with no #iree_gpu.target).
#pragma once

#include "core/config/configs/GpuTarget.h"
#include "core/process/Process.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <string>
#include <string_view>

namespace tilescope::service {

// The iree-compile command that prints the device IREE assigns for a
// target name on `backend` ("rocm" or "cuda").
Result<process::ProcessSpec>
targetQueryCommand(const tools::IreeInstallation &iree, std::string_view name,
                   std::string_view backend);

// IREE's facts for a target name ("gfx1250", "mi300x", "sm_80", "a100"):
// asked on the backend the name suggests first (sm_* and NVIDIA products on
// cuda, the rest on rocm), then the other. Answers are kept for the life of
// the process, per IREE installation and name. An Error says what IREE said
// (an unknown name, a name with no GPU facts).
struct IreeTarget {
  config::GpuTarget target;
  std::string command; // the shell command that reproduces the question
};
Result<IreeTarget> ireeTarget(const tools::IreeInstallation &iree,
                              std::string_view name);
// Whether ireeTarget's Error says IREE knows no such target on any GPU
// backend (rather than knowing it without GPU facts, as sm_90, or failing).
bool namesNoTarget(const std::string &ireeTargetError);

// A target named on a command line: IREE's facts when `iree` is given and
// IREE has them; otherwise the built-in table (saying why in `note`); an
// #iree_gpu.target<...> text is read as it is.
struct ResolvedTarget {
  config::GpuTarget target;
  std::string note; // empty when IREE answered; else why the table was used
};
Result<ResolvedTarget> resolveTarget(const tools::IreeInstallation *iree,
                                     std::string_view nameOrAttribute);

} // namespace tilescope::service
