#include "widgets/jobs/RunPanel.h"

#include "core/service/Sass.h"

#include "widgets/jobs/HistoryModel.h"
#include "widgets/jobs/RunPlaceBox.h"
#include "widgets/views/InstructionsView.h"
#include "widgets/views/TryComparisonView.h"

#include "core/edit/ConfigDiff.h"
#include "core/process/Workspace.h"
#include "core/run/BenchJob.h"
#include "core/run/CheckJob.h"
#include "core/service/CompileJob.h"
#include "core/tries/History.h"
#include "core/tries/ProfileComparison.h"
#include "core/tries/TryComparison.h"
#include "core/tries/TryJob.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace tilescope::widgets {

// What a job leaves for the GUI thread.
struct RunOutcome {
  bool ok = false;
  QString summary;
  QString command;
  QString details; // resources in words
  // The compiled kernels' instructions, read (empty where nothing compiled).
  CompiledInstructions instructions;
  std::vector<service::CompileDiagnostic> diagnostics;
  QString error; // the job could not start
};

namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

// A status in the fixed-width column: at most two lines of it, the whole
// of it on hover (and, for a finished job, at the end of the output).
void showState(QLabel *label, const QString &text) {
  const int width = std::max(label->width(), 200);
  label->setText(label->fontMetrics().elidedText(
      text, Qt::ElideRight, static_cast<int>(width * 1.7)));
  label->setToolTip(text);
}

// What a try says of its time: the prediction, how the time was taken,
// where its bundle is, and the profiler beside Tilescope.
QString timingDetails(const tries::TryResult &tried) {
  QString text;
  if (tried.record.prediction)
    text += "\nprediction: " + qs(tried.record.prediction->summary()) + "\n";
  if (!tried.bench)
    return text;
  const run::ModuleTiming &timing = tried.bench->timing;
  text += "\ntime: " + qs(tried.bench->summary()) + "\n";
  if (timing.timed())
    text += "method: " + qs(timing.method()) +
            "\nrun bundle: " + qs(tried.bench->bundle.string()) + "\n";
  if (!timing.profileError.empty())
    text += "profile: " + qs(timing.profileError) + "\n";
  if (tried.record.bench && !tried.record.bench->besideTilescope.empty())
    text += "profiler beside Tilescope (\"!\" where they differ):\n" +
            qs(tries::profileTable(tried.record.bench->besideTilescope));
  return text;
}

constexpr int kOpRole = Qt::UserRole;
constexpr int kFieldRole = Qt::UserRole + 1;
constexpr int kLineRole = Qt::UserRole + 2;

// The program a dispatch benchmark came from, by the examples' naming:
// DIR/NAME_dispatch_N.benchmark.mlir comes from DIR/../sources/NAME.mlir.
QString guessProgram(const std::filesystem::path &file) {
  const std::string stem = file.filename().string();
  const size_t at = stem.find("_dispatch_");
  if (at == std::string::npos)
    return {};
  const std::filesystem::path candidate = file.parent_path().parent_path() /
                                          "sources" /
                                          (stem.substr(0, at) + ".mlir");
  return std::filesystem::exists(candidate) ? qs(candidate.string())
                                            : QString();
}

// What the kernels' resources did since the previous try of the same file
// and op that read them: "since try 7: vgprs 128 → 200, occupancy 4 → 2".
QString sincePrevious(const std::filesystem::path &workspace,
                      const tries::TryRecord &record) {
  auto store = tries::History::open(tries::historyFile(workspace));
  if (!store || !record.resources)
    return {};
  auto previous = tries::previousWithResources(*store, record);
  if (!previous)
    return {};
  const tries::TryComparison comparison =
      tries::compareTries(*previous, record);
  QStringList changes;
  for (const tries::KernelComparison &kernel : comparison.kernels)
    for (const tries::ResourcePair &pair : kernel.resources)
      if (pair.changed())
        changes << QString("%1%2 %3 → %4")
                       .arg(comparison.kernels.size() > 1
                                ? qs(kernel.kernel) + " "
                                : QString())
                       .arg(qs(pair.key), resourceText(pair.a),
                            resourceText(pair.b));
  QString text = QString("\nSince try %1: ").arg(previous->id);
  if (comparison.configs.empty())
    text += "same configs; ";
  text += changes.isEmpty() ? "no resource changed" : changes.join(", ");
  return text + "\n";
}

