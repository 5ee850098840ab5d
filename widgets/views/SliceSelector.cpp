#include "widgets/views/SliceSelector.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace tilescope::widgets {

SliceSelector::SliceSelector(QWidget *parent)
    : QWidget(parent), rows(new QComboBox), columns(new QComboBox),
      heldRow(new QHBoxLayout) {
  setObjectName("sliceSelector");
  rows->setObjectName("sliceRows");
  columns->setObjectName("sliceColumns");
  rows->setToolTip("The dimension drawn down the picture");
  columns->setToolTip("The dimension drawn across the picture");
  auto *layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel("Rows"));
  layout->addWidget(rows);
  layout->addWidget(new QLabel("Columns"));
  layout->addWidget(columns);
  layout->addLayout(heldRow);
  layout->addStretch(1);
  connect(rows, &QComboBox::currentIndexChanged, this,
          &SliceSelector::onDimsChosen);
  connect(columns, &QComboBox::currentIndexChanged, this,
          &SliceSelector::onDimsChosen);
  hide();
}

void SliceSelector::reset() {
  asked.reset();
  at.clear();
}

std::vector<int64_t> SliceSelector::held() const { return at; }

void SliceSelector::showSlice(const render::GridScene &scene) {
  if (scene.sliceDims.size() <= 2) {
    hide();
    return;
  }
  bool same = scene.sliceDims.size() == shown.size();
  for (size_t d = 0; same && d < shown.size(); ++d)
    same = shown[d].name == scene.sliceDims[d].name &&
           shown[d].extent == scene.sliceDims[d].extent;
  if (!same)
    rebuild(scene);
  // The picture's own choice shows in the boxes, and where it held the rest.
  quiet = true;
  rows->setCurrentIndex(static_cast<int>(scene.rowDim));
  columns->setCurrentIndex(static_cast<int>(scene.columnDim));
  at = scene.sliceAt;
  for (size_t d = 0; d < spins.size(); ++d) {
    const bool drawn = d == scene.rowDim || d == scene.columnDim;
    spins[d]->setVisible(!drawn);
    spins[d]->setValue(static_cast<int>(d < at.size() ? at[d] : 0));
  }
  quiet = false;
  show();
}

void SliceSelector::rebuild(const render::GridScene &scene) {
  shown = scene.sliceDims;
  quiet = true;
  rows->clear();
  columns->clear();
  for (const auto &dim : shown) {
    const QString text = QString("%1 (%2)").arg(dim.name).arg(dim.extent);
    rows->addItem(text);
    columns->addItem(text);
  }
  for (QSpinBox *spin : spins)
    delete spin;
  spins.clear();
  for (size_t d = 0; d < shown.size(); ++d) {
    auto *spin = new QSpinBox;
    spin->setObjectName(QString("sliceAt%1").arg(d));
    spin->setPrefix(shown[d].name + " at ");
    spin->setRange(0, static_cast<int>(std::max<int64_t>(
                          0, std::min<int64_t>(shown[d].extent - 1, 1 << 30))));
    spin->setToolTip(QString("Where the picture holds %1, which it does not "
                             "draw (0 to %2)")
                         .arg(shown[d].name)
                         .arg(shown[d].extent - 1));
    connect(spin, &QSpinBox::valueChanged, this, [this, d](int value) {
      if (quiet)
        return;
      at.resize(std::max(at.size(), d + 1), 0);
      at[d] = value;
      emit changed();
    });
    heldRow->addWidget(spin);
    spins.push_back(spin);
  }
  quiet = false;
}

void SliceSelector::onDimsChosen() {
  if (quiet || rows->currentIndex() < 0 || columns->currentIndex() < 0)
    return;
  asked = std::make_pair(static_cast<size_t>(rows->currentIndex()),
                         static_cast<size_t>(columns->currentIndex()));
  emit changed();
}

void SliceSelector::choose(size_t row, size_t column) {
  asked = std::make_pair(row, column);
  emit changed();
}

void SliceSelector::hold(size_t dim, int64_t value) {
  at.resize(std::max(at.size(), dim + 1), 0);
  at[dim] = value;
  emit changed();
}

} // namespace tilescope::widgets
