#include "widgets/editor/DispatchModel.h"

#include "core/edit/RootOpContext.h"
#include "widgets/editor/EditSession.h"
#include "widgets/render/RootOpScene.h"

#include <QApplication>
#include <QFont>
#include <QStyle>

namespace tilescope::widgets {
namespace {

// Past this many root ops, markers are refreshed for the edited dispatch
// only: validating every op on each keystroke would stall the window.
constexpr size_t kMarkAllOpsUpTo = 400;

// An op row's internal id: its dispatch + 1 (0 marks a dispatch row).
quintptr opId(size_t dispatch) { return static_cast<quintptr>(dispatch) + 1; }

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

QString opLabel(const document::RootOp &op) {
  QString label = qs(op.name);
  if (op.rootOpSet)
    label += QString("  (root op, set %1)").arg(*op.rootOpSet);
  return label;
}

DispatchModel::DispatchModel(QObject *parent) : QAbstractItemModel(parent) {}

void DispatchModel::show(const EditSession *session) {
  beginResetModel();
  if (edits)
    disconnect(edits, nullptr, this, nullptr);
  edits = session;
  rows.clear();
  if (edits && edits->hasDocument()) {
    const document::Document &current = edits->document();
    for (const document::Dispatch &dispatch : current.dispatches) {
      DispatchRow row;
      // A program's dispatches share its function's name
      // ("main_graph$async_dispatch_11_matmul_like_..."): the column shows
      // from "dispatch_N" on, the whole name is the tooltip.
      const size_t async = dispatch.name.find("$async_");
      row.name =
          qs(async == std::string::npos ? dispatch.name
                                        : dispatch.name.substr(async + 7));
      row.pipeline = render::pipelineSummary(dispatch);
      row.target = render::targetSummary(dispatch);
      row.tip = qs(dispatch.name + "\n" + dispatch.executable +
                   " :: " + dispatch.variant);
      row.line = dispatch.line;
      for (const document::RootOp &op : dispatch.rootOps) {
        // What it computes and over which loops, as IREE's IR says.
        QString shape = config::toString(op.kind);
        if (op.space)
          shape += " " + qs(op.space->toString());
        row.ops.push_back({opLabel(op), shape, op.line, false, 0, {}});
      }
      rows.push_back(std::move(row));
    }
    // An edit, an undo or a redo of one op: that op's dispatch marked again.
    connect(edits, &EditSession::fieldChanged, this,
            [this](edit::OpRef op, const QString &) {
              if (op.dispatch < rows.size())
                mark(op.dispatch);
            });
  }
  endResetModel();
  refreshMarkers(-1);
}

void DispatchModel::refreshMarkers(int focusDispatch) {
  if (!edits || !edits->hasDocument() ||
      edits->document().dispatches.size() != rows.size())
    return;
  size_t total = 0;
  for (const DispatchRow &row : rows)
    total += row.ops.size();
  for (size_t d = 0; d < rows.size(); ++d)
    if (total <= kMarkAllOpsUpTo || static_cast<int>(d) == focusDispatch)
      mark(d);
}

// Each op of the dispatch: edited or not, its first error (else warning)
// as `check` grades it, its line as the text now has it.
void DispatchModel::mark(size_t d) {
  const document::Document &current = edits->document();
  if (d >= current.dispatches.size() || d >= rows.size())
    return;
  DispatchRow &row = rows[d];
  row.line = current.dispatches[d].line;
  for (size_t r = 0; r < row.ops.size(); ++r) {
    const edit::OpRef ref{d, r};
    const document::RootOp &op = current.dispatches[d].rootOps[r];
    OpRow &shown = row.ops[r];
    shown.edited = edits->edited(ref);
    shown.label = opLabel(op);
    shown.line = op.line;
    const edit::RuleVerdict verdict =
        edit::ruleVerdict(edit::contextOf(current, ref));
    const config::Problem *first = verdict.firstError();
    shown.marker = first ? 2 : 0;
    if (!first)
      for (const config::Problem &p : verdict.problems)
        if (p.severity == config::Problem::Severity::Warning) {
          first = &p;
          shown.marker = 1;
          break;
        }
    shown.problem = first ? qs(first->field + ": " + first->message) : "";
  }
  const QModelIndex parent = index(static_cast<int>(d), 0);
  if (!row.ops.empty())
    emit dataChanged(index(0, 0, parent),
                     index(static_cast<int>(row.ops.size()) - 1, 1, parent));
  emit dataChanged(parent, index(static_cast<int>(d), 2));
}

QModelIndex DispatchModel::index(int row, int column,
                                 const QModelIndex &parent) const {
  if (row < 0 || column < 0 || column >= 3)
    return {};
  if (!parent.isValid())
    return row < static_cast<int>(rows.size())
               ? createIndex(row, column, quintptr(0))
               : QModelIndex();
  if (parent.internalId() != 0 ||
      parent.row() >= static_cast<int>(rows.size()) ||
      row >=
          static_cast<int>(rows[static_cast<size_t>(parent.row())].ops.size()))
    return {};
  return createIndex(row, column, opId(static_cast<size_t>(parent.row())));
}

QModelIndex DispatchModel::parent(const QModelIndex &child) const {
  if (!child.isValid() || child.internalId() == 0)
    return {};
  return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr(0));
}

int DispatchModel::rowCount(const QModelIndex &parent) const {
  if (!parent.isValid())
    return static_cast<int>(rows.size());
  if (parent.internalId() != 0 || parent.column() != 0)
    return 0;
  return static_cast<int>(rows[static_cast<size_t>(parent.row())].ops.size());
}

int DispatchModel::columnCount(const QModelIndex &) const { return 3; }

QVariant DispatchModel::headerData(int section, Qt::Orientation orientation,
                                   int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return {};
  switch (section) {
  case 0:
    return QString("Dispatch / root op");
  case 1:
    return QString("Pipeline / kind, loops");
  case 2:
    return QString("Target");
  default:
    return {};
  }
}

QVariant DispatchModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid())
    return {};
  if (index.internalId() == 0) {
    const DispatchRow &row = rows[static_cast<size_t>(index.row())];
    const QString text = index.column() == 0   ? row.name
                         : index.column() == 1 ? row.pipeline
                                               : row.target;
    switch (role) {
    case Qt::DisplayRole:
      return text;
    case Qt::ToolTipRole:
      return index.column() == 0 ? row.tip : text;
    case kLineRole:
      return row.line;
    case kDispatchRole:
      return index.row();
    case kRootOpRole:
      return -1;
    default:
      return {};
    }
  }
  const size_t d = static_cast<size_t>(index.internalId() - 1);
  const OpRow &op = rows[d].ops[static_cast<size_t>(index.row())];
  const QString shown = (op.edited ? "✎ " : "") + op.label;
  switch (role) {
  case Qt::DisplayRole:
    return index.column() == 0   ? shown
           : index.column() == 1 ? op.shape
                                 : QString();
  case Qt::ToolTipRole:
    // The whole name first (the column may cut it), then the problem.
    if (index.column() == 1)
      return op.shape;
    return index.column() == 0
               ? shown + (op.problem.isEmpty() ? "" : "\n" + op.problem)
               : QVariant();
  case Qt::FontRole:
    if (index.column() == 0 && op.edited) {
      QFont bold;
      bold.setBold(true);
      return bold;
    }
    return {};
  case Qt::DecorationRole:
    // An error's icon for an error, as `check` and the Problems panel word
    // it; a warning's for a config with warnings only.
    if (index.column() != 0 || op.marker == 0)
      return {};
    return QApplication::style()->standardIcon(
        op.marker == 2 ? QStyle::SP_MessageBoxCritical
                       : QStyle::SP_MessageBoxWarning);
  case kLineRole:
    return op.line;
  case kDispatchRole:
    return static_cast<int>(d);
  case kRootOpRole:
    return index.row();
  default:
    return {};
  }
}

void DispatchFilter::setText(const QString &given) {
  text = given;
  invalidateFilter();
}

bool DispatchFilter::matches(const QModelIndex &index) const {
  const QAbstractItemModel *model = sourceModel();
  for (int column = 0; column < model->columnCount(); ++column)
    if (model->index(index.row(), column, index.parent())
            .data()
            .toString()
            .contains(text, Qt::CaseInsensitive))
      return true;
  return false;
}

bool DispatchFilter::filterAcceptsRow(int row,
                                      const QModelIndex &parent) const {
  if (text.isEmpty())
    return true;
  const QModelIndex here = sourceModel()->index(row, 0, parent);
  if (matches(here))
    return true;
  if (parent.isValid()) // an op shows with its matching dispatch
    return matches(parent);
  for (int op = 0; op < sourceModel()->rowCount(here); ++op)
    if (matches(sourceModel()->index(op, 0, here)))
      return true;
  return false;
}

} // namespace tilescope::widgets
