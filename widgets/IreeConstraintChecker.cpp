#include "widgets/IreeConstraintChecker.h"

#include <QTimer>
#include <QtConcurrent/QtConcurrent>

namespace tilescope::widgets {

IreeConstraintChecker::IreeConstraintChecker(Source source, QObject *parent)
    : QObject(parent), source(std::move(source)), timer(new QTimer(this)),
      watcher(new QFutureWatcher<Result<jobs::ConstraintVerdict>>(this)) {
  timer->setSingleShot(true);
  timer->setInterval(400);
  connect(timer, &QTimer::timeout, this, &IreeConstraintChecker::ask);
  connect(watcher, &QFutureWatcher<Result<jobs::ConstraintVerdict>>::finished,
          this, &IreeConstraintChecker::onFinished);
}

IreeConstraintChecker::~IreeConstraintChecker() {
  if (cancel)
    *cancel = true;
  watcher->waitForFinished();
}

void IreeConstraintChecker::request(
    std::shared_ptr<const document::Document> document,
    std::optional<edit::OpRef> op) {
  if (!source || (document == wanted && op == wantedOp))
    return; // asked already, or answered: nothing changed
  wanted = std::move(document);
  wantedOp = op;
  if (cancel)
    *cancel = true; // what runs is for an older state
  if (wanted && wantedOp) {
    timer->start();
    emit pending();
  } else {
    timer->stop();
  }
}

bool IreeConstraintChecker::waiting() const {
  return timer->isActive() || watcher->isRunning();
}

void IreeConstraintChecker::ask() {
  if (watcher->isRunning()) {
    timer->start(); // once the cancelled one is done
    return;
  }
  asked = wanted;
  askedOp = wantedOp;
  cancel = std::make_shared<std::atomic<bool>>(false);
  watcher->setFuture(QtConcurrent::run(
      [source = source, document = asked, op = *askedOp, flag = cancel] {
        return source(*document, op, flag.get());
      }));
}

void IreeConstraintChecker::onFinished() {
  Result<jobs::ConstraintVerdict> verdict = watcher->result();
  if ((cancel && *cancel) || asked != wanted || askedOp != wantedOp)
    return; // a newer request is waiting on the timer
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
  const jobs::OpConstraintVerdict &op = verdict->ops.front();
  emit answered(jobs::problemsOf(op),
                QString::fromStdString(jobs::describe(op)));
}

} // namespace tilescope::widgets
