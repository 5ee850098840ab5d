// The sweep panel's results: the table of candidates, the plot against a
// varied field, the ranking and loading a ranked candidate back into the
// editor (SweepPanel.cpp plans and runs the sweep).
#include "widgets/jobs/SweepPanel.h"

#include "core/tries/TryComparison.h"
#include "widgets/jobs/SweepAxes.h"
#include "widgets/jobs/SweepPlot.h"
#include "widgets/jobs/SweepResultsModel.h"
#include "widgets/render/Palette.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>

#include <algorithm>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

QString microseconds(double value) {
  return QString::number(value, 'f', value < 10 ? 2 : 1);
}

// The first of a ranking, said for what it stands on: a measured time
// makes it the fastest measured; a prediction only the predicted first.
QString firstPlace(const sweep::SweepCandidate &c) {
  if (auto measured = c.measuredMicroseconds())
    return ". Fastest measured: " + qs(c.name) + " (" +
           microseconds(*measured) + " µs)";
  if (c.predictedMicroseconds)
    return ". Nothing timed; predicted first: " + qs(c.name) + " (" +
           microseconds(*c.predictedMicroseconds) +
           " µs predicted, resources " +
           (c.predictedFromCompile ? "as compiled" : "estimated") + ")";
  return {};
}

// "28.9 measured", "31.2 predicted": a candidate's time cell.
QString timeCell(const sweep::SweepCandidate &c) {
  if (auto measured = c.measuredMicroseconds())
    return microseconds(*measured) + " measured";
  if (c.predictedMicroseconds)
    return microseconds(*c.predictedMicroseconds) + " predicted";
  return {};
}

} // namespace

QString SweepPanel::firstPlace() const {
  const std::vector<int> order = ranked();
  return order.empty() ? QString()
                       : widgets::firstPlace(entries[order[0]].candidate);
}

std::vector<int> SweepPanel::ranked() const {
  std::vector<int> order(entries.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [this](int a, int b) {
    return sweep::rankedBefore(entries[a].candidate, entries[b].candidate);
  });
  return order;
}

QStringList SweepPanel::ranking() const {
  QStringList names;
  for (int i : ranked())
    names << qs(entries[i].candidate.name);
  return names;
}

std::vector<long long> SweepPanel::compiledTries() const {
  std::vector<long long> ids;
  for (int i : ranked()) {
    const sweep::SweepCandidate &c = entries[i].candidate;
    if (c.record && c.record->id > 0 &&
        (c.record->outcome == "ok" || c.record->outcome == "cannot-run-here"))
      ids.push_back(c.record->id);
  }
  return ids;
}

bool SweepPanel::loadRanked(int rank) {
  const std::vector<int> order = ranked();
  if (rank < 0 || rank >= static_cast<int>(order.size()))
    return false;
  const sweep::SweepCandidate &c = entries[order[rank]].candidate;
  if (!c.record || c.record->id <= 0) {
    stateLabel->setText(qs(c.name) + ": " +
                        (c.valid ? "not run yet: nothing to load"
                                 : "refused: " + qs(c.whyNot)));
    return false;
  }
  emit tryActivated(c.record->id);
  return true;
}

