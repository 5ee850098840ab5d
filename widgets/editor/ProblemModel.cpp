#include "widgets/editor/ProblemModel.h"

#include <QApplication>

namespace tilescope::widgets {

void ProblemModel::setRows(std::vector<Row> rows) {
  beginResetModel();
  shown = std::move(rows);
  endResetModel();
}

int ProblemModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(shown.size());
}

QVariant ProblemModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(shown.size()))
    return {};
  const Row &row = shown[static_cast<size_t>(index.row())];
  switch (role) {
  case Qt::DisplayRole:
  case Qt::ToolTipRole:
    return row.text;
  case Qt::DecorationRole:
    return QApplication::style()->standardIcon(row.icon);
  case kFieldRole:
    return row.field;
  case kLineRole:
    return row.line;
  default:
    return {};
  }
}

} // namespace tilescope::widgets
