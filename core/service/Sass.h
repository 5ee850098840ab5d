// The SASS of the PTX IREE's CUDA backend writes: ptxas makes its cubin and
// nvdisasm prints it with the registers live at each instruction
// (`nvdisasm -c -lrm count`) and the PTX line of each (ptxas's line table,
// `nvdisasm -gp`), written as X.sass beside X.ptx (once: a try folder keeps
// it; one made before the lines were is made again). Both tools of one CUDA
// release, as nvdisasm reads only its own ptxas's cubins: the set-up installs
// CUDA 13.5's from PyPI.
#pragma once

#include "core/isa/SourceCounters.h"
#include "core/service/Resources.h"
#include "core/util/Result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace tilescope::service {

// nvdisasm: $TILESCOPE_NVDISASM, then the one the set-up installs into
// .deps/, then `nvdisasm` on PATH and /usr/local/cuda/bin/nvdisasm.
Result<std::filesystem::path> locateNvdisasm();

struct SassFiles {
  std::vector<std::filesystem::path> files; // X.sass, one per X.ptx made
  std::vector<std::string> notes;           // what could not be made, why
};
// The SASS of each of `ptxFiles` (those that are .ptx): an existing X.sass
// is kept, a missing one made, by the ptxas beside nvdisasm where there is
// one (else locatePtxas's).
SassFiles sassOf(const std::vector<std::filesystem::path> &ptxFiles,
                 const ResourceOptions &options = {});

// A compile's assembly with the SASS of its PTX made where missing: what
// the instructions views read. Notes say what could not be made.
SassFiles assemblyWithSass(const std::vector<std::filesystem::path> &assembly,
                           const ResourceOptions &options = {});

// Nsight Compute's source page in `file` (a bundle's results/ID.source.csv,
// or one printed by hand), read as an untrusted file (with `within`, one a
// link leads out of that folder is refused): an Error names the file and
// why.
Result<std::vector<isa::ProfiledKernel>>
readSourceCountersFile(const std::filesystem::path &file,
                       const std::filesystem::path &within = {});

} // namespace tilescope::service
