#include "widgets/jobs/SweepResultsModel.h"

#include <QColor>

namespace tilescope::widgets {

SweepResultsModel::SweepResultsModel(QObject *parent)
    : QAbstractTableModel(parent) {}

void SweepResultsModel::show(std::vector<Row> rows) {
  const int before = static_cast<int>(shown.size());
  const int after = static_cast<int>(rows.size());
  if (after < before) {
    beginRemoveRows({}, after, before - 1);
    shown.resize(rows.size());
    endRemoveRows();
  }
  // The rows both have: announced where they differ.
  for (int r = 0; r < std::min(before, after); ++r) {
    Row &now = shown[static_cast<size_t>(r)];
    Row &next = rows[static_cast<size_t>(r)];
    const bool same = now.cells == next.cells && now.timeTip == next.timeTip &&
                      now.valid == next.valid &&
                      now.icon.cacheKey() == next.icon.cacheKey();
    if (!same) {
      now = std::move(next);
      emit dataChanged(index(r, 0), index(r, kColumns - 1));
    }
  }
  if (after > before) {
    beginInsertRows({}, before, after - 1);
    for (int r = before; r < after; ++r)
      shown.push_back(std::move(rows[static_cast<size_t>(r)]));
    endInsertRows();
  }
}

int SweepResultsModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(shown.size());
}

int SweepResultsModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : kColumns;
}

QVariant SweepResultsModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || static_cast<size_t>(index.row()) >= shown.size())
    return {};
  const Row &row = shown[static_cast<size_t>(index.row())];
  switch (role) {
  case Qt::DisplayRole:
    return row.cells.value(index.column());
  case Qt::DecorationRole:
    return index.column() == kLayout ? QVariant(row.icon) : QVariant();
  case Qt::ToolTipRole:
    if (index.column() == kMicroseconds)
      return row.timeTip;
    if (index.column() == kCandidate || index.column() == kResources)
      return row.cells.value(index.column()); // a long one is cut
    return {};
  case Qt::ForegroundRole:
    // Valid rows follow the palette (a theme switched live included).
    return row.valid ? QVariant() : QVariant(QColor("#8a8a8a"));
  default:
    return {};
  }
}

QVariant SweepResultsModel::headerData(int section, Qt::Orientation orientation,
                                       int role) const {
  static const QStringList kHeaders = {
      "#", "Layout", "Candidate", "µs", "Outcome", "Resources", "Try"};
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return {};
  return kHeaders.value(section);
}

} // namespace tilescope::widgets
