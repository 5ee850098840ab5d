#include "widgets/jobs/SweepPanel.h"
#include "widgets/jobs/RunPlaceBox.h"

#include "core/devices/GpuDiscovery.h"
#include "core/edit/ConfigDiff.h"
#include "core/process/Workspace.h"
#include "core/run/BenchJob.h"
#include "core/service/CompileJob.h"
#include "core/sweep/Neighbours.h"
#include "widgets/jobs/SweepPlanning.h"
#include "widgets/jobs/SweepPlot.h"
#include "widgets/jobs/SweepResultsModel.h"
#include "widgets/render/RootOpScene.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <thread>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

const QString kOutdatedNote =
    "These are results around the config the sweep started from; the "
    "editor's has changed since (change an axis or Run to sweep around it).";

} // namespace

// A finished candidate, on its way to the GUI thread.
struct SweepPanel::Arrival {
  sweep::SweepCandidate candidate;
  QImage thumbnail;
  size_t done = 0, total = 0;
};

SweepPanel::SweepPanel(std::shared_ptr<const workbench::Workbench> bench,
                       std::filesystem::path workspace, QWidget *parent)
    : QWidget(parent), bench(std::move(bench)),
      workspaceFolder(workspace.empty() ? process::defaultWorkspace()
                                        : std::move(workspace)),
      planAnswer(std::make_unique<LatestAnswer<std::shared_ptr<SweepPlan>>>(
          [this](std::shared_ptr<SweepPlan> answer) {
            onPlanned(std::move(answer));
          })),
      runWatcher(new QFutureWatcher<Result<sweep::SweepResult>>(this)),
      planTimer(new QTimer(this)), refreshTimer(new QTimer(this)) {
  setObjectName("sweepPanel");
  planTimer->setSingleShot(true);
  planTimer->setInterval(200);
  connect(planTimer, &QTimer::timeout, this, &SweepPanel::plan);
  // Arrivals are shown at most four times a second, so a fast sweep never
  // rebuilds the table for every candidate.
  refreshTimer->setSingleShot(true);
  refreshTimer->setInterval(250);
  connect(refreshTimer, &QTimer::timeout, this, &SweepPanel::refresh);

  auto *row = new QHBoxLayout(this);
  row->setContentsMargins(4, 4, 4, 4);
  row->addWidget(buildRunColumn(buildSettings()));
  row->addWidget(buildResults(), 1);

  connect(runWatcher, &QFutureWatcher<Result<sweep::SweepResult>>::finished,
          this, &SweepPanel::onFinished);
  setDocument(nullptr, std::nullopt);
}

SweepPanel::~SweepPanel() {
  stop();
  runWatcher->waitForFinished();
  planAnswer.reset(); // cancelled and waited for; its answer dropped
}

void SweepPanel::setDocument(const document::Document *document,
                             std::optional<edit::OpRef> op) {
  const bool sameOp =
      document && currentOp && op && document->path == currentPath &&
      op->dispatch == currentOp->dispatch && op->op == currentOp->op;
  current = document;
  currentPath = document ? document->path : std::filesystem::path();
  currentOp = document ? op : std::nullopt;
  if (busy())
    return; // the running sweep keeps its own copy
  if (!current || !currentOp) {
    planAnswer->drop(); // a plan for the op no longer selected
    entries.clear();
    byName.clear();
    refresh();
    countLabel->setText("Select a root op to sweep its config");
    runButton->setEnabled(false);
    return;
  }
  fillFieldChoices();
  // The same op edited after a sweep ran (a candidate loaded into the
  // editor, most often): its results stay, with what they are results of;
  // an axis changed or Run plans around the new config.
  const bool hasResults =
      std::any_of(entries.begin(), entries.end(), [](const Entry &e) {
        return e.candidate.record.has_value();
      });
  if (sameOp && hasResults) {
    planOutdated = true;
    if (!stateLabel->text().contains(kOutdatedNote))
      stateLabel->setText(stateLabel->text() + "\n" + kOutdatedNote);
    return;
  }
  if (!sameOp) {
    resetToNeighbours();
    // Timing needs a device for the file's backend here.
    const auto backends = service::documentBackends(*current);
    static const devices::GpuDiscovery discovery = devices::discoverGpus();
    const bool timed = !backends.empty() &&
                       run::deviceForBackend(backends.front(), discovery).ok();
    stageBox->setCurrentIndex(timed ? 1 : 0);
    stageBox->setItemData(1,
                          timed ? QString()
                                : QString("No device for this file's backend "
                                          "here: candidates compile only"),
                          Qt::ToolTipRole);
  }
  planTimer->start();
}

