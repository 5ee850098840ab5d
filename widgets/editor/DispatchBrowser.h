// The dispatch browser: the open file's dispatches and their root ops, each
// with its kind, loops, pipeline and target, a filter box, and markers on
// ops that are edited (✎, bold) or whose config breaks a rule (a warning
// icon, the first problem as tooltip). Selecting a row says which op a
// person chose; a dispatch row stands for its root op. A tree view of a
// DispatchModel through its filter.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "widgets/editor/DispatchModel.h"

#include <QWidget>

class QLineEdit;
class QTreeView;

namespace tilescope::widgets {

class EditSession;

class DispatchBrowser : public QWidget {
  Q_OBJECT

public:
  explicit DispatchBrowser(QWidget *parent = nullptr);

  // Rows for the session's document (kept to refresh markers from).
  void rebuild(const EditSession &session);
  void clear();
  void select(edit::OpRef op);
  // Selects the first dispatch's root op; false when there is none.
  bool selectFirst();

  // The op a dispatch stands for: its root op (IREE's root_op marker), else
  // its first configured op; -1 for none.
  static int preferredOp(const document::Dispatch &dispatch);

  DispatchModel *model() const { return rows; }

signals:
  void selected(int dispatch, int op, int line);

private:
  void choose(const QModelIndex &shown);

  DispatchModel *rows;
  DispatchFilter *filter;
  QTreeView *dispatchTree;
  QLineEdit *filterBox;
};

} // namespace tilescope::widgets