void SweepPanel::refresh() {
  const std::vector<int> order = ranked();
  const int current =
      results->currentIndex().isValid() ? results->currentIndex().row() : -1;
  const long long selected =
      current >= 0 && current < static_cast<int>(order.size()) ? order[current]
                                                               : -1;
  std::vector<SweepResultsModel::Row> rows;
  for (int row = 0; row < static_cast<int>(order.size()); ++row) {
    const Entry &e = entries[order[row]];
    const sweep::SweepCandidate &c = e.candidate;
    QString time = c.valid ? timeCell(c) : QString(), outcome, brief, tryId;
    if (row > 0)
      if (auto verdict = sweep::againstFirst(entries[order[0]].candidate, c);
          verdict && verdict->withinNoise)
        time += " ≈ 1st";
    if (!c.valid) {
      outcome = "invalid";
      brief = qs(c.whyNot);
    } else if (!c.record) {
      outcome = !busy()              ? QString("not run")
                : !e.phase.isEmpty() ? e.phase // its task on the cluster
                                     : QString("waiting");
    } else {
      outcome = qs(c.record->outcome) + (c.resumed ? " (resumed)" : "");
      brief = qs(tries::resourceBrief(*c.record));
      if (brief.isEmpty())
        brief = qs(c.record->summary);
      tryId = QString::number(c.record->id);
    }
    SweepResultsModel::Row shown;
    shown.cells = {QString::number(row + 1),
                   QString(),
                   qs(c.name),
                   time,
                   outcome,
                   brief,
                   tryId};
    shown.timeTip =
        c.measuredElsewhere ? QString("Measured in try %1, the same config")
                                  .arg(c.measuredElsewhere->id)
        : c.measuredMicroseconds()
            ? QString("Measured: the median per dispatch (\"≈ 1st\": "
                      "within the noise of the first)")
            : qs(c.prediction) + "\nA prediction of the cost model "
                                 "(docs/cost-model.md), not a time";
    shown.icon = e.icon;
    shown.valid = c.valid;
    rows.push_back(std::move(shown));
  }
  candidates->show(std::move(rows));
  for (int column : {0, 2, 3, 4})
    results->resizeColumnToContents(column);
  // A whole config as a candidate's name (a lowering_config axis) would push
  // the time and outcome out of view: the name is cut, its tooltip whole.
  constexpr int kWidestName = 240;
  if (results->columnWidth(2) > kWidestName)
    results->setColumnWidth(2, kWidestName);
  if (selected >= 0) {
    auto at = std::find(order.begin(), order.end(), selected);
    results->selectRow(static_cast<int>(at - order.begin()));
  }
  refreshPlot();
}

void SweepPanel::refreshPlot() {
  // The axes the candidates offer: what they set, entry by entry.
  BaseValues base;
  if (snapshot && currentOp &&
      currentOp->dispatch < snapshot->dispatches.size()) {
    const document::Dispatch &dispatch =
        snapshot->dispatches[currentOp->dispatch];
    if (currentOp->op < dispatch.rootOps.size())
      for (const edit::FieldValue &f :
           edit::opFields(dispatch, dispatch.rootOps[currentOp->op]))
        base[f.field] = f.value;
  }
  std::vector<const sweep::SweepCandidate *> valid;
  for (const Entry &e : entries)
    if (e.candidate.valid)
      valid.push_back(&e.candidate);
  const QStringList choices = plotAxes(valid, base);
  QStringList shown;
  for (int i = 0; i < plotAxisBox->count(); ++i)
    shown << plotAxisBox->itemText(i);
  if (shown != choices) {
    const QString kept = plotAxisBox->currentText();
    plotAxisBox->blockSignals(true);
    plotAxisBox->clear();
    plotAxisBox->addItems(choices);
    if (choices.contains(kept))
      plotAxisBox->setCurrentText(kept);
    plotAxisBox->blockSignals(false);
  }
  const QString field = plotAxisBox->currentText();
  // Measured times where any candidate has one; else the predictions.
  bool anyTimed = false;
  for (const Entry &e : entries)
    anyTimed = anyTimed || e.candidate.measuredMicroseconds();
  std::vector<SweepPlot::Point> points;
  for (size_t i = 0; i < entries.size(); ++i) {
    const sweep::SweepCandidate &c = entries[i].candidate;
    if (!c.valid)
      continue;
    const std::optional<double> y =
        anyTimed ? c.measuredMicroseconds() : c.predictedMicroseconds;
    if (!y)
      continue;
    points.push_back({plotValue(c, field, base), *y, static_cast<int>(i)});
  }
  const std::vector<int> order = ranked();
  const int first =
      !order.empty() &&
              (anyTimed || entries[order[0]].candidate.predictedMicroseconds)
          ? order[0]
          : -1;
  plot->setPoints(field, anyTimed ? "µs measured" : "µs predicted",
                  std::move(points), first);
}

} // namespace tilescope::widgets
