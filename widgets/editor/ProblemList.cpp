#include "widgets/editor/ProblemList.h"

#include <QStyle>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

bool isError(const config::Problem &p) { return p.isError(); }

// The icon of a problem's severity, as `check` words it: an error, a
// warning, a note.
QStyle::StandardPixmap iconOf(const config::Problem &p) {
  switch (p.severity) {
  case config::Problem::Severity::Error:
    return QStyle::SP_MessageBoxCritical;
  case config::Problem::Severity::Warning:
    return QStyle::SP_MessageBoxWarning;
  case config::Problem::Severity::Note:
    break;
  }
  return QStyle::SP_MessageBoxInformation;
}

// "file:line:column: error: ..." → its line.
int lineOf(const QString &text) {
  const QStringList parts = text.split(':');
  return parts.size() > 2 ? parts[1].toInt() : 0;
}

} // namespace

ProblemList::ProblemList(QWidget *parent)
    : QListView(parent), rows(new ProblemModel(this)) {
  setObjectName("problemList");
  setModel(rows);
  // A problem names its field and says why: show it whole.
  setWordWrap(true);
  setResizeMode(QListView::Adjust);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  connect(this, &QListView::activated, this, [this](const QModelIndex &index) {
    const QString field = index.data(ProblemModel::kFieldRole).toString();
    if (!field.isEmpty())
      emit fieldActivated(field);
    else
      emit lineActivated(index.data(ProblemModel::kLineRole).toInt());
  });
}

void ProblemList::show(const Contents &c) {
  std::vector<ProblemModel::Row> shown;
  if (!c.draftError.isEmpty())
    shown.push_back({QStyle::SP_MessageBoxCritical,
                     c.draftField + ": not applied: " + c.draftError,
                     c.draftField, 0});
  for (const config::Problem &p : c.rules) {
    const QString field = qs(p.field);
    QString text = field + ": " + qs(p.message);
    if (isError(p))
      text +=
          "  [" + qs(config::toString(p.iree)) + "; rule " + qs(p.rule) + "]";
    shown.push_back({iconOf(p), text, field, 0});
  }
  for (const QString &line : c.iree)
    shown.push_back(
        {QStyle::SP_MessageBoxCritical, "IREE: " + line, {}, lineOf(line)});
  // IREE's pipeline constraints: each violated assert on its field.
  for (const config::Problem &p : c.constraints)
    shown.push_back({iconOf(p),
                     "IREE constraint: " + qs(p.field) + ": " + qs(p.message),
                     qs(p.field), 0});
  if (shown.empty())
    shown.push_back({QStyle::SP_DialogApplyButton, "No problems found", {}, 0});
  if (!c.constraintSummary.isEmpty() && c.constraints.empty())
    shown.push_back(
        {QStyle::SP_FileDialogInfoView, c.constraintSummary, {}, 0});
  rows->setRows(std::move(shown));
}

void ProblemList::showError(const QString &message) {
  std::vector<ProblemModel::Row> shown;
  for (const QString &line : message.split('\n', Qt::SkipEmptyParts))
    shown.push_back({QStyle::SP_MessageBoxCritical, line, {}, lineOf(line)});
  rows->setRows(std::move(shown));
}

std::vector<ProblemList::FieldMessage>
ProblemList::fieldMessages(const Contents &c) {
  std::vector<FieldMessage> messages;
  if (!c.draftError.isEmpty())
    messages.push_back({c.draftField, c.draftError, true});
  for (const config::Problem &p : c.rules)
    messages.push_back({qs(p.field), qs(p.message), isError(p)});
  for (const config::Problem &p : c.constraints)
    if (isError(p))
      messages.push_back({qs(p.field), "IREE: " + qs(p.message), true});
  return messages;
}

} // namespace tilescope::widgets
