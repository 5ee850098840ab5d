// File > Open Recent: the files opened last, newest first, kept in the
// app's QSettings (ten at most).
#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QMenu;
class QObject;

namespace tilescope::widgets {

QStringList recentFiles();
void rememberRecentFile(const QString &path);
// The menu anew: a numbered entry per file (greyed where it is gone),
// each opening it through `open`, and "Clear the list".
void fillRecentMenu(QMenu *menu, QObject *context,
                    const std::function<void(const QString &)> &open);

} // namespace tilescope::widgets
