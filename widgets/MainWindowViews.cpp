// The Layout and Split-k tabs as the window shows them: the selected op,
// drafted or not, in the Layout tab (LayoutTab draws it).
#include "widgets/MainWindow.h"

#include "widgets/DetailTabs.h"
#include "widgets/EditSession.h"
#include "widgets/LayoutTab.h"
#include "widgets/render/OpPicture.h"

#include <QStatusBar>
#include <QTabWidget>

namespace tilescope::widgets {

void MainWindow::showLayout(const document::Dispatch *draft) {
  if (!edits->hasDocument() || selectedDispatch < 0)
    return;
  tabs->layout()->show(
      draft
          ? *draft
          : edits->document().dispatches[static_cast<size_t>(selectedDispatch)],
      selectedRootOp, draft != nullptr);
}

void MainWindow::setView(render::OpViewKind kind) {
  tabs->setCurrentWidget(tabs->layout());
  tabs->layout()->setView(kind);
}

SplitKView *MainWindow::showSplitK() {
  tabs->setCurrentWidget(tabs->splitK());
  return tabs->splitK();
}

render::OpViewKind MainWindow::view() const { return tabs->layout()->view(); }

} // namespace tilescope::widgets
