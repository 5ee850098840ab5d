// The app-level wiring of "which IREE": the command line, the environment,
// the user's settings (QSettings) and the project prefix, in that order.
#pragma once

#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"

#include <QString>
#include <optional>

namespace tilescope::app {

inline constexpr const char *kOrganization = "Tilescope";
inline constexpr const char *kApplication = "Tilescope";
inline constexpr const char *kIreePathSetting = "iree/path";
// The IREE release the project pins and loads (what `convert` and the
// window's offer convert for).
inline constexpr const char *kPinnedRelease = "3.13";

// Finds IREE; `commandLinePath` is the --iree option when given.
Result<tools::IreeInstallation>
locateIree(const std::optional<QString> &commandLinePath);

// The parser process beside this executable (tilescope-iree-worker), set to
// load the IREE that locateIree finds.
Result<service::DocumentWorker>
documentWorker(const std::optional<QString> &commandLinePath);

} // namespace tilescope::app
