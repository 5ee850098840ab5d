// A tinted bar above the views that offers one thing (edits a crash left,
// a file's conversion for the IREE in use): a sentence, an accept button
// and a dismiss button.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace tilescope::widgets {

class OfferBar : public QFrame {
  Q_OBJECT

public:
  // `acceptName`: the accept button's object name (tests find it by it).
  OfferBar(const QString &acceptText, const QString &dismissText,
           const QString &acceptName, QWidget *parent = nullptr);

  void offer(const QString &text);
  QPushButton *acceptButton() const { return accept; }

signals:
  void accepted();
  void dismissed();

private:
  QLabel *label;
  QPushButton *accept;
};

} // namespace tilescope::widgets
