// What a compiled kernel uses, read from the real artifacts of a compile:
// for AMD, the kernel metadata in the ISA IREE dumps (.rocmasm); for NVIDIA,
// ptxas -v run on the PTX IREE dumps, and the dynamic shared memory IREE
// gives each export (its workgroup_local_memory, which ptxas cannot see,
// read from iree-compile run once more). The texts are read by
// core/isa/KernelResources; this runs the tools that make them.
#pragma once

#include "core/isa/KernelResources.h"
#include "core/layout/CostModel.h"
#include "core/layout/Occupancy.h"
#include "core/service/CompileJob.h"
#include "core/util/Result.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::service {

struct ResourceReport {
  std::vector<isa::KernelResources> kernels;
  std::vector<std::string> commands; // each helper run, as a shell command
  std::vector<std::string> notes;    // what could not be read, and why
};

// What the cost model takes from a compiled kernel (registers, shared
// memory, workgroups resident per unit): the first GPU kernel of the
// report, or nullopt when it has none.
std::optional<layout::CompiledKernel>
compiledKernelOf(const ResourceReport &report);

// ptxas: $TILESCOPE_PTXAS, then the one the set-up installs into .deps/,
// then `ptxas` on PATH and /usr/local/cuda/bin/ptxas.
Result<std::filesystem::path> locatePtxas();
// A CUDA tool: the file $`variable` names, then `installed` (the set-up's;
// "" for none), then `name` on PATH and in /usr/local/cuda/bin.
std::optional<std::filesystem::path>
locateCudaTool(const char *variable, const std::string &installed,
               const std::string &name);

struct ResourceOptions {
  std::chrono::milliseconds timeout{std::chrono::minutes(2)};
  const std::atomic<bool> *cancel = nullptr;
};

// The resources of every kernel a successful compile made. ROCm needs only
// the dumped ISA; CUDA runs ptxas on the PTX and, for the shared memory,
// iree-compile once more up to executable targets (in the try folder).
// Anything that cannot be read (no ptxas, a CPU compile) is a note.
Result<ResourceReport> readResources(const CompileJobResult &compiled,
                                     const ResourceOptions &options = {});

} // namespace tilescope::service
