// The 2-D slice of an N-D picture: which two dimensions are drawn (rows
// and columns) and where each of the others is held. Shown only for a
// picture of more than two dimensions; a change asks for a redraw.
#pragma once

#include "widgets/render/GridScene.h"

#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

class QComboBox;
class QHBoxLayout;
class QSpinBox;

namespace tilescope::widgets {

class SliceSelector : public QWidget {
  Q_OBJECT

public:
  explicit SliceSelector(QWidget *parent = nullptr);

  // Shows the scene's slice (hidden when it has two dimensions or fewer).
  // The controls are rebuilt only when the dimensions change.
  void showSlice(const render::GridScene &scene);
  // Back to the picture's own choice (a new op).
  void reset();

  // The dimensions asked for (unset: the picture's default) and where the
  // others are held.
  std::optional<std::pair<size_t, size_t>> dims() const { return asked; }
  std::vector<int64_t> held() const;

  // As a person would choose them (tests, scripts).
  void choose(size_t row, size_t column);
  void hold(size_t dim, int64_t at);

signals:
  void changed();

private:
  void rebuild(const render::GridScene &scene);
  void onDimsChosen();

  std::vector<render::GridScene::SliceDim> shown;
  std::optional<std::pair<size_t, size_t>> asked;
  std::vector<int64_t> at;
  QComboBox *rows, *columns;
  QHBoxLayout *heldRow;
  std::vector<QSpinBox *> spins; // one per dimension; null for drawn ones
  bool quiet = false;
};

} // namespace tilescope::widgets
