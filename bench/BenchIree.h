// The IREE the set-up script installed, which the job and window
// benchmarks run (and compare against its tools).
#pragma once

#include "core/iree/CompilerLibrary.h"
#include "core/tools/IreeInstallation.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

namespace tilescope::bench {

inline tools::IreeSearchOptions projectIreeSearch() {
  tools::IreeSearchOptions search;
  search.commandLinePath = std::filesystem::path(TILESCOPE_IREE_PREFIX);
  return search;
}

inline Result<tools::IreeInstallation> projectIree() {
  return tools::locateIree(projectIreeSearch());
}

// The project's IREE and its compiler library, loaded. A bench cannot run
// without them: a missing one ends it, with the reason.
struct ProjectIree {
  tools::IreeInstallation installation;
  std::shared_ptr<iree::CompilerLibrary> library;
};

inline ProjectIree requireProjectIree() {
  auto installation = projectIree();
  if (!installation) {
    std::cerr << installation.error() << "\n";
    std::exit(1);
  }
  auto library = iree::CompilerLibrary::load(installation->compilerLibrary);
  if (!library) {
    std::cerr << library.error() << "\n";
    std::exit(1);
  }
  return {std::move(*installation), std::move(*library)};
}

} // namespace tilescope::bench
