#include "widgets/window/HelpMenu.h"

#include <QAction>
#include <QApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>

namespace tilescope::widgets {
namespace {

void showHelp(QWidget *parent) {
  QMessageBox box(parent);
  box.setWindowTitle("Tilescope help");
  box.setTextFormat(Qt::RichText);
  box.setText(
      "<b>Pick</b> a dispatch's root op on the left (Ctrl+F filters); its "
      "MLIR line is highlighted.<br>"
      "<b>Edit</b> a field in the Config editor: the views redraw as you type, "
      "Enter applies (Ctrl+Z / Ctrl+Shift+Z undo and redo), an empty value "
      "removes the field; Problems lists what the rules and IREE say, click "
      "one to reach its field.<br>"
      "<b>Views</b>: Layouts, lane and subgroup bases, MMA fragments, "
      "shared-memory banks and the workgroup grid. Ctrl+wheel or Ctrl+= / "
      "Ctrl+- zoom, Ctrl+0 fits, hover tells who holds a cell, a click (or "
      "Mark) marks every cell of that lane, subgroup or bank, Escape "
      "clears.<br>"
      "<b>Run</b>: compile, read resources, run, check against the CPU and "
      "compare tries in the Run dock; sweep neighbouring configs in Sweep.<br>"
      "<b>IREE's default</b> (Ctrl+D) shows what IREE would choose.<br>"
      "Edits are kept on disk until saved: after a crash the next start "
      "offers them back.<br>"
      "The same is scriptable: <tt>tilescope-cli --help</tt>, and "
      "<tt>tilescope FILE --op D:O --set FIELD=VALUE --view VIEW "
      "--screenshot OUT.png</tt>.");
  box.exec();
}

void showAbout(QWidget *parent,
               const std::function<std::string()> &ireeVersion) {
  QString iree = "not located";
  if (ireeVersion)
    iree = QString::fromStdString(ireeVersion())
               .toHtmlEscaped()
               .replace('\n', "<br>");
  QMessageBox::about(
      parent, "About Tilescope",
      QString("<h3>Tilescope %1</h3>"
              "<p>How IREE spreads a GPU dispatch over workgroups, subgroups, "
              "lanes and registers.</p>"
              "<p><b>Qt</b> %2 (built with %3)</p>"
              "<p><b>IREE</b><br>%4</p>")
          .arg(QApplication::applicationVersion(), qVersion(), QT_VERSION_STR,
               iree));
}

} // namespace

void addHelpMenu(QMainWindow *window,
                 std::function<std::string()> ireeVersion) {
  QMenu *help = window->menuBar()->addMenu("&Help");
  QAction *controls = help->addAction("Tilescope &help", window,
                                      [window] { showHelp(window); });
  controls->setShortcut(QKeySequence::HelpContents);
  help->addAction("&About Tilescope", window,
                  [window, version = std::move(ireeVersion)] {
                    showAbout(window, version);
                  });
  help->addAction("About &Qt", qApp, &QApplication::aboutQt);
}

} // namespace tilescope::widgets
