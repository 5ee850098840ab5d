// The IREE the set-up script installed, which the job and window
// benchmarks run (and compare against its tools).
#pragma once

#include "core/iree/IreeInstallation.h"

#include <filesystem>

namespace tilescope::bench {

inline Result<iree::IreeInstallation> projectIree() {
  iree::IreeSearchOptions search;
  search.commandLinePath = std::filesystem::path(TILESCOPE_IREE_PREFIX);
  return iree::locateIree(search);
}

} // namespace tilescope::bench