// What a job needs before it starts: IREE, where the kernel runs (timed or
// checked; compiling stays here), a folder of its own and, for a checked
// run, the program; or the status line that says what is missing.
struct JobInputs {
  run::RunPlace place;
  std::filesystem::path directory;
  std::filesystem::path program;
};

Result<JobInputs> jobInputs(RunPanel::Job job,
                            const workbench::Workbench *bench,
                            const QString &program, const RunPlaceBox &places,
                            const std::filesystem::path &workspace) {
  using Job = RunPanel::Job;
  auto iree = bench ? bench->iree()
                    : Result<tools::IreeInstallation>(
                          Error{"no IREE installation was given"});
  if (!iree)
    return Error{"Cannot run: " + iree.error()};
  if (job == Job::Check && program.isEmpty())
    return Error{"Check: give the program the dispatch came from (Check "
                 "against …)"};
  const bool runs = job == Job::Run || job == Job::Profile || job == Job::Check;
  auto place = runs ? places.place() : Result<run::RunPlace>(run::RunPlace{});
  if (!place)
    return Error{"Cannot run: Run on " + place.error()};
  auto folder = process::newTryDirectory(workspace);
  if (!folder)
    return Error{"Cannot run: " + folder.error()};
  return JobInputs{std::move(*place), std::move(*folder),
                   program.toStdString()};
}

// A checked run of the program with the edited dispatch substituted, and
// the history's record of it.
std::shared_ptr<RunOutcome> checkedRun(const workbench::Workbench &bench,
                                       run::CheckRequest request,
                                       tries::TryRecord &record) {
  auto outcome = std::make_shared<RunOutcome>();
  const auto backends = service::documentBackends(*request.edited);
  const std::string backend = backends.empty() ? "" : backends.front();
  tries::placeCheck(request, backend, "");
  auto checked = bench.check(request);
  if (!checked) {
    outcome->error = qs(checked.refusal().message);
    return outcome;
  }
  outcome->ok = checked->passed() || checked->compiledOnly;
  outcome->summary = qs(checked->summary());
  for (const std::string &command : checked->commands)
    outcome->command += qs(command) + "\n";
  record = tries::checkRecord(request, *checked, *request.edited, backend);
  return outcome;
}

// A try up to its stage: what it says, the commands that reproduce it, the
// kernels' resources and its time in words, and its record.
std::shared_ptr<RunOutcome> triedRun(const workbench::Workbench &bench,
                                     const tries::TryRequest &request,
                                     tries::TryRecord &record) {
  auto outcome = std::make_shared<RunOutcome>();
  auto tried = bench.runTry(request);
  if (!tried) {
    outcome->error = qs(tried.refusal().message);
    return outcome;
  }
  outcome->ok = tried->succeeded() || !tried->cannotRun.empty();
  outcome->summary = qs(tried->record.summary);
  if (tried->record.outcome != "ok" || !tried->bench)
    outcome->summary = qs(tried->compiled.summary()) +
                       (tried->record.summary != tried->compiled.summary()
                            ? "; " + qs(tried->record.summary)
                            : QString());
  if (const auto &timed = tried->record.bench; timed && timed->efficiency)
    outcome->summary += QString("; %1% of the roofline floor (%2 bound)")
                            .arg(100 * *timed->efficiency, 0, 'f', 1)
                            .arg(qs(timed->boundBy));
  if (tried->alone && request.op) {
    outcome->summary = QString("dispatch %1 alone: ").arg(request.op->first) +
                       outcome->summary;
    outcome->command = qs(tried->alone->command) + "\n";
  }
  outcome->command += qs(tried->compiled.spec.shellCommand());
  if (tried->bench)
    outcome->command += "\n" + qs(tried->bench->spec.shellCommand());
  if (tried->record.resources) {
    for (const isa::KernelResources &kernel : tried->record.resources->kernels)
      outcome->details += qs(isa::describe(kernel));
    for (const std::string &note : tried->record.resources->notes)
      outcome->details += "note: " + qs(note) + "\n";
  }
  outcome->details += timingDetails(*tried);
  if (tried->compiled.succeeded()) {
    // The op's loops place its accumulators' cells (the instructions' link
    // to the Layout tab's picture).
    const config::IterationSpace *space = nullptr;
    const config::ImplicitGemm *igemm = nullptr;
    if (request.document && request.op &&
        request.op->first < request.document->dispatches.size()) {
      const auto &ops = request.document->dispatches[request.op->first].rootOps;
      if (request.op->second < ops.size() && ops[request.op->second].space) {
        const document::RootOp &op = ops[request.op->second];
        space = &*op.space;
        // A convolution on its IGEMM: its input and filter elements at the
        // IGEMM points that read them.
        if (op.onImplicitGemm && op.implicitGemm)
          igemm = &*op.implicitGemm;
      }
    }
    // NVIDIA kernels: the SASS of their PTX too (ptxas and nvdisasm).
    const service::SassFiles assembly =
        service::assemblyWithSass(tried->compiled.artifacts.assembly());
    for (const std::string &note : assembly.notes)
      outcome->details += "note: " + qs(note) + "\n";
    // Nsight Compute's source page where the run was profiled.
    std::vector<isa::ProfiledKernel> profiled;
    if (tried->bench && !tried->bench->timing.sourceCounters.empty()) {
      if (auto read = service::readSourceCountersFile(
              tried->bench->timing.sourceCounters, tried->bench->bundle))
        profiled = std::move(*read);
      else
        outcome->details += "note: " + qs(read.error()) + "\n";
    } else if (tried->bench &&
               !tried->bench->timing.sourceCountersError.empty()) {
      outcome->details +=
          "note: " + qs(tried->bench->timing.sourceCountersError) + "\n";
    }
    outcome->instructions =
        CompiledInstructions::read(assembly.files, space, igemm, profiled);
  }
  outcome->diagnostics = tried->compiled.diagnostics;
  record = tried->record;
  return outcome;
}

} // namespace

