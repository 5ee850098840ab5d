// IREE's default beside the edit: what IREE's own strategy selection chooses
// for the selected root op (core/service/IreeDefaults, run by the app in a
// child process), field by field against the op as it stands, and the op
// drawn under IREE's choice. "Use IREE's config" puts that choice on the
// op as one undoable step.
#pragma once

#include "core/document/Document.h"
#include "core/edit/ConfigDiff.h"
#include "widgets/render/GridScene.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace tilescope::widgets {

class SceneView;

class DefaultConfigView : public QWidget {
  Q_OBJECT

public:
  explicit DefaultConfigView(QWidget *parent = nullptr);

  // Nothing asked yet, or asking: a line saying so.
  void showMessage(const QString &text);
  // The op as it stands (`dispatch`, `op`) against IREE's choice for it
  // (`chosen`, `chosenOp`), with the picture under IREE's choice.
  void showDefault(const document::Dispatch &dispatch,
                   const document::RootOp &op, const document::Dispatch &chosen,
                   const document::RootOp &chosenOp, render::GridScene scene,
                   const QString &note);
  // The fields where the edit and IREE differ, as listed.
  QStringList differingFields() const;

signals:
  void askRequested();
  // Put IREE's lowering config (or compilation_info) and translation_info
  // on the op.
  void useRequested();

private:
  QLabel *summary, *caption;
  QPushButton *askButton, *useButton;
  QTreeWidget *fields;
  SceneView *view;
};

} // namespace tilescope::widgets
