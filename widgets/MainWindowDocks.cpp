// The window's panels: what each dock holds, how the panels talk to the
// window, and where a first start (or View > Reset layout) puts them.
#include "widgets/MainWindow.h"

#include "widgets/BundleActions.h"
#include "widgets/ConfigEditor.h"
#include "widgets/DetailTabs.h"
#include "widgets/DispatchBrowser.h"
#include "widgets/DockLayout.h"
#include "widgets/LayoutTab.h"
#include "widgets/MlirView.h"
#include "widgets/ProblemList.h"
#include "widgets/RunPanel.h"
#include "widgets/SceneView.h"
#include "widgets/SweepPanel.h"
#include "widgets/TryActions.h"
#include "widgets/TunePanel.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLayout>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

QDockWidget *dock(const QString &title, const QString &name, QWidget *content,
                  QMainWindow *window, Qt::DockWidgetArea area) {
  auto *widget = new QDockWidget(title, window);
  widget->setObjectName(name);
  widget->setWidget(content);
  window->addDockWidget(area, widget);
  return widget;
}

} // namespace

void MainWindow::buildDocks() {
  browser = new DispatchBrowser;
  browser->setObjectName("dispatchBrowser");

  sourceView = new MlirView;
  sourceView->setObjectName("sourceView");
  connect(sourceView, &MlirView::lineClicked, this,
          &MainWindow::selectOpAtLine);

  configEditor = new ConfigEditor;
  configEditor->setObjectName("configEditor");

  problemList = new ProblemList;

  runPanel = new RunPanel(services.installation, services.workspace);
  runPanel->setObjectName("runPanel");
  sweepPanel = new SweepPanel(services.installation, services.workspace);
  runPanel->setWorkerSource(services.documentWorker);
  sweepPanel->setWorkerSource(services.documentWorker);
  // A whole program tuned (a program of its own, not the open file).
  tunePanel = new TunePanel(services.installation, services.documentWorker,
                            services.workspace);
  buildActions();

  // Each dock keeps a size it is usable at: a squeezed window cannot make
  // a column two characters wide (the config editor keeps its own).
  browser->setMinimumSize(220, 120);
  sourceView->setMinimumSize(220, 120);
  problemList->setMinimumSize(240, 80);
  runPanel->setMinimumHeight(160);
  sweepPanel->setMinimumHeight(160);
  tunePanel->setMinimumHeight(160);
  dock("Dispatches", "dispatchDock", browser, this, Qt::LeftDockWidgetArea);
  dock("MLIR", "sourceDock", sourceView, this, Qt::LeftDockWidgetArea);
  dock("Config editor", "configEditorDock", configEditor, this,
       Qt::RightDockWidgetArea);
  dock("Problems", "problemsDock", problemList, this, Qt::RightDockWidgetArea);
  dock("Run", "runDock", runPanel, this, Qt::BottomDockWidgetArea);
  dock("Sweep", "sweepDock", sweepPanel, this, Qt::BottomDockWidgetArea);
  dock("Tune program", "tuneDock", tunePanel, this, Qt::BottomDockWidgetArea);
  arrangeDocks();

  connect(browser, &DispatchBrowser::selected, this, &MainWindow::onOpSelected);
  connect(problemList, &ProblemList::fieldActivated, this,
          [this](const QString &field) { configEditor->focusField(field); });
  connect(problemList, &ProblemList::lineActivated, this,
          &MainWindow::goToLine);
  connect(configEditor, &ConfigEditor::drafting, this, &MainWindow::onDrafting);
  // Queued: a commit that adds or removes a field rebuilds the editor's
  // boxes, which must not happen inside the signal of the box committed.
  connect(
      configEditor, &ConfigEditor::commit, this,
      [this](const QString &field, const QString &value) {
        onCommit(field, value);
      },
      Qt::QueuedConnection);
  connect(
      configEditor, &ConfigEditor::removeField, this,
      [this](const QString &field) { onCommit(field, std::nullopt); },
      Qt::QueuedConnection);
  connect(runPanel, &RunPanel::tryActivated, tryActions,
          &TryActions::loadTryAndSay);
  connect(sweepPanel, &SweepPanel::tryActivated, tryActions,
          &TryActions::loadTryAndSay);
  connect(runPanel, &RunPanel::compareRequested, this,
          [this](long long a, long long b) {
            if (auto opened = tryActions->compareTries(a, b); !opened)
              statusLabel->setText(QString("Tries %1 and %2 not compared: %3")
                                       .arg(a)
                                       .arg(b)
                                       .arg(qs(opened.error())));
          });
  connect(runPanel, &RunPanel::fieldActivated, this,
          [this](edit::OpRef op, const QString &field, int line) {
            selectOp(op);
            if (field.isEmpty() || !configEditor->focusField(field))
              goToLine(line);
          });
}

void MainWindow::buildActions() {
  auto say = [this](const QString &message) { statusLabel->setText(message); };
  TryActions::Context tries;
  tries.edits = edits;
  tries.dialogParent = this;
  tries.workspace = [this] { return runPanel->workspace(); };
  tries.selectedOp = [this] { return selectedOp(); };
  tries.colorBy = [this] { return tabs->layout()->colorBy(); };
  tries.documentWorker = services.documentWorker;
  tryActions = new TryActions(std::move(tries), this);
  connect(tryActions, &TryActions::said, this, say);
  BundleActions::Context bundles;
  bundles.edits = edits;
  bundles.runPanel = runPanel;
  bundles.sweepPanel = sweepPanel;
  bundles.dialogParent = this;
  bundles.installation = services.installation;
  bundleActions = new BundleActions(std::move(bundles), this);
  connect(bundleActions, &BundleActions::said, this, say);
}

void MainWindow::showEvent(QShowEvent *event) {
  QMainWindow::showEvent(event);
  if (!arrangeWhenShown)
    return;
  arrangeWhenShown = false;
  // After the layout has taken the shown size. The docks as first arranged
  // (for 1440 wide) left the window a minimum width past a smaller screen's
  // (1346 at 1280x800), which Qt does not lower again: the docks arranged
  // for the shown width, the minimum what the docks need, the shown size.
  QTimer::singleShot(0, this, [this, shown = size()] {
    arrangingWidth = std::max(shown.width(), minimumSizeHint().width());
    arrangeDocks();
    arrangingWidth = 0;
    setMinimumSize(layout()->minimumSize());
    resize(shown.expandedTo(minimumSizeHint()));
  });
}

void MainWindow::arrangeDocks() {
  arrangeWindowDocks(*this, arrangingWidth > 0 ? arrangingWidth : width());
}

} // namespace tilescope::widgets
