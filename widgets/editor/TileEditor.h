// The tile editor of a tile-list row (workgroup, reduction,
// partial_reduction, serial, thread, subgroup): one box per loop, labelled
// with the loop and its bound, and beside each what the number means under
// the op's pipeline (elements or intrinsic tiles, and the workgroups,
// steps or tiles it makes; core/layout/TileMeaning). Each change is the
// list's text at once (valueChanged), so the window redraws and validates
// as the person types; OK applies it, Cancel puts the text back.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"

#include "widgets/editor/FieldDialog.h"

#include <vector>

class QLabel;
class QSpinBox;

namespace tilescope::widgets {

class TileEditor : public FieldDialog {
  Q_OBJECT

public:
  // `text` as the box holds it; `config` the rest of the op's config (what
  // thread and subgroup tiles divide, the intrinsic), `pipeline` its
  // translation_info's ("" when unknown).
  TileEditor(const QString &field, const QString &text,
             const config::IterationSpace &space,
             const config::LoweringConfig &config, const QString &pipeline,
             QWidget *parent = nullptr);

  // "[64, 128, 0]".
  QString text() const override;
  const std::vector<int64_t> &values() const { return current; }
  // What each entry means now, a line per loop.
  QStringList meanings() const;
  // As a person would type into loop `dim`'s box.
  void setValue(size_t dim, int64_t value);

private:
  void refresh();

  config::IterationSpace space;
  config::LoweringConfig config;
  QString pipeline;
  std::vector<int64_t> current;
  std::vector<QSpinBox *> boxes;
  std::vector<QLabel *> meaningLabels;
  bool building = false;
};

} // namespace tilescope::widgets
