#include "widgets/window/DockLayout.h"

#include "widgets/editor/ConfigEditor.h"
#include "widgets/editor/DispatchBrowser.h"
#include "widgets/editor/ProblemList.h"
#include "widgets/jobs/RunPanel.h"
#include "widgets/jobs/SweepPanel.h"
#include "widgets/jobs/TunePanel.h"
#include "widgets/views/MlirView.h"
#include "widgets/window/WindowServices.h"

#include <QDockWidget>
#include <QMainWindow>

#include <algorithm>

namespace tilescope::widgets {
namespace {

void dock(const QString &title, const QString &name, QWidget *content,
          QMainWindow &window, Qt::DockWidgetArea area) {
  auto *widget = new QDockWidget(title, &window);
  widget->setObjectName(name);
  widget->setWidget(content);
  window.addDockWidget(area, widget);
}

} // namespace

WindowPanels addWindowDocks(QMainWindow &window,
                            const WindowServices &services) {
  WindowPanels panels;
  panels.browser = new DispatchBrowser;
  panels.browser->setObjectName("dispatchBrowser");
  panels.source = new MlirView;
  panels.source->setObjectName("sourceView");
  panels.editor = new ConfigEditor;
  panels.editor->setObjectName("configEditor");
  panels.problems = new ProblemList;
  panels.run = new RunPanel(services.bench, services.workspace);
  panels.run->setObjectName("runPanel");
  panels.sweep = new SweepPanel(services.bench, services.workspace);
  panels.tune = new TunePanel(services.bench);
  // Each dock keeps a size it is usable at: a squeezed window cannot make
  // a column two characters wide (the config editor keeps its own).
  panels.browser->setMinimumSize(220, 120);
  panels.source->setMinimumSize(220, 120);
  panels.problems->setMinimumSize(240, 80);
  panels.run->setMinimumHeight(160);
  panels.sweep->setMinimumHeight(160);
  panels.tune->setMinimumHeight(160);
  dock("Dispatches", "dispatchDock", panels.browser, window,
       Qt::LeftDockWidgetArea);
  dock("MLIR", "sourceDock", panels.source, window, Qt::LeftDockWidgetArea);
  dock("Config editor", "configEditorDock", panels.editor, window,
       Qt::RightDockWidgetArea);
  dock("Problems", "problemsDock", panels.problems, window,
       Qt::RightDockWidgetArea);
  dock("Run", "runDock", panels.run, window, Qt::BottomDockWidgetArea);
  dock("Sweep", "sweepDock", panels.sweep, window, Qt::BottomDockWidgetArea);
  dock("Tune program", "tuneDock", panels.tune, window,
       Qt::BottomDockWidgetArea);
  return panels;
}

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
