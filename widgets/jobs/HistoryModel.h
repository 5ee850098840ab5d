// The open file's tries, newest first, as a Qt table model for the run
// panel's History: a row per try (its id, when, kind, outcome, median and
// spread, check, share of the roofline floor, resources, how its configs
// differ from the file as opened, target and device), the try's summary and
// folder as every cell's tooltip.
#pragma once

#include "core/document/Document.h"
#include "core/tries/History.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace tilescope::widgets {

class HistoryModel : public QAbstractTableModel {
  Q_OBJECT

public:
  static constexpr int kTryIdRole = Qt::UserRole;
  enum Column {
    kTry,
    kWhen,
    kKind,
    kOutcome,
    kMedian,
    kSpread,
    kCheck,
    kOfFloor,
    kResources,
    kConfigs,
    kTarget,
    kColumns
  };

  explicit HistoryModel(QObject *parent = nullptr);

  // The tries anew; `originalConfigs` is the file as opened, in the form a
  // try's configs are read back in (tries::documentFromConfigs).
  void show(const std::vector<tries::TryRecord> &records,
            const document::Document &originalConfigs);
  void clear();
  long long tryAt(int row) const;

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role) const override;

private:
  struct Row {
    long long id = 0;
    QStringList cells;
    QString tip;
  };
  std::vector<Row> rows;
};

} // namespace tilescope::widgets
