#include "widgets/editor/EditVerdicts.h"

#include "core/edit/RootOpContext.h"
#include "widgets/editor/EditSession.h"

#include <QTimer>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

EditVerdicts::EditVerdicts(const EditSession *session, ParseText parse,
                           IreeConstraintChecker::Source constraintSource,
                           QObject *parent)
    : QObject(parent), edits(session), parseText(std::move(parse)),
      timer(new QTimer(this)), constraints(new IreeConstraintChecker(
                                   std::move(constraintSource), this)) {
  connect(constraints, &IreeConstraintChecker::answered, this,
          [this](const std::vector<config::Problem> &problems,
                 const QString &summary) {
            now.constraints = problems;
            now.constraintSummary = summary;
            emit changed();
          });
  connect(constraints, &IreeConstraintChecker::pending, this, [this] {
    now.constraints.clear();
    now.constraintSummary = "Asking IREE about its pipeline constraints…";
    emit changed();
  });
  timer->setSingleShot(true);
  timer->setInterval(400);
  connect(timer, &QTimer::timeout, this, &EditVerdicts::askIree);
  reading = std::make_unique<LatestAnswer<Result<document::Document>>>(
      [this](Result<document::Document> reparsed) {
        if (!edits->hasDocument())
          return;
        now.iree.clear();
        QString message;
        if (!reparsed) {
          message = qs(reparsed.error());
          for (const QString &line : message.split('\n', Qt::SkipEmptyParts))
            now.iree << line;
        } else if (auto agrees = edits->model().agreesWith(*reparsed);
                   !agrees) {
          message =
              "IREE reads the edited file differently: " + qs(agrees.error());
          now.iree << message;
        } else {
          message = "IREE reads the edited file as Tilescope does";
        }
        emit changed();
        emit ireeRead(now.iree.isEmpty(), message);
      });
}

// The question still out is cancelled and waited for, its answer dropped,
// before the views it would fill go.
EditVerdicts::~EditVerdicts() { reading.reset(); }

QStringList EditVerdicts::pending() const {
  QStringList waiting;
  if (constraints->waiting())
    waiting << "IREE's pipeline constraints";
  if (timer->isActive() || reading->busy())
    waiting << "IREE's reading of the edits";
  return waiting;
}

void EditVerdicts::opened(const std::string &textReadByIree) {
  reading->drop(); // a question about the previous file
  timer->stop();
  readText = textReadByIree;
  now = {};
}

void EditVerdicts::documentChanged() {
  now.draftField.clear();
  now.draftError.clear();
  if (parseText && edits->hasDocument() && edits->document().text != readText) {
    reading->drop(); // IREE's reading of an older text
    timer->start();
  }
}

void EditVerdicts::setDraft(const QString &field, const QString &error) {
  // Each keystroke says its field again: only a change is announced (the
  // Problems panel is not redrawn twice for one key).
  if (field == now.draftField && error == now.draftError)
    return;
  now.draftField = field;
  now.draftError = error;
  emit changed();
}

void EditVerdicts::judge(const document::Dispatch &dispatch,
                         const document::RootOp *op, size_t rootOp) {
  now.rules.clear();
  if (op) {
    document::Document single;
    single.dispatches.push_back(dispatch);
    // The rules' verdict, as `check` gives it.
    now.rules =
        edit::ruleVerdict(edit::contextOf(single, {0, rootOp})).problems;
  }
  emit changed();
}

void EditVerdicts::askConstraints(
    std::shared_ptr<const document::Document> document,
    std::optional<edit::OpRef> op) {
  constraints->request(std::move(document), op);
}

void EditVerdicts::askIree() {
  if (!parseText || !edits->hasDocument())
    return;
  readText = edits->model().text();
  emit asking();
  reading->ask([parse = parseText, text = readText,
                name = edits->document().path.string()](
                   const std::atomic<bool> *) { return parse(text, name); });
}

} // namespace tilescope::widgets
