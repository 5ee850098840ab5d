#include "widgets/editor/IreeConstraintChecker.h"

#include <QTimer>

namespace tilescope::widgets {

IreeConstraintChecker::IreeConstraintChecker(Source source, QObject *parent)
    : QObject(parent), source(std::move(source)), timer(new QTimer(this)),
      answer([this](Result<service::ConstraintVerdict> verdict) {
        onAnswer(std::move(verdict));
      }) {
  timer->setSingleShot(true);
  timer->setInterval(400);
  connect(timer, &QTimer::timeout, this, &IreeConstraintChecker::ask);
}

void IreeConstraintChecker::request(
    std::shared_ptr<const document::Document> document,
    std::optional<edit::OpRef> op) {
  if (!source || (document == wanted && op == wantedOp))
    return; // asked already, or answered: nothing changed
  wanted = std::move(document);
  wantedOp = op;
  answer.drop(); // what runs is for an older state
  if (wanted && wantedOp) {
    timer->start();
    emit pending();
  } else {
    timer->stop();
  }
}

bool IreeConstraintChecker::waiting() const {
  return timer->isActive() || answer.busy();
}

void IreeConstraintChecker::ask() {
  if (!wanted || !wantedOp)
    return;
  answer.ask([source = source, document = wanted,
              op = *wantedOp](const std::atomic<bool> *cancel) {
    return source(*document, op, cancel);
  });
}

void IreeConstraintChecker::onAnswer(
    Result<service::ConstraintVerdict> verdict) {
  if (!verdict) {
    emit answered(
        {}, "IREE's pipeline constraints not checked: " +
                QString::fromStdString(verdict.error()).section('\n', 0, 0));
    return;
  }
  if (verdict->ops.empty()) {
    emit answered({}, {});
    return;
  }
  const service::OpConstraintVerdict &op = verdict->ops.front();
  emit answered(service::problemsOf(op),
                QString::fromStdString(service::describe(op)));
}

} // namespace tilescope::widgets