void SweepPanel::resetToNeighbours() {
  if (!current || !currentOp)
    return;
  QStringList lines;
  for (const sweep::SweepAxis &axis :
       sweep::neighbourAxes(*current, *currentOp)) {
    QStringList values;
    for (const std::string &v : axis.values)
      values << qs(v);
    lines << qs(axis.field) + "=" + values.join(",");
  }
  setAxes(lines);
}

void SweepPanel::fillFieldChoices() {
  fieldBox->clear();
  for (const auto &[field, values] : sweepFieldChoices(*current, *currentOp))
    fieldBox->addItem(field, values);
}

void SweepPanel::addAxis(const QString &field) {
  if (field.isEmpty())
    return;
  const int index = fieldBox->findText(field);
  const QString values =
      index >= 0 ? fieldBox->itemData(index).toString() : QString();
  QStringList lines = axes();
  lines << field + "=" + values;
  setAxes(lines);
  axesTable->setCurrentCell(axesTable->rowCount() - 1, 1);
}

void SweepPanel::setAxes(const QStringList &lines) {
  const QSignalBlocker block(axesTable);
  axesTable->setRowCount(0);
  for (const QString &line : lines) {
    const int row = axesTable->rowCount();
    axesTable->insertRow(row);
    const int equals = static_cast<int>(line.indexOf('='));
    axesTable->setItem(row, 0, new QTableWidgetItem(line.left(equals)));
    axesTable->setItem(
        row, 1,
        new QTableWidgetItem(equals < 0 ? QString() : line.mid(equals + 1)));
  }
  axesTable->resizeColumnToContents(0);
  planTimer->start();
}

QStringList SweepPanel::axes() const {
  QStringList lines;
  for (int row = 0; row < axesTable->rowCount(); ++row) {
    const QTableWidgetItem *field = axesTable->item(row, 0);
    const QTableWidgetItem *values = axesTable->item(row, 1);
    if (field && !field->text().trimmed().isEmpty())
      lines << field->text().trimmed() + "=" +
                   (values ? values->text().trimmed() : QString());
  }
  return lines;
}

void SweepPanel::setTimed(bool timed) { stageBox->setCurrentIndex(timed); }
void SweepPanel::setParallel(int n) { parallelBox->setValue(n); }
void SweepPanel::setAskIree(bool ask) { constraintsBox->setChecked(ask); }
void SweepPanel::setFromIreeSpace(bool fromSpace, int nearest) {
  nearestBox->setValue(nearest);
  spaceBox->setChecked(fromSpace);
}

std::vector<std::string> SweepPanel::varyFields() const {
  std::vector<std::string> fields;
  for (const QString &line : axes())
    fields.push_back(line.section('=', 0, 0).trimmed().toStdString());
  return fields;
}

// The axes as typed; the first that does not parse, in words.
QString SweepPanel::axisProblem() const {
  // From IREE's constraints only the fields count (none: every knob
  // varies); where IREE gives no space the plan names what does not parse.
  if (spaceBox->isChecked())
    return {};
  for (const QString &line : axes())
    if (auto axis = sweep::parseSweepAxis(line.toStdString()); !axis)
      return qs(axis.error());
  return axes().isEmpty() ? "Add a field to vary" : QString();
}

