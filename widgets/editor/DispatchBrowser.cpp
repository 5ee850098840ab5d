#include "widgets/editor/DispatchBrowser.h"

#include "widgets/editor/EditSession.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QStyle>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace tilescope::widgets {

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

DispatchBrowser::DispatchBrowser(QWidget *parent)
    : QWidget(parent), rows(new DispatchModel(this)),
      filter(new DispatchFilter(this)) {
  filter->setSourceModel(rows);
  dispatchTree = new QTreeView;
  dispatchTree->setObjectName("dispatchTree");
  dispatchTree->setModel(filter);
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

  connect(filterBox, &QLineEdit::textChanged, this, [this](const QString &t) {
    filter->setText(t);
    dispatchTree->expandAll();
  });
  connect(dispatchTree->selectionModel(), &QItemSelectionModel::currentChanged,
          this, [this](const QModelIndex &current) { choose(current); });
}

void DispatchBrowser::choose(const QModelIndex &shown) {
  const QModelIndex index = filter->mapToSource(shown);
  const EditSession *session = rows->session();
  if (!index.isValid() || !session || !session->hasDocument())
    return;
  const int d = index.data(DispatchModel::kDispatchRole).toInt();
  int r = index.data(DispatchModel::kRootOpRole).toInt();
  const document::Document &current = session->document();
  if (d < 0 || d >= static_cast<int>(current.dispatches.size()))
    return;
  // A dispatch row stands for its root op.
  if (r < 0)
    r = preferredOp(current.dispatches[static_cast<size_t>(d)]);
  emit selected(d, r, index.data(DispatchModel::kLineRole).toInt());
}

void DispatchBrowser::clear() { rows->show(nullptr); }

void DispatchBrowser::select(edit::OpRef op) {
  const QModelIndex dispatch = rows->index(static_cast<int>(op.dispatch), 0);
  if (!dispatch.isValid())
    return;
  const QModelIndex child = rows->index(static_cast<int>(op.op), 0, dispatch);
  const QModelIndex shown =
      filter->mapFromSource(child.isValid() ? child : dispatch);
  if (shown.isValid())
    dispatchTree->setCurrentIndex(shown);
}

bool DispatchBrowser::selectFirst() {
  const EditSession *session = rows->session();
  if (!session || rows->dispatchCount() == 0)
    return false;
  const int r = preferredOp(session->document().dispatches.front());
  select({0, static_cast<size_t>(std::max(r, 0))});
  if (r < 0)
    dispatchTree->setCurrentIndex(filter->mapFromSource(rows->index(0, 0)));
  return true;
}

void DispatchBrowser::rebuild(const EditSession &edits) {
  rows->show(&edits);
  dispatchTree->expandAll();
  // The names column as wide as its text, up to half the panel; the rest
  // to fit theirs.
  dispatchTree->resizeColumnToContents(0);
  dispatchTree->setColumnWidth(
      0, std::min(dispatchTree->columnWidth(0),
                  std::max(160, dispatchTree->viewport()->width() / 2)));
  dispatchTree->resizeColumnToContents(1);
  dispatchTree->resizeColumnToContents(2);
}

} // namespace tilescope::widgets
