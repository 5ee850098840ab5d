#include "app/common/IreeSettings.h"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>

namespace tilescope::app {

workbench::Workbench
makeWorkbench(const std::optional<QString> &commandLinePath,
              const std::filesystem::path &workspace) {
  workbench::WorkbenchOptions options;
  if (commandLinePath)
    options.iree.commandLinePath = commandLinePath->toStdString();
  options.savedIreePath = []() -> std::optional<std::filesystem::path> {
    const QSettings settings(kOrganization, kApplication);
    const QString saved = settings.value(kIreePathSetting).toString();
    if (saved.isEmpty())
      return std::nullopt;
    return saved.toStdString();
  };
  options.workerProgram = QDir(QCoreApplication::applicationDirPath())
                              .filePath(QStringLiteral("tilescope-iree-worker"))
                              .toStdString();
  options.workspace = workspace;
  return workbench::Workbench(std::move(options));
}

} // namespace tilescope::app
