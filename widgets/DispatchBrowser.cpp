#include "widgets/DispatchBrowser.h"

#include "core/edit/RootOpContext.h"
#include "widgets/EditSession.h"
#include "widgets/render/RootOpScene.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace tilescope::widgets {
namespace {

constexpr int kLineRole = Qt::UserRole;
constexpr int kDispatchIndexRole = Qt::UserRole + 1;
constexpr int kRootOpIndexRole = Qt::UserRole + 2;

// Past this many root ops, markers are refreshed for the edited dispatch
// only: validating every op on each keystroke would stall the window.
constexpr size_t kMarkAllOpsUpTo = 400;

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

QString opLabel(const document::RootOp &op) {
  QString label = qs(op.name);
  if (op.rootOpSet)
    label += QString("  (root op, set %1)").arg(*op.rootOpSet);
  return label;
}

// The op a dispatch stands for: its root op (IREE's root_op marker), else
// its first configured op; -1 for none.
int DispatchBrowser::preferredOp(const document::Dispatch &dispatch) {
  int configured = -1;
  for (size_t i = 0; i < dispatch.rootOps.size(); ++i) {
    const document::RootOp &op = dispatch.rootOps[i];
    if (op.rootOpSet)
      return static_cast<int>(i);
    if (configured < 0 &&
        (!op.loweringConfig.empty() || !op.compilationInfo.empty()))
      configured = static_cast<int>(i);
  }
  return configured;
}

DispatchBrowser::DispatchBrowser(QWidget *parent) : QWidget(parent) {
  dispatchTree = new QTreeWidget;
  dispatchTree->setObjectName("dispatchTree");
  dispatchTree->setHeaderLabels(
      {"Dispatch / root op", "Pipeline / kind, loops", "Target"});
  dispatchTree->setUniformRowHeights(true);
  dispatchTree->setAlternatingRowColors(true);
  dispatchTree->setTextElideMode(Qt::ElideMiddle);
  // Every column can be widened by hand (the panel scrolls sideways when
  // they outgrow it); each cell's whole text is its tooltip.
  dispatchTree->header()->setSectionResizeMode(QHeaderView::Interactive);
  dispatchTree->header()->setStretchLastSection(true);
  filterBox = new QLineEdit;
  filterBox->setObjectName("dispatchFilter");
  filterBox->setPlaceholderText("Filter dispatches and ops…");
  filterBox->setClearButtonEnabled(true);
  auto *column = new QVBoxLayout(this);
  column->setContentsMargins(2, 2, 2, 2);
  column->addWidget(filterBox);
  column->addWidget(dispatchTree, 1);

  connect(filterBox, &QLineEdit::textChanged, this,
          &DispatchBrowser::filterTree);
  connect(dispatchTree, &QTreeWidget::currentItemChanged, this,
          [this](QTreeWidgetItem *item) {
            if (!item || !session)
              return;
            const int d = item->data(0, kDispatchIndexRole).toInt();
            int r = item->data(0, kRootOpIndexRole).toInt();
            const document::Document &current = session->document();
            if (d < 0 || d >= static_cast<int>(current.dispatches.size()))
              return;
            // A dispatch row stands for its root op.
            if (r < 0)
              r = preferredOp(current.dispatches[static_cast<size_t>(d)]);
            emit selected(d, r, item->data(0, kLineRole).toInt());
          });
}

void DispatchBrowser::clear() { dispatchTree->clear(); }

bool DispatchBrowser::holds(const document::Document &document) const {
  return dispatchTree->topLevelItemCount() ==
         static_cast<int>(document.dispatches.size());
}

void DispatchBrowser::select(edit::OpRef op) {
  QTreeWidgetItem *dispatch =
      dispatchTree->topLevelItem(static_cast<int>(op.dispatch));
  if (!dispatch)
    return;
  QTreeWidgetItem *child = dispatch->child(static_cast<int>(op.op));
  dispatchTree->setCurrentItem(child ? child : dispatch);
}

bool DispatchBrowser::selectFirst() {
  QTreeWidgetItem *first = dispatchTree->topLevelItem(0);
  if (!first || !session)
    return false;
  const document::Document &current = session->document();
  if (const int r = preferredOp(current.dispatches.front());
      r >= 0 && first->child(r))
    first = first->child(r);
  dispatchTree->setCurrentItem(first);
  return true;
}

void DispatchBrowser::rebuild(const EditSession &edits) {
  session = &edits;
  dispatchTree->clear();
  const document::Document &current = edits.document();
  for (size_t d = 0; d < current.dispatches.size(); ++d) {
    const document::Dispatch &dispatch = current.dispatches[d];
    auto *item = new QTreeWidgetItem(
        dispatchTree, {qs(dispatch.name), render::pipelineSummary(dispatch),
                       render::targetSummary(dispatch)});
    item->setData(0, kLineRole, dispatch.line);
    item->setData(0, kDispatchIndexRole, static_cast<int>(d));
    item->setData(0, kRootOpIndexRole, -1);
    item->setToolTip(0, qs(dispatch.name + "\n" + dispatch.executable +
                           " :: " + dispatch.variant));
    item->setToolTip(1, item->text(1));
    item->setToolTip(2, item->text(2));
    for (size_t r = 0; r < dispatch.rootOps.size(); ++r) {
      const document::RootOp &op = dispatch.rootOps[r];
      // What it computes and over which loops, as IREE's IR says.
      QString shape = config::toString(op.kind);
      if (op.space)
        shape += " " + qs(op.space->toString());
      auto *child = new QTreeWidgetItem(item, {opLabel(op), shape});
      child->setData(0, kLineRole, op.line);
      child->setData(0, kDispatchIndexRole, static_cast<int>(d));
      child->setData(0, kRootOpIndexRole, static_cast<int>(r));
      child->setToolTip(0, opLabel(op)); // the column may cut it
      child->setToolTip(1, shape);
    }
    item->setExpanded(true);
  }
  // The names column as wide as its text, up to half the panel; the rest
  // to fit theirs.
  dispatchTree->resizeColumnToContents(0);
  dispatchTree->setColumnWidth(
      0, std::min(dispatchTree->columnWidth(0),
                  std::max(160, dispatchTree->viewport()->width() / 2)));
  dispatchTree->resizeColumnToContents(1);
  dispatchTree->resizeColumnToContents(2);
  refreshMarkers(-1);
  filterTree(filterBox->text());
}

// Each op row says whether it is edited (✎, bold) and whether its config
// breaks a rule (an error's or a warning's icon, as `check` grades the
// first problem, which is the tooltip).
void DispatchBrowser::refreshMarkers(int focusDispatch) {
  if (!session || !holds(session->document()))
    return;
  const document::Document &current = session->document();
  size_t total = 0;
  for (const document::Dispatch &dispatch : current.dispatches)
    total += dispatch.rootOps.size();
  for (int i = 0; i < dispatchTree->topLevelItemCount(); ++i) {
    QTreeWidgetItem *item = dispatchTree->topLevelItem(i);
    const size_t d = static_cast<size_t>(i);
    if (total > kMarkAllOpsUpTo && i != focusDispatch)
      continue;
    for (int j = 0; j < item->childCount(); ++j) {
      QTreeWidgetItem *child = item->child(j);
      const edit::OpRef ref{d, static_cast<size_t>(j)};
      const document::RootOp &op = current.dispatches[d].rootOps[ref.op];
      const bool edited = session->edited(ref);
      QFont font = child->font(0);
      font.setBold(edited);
      child->setFont(0, font);
      child->setText(0, (edited ? "✎ " : "") + opLabel(op));
      child->setData(0, kLineRole, op.line);
      const edit::RuleVerdict verdict =
          edit::ruleVerdict(edit::contextOf(current, ref));
      // An error's icon for an error, as `check` and the Problems panel
      // word it; a warning's for a config with warnings only.
      const config::Problem *first = verdict.firstError();
      const bool error = first != nullptr;
      if (!first)
        for (const config::Problem &p : verdict.problems)
          if (p.severity == config::Problem::Severity::Warning) {
            first = &p;
            break;
          }
      child->setIcon(0, !first ? QIcon()
                               : style()->standardIcon(
                                     error ? QStyle::SP_MessageBoxCritical
                                           : QStyle::SP_MessageBoxWarning));
      // The whole name first (the column may cut it), then the problem.
      child->setToolTip(
          0, child->text(0) +
                 (first ? "\n" + qs(first->field + ": " + first->message)
                        : QString()));
    }
    item->setData(0, kLineRole, current.dispatches[d].line);
  }
}

void DispatchBrowser::filterTree(const QString &text) {
  for (int i = 0; i < dispatchTree->topLevelItemCount(); ++i) {
    QTreeWidgetItem *item = dispatchTree->topLevelItem(i);
    bool anyChild = false;
    for (int j = 0; j < item->childCount(); ++j) {
      QTreeWidgetItem *child = item->child(j);
      const bool match = text.isEmpty() ||
                         child->text(0).contains(text, Qt::CaseInsensitive) ||
                         child->text(1).contains(text, Qt::CaseInsensitive);
      child->setHidden(!match);
      anyChild = anyChild || match;
    }
    const bool self = text.isEmpty() ||
                      item->text(0).contains(text, Qt::CaseInsensitive) ||
                      item->text(1).contains(text, Qt::CaseInsensitive) ||
                      item->text(2).contains(text, Qt::CaseInsensitive);
    item->setHidden(!self && !anyChild);
    if (self && !anyChild)
      for (int j = 0; j < item->childCount(); ++j)
        item->child(j)->setHidden(false);
  }
}

} // namespace tilescope::widgets
