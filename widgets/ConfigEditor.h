// The config editor: one row per field of the selected root op's lowering
// config and the translation_info it compiles with, each value editable in
// place, its original beside it, the loops a tile list runs over, and a row
// to add a field the config lacks. It edits nothing itself: typing emits
// drafting() (the window redraws and validates on every keystroke), Enter or
// leaving the field emits commit() (the window makes the undoable edit), and
// a refused value stays in its box, marked, with the reason.
#pragma once

#include "core/iree/Document.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace tilescope::widgets {

class ConfigEditor : public QWidget {
  Q_OBJECT

public:
  explicit ConfigEditor(QWidget *parent = nullptr);

  // Shows `op` of `dispatch` as it stands, with `original` (the op as
  // opened) beside it. Boxes keep what the user is typing in a field that
  // has not changed in the model.
  void showOp(const iree::Dispatch &dispatch, const iree::RootOp &op,
              const iree::Dispatch &originalDispatch,
              const iree::RootOp &originalOp);
  void clear(const QString &why);

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

signals:
  void drafting(const QString &field, const QString &value);
  void commit(const QString &field, const QString &value);
  void removeField(const QString &field);

protected:
  // The theme changed: section rows take the new palette's shade.
  void changeEvent(QEvent *event) override;

private:
  int rowOf(const QString &field) const;
  int rowOfProblem(const QString &field) const;
  QLineEdit *boxOf(int row) const;
  void addRow(const QString &field, const QString &value,
              const QString &original, const QString &loops);
  void commitRow(int row);
  void addSection(const QString &title);

  QLabel *heading;
  QTableWidget *table;
  QComboBox *newField;
  QLineEdit *newValue;
  std::vector<std::string> intrinsics;
};

} // namespace tilescope::widgets
