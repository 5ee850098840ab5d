// The config editor: one row per field of the selected root op's lowering
// config and the translation_info it compiles with, each value editable in
// place, its original beside it, the loops a tile list runs over, and a row
// to add a field the config lacks. It edits nothing itself: typing emits
// drafting() (the window redraws and validates on every keystroke), Enter or
// leaving the field emits commit() (the window makes the undoable edit), and
// a refused value stays in its box, marked, with the reason. A basis row
// and a tile list have a "…" that opens their editor.
#pragma once

#include "core/config/IterationSpace.h"
#include "core/config/LoweringConfig.h"
#include "core/document/Document.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace tilescope::widgets {

class BasisEditor;
class FieldDialog;
class TileEditor;

class ConfigEditor : public QWidget {
  Q_OBJECT

public:
  explicit ConfigEditor(QWidget *parent = nullptr);

  // Shows `op` of `dispatch` as it stands, with `original` (the op as
  // opened) beside it. Boxes keep what the user is typing in a field that
  // has not changed in the model.
  void showOp(const document::Dispatch &dispatch, const document::RootOp &op,
              const document::Dispatch &originalDispatch,
              const document::RootOp &originalOp);
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
  void addRow(const QString &field, const QString &value,
              const QString &original, const QString &loops);
  void commitRow(int row);
  void addSection(const QString &title);
  // Tab order: the Value boxes (and their "…") row by row, then the Add row.
  void chainFocus();
  // A dialog's changes typed into `field`'s box; OK commits, Cancel puts
  // `before` back.
  void typeFromDialog(FieldDialog *dialog, const QString &field,
                      const QString &before);
  void typeInto(const QString &field, const QString &text);
  QString tileTip(const QString &field, const QString &value,
                  const QString &loops) const;

  QLabel *heading;
  QTableWidget *table;
  QComboBox *newField;
  QLineEdit *newValue;
  QPushButton *addButton;
  std::vector<std::string> intrinsics;
  // The selected op's loops, and how many lanes a subgroup and subgroups a
  // workgroup has (its translation_info), for the basis editor.
  std::optional<config::IterationSpace> space;
  std::optional<int64_t> subgroupSize, subgroups;
  // Its config as it stands and its pipeline, for what tiles mean.
  std::optional<config::LoweringConfig> loweringConfig;
  QString pipeline;
};

} // namespace tilescope::widgets
