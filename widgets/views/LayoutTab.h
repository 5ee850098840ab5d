// The Layout tab: the selected op's picture in the chosen view, with its
// controls (view, colouring, reduction step, mark, the 2-D slice of an N-D
// picture) kept in step with what is drawn. It draws what it is given; a
// change of a control asks for the picture again (redrawRequested), since
// the window knows which dispatch, drafted or not, is shown.
#pragma once

#include "core/document/Document.h"
#include "widgets/render/OpPicture.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;

namespace tilescope::widgets {

class SceneView;
class SliceSelector;

class LayoutTab : public QWidget {
  Q_OBJECT

public:
  explicit LayoutTab(QWidget *parent = nullptr);

  // Draws root op `rootOp` of `dispatch` (`draft`: as typed, not applied);
  // an op index out of range says the dispatch has no configured op.
  void show(const document::Dispatch &dispatch, int rootOp, bool draft);
  // Another op: its own choice of dimensions.
  void forgetSlice();
  // Another file: a step of the previous file's loop means nothing here.
  void forgetStep();

  void setView(render::OpViewKind kind);
  render::OpViewKind view() const;
  render::ColorBy colorBy() const;
  SceneView *scene() const { return sceneView; }

signals:
  void redrawRequested();

private:
  SceneView *sceneView;
  QComboBox *viewBox;
  QComboBox *colorByBox;
  QSpinBox *stepBox;
  QSpinBox *markBox;
  SliceSelector *sliceSelector;
  QLabel *layoutNote;
};

} // namespace tilescope::widgets
