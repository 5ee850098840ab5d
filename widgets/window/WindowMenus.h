// The main window's menu bar: File, Edit, Run, View and Help. Each entry
// calls what the window hands in, so the menus know no view of their own.
#pragma once

#include <QList>
#include <QString>

#include <functional>
#include <string>
#include <utility>
#include <vector>

class QAction;
class QMainWindow;
class QUndoStack;

namespace tilescope::widgets {

struct MenuCommands {
  // File: Open, Open Recent, Save, Save As, then the exports and imports
  // (title, what it does), Quit.
  std::function<void()> open, save, saveAs;
  std::function<void(const QString &)> openRecent;
  std::vector<std::pair<QString, std::function<void()>>> exports;
  // Edit: Undo and Redo of this stack, asking IREE, Settings.
  QUndoStack *undoStack = nullptr;
  std::function<void()> askIree, ireeDefault, settings;
  // Run: the run panel's actions.
  QList<QAction *> runActions;
  // View: finding an op, each dock shown or not, Reset layout.
  std::function<void()> findOp, resetLayout;
  // Help > About names it (unset: the IREE is not located).
  std::function<std::string()> ireeVersion;
};

void buildWindowMenus(QMainWindow &window, const MenuCommands &commands);

} // namespace tilescope::widgets
