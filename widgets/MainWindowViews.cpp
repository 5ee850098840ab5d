// The Layout and Split-k tabs as the window shows them: the selected op,
// drafted or not, in the Layout tab (LayoutTab draws it).
#include "widgets/MainWindow.h"

#include "widgets/EditSession.h"
#include "widgets/LayoutTab.h"
#include "widgets/render/OpPicture.h"

#include <QStatusBar>
#include <QTabWidget>

namespace tilescope::widgets {

void MainWindow::showLayout(const document::Dispatch *draft) {
  if (!edits->hasDocument() || selectedDispatch < 0)
    return;
  layoutTab->show(
      draft
          ? *draft
          : edits->document().dispatches[static_cast<size_t>(selectedDispatch)],
      selectedRootOp, draft != nullptr);
}

void MainWindow::setView(render::OpViewKind kind) {
  detailTabs->setCurrentIndex(0);
  layoutTab->setView(kind);
}

void MainWindow::buildSplitKTab() {
  splitKView = new SplitKView;
  if (services.splitK && services.applySplitK)
    splitKView->setRunners(services.splitK, services.applySplitK);
  detailTabs->addTab(splitKView, "Split-k");
  connect(splitKView, &SplitKView::sourceActivated, this,
          &MainWindow::goToLine);
  connect(splitKView, &SplitKView::finished, this,
          [this](bool, const QString &summary) {
            statusBar()->showMessage("Split-k: " + summary, 10000);
          });
}

SplitKView *MainWindow::showSplitK() {
  detailTabs->setCurrentWidget(splitKView);
  return splitKView;
}

render::OpViewKind MainWindow::view() const { return layoutTab->view(); }

} // namespace tilescope::widgets