sweep::SweepRequest SweepPanel::request() const {
  sweep::SweepRequest r;
  r.document = snapshot.get();
  if (currentOp)
    r.op = *currentOp;
  for (const QString &line : axes())
    if (auto axis = sweep::parseSweepAxis(line.toStdString()))
      r.axes.push_back(*axis);
  r.name = nameBox->text().trimmed().toStdString();
  if (spaceBox->isChecked() && !plannedPoints.empty()) {
    r.points = plannedPoints;
    if (r.name.empty() && snapshot && currentOp)
      r.name = sweep::spaceSweepName(*snapshot, *currentOp, varyFields(),
                                     static_cast<size_t>(nearestBox->value()));
  }
  if (r.name.empty() && snapshot && currentOp)
    r.name = sweep::defaultSweepName(*snapshot, *currentOp, r.axes);
  r.upTo = static_cast<tries::TryStage>(stageBox->currentData().toInt());
  r.workspace = workspaceFolder;
  r.parallel = parallelBox->value();
  r.ireeConstraints = constraintsBox->isChecked();
  r.stated = plannedStated;
  if (auto place = placeBox->place())
    r.place = *place;
  if (auto compileOn = compilePartition())
    r.compilePartition = *compileOn;
  return r;
}

Result<std::string> SweepPanel::compilePartition() const {
  // Compile on is for runs on a Slurm partition (the box is off otherwise).
  const auto place = placeBox->place();
  if (!place || place->kind != run::RunPlace::Kind::Slurm)
    return std::string();
  return sweep::compilePartitionOf(
      compileOnBox->text().trimmed().toStdString(), *place,
      static_cast<tries::TryStage>(stageBox->currentData().toInt()),
      "Time on a Slurm partition");
}

bool SweepPanel::busy() const { return sweepRunning; }
bool SweepPanel::planning() const {
  return planAnswer->busy() || planTimer->isActive();
}

void SweepPanel::plan() {
  if (busy() || !current || !currentOp)
    return;
  if (const QString problem = axisProblem(); !problem.isEmpty()) {
    planAnswer->drop(); // a plan for the axes before would hide the problem
    countLabel->setText(problem);
    countLabel->setStyleSheet("color: #a61b1b;");
    runButton->setEnabled(false);
    return;
  }
  if (!bench) { // a window built without one (field editors' tests)
    countLabel->setText("No workbench to plan with");
    return;
  }
  snapshot = std::make_shared<const document::Document>(*current);
  planOutdated = false;
  nameBox->setPlaceholderText(qs(request().name));
  countLabel->setText("Planning…");
  countLabel->setStyleSheet({});
  runButton->setEnabled(false);
  // Where the candidates come from, as the command line and Python say it:
  // IREE's space with the knobs of `varyFields` where the box asks for it
  // and IREE gives one, else the axes in the table.
  workbench::SweepJobChoice how;
  how.op = *currentOp;
  how.ireeSpaceIfAny = spaceBox->isChecked();
  how.noIreeSpace = !spaceBox->isChecked();
  if (how.ireeSpaceIfAny)
    how.vary = varyFields();
  how.nearest = nearestBox->value();
  // `document` keeps the request's document alive while the plan runs.
  planAnswer->ask([bench = bench, r = request(), how, op = *currentOp,
                   document = snapshot](const std::atomic<bool> *cancel) {
    sweep::SweepRequest asked = r;
    asked.cancel = cancel;
    return std::make_shared<SweepPlan>(planForPanel(*bench, asked, how, op));
  });
}