RunPanel::RunPanel(std::shared_ptr<const workbench::Workbench> bench,
                   std::filesystem::path workspace, QWidget *parent)
    : QWidget(parent), bench(std::move(bench)),
      workspaceFolder(workspace.empty() ? process::defaultWorkspace()
                                        : std::move(workspace)),
      watcher(new QFutureWatcher<std::shared_ptr<RunOutcome>>(this)) {
  auto *row = new QHBoxLayout(this);
  row->setContentsMargins(4, 4, 4, 4);
  row->addWidget(buildControls());
  row->addWidget(buildResultTabs(), 1);

  connect(watcher, &QFutureWatcher<std::shared_ptr<RunOutcome>>::finished, this,
          &RunPanel::onFinished);
  connect(diagnostics, &QListWidget::itemActivated, this,
          [this](QListWidgetItem *item) {
            const QPoint op = item->data(kOpRole).toPoint();
            if (op.x() < 0)
              return;
            emit fieldActivated(edit::OpRef{static_cast<size_t>(op.x()),
                                            static_cast<size_t>(op.y())},
                                item->data(kFieldRole).toString(),
                                item->data(kLineRole).toInt());
          });
  setDocument(nullptr, std::nullopt);
}

// The left column: what the job runs on and where, the job buttons, the
// checked run's program and the state of the last job; it scrolls in a
// short dock.
QWidget *RunPanel::buildControls() {
  targetLabel = new QLabel("No file");
  targetLabel->setObjectName("runTarget");
  deviceLabel = new QLabel;
  deviceLabel->setObjectName("runDevice");
  deviceLabel->setWordWrap(true);
  // A dock does not pass a wrapped label's height for its width on: room
  // for the two lines "Compile only here: ..." takes in a narrow panel.
  deviceLabel->setMinimumHeight(2 * deviceLabel->fontMetrics().lineSpacing() +
                                2);
  deviceLabel->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  stateLabel = new QLabel("Idle");
  stateLabel->setObjectName("runState");
  // Status lines wrap inside the column; they never widen it (a column
  // that grew with each message moved the tabs beside it).
  stateLabel->setWordWrap(true);
  stateLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  stateLabel->setMinimumHeight(2 * stateLabel->fontMetrics().lineSpacing() + 2);
  targetLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  deviceLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  programBox = new QLineEdit;
  programBox->setObjectName("checkProgram");
  programBox->setPlaceholderText("the program the dispatch came from");
  programBox->setToolTip("A checked run compiles this program with the "
                         "edited dispatch substituted and compares its "
                         "outputs with the CPU's");
  auto *browse = new QPushButton("…");
  browse->setMaximumWidth(28);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, "The program the dispatch came from", programBox->text(),
        "MLIR files (*.mlir);;All files (*)");
    if (!path.isEmpty())
      programBox->setText(path);
  });

  QGridLayout *buttonRow = buildJobButtons();
  auto *programRow = new QHBoxLayout;
  programRow->addWidget(new QLabel("Check against"));
  programRow->addWidget(programBox, 1);
  programRow->addWidget(browse);
  // Where Compile and run / Profile / Check run the kernel: here, a GPU
  // host over ssh, a Slurm partition (compiling stays here).
  placeBox = new RunPlaceBox;
  connect(placeBox, &QComboBox::currentTextChanged, this, [this] {
    if (current)
      refreshDevice();
  });
  auto *placeRow = new QHBoxLayout;
  placeRow->addWidget(new QLabel("Run on"));
  placeRow->addWidget(placeBox, 1);

  auto *left = new QVBoxLayout;
  left->addWidget(targetLabel);
  left->addWidget(deviceLabel);
  left->addLayout(buttonRow);
  left->addLayout(programRow);
  left->addLayout(placeRow);
  left->addWidget(stateLabel);
  left->addStretch(1);

  auto *leftWidget = new QWidget;
  leftWidget->setLayout(left);
  // One width, the buttons', whatever a status line says; in a short dock
  // (a 1280x800 screen) the column scrolls instead of squashing its buttons.
  auto *leftScroll = new QScrollArea;
  leftScroll->setWidget(leftWidget);
  leftScroll->setWidgetResizable(true);
  leftScroll->setFrameShape(QFrame::NoFrame);
  leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  leftScroll->setFixedWidth(
      std::max(300, left->sizeHint().width()) +
      leftScroll->verticalScrollBar()->sizeHint().width());
  return leftScroll;
}

