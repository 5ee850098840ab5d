#include "app/common/RuntimeDirectory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtGlobal>

#include <unistd.h>

namespace tilescope::app {

void provideRuntimeDirectory() {
  if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
    return;
  const uint user = static_cast<uint>(::getuid());
  const QString path = QDir(QDir::tempPath())
                           .filePath(QString("tilescope-runtime-%1").arg(user));
  if (!QDir().mkpath(path) ||
      !QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner |
                                       QFile::ExeOwner))
    return;
  // Another user's directory of that name is not ours to use.
  const QFileInfo info(path);
  if (!info.isDir() || info.ownerId() != user)
    return;
  qputenv("XDG_RUNTIME_DIR", QFile::encodeName(path));
}

} // namespace tilescope::app