void SweepPanel::onPlanned(std::shared_ptr<SweepPlan> answer) {
  entries.clear();
  byName.clear();
  plannedPoints = answer->points;
  plannedStated = answer->stated;
  if (!answer->error.empty()) {
    countLabel->setText(qs(answer->error));
    countLabel->setStyleSheet("color: #a61b1b;");
    refresh();
    return;
  }
  for (size_t i = 0; i < answer->candidates.size(); ++i) {
    Entry entry;
    entry.thumbnail = std::move(answer->thumbnails[i]);
    if (!entry.thumbnail.isNull())
      entry.icon = QIcon(QPixmap::fromImage(entry.thumbnail));
    byName[answer->candidates[i].name] = static_cast<int>(entries.size());
    entry.candidate = std::move(answer->candidates[i]);
    entries.push_back(std::move(entry));
  }
  const int valid = validCount();
  const bool askedIree =
      constraintsBox->isChecked() && answer->ireeProblem.empty();
  QString count = QString("%1 candidate%2: %3 valid%4")
                      .arg(entries.size())
                      .arg(entries.size() == 1 ? "" : "s")
                      .arg(valid)
                      .arg(valid < plannedCount()
                               ? QString(", %1 refused by the rules%2 (see the "
                                         "table)")
                                     .arg(plannedCount() - valid)
                                     .arg(askedIree ? " or IREE" : "")
                               : QString());
  if (!answer->space.empty())
    count = qs(answer->space) + ".\nThe nearest " + count;
  else if (!answer->whyNotIree.empty())
    count = "Not from IREE's constraints (" + qs(answer->whyNotIree) +
            "): the values above.\n" + count;
  if (!answer->ireeProblem.empty())
    count += "\n" + qs(answer->ireeProblem);
  countLabel->setText(count);
  countLabel->setStyleSheet({});
  runButton->setEnabled(valid > 0);
  progress->setRange(0, std::max(1, valid));
  progress->setValue(0);
  refresh();
  emit planned(plannedCount(), valid);
}

int SweepPanel::validCount() const {
  return static_cast<int>(
      std::count_if(entries.begin(), entries.end(),
                    [](const Entry &e) { return e.candidate.valid; }));
}

void SweepPanel::start() {
  if (busy() || !current || !currentOp || planning())
    return;
  if (planOutdated) { // plan around the editor's config first
    stateLabel->setText("Planning around the editor's config; Run again "
                        "when the plan is in");
    plan();
    return;
  }
  if (validCount() == 0)
    return;
  auto iree = bench ? bench->iree()
                    : Result<tools::IreeInstallation>(
                          Error{"no IREE installation was given"});
  if (!iree) {
    stateLabel->setText("Cannot sweep: " + qs(iree.error()));
    return;
  }
  auto place = placeBox->place();
  if (!place) {
    stateLabel->setText("Cannot sweep: Time on " + qs(place.error()));
    return;
  }
  if (auto compileOn = compilePartition(); !compileOn) {
    stateLabel->setText("Cannot sweep: Compile on " + qs(compileOn.error()));
    return;
  }
  snapshot = std::make_shared<const document::Document>(*current);
  cancelFlag = std::make_shared<std::atomic<bool>>(false);
  sweep::SweepRequest r = request();
  r.cancel = cancelFlag.get();
  // Each candidate as it finishes: its thumbnail drawn here on the worker,
  // then handed to the GUI thread.
  QPointer<SweepPanel> self(this);
  const edit::OpRef op = *currentOp;
  r.onCandidate = [self, op](const sweep::SweepCandidate &c, size_t done,
                             size_t total) {
    auto arrival = std::make_shared<Arrival>();
    arrival->candidate = c;
    arrival->thumbnail = sweepThumbnail(c, op);
    arrival->done = done;
    arrival->total = total;
    QMetaObject::invokeMethod(
        qApp,
        [self, arrival] {
          if (self)
            self->onArrived(arrival);
        },
        Qt::QueuedConnection);
  };
  // A cluster's job array as it goes: queued, running, done.
  const QString sweepName = qs(r.name);
  r.onStatus = [self, sweepName,
                where = qs(r.place.toString())](const std::string &status) {
    QMetaObject::invokeMethod(
        qApp,
        [self, sweepName, where, text = qs(status)] {
          if (self && self->sweepRunning)
            self->stateLabel->setText(QString("Sweeping \"%1\" on %2: %3")
                                          .arg(sweepName, where, text));
        },
        Qt::QueuedConnection);
  };
  // And each candidate's task: queued, then running, in its row.
  r.onCandidatePhase = [self](const std::string &name,
                              const std::string &phase) {
    QMetaObject::invokeMethod(
        qApp,
        [self, name, phase = qs(phase)] {
          if (!self)
            return;
          if (auto found = self->byName.find(name);
              found != self->byName.end()) {
            self->entries[found->second].phase = phase;
            if (!self->refreshTimer->isActive())
              self->refreshTimer->start();
          }
        },
        Qt::QueuedConnection);
  };
  for (Entry &entry : entries)
    entry.phase.clear();
  done = 0;
  sweepRunning = true;
  setRunning(true);
  stateLabel->setText(QString("Sweeping \"%1\"…").arg(qs(r.name)));
  stateLabel->setStyleSheet({});
  // The worker holds the document and the cancel flag the request points
  // at. The workbench runs it: a root op of a whole program has each
  // candidate's dispatch tried alone, read by its parse worker.
  runWatcher->setFuture(
      QtConcurrent::run([bench = bench, r, document = snapshot,
                         cancel = cancelFlag]() -> Result<sweep::SweepResult> {
        auto swept = bench->runSweep(r);
        if (!swept)
          return Error{swept.refusal().message};
        return std::move(*swept);
      }));
}