// A button and a window-wide shortcut per job, then Cancel and Copy
// command.
QGridLayout *RunPanel::buildJobButtons() {
  struct Button {
    const char *text, *name, *tip;
    QKeySequence keys;
    Job job;
  };
  const Button buttons[] = {
      {"Compile", "compileButton",
       "Compile the file as it stands (edits included) with iree-compile",
       QKeySequence(Qt::CTRL | Qt::Key_B), Job::Compile},
      {"Resources", "resourcesButton",
       "Compile and read registers, spills, shared memory and occupancy "
       "from the real ISA",
       QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B), Job::Resources},
      {"Compile && run", "runButton",
       "Compile, read resources and time the dispatch on a device here",
       QKeySequence(Qt::CTRL | Qt::Key_R), Job::Run},
      {"Check", "checkButton",
       "Run the program with this dispatch on random inputs and compare "
       "with the CPU",
       QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), Job::Check},
      {"Profile", "profileButton",
       "Compile, time and read the kernel with the vendor's profiler (ncu, "
       "rocprofv3) where one is installed, beside Tilescope's prediction",
       QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_R), Job::Profile},
  };
  auto *buttonRow = new QGridLayout;
  int column = 0;
  for (const Button &b : buttons) {
    auto *button = new QPushButton(b.text);
    button->setObjectName(b.name);
    button->setToolTip(QString(b.tip) + " (" +
                       b.keys.toString(QKeySequence::NativeText) + ")");
    const Job job = b.job;
    connect(button, &QPushButton::clicked, this, [this, job] { start(job); });
    auto *action = new QAction(QString(b.text).replace("&&", "and"), this);
    action->setShortcut(b.keys);
    action->setShortcutContext(Qt::ApplicationShortcut);
    connect(action, &QAction::triggered, this, [this, job] { start(job); });
    addAction(action);
    jobButtons << button;
    // Four on the first row; Profile beside Cancel and Copy command.
    if (job == Job::Profile)
      buttonRow->addWidget(button, 1, 3);
    else
      buttonRow->addWidget(button, 0, column++);
  }
  cancelButton = new QPushButton("Cancel");
  cancelButton->setObjectName("cancelButton");
  cancelButton->setEnabled(false);
  connect(cancelButton, &QPushButton::clicked, this, &RunPanel::cancel);
  auto *copy = new QPushButton("Copy command");
  copy->setObjectName("copyCommandButton");
  copy->setToolTip("Copy the shell command that reproduces the last job");
  connect(copy, &QPushButton::clicked, this, [this] {
    if (!commandLine.isEmpty())
      QApplication::clipboard()->setText(commandLine);
  });
  buttonRow->addWidget(cancelButton, 1, 0);
  buttonRow->addWidget(copy, 1, 1, 1, 2);
  return buttonRow;
}

