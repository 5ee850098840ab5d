#include "widgets/ProblemList.h"

#include <QStyle>

namespace tilescope::widgets {
namespace {

constexpr int kLineRole = Qt::UserRole;
constexpr int kFieldRole = Qt::UserRole + 1;

QString qs(const std::string &text) { return QString::fromStdString(text); }

bool isError(const config::Problem &p) {
  return p.severity == config::Problem::Severity::Error;
}

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

ProblemList::ProblemList(QWidget *parent) : QListWidget(parent) {
  setObjectName("problemList");
  // A problem names its field and says why: show it whole.
  setWordWrap(true);
  setResizeMode(QListView::Adjust);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  connect(this, &QListWidget::itemActivated, this,
          [this](QListWidgetItem *item) {
            const QString field = item->data(kFieldRole).toString();
            if (!field.isEmpty())
              emit fieldActivated(field);
            else
              emit lineActivated(item->data(kLineRole).toInt());
          });
}

void ProblemList::add(QStyle::StandardPixmap icon, const QString &text,
                      const QString &field, int line) {
  auto *item = new QListWidgetItem(style()->standardIcon(icon), text, this);
  item->setData(kFieldRole, field);
  item->setData(kLineRole, line);
}

void ProblemList::show(const Contents &c) {
  clear();
  if (!c.draftError.isEmpty())
    add(QStyle::SP_MessageBoxCritical,
        c.draftField + ": not applied: " + c.draftError, c.draftField, 0);
  for (const config::Problem &p : c.rules) {
    const QString field = qs(p.field);
    QString text = field + ": " + qs(p.message);
    if (isError(p))
      text +=
          "  [" + qs(config::toString(p.iree)) + "; rule " + qs(p.rule) + "]";
    add(iconOf(p), text, field, 0);
  }
  for (const QString &line : c.iree)
    add(QStyle::SP_MessageBoxCritical, "IREE: " + line, {}, lineOf(line));
  // IREE's pipeline constraints: each violated assert on its field.
  for (const config::Problem &p : c.constraints)
    add(iconOf(p), "IREE constraint: " + qs(p.field) + ": " + qs(p.message),
        qs(p.field), 0);
  if (count() == 0)
    add(QStyle::SP_DialogApplyButton, "No problems found", {}, 0);
  if (!c.constraintSummary.isEmpty() && c.constraints.empty())
    add(QStyle::SP_FileDialogInfoView, c.constraintSummary, {}, 0);
}

void ProblemList::showError(const QString &message) {
  clear();
  for (const QString &line : message.split('\n', Qt::SkipEmptyParts))
    add(QStyle::SP_MessageBoxCritical, line, {}, lineOf(line));
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
