#include "widgets/window/RecentFiles.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace tilescope::widgets {
namespace {

constexpr int kMaxRecentFiles = 10;
constexpr const char *kRecentKey = "files/recent";

} // namespace

QStringList recentFiles() {
  return QSettings().value(kRecentKey).toStringList();
}

void rememberRecentFile(const QString &path) {
  QStringList files = recentFiles();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  files.removeAll(absolute);
  files.prepend(absolute);
  while (files.size() > kMaxRecentFiles)
    files.removeLast();
  QSettings().setValue(kRecentKey, files);
}

void fillRecentMenu(QMenu *menu, QObject *context,
                    const std::function<void(const QString &)> &open) {
  menu->clear();
  const QStringList files = recentFiles();
  for (int i = 0; i < files.size(); ++i) {
    const QFileInfo info(files[i]);
    QAction *action =
        menu->addAction(QString("&%1 %2 — %3")
                            .arg((i + 1) % 10)
                            .arg(info.fileName(), info.absolutePath()),
                        context, [open, path = files[i]] { open(path); });
    action->setEnabled(info.exists());
  }
  if (files.isEmpty())
    menu->addAction("No recent files")->setEnabled(false);
  menu->addSeparator();
  menu->addAction("Clear the list", context,
                  [] { QSettings().remove(kRecentKey); })
      ->setEnabled(!files.isEmpty());
}

} // namespace tilescope::widgets