// The job's output, its diagnostics, the kernels' resources and the
// history of tries.
QTabWidget *RunPanel::buildResultTabs() {
  const QFont monospace = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  output = new QPlainTextEdit;
  output->setObjectName("jobOutput");
  output->setReadOnly(true);
  output->setFont(monospace);
  output->setMaximumBlockCount(20000);
  diagnostics = new QListWidget;
  diagnostics->setObjectName("jobDiagnostics");
  diagnostics->setWordWrap(true);
  resources = new QPlainTextEdit;
  resources->setObjectName("jobResources");
  resources->setReadOnly(true);
  resources->setFont(monospace);
  resources->setPlaceholderText("Compile with Resources or Compile && run to "
                                "read what the kernels use.");
  tabs = new QTabWidget;
  tabs->setObjectName("runTabs");
  tabs->addTab(output, "Output");
  tabs->addTab(diagnostics, "Diagnostics");
  tabs->addTab(resources, "Resources");
  instructions = new InstructionsView;
  tabs->addTab(instructions, "Instructions");
  connect(instructions, &InstructionsView::cellsChosen, this,
          &RunPanel::instructionCellsChosen);
  tabs->addTab(buildHistoryPage(), "History");
  return tabs;
}

// The tries of the open file (HistoryModel), to load one or compare two.
QWidget *RunPanel::buildHistoryPage() {
  tries = new HistoryModel(this);
  history = new QTableView;
  history->setObjectName("historyTable");
  history->setModel(tries);
  history->verticalHeader()->hide();
  history->setEditTriggers(QAbstractItemView::NoEditTriggers);
  history->setSelectionBehavior(QAbstractItemView::SelectRows);
  history->setSelectionMode(QAbstractItemView::ExtendedSelection);
  history->horizontalHeader()->setStretchLastSection(true);
  history->setWordWrap(false);
  history->setToolTip("Double-click a try to load its configs into the "
                      "editor (one undoable step); pick two (Ctrl+click) to "
                      "compare them");
  connect(history, &QTableView::doubleClicked, this,
          [this](const QModelIndex &at) {
            emit tryActivated(tries->tryAt(at.row()));
          });
  compareButton = new QPushButton("Compare the two selected");
  compareButton->setObjectName("compareButton");
  compareButton->setToolTip("Two tries side by side: configs, resources, "
                            "pictures and times");
  compareButton->setEnabled(false);
  connect(history->selectionModel(), &QItemSelectionModel::selectionChanged,
          this,
          [this] { compareButton->setEnabled(selectedTries().size() == 2); });
  connect(compareButton, &QPushButton::clicked, this, [this] {
    QList<long long> picked = selectedTries();
    if (picked.size() != 2)
      return;
    std::sort(picked.begin(), picked.end());
    emit compareRequested(picked[0], picked[1]);
  });
  auto *loadButton = new QPushButton("Load into the editor");
  loadButton->setObjectName("loadTryButton");
  connect(loadButton, &QPushButton::clicked, this, [this] {
    const QList<long long> picked = selectedTries();
    if (picked.size() == 1)
      emit tryActivated(picked.front());
  });
  auto *historyPage = new QWidget;
  auto *historyColumn = new QVBoxLayout(historyPage);
  historyColumn->setContentsMargins(0, 0, 0, 0);
  historyColumn->addWidget(history, 1);
  auto *historyButtons = new QHBoxLayout;
  historyButtons->addWidget(compareButton);
  historyButtons->addWidget(loadButton);
  historyButtons->addStretch(1);
  historyColumn->addLayout(historyButtons);
  return historyPage;
}

RunPanel::~RunPanel() {
  cancel();
  watcher->waitForFinished();
}

