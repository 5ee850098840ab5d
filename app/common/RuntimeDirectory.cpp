#include "app/common/RuntimeDirectory.h"

#include <QFile>
#include <QtGlobal>

namespace tilescope::app {

std::unique_ptr<QTemporaryDir> provideRuntimeDirectory() {
  if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
    return nullptr;
  auto directory = std::make_unique<QTemporaryDir>();
  if (!directory->isValid())
    return nullptr;
  qputenv("XDG_RUNTIME_DIR", QFile::encodeName(directory->path()));
  return directory;
}

} // namespace tilescope::app