void SweepPanel::stop() {
  if (cancelFlag)
    cancelFlag->store(true);
}

void SweepPanel::setRunning(bool running) {
  runButton->setEnabled(!running && validCount() > 0);
  stopButton->setEnabled(running);
  axesTable->setEnabled(!running);
  stageBox->setEnabled(!running);
  constraintsBox->setEnabled(!running);
  spaceBox->setEnabled(!running);
  nearestBox->setEnabled(!running);
  nameBox->setEnabled(!running);
  placeBox->setEnabled(!running);
  compileOnBox->setEnabled(!running && placeBox->place() &&
                           placeBox->place()->kind ==
                               run::RunPlace::Kind::Slurm);
}

void SweepPanel::onArrived(const std::shared_ptr<Arrival> &arrival) {
  auto found = byName.find(arrival->candidate.name);
  if (found == byName.end())
    return;
  Entry &entry = entries[found->second];
  entry.candidate = std::move(arrival->candidate);
  if (!arrival->thumbnail.isNull()) {
    entry.thumbnail = std::move(arrival->thumbnail);
    entry.icon = QIcon(QPixmap::fromImage(entry.thumbnail));
  }
  ++done;
  progress->setValue(std::min(progress->maximum(), done));
  if (!refreshTimer->isActive())
    refreshTimer->start();
}

void SweepPanel::onFinished() {
  auto result = runWatcher->result();
  sweepRunning = false;
  setRunning(false);
  refreshTimer->stop();
  if (!result) {
    stateLabel->setText("Sweep not run: " + qs(result.error()));
    stateLabel->setStyleSheet("color: #a61b1b;");
    refresh();
    emit finished(false, stateLabel->text());
    return;
  }
  for (sweep::SweepCandidate &c : result->candidates)
    if (auto found = byName.find(c.name); found != byName.end()) {
      Entry &entry = entries[found->second];
      const bool draw = entry.thumbnail.isNull() && c.valid && currentOp;
      entry.candidate = std::move(c);
      if (draw) {
        entry.thumbnail = sweepThumbnail(entry.candidate, *currentOp);
        entry.icon = QIcon(QPixmap::fromImage(entry.thumbnail));
      }
    }
  refresh();
  // Candidates IREE's constraints turned away count as done.
  if (!result->cancelled)
    progress->setValue(progress->maximum());
  QString summary = QString("%1 run, %2 from the history, %3 invalid")
                        .arg(result->ran)
                        .arg(result->resumed)
                        .arg(result->invalid);
  if (result->cancelled)
    summary = "Stopped: " + summary + "; run again to resume";
  summary += firstPlace();
  stateLabel->setText(summary);
  emit finished(result->cancelled, summary);
}

} // namespace tilescope::widgets