void RunPanel::setDocument(const document::Document *document,
                           std::optional<edit::OpRef> op,
                           const document::Document *original) {
  const bool newFile = !document || document->path != currentPath;
  current = document;
  currentPath = document ? document->path : std::filesystem::path();
  currentOp = op;
  if (!busy())
    for (QPushButton *button : jobButtons)
      button->setEnabled(document != nullptr);
  if (!document) {
    targetLabel->setText("No file open");
    deviceLabel->clear();
    return;
  }
  if (newFile) {
    originalConfigs = tries::documentFromConfigs(
        tries::configsOf(original ? *original : *document));
    if (programBox->text().isEmpty() ||
        programBox->property("guessed").toBool()) {
      programBox->setText(guessProgram(document->path));
      programBox->setProperty("guessed", true);
    }
    refreshDevice();
    refreshHistory();
  }
}

bool RunPanel::showInstructionsOfCell(const std::vector<int64_t> &point) {
  if (!instructions->showCell(point))
    return false;
  tabs->setCurrentWidget(instructions);
  return true;
}

void RunPanel::setProgram(const QString &path) {
  programBox->setText(path);
  programBox->setProperty("guessed", false);
}

// What runs where: the file's backend, and the device discovery found for
// it (or why GPU dispatches are compile-only here).
void RunPanel::refreshDevice() {
  const auto backends = service::documentBackends(*current);
  if (backends.empty()) {
    targetLabel->setText("Target: none in the file (a program: configure it "
                         "for a target first)");
    deviceLabel->clear();
    return;
  }
  targetLabel->setText("Target: " + qs(backends.front()));
  // Timed elsewhere: that place's device, whatever this machine has.
  if (auto place = placeBox->place(); place && !place->local()) {
    deviceLabel->setText("Runs " + qs(place->where()) +
                         " (compiled here, the module sent as a run bundle)");
    deviceLabel->setToolTip({});
    deviceLabel->setStyleSheet({});
    return;
  }
  if (!discovery)
    discovery = devices::discoverGpus();
  auto device = run::deviceForBackend(backends.front(), *discovery);
  if (device)
    deviceLabel->setText("Runs on: " + qs(*device));
  else
    // The reason's first clause; the runtime's own words in the tooltip.
    deviceLabel->setText("Compile only here: " +
                         qs(device.error()).section(" (", 0, 0));
  deviceLabel->setToolTip(device ? QString() : qs(device.error()));
  deviceLabel->setStyleSheet(device ? "" : "color: #8a5a00;");
}

bool RunPanel::busy() const { return watcher->isRunning(); }

void RunPanel::setBusy(bool running) {
  for (QPushButton *button : jobButtons)
    button->setEnabled(!running && current);
  cancelButton->setEnabled(running);
}

void RunPanel::cancel() {
  if (cancelFlag)
    cancelFlag->store(true);
}

void RunPanel::append(const QString &text) {
  output->moveCursor(QTextCursor::End);
  output->insertPlainText(text);
  output->verticalScrollBar()->setValue(output->verticalScrollBar()->maximum());
}

