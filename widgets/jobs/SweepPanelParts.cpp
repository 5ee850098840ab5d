// The sweep panel's widgets, made once by its constructor: what to vary
// and how, Run and Stop with the progress, and the ranked candidates beside
// their plot.
#include "widgets/jobs/SweepPanel.h"

#include "core/tries/TryJob.h"
#include "widgets/jobs/RunPlaceBox.h"
#include "widgets/jobs/SweepPlanning.h"
#include "widgets/jobs/SweepPlot.h"
#include "widgets/jobs/SweepResultsModel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <thread>

namespace tilescope::widgets {

// What to vary: the axes (a field and its values each) and how the sweep
// runs (name, stage, IREE's constraints and space, where it runs).
QWidget *SweepPanel::buildSettings() {
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

  auto *settings = new QVBoxLayout;
  settings->setContentsMargins(0, 0, 4, 0);
  settings->addWidget(axesTable, 1);
  settings->addLayout(axisButtons);
  settings->addLayout(buildOptions());
  auto *leftWidget = new QWidget;
  leftWidget->setLayout(settings);

  leftWidget->setMinimumWidth(380);
  leftWidget->setMaximumWidth(480);
  axesTable->setMinimumHeight(84);
  return leftWidget;
}

// The sweep's name, stage and parallelism, IREE's constraints and space,
// and where the candidates are timed and compiled.
QGridLayout *SweepPanel::buildOptions() {
  nameBox = new QLineEdit;
  nameBox->setObjectName("sweepName");
  nameBox->setToolTip("The sweep's name in the history; running a sweep of "
                      "the same name again resumes it");
  stageBox = new QComboBox;
  stageBox->setObjectName("sweepStage");
  stageBox->addItem("Compile and read resources",
                    static_cast<int>(tries::TryStage::Resources));
  stageBox->addItem("Compile, read resources and time",
                    static_cast<int>(tries::TryStage::Bench));
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
                             place->kind == run::RunPlace::Kind::Slurm);
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

  return form;
}

// Run and Stop with the progress and the plan's count at the top, however
// short the dock; the settings scroll below them.
QWidget *SweepPanel::buildRunColumn(QWidget *settings) {
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
  // The settings scroll in a short dock rather than holding the whole
  // bottom of the window at their height.
  auto *leftScroll = new QScrollArea;
  leftScroll->setWidget(settings);
  leftScroll->setWidgetResizable(true);
  leftScroll->setFrameShape(QFrame::NoFrame);
  leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  left->addWidget(leftScroll, 1);
  auto *leftColumn = new QWidget;
  leftColumn->setLayout(left);
  leftColumn->setMinimumWidth(396);
  leftColumn->setMaximumWidth(496);
  return leftColumn;
}

// The ranked candidates (SweepResultsModel) beside their plot.
QSplitter *SweepPanel::buildResults() {
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
  return right;
}

} // namespace tilescope::widgets
