#include "widgets/editor/FieldDialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QVBoxLayout>

namespace tilescope::widgets {

FieldDialog::FieldDialog(const QString &fieldName, const QString &objectName,
                         QWidget *parent)
    : QDialog(parent), field(fieldName), note(new QLabel), result(new QLabel) {
  setObjectName(objectName);
  setWindowTitle("Edit " + field);
  note->setWordWrap(true);
  result->setObjectName(objectName + "Result");
  result->setWordWrap(true);
  result->setTextInteractionFlags(Qt::TextSelectableByMouse);
  result->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
}

void FieldDialog::finish(QLayout *body) {
  auto *buttons =
      new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto *column = new QVBoxLayout(this);
  column->addWidget(note);
  column->addLayout(body);
  column->addWidget(result);
  column->addStretch(1);
  column->addWidget(buttons);
}

} // namespace tilescope::widgets
