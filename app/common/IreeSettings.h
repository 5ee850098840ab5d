// The app-level wiring of "which IREE": the command line, the environment,
// the user's settings (QSettings) and the project prefix, in that order,
// and the workbench the window and the command line build from it.
#pragma once

#include "core/workbench/Workbench.h"

#include <QString>

#include <filesystem>
#include <optional>

namespace tilescope::app {

inline constexpr const char *kOrganization = "Tilescope";
inline constexpr const char *kApplication = "Tilescope";
inline constexpr const char *kIreePathSetting = "iree/path";
// The IREE release the project pins and loads (what `convert` and the
// window's offer convert for).
inline constexpr const char *kPinnedRelease = "3.13";

// The app's workbench: IREE found with `commandLinePath` (the --iree
// option when given) first and the saved setting read at each question,
// the parse worker beside this executable (tilescope-iree-worker), tries
// kept in `workspace` (empty: the default workspace).
workbench::Workbench
makeWorkbench(const std::optional<QString> &commandLinePath,
              const std::filesystem::path &workspace = {});

} // namespace tilescope::app
