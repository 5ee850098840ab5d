// The basis editor of a lane_basis or subgroup_basis row: the counts a
// thread (or subgroup) id is split into, outermost digit first, and for
// each loop the digit it takes, as `[[counts], [mapping]]` means to IREE
// (LLVMGPUConfigureTensorLayouts: loop i takes digit mapping[i]). Each
// change is the attribute text at once (valueChanged), so the window
// redraws and validates as the person clicks; OK applies it, Cancel puts
// the text back.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"

#include "widgets/editor/FieldDialog.h"

#include <optional>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QSpinBox;

namespace tilescope::widgets {

class BasisEditor : public FieldDialog {
  Q_OBJECT

public:
  // `text` as the box holds it; `space` names the loops (unset: d0, d1, ...
  // as many as the mapping has); `threads`, where known, is how many ids
  // the basis should name (the subgroup size, or the subgroup count).
  BasisEditor(const QString &field, const QString &text,
              const std::optional<config::IterationSpace> &space,
              std::optional<int64_t> threads, QWidget *parent = nullptr);

  // `[[4, 16], [0, 1]]`, as IREE prints it.
  QString text() const override;
  const config::Basis &basis() const { return current; }
  // Controls, for tests and scripts (as a click would).
  void setCount(size_t digit, int64_t count);
  void setDigitOf(size_t loop, int64_t digit);
  void addDigit();
  void removeDigit();

private:
  void rebuild(); // the controls, for the digits there are
  void refresh(); // their labels and the result line
  void changed(bool digitsChanged);

  std::optional<config::IterationSpace> space;
  std::optional<int64_t> threads;
  config::Basis current;
  bool building = false;
  QGridLayout *countsGrid, *loopsGrid;
  std::vector<QSpinBox *> countBoxes;
  std::vector<QComboBox *> digitBoxes;
};

} // namespace tilescope::widgets
