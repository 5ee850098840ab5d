#include "widgets/views/LayoutTab.h"

#include "widgets/render/Scenes.h"
#include "widgets/views/SceneView.h"
#include "widgets/views/SliceSelector.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace tilescope::widgets {

LayoutTab::LayoutTab(QWidget *parent) : QWidget(parent) {
  sceneView = new SceneView;
  sceneView->setObjectName("sceneView");
  colorByBox = new QComboBox;
  colorByBox->setObjectName("colorByBox");
  colorByBox->addItem("lane", static_cast<int>(render::ColorBy::Lane));
  colorByBox->addItem("subgroup", static_cast<int>(render::ColorBy::Subgroup));
  colorByBox->addItem("register", static_cast<int>(render::ColorBy::Register));
  viewBox = new QComboBox;
  viewBox->setObjectName("viewBox");
  for (render::OpViewKind kind : render::allOpViews())
    viewBox->addItem(render::opViewTitle(kind), static_cast<int>(kind));
  viewBox->setToolTip("What to draw of the selected op (tilescope --view)");
  stepBox = new QSpinBox;
  stepBox->setObjectName("stepBox");
  stepBox->setRange(0, 0);
  stepBox->setToolTip("Partial-reduction iteration to draw (the op's "
                      "reduction loop bounds it)");
  markBox = new QSpinBox;
  markBox->setObjectName("markBox");
  markBox->setRange(-1, 0);
  markBox->setSpecialValueText("none");
  markBox->setToolTip("Mark one lane, subgroup, register or bank in the "
                      "picture (or click a cell; Escape clears)");
  layoutNote = new QLabel;
  layoutNote->setObjectName("layoutNote");
  layoutNote->setWordWrap(true);
  layoutNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // A tab page does not pass a wrapped label's height for its width on:
  // room for two lines, and the whole note in the tool tip.
  layoutNote->setMinimumHeight(2 * layoutNote->fontMetrics().lineSpacing() + 4);
  layoutNote->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  auto *controls = new QHBoxLayout;
  controls->addWidget(new QLabel("View"));
  controls->addWidget(viewBox);
  controls->addWidget(new QLabel("Colour by"));
  controls->addWidget(colorByBox);
  controls->addWidget(new QLabel("Reduction step"));
  controls->addWidget(stepBox);
  controls->addWidget(new QLabel("Mark"));
  controls->addWidget(markBox);
  controls->addStretch(1);
  // Its own row: a 4-D op's selector holds four boxes.
  sliceSelector = new SliceSelector;
  auto *column = new QVBoxLayout(this);
  column->setContentsMargins(4, 4, 4, 4);
  column->addLayout(controls);
  column->addWidget(sliceSelector);
  column->addWidget(layoutNote);
  column->addWidget(sceneView, 1);

  connect(sliceSelector, &SliceSelector::changed, this,
          &LayoutTab::redrawRequested);
  connect(colorByBox, &QComboBox::currentIndexChanged, this,
          &LayoutTab::redrawRequested);
  connect(stepBox, &QSpinBox::valueChanged, this, &LayoutTab::redrawRequested);
  connect(viewBox, &QComboBox::currentIndexChanged, this,
          &LayoutTab::redrawRequested);
  // The mark box and a click in the picture mark the same key.
  connect(markBox, &QSpinBox::valueChanged, this, [this](int key) {
    if (sceneView->selectedKey() != key)
      sceneView->selectKey(key);
  });
  connect(sceneView, &SceneView::keySelected, this, [this](qint64 key) {
    const QSignalBlocker quiet(markBox);
    markBox->setValue(static_cast<int>(key));
  });
}

void LayoutTab::show(const document::Dispatch &dispatch, int rootOp,
                     bool draft) {
  if (rootOp < 0 || rootOp >= static_cast<int>(dispatch.rootOps.size())) {
    sceneView->setScene({});
    layoutNote->setText("No configured op in this dispatch.");
    return;
  }
  render::OpViewRequest request;
  request.kind = view();
  request.colorBy = colorBy();
  request.step = stepBox->value();
  request.dims = sliceSelector->dims();
  request.slice = sliceSelector->held();
  render::OpPicture picture =
      render::opPicture(dispatch, static_cast<size_t>(rootOp), request);
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

void LayoutTab::forgetSlice() { sliceSelector->reset(); }

void LayoutTab::forgetStep() { stepBox->setValue(0); }

void LayoutTab::setView(render::OpViewKind kind) {
  viewBox->setCurrentIndex(viewBox->findData(static_cast<int>(kind)));
}

render::OpViewKind LayoutTab::view() const {
  return static_cast<render::OpViewKind>(viewBox->currentData().toInt());
}

render::ColorBy LayoutTab::colorBy() const {
  return static_cast<render::ColorBy>(colorByBox->currentData().toInt());
}

} // namespace tilescope::widgets
