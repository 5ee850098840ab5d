// A sweep's candidates, ranked, as a Qt table model for the sweep panel:
// a row per candidate (its rank, the thumbnail of its layout, its name, its
// time or prediction, its outcome, resources and try), refused candidates
// in a grey that reads on light and dark palettes. The panel ranks and
// words the rows (SweepPanel::refresh); the model announces only the cells
// that changed, so a sweep that fills in keeps the selection and the view
// where they were.
#pragma once

#include <QAbstractTableModel>
#include <QIcon>
#include <QStringList>

#include <vector>

namespace tilescope::widgets {

class SweepResultsModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column {
    kRank,
    kLayout,
    kCandidate,
    kMicroseconds,
    kOutcome,
    kResources,
    kTry,
    kColumns
  };
  struct Row {
    QStringList cells; // one per column
    QString timeTip;   // what the time is: measured or predicted, and how
    QIcon icon;        // the layout's thumbnail
    bool valid = true;
  };

  explicit SweepResultsModel(QObject *parent = nullptr);

  void show(std::vector<Row> rows);

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role) const override;

private:
  std::vector<Row> shown;
};

} // namespace tilescope::widgets
