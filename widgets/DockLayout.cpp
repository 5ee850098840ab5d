#include "widgets/DockLayout.h"

#include <QDockWidget>
#include <QMainWindow>

#include <algorithm>

namespace tilescope::widgets {

void arrangeWindowDocks(QMainWindow &window, int across) {
  auto named = [&window](const char *name) {
    auto *widget = window.findChild<QDockWidget *>(name);
    widget->setFloating(false);
    widget->show();
    return widget;
  };
  QDockWidget *browserDock = named("dispatchDock");
  QDockWidget *sourceDock = named("sourceDock");
  QDockWidget *editorDock = named("configEditorDock");
  QDockWidget *problemsDock = named("problemsDock");
  QDockWidget *runDock = named("runDock");
  QDockWidget *sweepDock = named("sweepDock");
  QDockWidget *tuneDock = named("tuneDock");
  window.addDockWidget(Qt::LeftDockWidgetArea, browserDock);
  window.splitDockWidget(browserDock, sourceDock, Qt::Vertical);
  window.addDockWidget(Qt::RightDockWidgetArea, editorDock);
  window.splitDockWidget(editorDock, problemsDock, Qt::Vertical);
  window.addDockWidget(Qt::BottomDockWidgetArea, runDock);
  window.tabifyDockWidget(runDock, sweepDock);
  window.tabifyDockWidget(sweepDock, tuneDock);
  runDock->raise();
  // Sized for 1440x900, grown with a larger window; on a smaller one
  // (1280x800) the side docks share what the central view leaves (Qt would
  // otherwise keep their sizes and widen the window past the screen).
  const double wide = std::max(1.0, across / 1440.0);
  const double tall = std::max(1.0, window.height() / 900.0);
  auto scaled = [](double by, int size) { return int(size * by); };
  int browserWidth = scaled(wide, 430), editorWidth = scaled(wide, 470);
  const int room =
      across - window.centralWidget()->minimumSizeHint().width() - 24;
  if (browserWidth + editorWidth > room && room > 0) {
    const int editorLeast = editorDock->minimumSizeHint().width();
    editorWidth = std::max(editorLeast, room * 470 / 900);
    browserWidth =
        std::max(browserDock->minimumSizeHint().width(), room - editorWidth);
  }
  window.resizeDocks({browserDock, editorDock}, {browserWidth, editorWidth},
                     Qt::Horizontal);
  window.resizeDocks({browserDock, sourceDock},
                     {scaled(tall, 330), scaled(tall, 470)}, Qt::Vertical);
  // A shorter screen (1280x800) gives the config editor the rows it needs
  // (translation_info's below lowering_config's) before the problems and
  // the run panel.
  const bool shortScreen = window.height() < 900;
  window.resizeDocks({editorDock, problemsDock},
                     {scaled(tall, shortScreen ? 600 : 520),
                      scaled(tall, shortScreen ? 200 : 280)},
                     Qt::Vertical);
  window.resizeDocks({runDock}, {scaled(tall, shortScreen ? 200 : 250)},
                     Qt::Vertical);
}

} // namespace tilescope::widgets
