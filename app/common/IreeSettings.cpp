#include "app/common/IreeSettings.h"

#include <QSettings>

namespace tilescope::app {

Result<iree::IreeInstallation>
locateIree(const std::optional<QString> &commandLinePath) {
  iree::IreeSearchOptions options;
  if (commandLinePath)
    options.commandLinePath = commandLinePath->toStdString();
  const QSettings settings(kOrganization, kApplication);
  const QString saved = settings.value(kIreePathSetting).toString();
  if (!saved.isEmpty())
    options.settingsPath = saved.toStdString();
  return iree::locateIree(options);
}

} // namespace tilescope::app
