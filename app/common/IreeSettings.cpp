#include "app/common/IreeSettings.h"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>

namespace tilescope::app {

Result<tools::IreeInstallation>
locateIree(const std::optional<QString> &commandLinePath) {
  tools::IreeSearchOptions options;
  if (commandLinePath)
    options.commandLinePath = commandLinePath->toStdString();
  const QSettings settings(kOrganization, kApplication);
  const QString saved = settings.value(kIreePathSetting).toString();
  if (!saved.isEmpty())
    options.settingsPath = saved.toStdString();
  return tools::locateIree(options);
}

Result<service::DocumentWorker>
documentWorker(const std::optional<QString> &commandLinePath) {
  auto installation = locateIree(commandLinePath);
  if (!installation)
    return Error{installation.error()};
  const QString program =
      QDir(QCoreApplication::applicationDirPath())
          .filePath(QStringLiteral("tilescope-iree-worker"));
  return service::DocumentWorker(program.toStdString(),
                                 installation->compilerLibrary);
}

} // namespace tilescope::app
