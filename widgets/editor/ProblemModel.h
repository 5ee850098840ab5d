// The Problems panel's rows as a Qt item model: one row per problem, its
// text, its severity's icon, and where it leads (a config field, or a line
// of the file). Built from what the window gathers for the selected op
// (ProblemList::Contents); the view (ProblemList) only shows it.
#pragma once

#include <QAbstractListModel>
#include <QString>
#include <QStyle>

#include <vector>

namespace tilescope::widgets {

class ProblemModel : public QAbstractListModel {
  Q_OBJECT

public:
  // The field a row leads to ("" when it leads to a line).
  static constexpr int kFieldRole = Qt::UserRole + 1;
  // The file's line a row leads to (0: none).
  static constexpr int kLineRole = Qt::UserRole;

  struct Row {
    QStyle::StandardPixmap icon = QStyle::SP_MessageBoxInformation;
    QString text;
    QString field;
    int line = 0;
  };

  using QAbstractListModel::QAbstractListModel;

  // Every row anew (one reset, not a row at a time).
  void setRows(std::vector<Row> rows);
  const std::vector<Row> &rows() const { return shown; }

  int rowCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;

private:
  std::vector<Row> shown;
};

} // namespace tilescope::widgets
