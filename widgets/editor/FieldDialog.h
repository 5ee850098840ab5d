// A field's editor dialog (the basis editor, the tile editor): a note on
// what the field means, the controls of the subclass, a result line in
// a fixed font, OK and Cancel. Each change is the field's whole text at
// once (valueChanged); the config editor types it into the row's box, so
// the window redraws and validates as the person clicks, commits on OK
// and puts the box back on Cancel.
#pragma once

#include <QDialog>

class QLabel;
class QLayout;

namespace tilescope::widgets {

class FieldDialog : public QDialog {
  Q_OBJECT

public:
  FieldDialog(const QString &field, const QString &objectName,
              QWidget *parent = nullptr);

  // The field's text as the controls now say.
  virtual QString text() const = 0;

signals:
  void valueChanged(const QString &text);

protected:
  // Lays the dialog out: the note, `body`, the result line, the buttons.
  void finish(QLayout *body);

  QString field;
  QLabel *note, *result;
};

} // namespace tilescope::widgets
