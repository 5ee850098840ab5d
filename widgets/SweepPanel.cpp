#include "widgets/SweepPanel.h"
#include "widgets/RunPlaceBox.h"

#include "core/devices/GpuDiscovery.h"
#include "core/edit/ConfigDiff.h"
#include "core/process/Workspace.h"
#include "core/run/BenchJob.h"
#include "core/service/CompileJob.h"
#include "core/sweep/Neighbours.h"
#include "widgets/SweepPlanning.h"
#include "widgets/SweepPlot.h"
#include "widgets/SweepResultsModel.h"
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
  jobs::SweepCandidate candidate;
  QImage thumbnail;
  size_t done = 0, total = 0;
};

SweepPanel::SweepPanel(InstallationSource source,
                       std::filesystem::path workspace, QWidget *parent)
    : QWidget(parent), installation(std::move(source)),
      workspaceFolder(workspace.empty() ? jobs::defaultWorkspace()
                                        : std::move(workspace)),
      planAnswer(std::make_unique<LatestAnswer<std::shared_ptr<SweepPlan>>>(
          [this](std::shared_ptr<SweepPlan> answer) {
            onPlanned(std::move(answer));
          })),
      runWatcher(new QFutureWatcher<Result<jobs::SweepResult>>(this)),
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

  axesTable = new QTableWidget(0, 2);
  axesTable->setObjectName("sweepAxes");
  axesTable->setHorizontalHeaderLabels({"Field", "Values (comma-separated)"});
  axesTable->verticalHeader()->hide();
  axesTable->horizontalHeader()->setStretchLastSection(true);
  axesTable->setToolTip("Every combination of these values is a candidate; "
                        "edit a cell to change the sweep");
  connect(axesTable, &QTableWidget::itemChanged, planTimer,
          qOverload<>(&QTimer::start));
  fieldBox = new QComboBox;
  fieldBox->setObjectName("sweepFieldBox");
  fieldBox->setToolTip("A field of the op's config to vary");
  auto *addButton = new QPushButton("Add");
  connect(addButton, &QPushButton::clicked, this,
          [this] { addAxis(fieldBox->currentText()); });
  auto *removeButton = new QPushButton("Remove");
  connect(removeButton, &QPushButton::clicked, this, [this] {
    if (axesTable->currentRow() >= 0) {
      axesTable->removeRow(axesTable->currentRow());
      planTimer->start();
    }
  });
  auto *neighbours = new QPushButton("Neighbours");
  neighbours->setToolTip("Each non-zero workgroup and reduction entry "
                         "halved, kept and doubled");
  connect(neighbours, &QPushButton::clicked, this,
          &SweepPanel::resetToNeighbours);
  auto *axisButtons = new QHBoxLayout;
  axisButtons->addWidget(fieldBox, 1);
  axisButtons->addWidget(addButton);
  axisButtons->addWidget(removeButton);
  axisButtons->addWidget(neighbours);

  nameBox = new QLineEdit;
  nameBox->setObjectName("sweepName");
  nameBox->setToolTip("The sweep's name in the history; running a sweep of "
                      "the same name again resumes it");
  stageBox = new QComboBox;
  stageBox->setObjectName("sweepStage");
  stageBox->addItem("Compile and read resources",
                    static_cast<int>(jobs::TryStage::Resources));
  stageBox->addItem("Compile, read resources and time",
                    static_cast<int>(jobs::TryStage::Bench));
  parallelBox = new QSpinBox;
  parallelBox->setObjectName("sweepParallel");
  parallelBox->setRange(1, 64);
  parallelBox->setValue(
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  constraintsBox = new QCheckBox("Ask IREE's pipeline constraints first");
  constraintsBox->setObjectName("sweepAskIree");
  constraintsBox->setToolTip(
      "Check each candidate the rules let through against the constraints "
      "IREE states for the op (the pinned iree-opt); one they reject is "
      "invalid, named by IREE's assert, and never compiled");
  connect(constraintsBox, &QCheckBox::toggled, planTimer,
          qOverload<>(&QTimer::start));
  spaceBox = new QCheckBox("Candidates from IREE's constraints, nearest");
  spaceBox->setObjectName("sweepFromIreeSpace");
  spaceBox->setToolTip(
      "Instead of every combination of the values above: the knob "
      "assignments IREE's pipeline constraints allow for the op (stated by "
      "the pinned iree-opt, listed by Tilescope), the fields above varied "
      "(all of them when there are none) and the others held, the nearest "
      "to the config first. Where IREE states no constraints the config "
      "fits, the values above are tried, and the plan says why. The "
      "command line's sweep does the same when no --vary is given.");
  spaceBox->setChecked(true);
  connect(spaceBox, &QCheckBox::toggled, planTimer,
          qOverload<>(&QTimer::start));
  // From IREE's constraints only the fields count: the values are theirs.
  auto valuesHeader = [this](bool fromSpace) {
    axesTable->setHorizontalHeaderLabels(
        {"Field", fromSpace ? "Values (where IREE's constraints give none)"
                            : "Values (comma-separated)"});
  };
  connect(spaceBox, &QCheckBox::toggled, this, valuesHeader);
  valuesHeader(spaceBox->isChecked());
  nearestBox = new QSpinBox;
  nearestBox->setObjectName("sweepNearest");
  nearestBox->setRange(1, 4096);
  nearestBox->setValue(32);
  nearestBox->setToolTip("How many of IREE's assignments to try, nearest to "
                         "the config first");
  connect(nearestBox, &QSpinBox::valueChanged, planTimer,
          qOverload<>(&QTimer::start));
  // Where the candidates are timed: here, a GPU host over ssh, or a Slurm
  // partition (every candidate compiled here, then one job array).
  placeBox = new RunPlaceBox;
  placeBox->setObjectName("sweepPlace");
  compileOnBox = new QLineEdit;
  compileOnBox->setObjectName("sweepCompileOn");
  compileOnBox->setPlaceholderText("here");
  compileOnBox->setToolTip(
      "With Time on a Slurm partition: slurm:PARTITION compiles the "
      "candidates there too (normally CPU nodes), as a job array of its own "
      "that the run array's tasks wait for; the compiler must be on the "
      "filesystem the nodes share. Empty: every candidate compiles here "
      "first.");
  const auto showCompilePlace = [this] {
    const auto place = placeBox->place();
    compileOnBox->setEnabled(place &&
                             place->kind == jobs::RunPlace::Kind::Slurm);
  };
  connect(placeBox, &QComboBox::currentTextChanged, this, showCompilePlace);
  showCompilePlace();
  auto *form = new QGridLayout;
  form->addWidget(new QLabel("Name"), 0, 0);
  form->addWidget(nameBox, 0, 1, 1, 3);
  form->addWidget(stageBox, 1, 0, 1, 2);
  form->addWidget(new QLabel("at a time"), 1, 2, Qt::AlignRight);
  form->addWidget(parallelBox, 1, 3);
  form->addWidget(constraintsBox, 2, 0, 1, 4);
  form->addWidget(spaceBox, 3, 0, 1, 3);
  form->addWidget(nearestBox, 3, 3);
  form->addWidget(new QLabel("Time on"), 4, 0);
  form->addWidget(placeBox, 4, 1, 1, 3);
  form->addWidget(new QLabel("Compile on"), 5, 0);
  form->addWidget(compileOnBox, 5, 1, 1, 3);
  form->setColumnStretch(1, 1);

  countLabel = new QLabel("No root op selected");
  countLabel->setObjectName("sweepCount");
  countLabel->setWordWrap(true);
  runButton = new QPushButton("Run sweep");
  runButton->setObjectName("sweepRunButton");
  runButton->setToolTip("Run the valid candidates not yet finished under "
                        "this sweep's name");
  connect(runButton, &QPushButton::clicked, this, &SweepPanel::start);
  stopButton = new QPushButton("Stop");
  stopButton->setObjectName("sweepStopButton");
  stopButton->setEnabled(false);
  stopButton->setToolTip("Stop after the running candidates; run the sweep "
                         "again to resume");
  connect(stopButton, &QPushButton::clicked, this, &SweepPanel::stop);
  progress = new QProgressBar;
  progress->setObjectName("sweepProgress");
  progress->setRange(0, 1);
  progress->setValue(0);
  stateLabel = new QLabel;
  stateLabel->setObjectName("sweepState");
  stateLabel->setWordWrap(true);
  auto *runRow = new QHBoxLayout;
  runRow->addWidget(runButton);
  runRow->addWidget(stopButton);
  runRow->addWidget(progress, 1);

  // What a run does and the button that starts it stay at the top of the
  // dock however short it is; what to vary scrolls below them.
  auto *left = new QVBoxLayout;
  left->setContentsMargins(0, 0, 0, 0);
  left->addLayout(runRow);
  left->addWidget(countLabel);
  left->addWidget(stateLabel);
  auto *settings = new QVBoxLayout;
  settings->setContentsMargins(0, 0, 4, 0);
  settings->addWidget(axesTable, 1);
  settings->addLayout(axisButtons);
  settings->addLayout(form);
  auto *leftWidget = new QWidget;
  leftWidget->setLayout(settings);

  candidates = new SweepResultsModel(this);
  results = new QTableView;
  results->setObjectName("sweepResults");
  results->setModel(candidates);
  results->verticalHeader()->hide();
  results->verticalHeader()->setDefaultSectionSize(kSweepThumbnail.height() +
                                                   4);
  results->setIconSize(kSweepThumbnail);
  results->setEditTriggers(QAbstractItemView::NoEditTriggers);
  results->setSelectionBehavior(QAbstractItemView::SelectRows);
  results->setSelectionMode(QAbstractItemView::SingleSelection);
  results->horizontalHeader()->setStretchLastSection(true);
  results->setColumnWidth(1, kSweepThumbnail.width() + 8);
  results->setToolTip("Ranked: fastest first (compile-only: most waves, "
                      "then fewest registers); double-click to load one "
                      "into the editor");
  connect(results, &QTableView::doubleClicked, this,
          [this](const QModelIndex &at) { loadRanked(at.row()); });
  loadButton = new QPushButton("Load into the editor");
  loadButton->setObjectName("sweepLoadButton");
  connect(loadButton, &QPushButton::clicked, this, [this] {
    if (results->currentIndex().isValid())
      loadRanked(results->currentIndex().row());
  });
  plotAxisBox = new QComboBox;
  plotAxisBox->setObjectName("sweepPlotAxis");
  connect(plotAxisBox, &QComboBox::currentIndexChanged, this,
          &SweepPanel::refreshPlot);
  plot = new SweepPlot;
  plot->setObjectName("sweepPlot");
  connect(plot, &SweepPlot::pointClicked, this, [this](int id) {
    const std::vector<int> order = ranked();
    auto at = std::find(order.begin(), order.end(), id);
    if (at != order.end())
      results->selectRow(static_cast<int>(at - order.begin()));
  });
  connect(results->selectionModel(), &QItemSelectionModel::selectionChanged,
          this, [this] {
            const std::vector<int> order = ranked();
            const int row = results->currentIndex().isValid()
                                ? results->currentIndex().row()
                                : -1;
            plot->setSelected(row >= 0 && row < static_cast<int>(order.size())
                                  ? order[row]
                                  : -1);
          });
  auto *plotRow = new QHBoxLayout;
  plotRow->addWidget(new QLabel("Plot against"));
  plotRow->addWidget(plotAxisBox, 1);
  plotRow->addWidget(loadButton);
  auto *plotBox = new QWidget;
  auto *plotColumn = new QVBoxLayout(plotBox);
  plotColumn->setContentsMargins(0, 0, 0, 0);
  plotColumn->addLayout(plotRow);
  plotColumn->addWidget(plot, 1);

  auto *right = new QSplitter(Qt::Horizontal);
  right->addWidget(results);
  right->addWidget(plotBox);
  right->setStretchFactor(0, 3);
  right->setStretchFactor(1, 2);
  auto *row = new QHBoxLayout(this);
  row->setContentsMargins(4, 4, 4, 4);
  leftWidget->setMinimumWidth(380);
  leftWidget->setMaximumWidth(480);
  axesTable->setMinimumHeight(84);
  // The settings scroll in a short dock rather than holding the whole
  // bottom of the window at their height.
  auto *leftScroll = new QScrollArea;
  leftScroll->setWidget(leftWidget);
  leftScroll->setWidgetResizable(true);
  leftScroll->setFrameShape(QFrame::NoFrame);
  leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  left->addWidget(leftScroll, 1);
  auto *leftColumn = new QWidget;
  leftColumn->setLayout(left);
  leftColumn->setMinimumWidth(396);
  leftColumn->setMaximumWidth(496);
  row->addWidget(leftColumn);
  row->addWidget(right, 1);

  connect(runWatcher, &QFutureWatcher<Result<jobs::SweepResult>>::finished,
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
    const auto backends = jobs::documentBackends(*current);
    static const devices::GpuDiscovery discovery = devices::discoverGpus();
    const bool timed = !backends.empty() &&
                       jobs::deviceForBackend(backends.front(), discovery).ok();
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
  for (const jobs::SweepAxis &axis :
       jobs::neighbourAxes(*current, *currentOp)) {
    QStringList values;
    for (const std::string &v : axis.values)
      values << qs(v);
    lines << qs(axis.field) + "=" + values.join(",");
  }
  setAxes(lines);
}

void SweepPanel::fillFieldChoices() {
  fieldBox->clear();
  const document::Dispatch &dispatch = current->dispatches[currentOp->dispatch];
  for (const auto &[field, values] :
       sweepFieldChoices(dispatch, dispatch.rootOps[currentOp->op])) {
    fieldBox->addItem(field, values);
  }
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
    if (auto axis = jobs::parseSweepAxis(line.toStdString()); !axis)
      return qs(axis.error());
  return axes().isEmpty() ? "Add a field to vary" : QString();
}

jobs::SweepRequest SweepPanel::request() const {
  jobs::SweepRequest r;
  r.document = snapshot.get();
  if (currentOp)
    r.op = *currentOp;
  for (const QString &line : axes())
    if (auto axis = jobs::parseSweepAxis(line.toStdString()))
      r.axes.push_back(*axis);
  r.name = nameBox->text().trimmed().toStdString();
  if (spaceBox->isChecked() && !plannedPoints.empty()) {
    r.points = plannedPoints;
    if (r.name.empty() && snapshot && currentOp)
      r.name = jobs::spaceSweepName(*snapshot, *currentOp, varyFields(),
                                    static_cast<size_t>(nearestBox->value()));
  }
  if (r.name.empty() && snapshot && currentOp)
    r.name = jobs::defaultSweepName(*snapshot, *currentOp, r.axes);
  r.upTo = static_cast<jobs::TryStage>(stageBox->currentData().toInt());
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
  if (!place || place->kind != jobs::RunPlace::Kind::Slurm)
    return std::string();
  return jobs::compilePartitionOf(
      compileOnBox->text().trimmed().toStdString(), *place,
      static_cast<jobs::TryStage>(stageBox->currentData().toInt()),
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
  snapshot = std::make_shared<const document::Document>(*current);
  planOutdated = false;
  nameBox->setPlaceholderText(qs(request().name));
  countLabel->setText("Planning…");
  countLabel->setStyleSheet({});
  runButton->setEnabled(false);
  std::optional<jobs::IreeSpaceRequest> space;
  if (spaceBox->isChecked()) {
    space.emplace();
    space->document = snapshot.get();
    space->op = *currentOp;
    space->vary = varyFields();
    space->nearest = static_cast<size_t>(nearestBox->value());
  }
  // IREE is located here (cheap), asked on the worker.
  std::optional<tools::IreeInstallation> iree;
  if ((space || constraintsBox->isChecked()) && installation)
    if (auto found = installation())
      iree = std::move(*found);
  // `document` keeps the request's document alive while the plan runs.
  planAnswer->ask([r = request(), op = *currentOp, document = snapshot, iree,
                   space](const std::atomic<bool> *) {
    return std::make_shared<SweepPlan>(planForPanel(r, op, iree, space));
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
  auto iree = installation ? installation()
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
  jobs::SweepRequest r = request();
  r.cancel = cancelFlag.get();
  // A root op of a whole program: each candidate's dispatch is tried alone.
  if (workerSource)
    if (auto worker = workerSource())
      r.worker = std::move(*worker);
  // Each candidate as it finishes: its thumbnail drawn here on the worker,
  // then handed to the GUI thread.
  QPointer<SweepPanel> self(this);
  const edit::OpRef op = *currentOp;
  r.onCandidate = [self, op](const jobs::SweepCandidate &c, size_t done,
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
  // The worker holds the document and the cancel flag the request points at.
  runWatcher->setFuture(QtConcurrent::run(
      [iree = *iree, r, document = snapshot, cancel = cancelFlag] {
        return jobs::runSweep(iree, r);
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
                               jobs::RunPlace::Kind::Slurm);
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
  for (jobs::SweepCandidate &c : result->candidates)
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
