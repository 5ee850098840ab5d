#include "widgets/window/WindowMenus.h"

#include "widgets/window/HelpMenu.h"
#include "widgets/window/RecentFiles.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QUndoStack>

namespace tilescope::widgets {

void buildWindowMenus(QMainWindow &window, const MenuCommands &commands) {
  QMenuBar *bar = window.menuBar();
  QMenu *file = bar->addMenu("&File");
  file->addAction("&Open…", &window, commands.open)
      ->setShortcut(QKeySequence::Open);
  QMenu *recent = file->addMenu("Open &Recent");
  recent->setObjectName("recentMenu");
  QObject::connect(recent, &QMenu::aboutToShow, &window,
                   [recent, &window, open = commands.openRecent] {
                     fillRecentMenu(recent, &window, open);
                   });
  file->addAction("&Save", &window, commands.save)
      ->setShortcut(QKeySequence::Save);
  file->addAction("Save &As…", &window, commands.saveAs)
      ->setShortcut(QKeySequence::SaveAs);
  for (const auto &[title, command] : commands.exports)
    file->addAction(title, &window, command);
  file->addSeparator();
  file->addAction("&Quit", &window, &QWidget::close)
      ->setShortcut(QKeySequence::Quit);

  QMenu *edit = bar->addMenu("&Edit");
  QAction *undo = commands.undoStack->createUndoAction(&window, "&Undo");
  undo->setShortcut(QKeySequence::Undo);
  QAction *redo = commands.undoStack->createRedoAction(&window, "&Redo");
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addSeparator();
  edit->addAction("Ask IREE about the edited file", &window, commands.askIree);
  edit->addAction("IREE's &default for this file", &window,
                  commands.ireeDefault)
      ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
  edit->addSeparator();
  edit->addAction("&Settings…", &window, commands.settings)
      ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));

  QMenu *run = bar->addMenu("&Run");
  for (QAction *action : commands.runActions)
    run->addAction(action);

  QMenu *view = bar->addMenu("&View");
  view->addAction("&Find a dispatch or op", &window, commands.findOp)
      ->setShortcut(QKeySequence::Find);
  view->addSeparator();
  for (QDockWidget *dock : window.findChildren<QDockWidget *>())
    view->addAction(dock->toggleViewAction());
  view->addSeparator();
  QAction *reset =
      view->addAction("&Reset layout", &window, commands.resetLayout);
  reset->setObjectName("resetLayoutAction");
  reset->setToolTip("Every panel back in its place, at its first size");
  addHelpMenu(&window, commands.ireeVersion);
}

} // namespace tilescope::widgets
