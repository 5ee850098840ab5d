#include "widgets/editor/OfferBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace tilescope::widgets {

OfferBar::OfferBar(const QString &acceptText, const QString &dismissText,
                   const QString &acceptName, QWidget *parent)
    : QFrame(parent), label(new QLabel), accept(new QPushButton(acceptText)) {
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  QPalette tint = palette();
  tint.setColor(QPalette::Window, tint.color(QPalette::Highlight).lighter(185));
  tint.setColor(QPalette::WindowText, QColor(Qt::black));
  setPalette(tint);
  label->setWordWrap(true);
  accept->setObjectName(acceptName);
  auto *dismiss = new QPushButton(dismissText);
  connect(accept, &QPushButton::clicked, this, &OfferBar::accepted);
  connect(dismiss, &QPushButton::clicked, this, [this] {
    hide();
    emit dismissed();
  });
  auto *row = new QHBoxLayout(this);
  row->setContentsMargins(8, 4, 8, 4);
  row->addWidget(label, 1);
  row->addWidget(accept);
  row->addWidget(dismiss);
  hide();
}

void OfferBar::offer(const QString &text) {
  label->setText(text);
  show();
}

} // namespace tilescope::widgets
