// The config editor: a view of ConfigFieldModel (a row per field of the
// selected root op's lowering config and the translation_info it compiles
// with, its original beside it), each value in a box of its own, and a row
// to add a field the config lacks. The rows follow the session's changes
// through the model: a commit updates its row's box, and only a field added
// or removed rebuilds them. It edits nothing itself: typing emits
// drafting() (the window redraws and validates on every keystroke), Enter or
// leaving the field emits commit() (the window makes the undoable edit), and
// a refused value stays in its box, marked, with the reason. A basis row
// and a tile list have a "…" that opens their editor.
#pragma once

#include "core/edit/EditableDocument.h"

#include <QString>
#include <QWidget>

#include <map>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace tilescope::widgets {

class BasisEditor;
class ConfigFieldModel;
class EditSession;
class FieldDialog;
class TileEditor;

class ConfigEditor : public QWidget {
  Q_OBJECT

public:
  explicit ConfigEditor(QWidget *parent = nullptr);

  // Shows `op` of the session's document as it stands, with the op as
  // opened beside it, until another is shown; the rows follow the
  // session's edits, undos and redos. Boxes keep what the user is typing in
  // a field that has not changed in the model.
  void show(const EditSession *session, edit::OpRef op);
  void clear(const QString &why);
  const ConfigFieldModel *fieldModel() const { return model; }

  // Marks a field's row as refused or in trouble (empty message: clears).
  void setFieldMessage(const QString &field, const QString &message,
                       bool error);
  void clearFieldMessages();
  // Puts the cursor in a field's box (the Problems list's click).
  bool focusField(const QString &field);
  // The text in a field's box, as typed.
  QString typedValue(const QString &field) const;
  // Types into a field's box as a person would (tests, scripts).
  void typeValue(const QString &field, const QString &text);
  QStringList fields() const;
  // Opens the basis editor of a lane_basis or subgroup_basis row (its "…"
  // button); each change is typed into the row's box, OK commits it,
  // Cancel puts the box back. Null when the op has no such row.
  BasisEditor *editBasis(const QString &field);
  // Opens the tile editor of a tile-list row (its "…" button): a box per
  // loop with what its number means under the pipeline; the same typing,
  // OK and Cancel as the basis editor. Null when the op has no such row or
  // its loops are unknown.
  TileEditor *editTiles(const QString &field);

signals:
  void drafting(const QString &field, const QString &value);
  void commit(const QString &field, const QString &value);
  void removeField(const QString &field);

protected:
  // The theme changed: section rows take the new palette's shade.
  void changeEvent(QEvent *event) override;
  // Up and Down in a Value box move to the row above or below.
  bool eventFilter(QObject *watched, QEvent *event) override;
  // The columns refit to the panel's width (fitColumns).
  void resizeEvent(QResizeEvent *event) override;

private:
  // Names and originals take what they need up to a share of the width,
  // the values the rest: a value is read, not cut to a few characters
  // (a long name is elided and its tooltip says it whole).
  void fitColumns();
  int rowOf(const QString &field) const;
  int rowOfProblem(const QString &field) const;
  QLineEdit *boxOf(int row) const;
  int rowOfBox(const QLineEdit *box) const;
  // The model's rows anew (a field added or removed, another op): a box per
  // field, what was being typed kept by field name.
  void rebuildBoxes();
  void addBox(int row);
  // A row the model changed: its box takes the new value unless a value
  // not yet committed is being typed in it.
  void updateBox(int row);
  // The heading and the Add row's choices, from the model's context.
  void showContext();
  void commitRow(int row);
  // Tab order: the Value boxes (and their "…") row by row, then the Add row.
  void chainFocus();
  // A dialog's changes typed into `field`'s box; OK commits, Cancel puts
  // `before` back.
  void typeFromDialog(FieldDialog *dialog, const QString &field,
                      const QString &before);
  void typeInto(const QString &field, const QString &text);

  QLabel *heading;
  ConfigFieldModel *model;
  QTableView *table;
  QComboBox *newField;
  QLineEdit *newValue;
  QPushButton *addButton;
  // What was typed and not committed, by field, across a rebuild.
  std::map<QString, QString> typing;
  bool showingAnother = false;
};

} // namespace tilescope::widgets