void RunPanel::start(Job job) {
  if (busy() || !current)
    return;
  auto inputs = jobInputs(job, bench.get(), programBox->text(), *placeBox,
                          workspaceFolder);
  if (!inputs) {
    showState(stateLabel, qs(inputs.error()));
    return;
  }
  snapshot = std::make_unique<document::Document>(*current);
  cancelFlag = std::make_shared<std::atomic<bool>>(false);
  output->clear();
  diagnostics->clear();
  stateLabel->setStyleSheet({});
  setBusy(true);
  static const char *names[] = {"Compiling", "Compiling for resources",
                                "Compiling and running", "Checking",
                                "Compiling, running and profiling"};
  showState(stateLabel, QString(names[static_cast<int>(job)]) + "…");
  tabs->setCurrentWidget(output);

  // Live output and steps come from the worker thread; they are queued to
  // this one.
  QPointer<RunPanel> self(this);
  auto post = [self](QString text) {
    QMetaObject::invokeMethod(
        qApp,
        [self, text] {
          if (self)
            self->append(text);
        },
        Qt::QueuedConnection);
  };
  const document::Document *document = snapshot.get();
  const std::optional<edit::OpRef> op = currentOp;
  const std::filesystem::path workspace = workspaceFolder;
  auto cancel = cancelFlag;
  // The job holds the workbench: a root op of a whole program is tried on
  // its dispatch alone, read back by its parse worker (runTry decides).
  watcher->setFuture(QtConcurrent::run([=, bench = bench, place = inputs->place,
                                        directory = inputs->directory,
                                        program = inputs->program]() {
    auto onOutput = [post](std::string_view text, bool) {
      post(QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
    };
    auto onStep = [post](const std::string &step) {
      post("── " + qs(step) + "\n");
    };
    tries::TryRecord record;
    std::shared_ptr<RunOutcome> outcome;
    if (job == Job::Check) {
      run::CheckRequest request;
      request.program = program;
      request.edited = document;
      request.directory = directory;
      request.cancel = cancel.get();
      request.progress = onStep;
      request.place = place;
      outcome = checkedRun(*bench, std::move(request), record);
    } else {
      tries::TryRequest request;
      request.document = document;
      if (op)
        request.op = std::pair{op->dispatch, op->op};
      request.upTo = job == Job::Compile     ? tries::TryStage::Compile
                     : job == Job::Resources ? tries::TryStage::Resources
                                             : tries::TryStage::Bench;
      if (job == Job::Profile)
        request.profile = "on";
      request.place = place;
      request.directory = directory;
      request.cancel = cancel.get();
      request.onOutput = onOutput;
      request.onStep = onStep;
      outcome = triedRun(*bench, request, record);
    }
    if (!outcome->error.isEmpty())
      return outcome;
    auto id = tries::recordTry(workspace, record);
    if (!id) {
      outcome->summary += " (not recorded: " + qs(id.error()) + ")";
      return outcome;
    }
    record.id = *id;
    outcome->details += sincePrevious(workspace, record);
    return outcome;
  }));
}

void RunPanel::onFinished() {
  std::shared_ptr<RunOutcome> outcome = watcher->result();
  setBusy(false);
  snapshot.reset();
  if (!outcome->error.isEmpty()) {
    summaryLine = "Could not start: " + outcome->error;
    showState(stateLabel, summaryLine);
    emit finished(false, summaryLine);
    return;
  }
  summaryLine = outcome->summary;
  commandLine = outcome->command.trimmed();
  // The whole line ends the output; the label holds its start.
  append("══ " + summaryLine + "\n");
  showState(stateLabel, summaryLine);
  stateLabel->setStyleSheet(outcome->ok ? "" : "color: #a61b1b;");
  if (!outcome->details.isEmpty())
    resources->setPlainText(outcome->details);
  if (!outcome->instructions.files.empty())
    instructions->show(outcome->instructions);
  for (const service::CompileDiagnostic &d : outcome->diagnostics) {
    auto *item = new QListWidgetItem(qs(d.toString()), diagnostics);
    size_t dispatch = 0;
    bool found = false;
    if (current)
      for (size_t i = 0; i < current->dispatches.size() && !found; ++i)
        if (current->dispatches[i].name == d.dispatch) {
          dispatch = i;
          found = true;
        }
    item->setData(kOpRole, found && d.rootOp >= 0
                               ? QPoint(static_cast<int>(dispatch), d.rootOp)
                               : QPoint(-1, -1));
    item->setData(kFieldRole, qs(d.field));
    item->setData(kLineRole, d.diagnostic.line);
  }
  if (!outcome->diagnostics.empty())
    tabs->setCurrentWidget(diagnostics);
  else if (!outcome->details.isEmpty() && outcome->ok)
    tabs->setCurrentWidget(resources);
  refreshHistory();
  emit finished(outcome->ok, summaryLine);
}

QList<long long> RunPanel::selectedTries() const {
  QList<long long> ids;
  for (const QModelIndex &row : history->selectionModel()->selectedRows())
    ids << tries->tryAt(row.row());
  return ids;
}

void RunPanel::refreshHistory() {
  if (!current) {
    tries->clear();
    return;
  }
  std::vector<tries::TryRecord> records;
  if (auto store = tries::History::open(tries::historyFile(workspaceFolder))) {
    tries::HistoryFilter filter;
    filter.document = current->path.string();
    filter.limit = 200;
    if (auto listed = store->list(filter))
      records = std::move(*listed);
  }
  tries->show(records, originalConfigs);
  history->resizeColumnsToContents();
}

} // namespace tilescope::widgets
