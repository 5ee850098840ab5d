// The Layout tab: the selected op's picture in the chosen view, its
// controls (view, colouring, reduction step, mark, the 2-D slice of an N-D
// picture) kept in step with what is drawn.
#include "widgets/MainWindow.h"

#include "widgets/EditSession.h"
#include "widgets/SceneView.h"
#include "widgets/SliceSelector.h"
#include "widgets/render/OpPicture.h"
#include "widgets/render/Scenes.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>

#include <algorithm>

namespace tilescope::widgets {

void MainWindow::showLayout(const document::Dispatch *draft) {
  if (!edits->hasDocument() || selectedDispatch < 0)
    return;
  const document::Dispatch &dispatch =
      draft
          ? *draft
          : edits->document().dispatches[static_cast<size_t>(selectedDispatch)];
  const int r = selectedRootOp;
  if (r < 0 || r >= static_cast<int>(dispatch.rootOps.size())) {
    sceneView->setScene({});
    layoutNote->setText("No configured op in this dispatch.");
    return;
  }
  render::OpViewRequest request;
  request.kind =
      static_cast<render::OpViewKind>(viewBox->currentData().toInt());
  request.colorBy =
      static_cast<render::ColorBy>(colorByBox->currentData().toInt());
  request.step = stepBox->value();
  request.dims = sliceSelector->dims();
  request.slice = sliceSelector->held();
  render::OpPicture picture =
      render::opPicture(dispatch, static_cast<size_t>(r), request);
  // The step box offers the op's reduction loop, no more; the colouring
  // applies where the view is coloured by owner.
  {
    const QSignalBlocker quiet(stepBox);
    stepBox->setRange(0, static_cast<int>(std::min<int64_t>(
                             picture.reductionSteps - 1, 1 << 30)));
  }
  stepBox->setEnabled(request.kind == render::OpViewKind::Layouts &&
                      picture.reductionSteps > 1);
  colorByBox->setEnabled(request.kind == render::OpViewKind::Layouts ||
                         request.kind == render::OpViewKind::Mma);
  markBox->setPrefix(
      QString("%1 ").arg(request.kind == render::OpViewKind::Grid
                             ? "workgroup"
                             : render::colorByName(picture.scene.colorBy)));
  {
    const QSignalBlocker quiet(markBox);
    markBox->setRange(-1, static_cast<int>(std::max<int64_t>(
                              picture.scene.colorCount - 1, 0)));
  }
  // More than two dimensions: which two are drawn, and where the rest are.
  if (request.kind == render::OpViewKind::Layouts)
    sliceSelector->showSlice(picture.scene);
  else
    sliceSelector->hide();
  sceneView->setScene(std::move(picture.scene));
  {
    const QSignalBlocker quiet(markBox);
    markBox->setValue(static_cast<int>(sceneView->selectedKey()));
  }
  layoutNote->setText((draft ? "Draft (not applied): " : "") + picture.note);
  layoutNote->setToolTip(layoutNote->text());
}

void MainWindow::setView(render::OpViewKind kind) {
  detailTabs->setCurrentIndex(0);
  viewBox->setCurrentIndex(viewBox->findData(static_cast<int>(kind)));
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

render::OpViewKind MainWindow::view() const {
  return static_cast<render::OpViewKind>(viewBox->currentData().toInt());
}

} // namespace tilescope::widgets
