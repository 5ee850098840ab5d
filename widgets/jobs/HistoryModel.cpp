#include "widgets/jobs/HistoryModel.h"

#include "core/edit/ConfigDiff.h"
#include "core/tries/TryComparison.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

QString microseconds(double value) {
  return QString::number(value, 'f', value < 10 ? 2 : 1);
}

// How a try's configs differ from the file as opened: "as opened", or the
// fields that differ with their values ("reduction [0, 0, 4]").
QString configsAgainst(const document::Document &originalConfigs,
                       const tries::TryRecord &record) {
  if (record.configs.empty())
    return {};
  const edit::DocumentDifference difference = edit::documentDifferences(
      originalConfigs, tries::documentFromConfigs(record.configs));
  if (difference.empty())
    return "as opened";
  QStringList fields;
  auto add = [&fields](const edit::FieldDifference &f) {
    fields << qs(f.field) + " " + (f.after.empty() ? "(unset)" : qs(f.after));
  };
  for (const edit::OpDifference &op : difference.ops)
    for (const edit::FieldDifference &f : op.fields) {
      if (f.entries.empty())
        add(f);
      // A whole config (a CPU one): the parameters that changed.
      for (const edit::FieldDifference &entry : f.entries)
        if (entry.before != entry.after)
          add(entry);
    }
  return fields.join("; ");
}

} // namespace

HistoryModel::HistoryModel(QObject *parent) : QAbstractTableModel(parent) {}

void HistoryModel::show(const std::vector<tries::TryRecord> &records,
                        const document::Document &originalConfigs) {
  beginResetModel();
  rows.clear();
  for (const tries::TryRecord &r : records) {
    std::optional<double> spread, efficiency;
    if (r.bench) {
      if (r.bench->timing.perDispatch)
        spread = r.bench->timing.perDispatch->spread;
      efficiency = r.bench->efficiency;
    }
    Row row;
    row.id = r.id;
    row.cells = {
        QString::number(r.id),
        qs(r.createdAt),
        qs(r.kind),
        qs(r.outcome),
        r.medianMicroseconds ? microseconds(*r.medianMicroseconds) : "",
        spread ? microseconds(*spread) : "",
        r.checkPassed ? (*r.checkPassed ? "passed" : "FAILED") : "",
        efficiency ? QString("%1%").arg(100 * *efficiency, 0, 'f', 1) : "",
        qs(tries::resourceBrief(r)),
        configsAgainst(originalConfigs, r),
        qs(r.target) + (r.device.empty() ? "" : " on " + qs(r.device))};
    row.tip = qs(r.summary) + "\n" + qs(r.directory);
    rows.push_back(std::move(row));
  }
  endResetModel();
}

void HistoryModel::clear() {
  beginResetModel();
  rows.clear();
  endResetModel();
}

long long HistoryModel::tryAt(int row) const {
  return row >= 0 && static_cast<size_t>(row) < rows.size()
             ? rows[static_cast<size_t>(row)].id
             : 0;
}

int HistoryModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows.size());
}

int HistoryModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : kColumns;
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || static_cast<size_t>(index.row()) >= rows.size())
    return {};
  const Row &row = rows[static_cast<size_t>(index.row())];
  switch (role) {
  case Qt::DisplayRole:
    return row.cells.value(index.column());
  case Qt::ToolTipRole:
    return row.tip;
  case kTryIdRole:
    return row.id;
  default:
    return {};
  }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation,
                                  int role) const {
  static const QStringList kHeaders = {
      "Try",   "When",  "Kind",     "Outcome",   "Median µs",
      "± µs",  "Check", "Of floor", "Resources", "Configs vs opened",
      "Target"};
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return {};
  return kHeaders.value(section);
}

} // namespace tilescope::widgets
