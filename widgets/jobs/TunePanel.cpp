#include "widgets/jobs/TunePanel.h"

#include "core/service/IreeCommands.h"
#include "core/tune/TuneReport.h"
#include "widgets/jobs/RunPlaceBox.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

const QStringList kColumns{"Dispatch", "Op",      "Share",  "IREE default",
                           "Winner",   "Speedup", "Outcome"};

} // namespace

TunePanel::TunePanel(std::shared_ptr<const workbench::Workbench> bench,
                     QWidget *parent)
    : QWidget(parent), bench(std::move(bench)), programEdit(new QLineEdit),
      targetBox(new QComboBox), budgetBox(new QSpinBox),
      candidatesBox(new QSpinBox), placeBox(new RunPlaceBox),
      browseButton(new QPushButton("Program…")),
      startButton(new QPushButton("Tune")), stopButton(new QPushButton("Stop")),
      progressLabel(new QLabel), summaryText(new QPlainTextEdit),
      table(new QTableView), model(new QStandardItemModel(0, 7, this)),
      watcher(new QFutureWatcher<Result<tune::TuneResult>>(this)) {
  setObjectName("tunePanel");
  programEdit->setPlaceholderText(
      "a program: linalg, torch or ONNX-imported MLIR");
  targetBox->setEditable(true);
  targetBox->addItems({"llvm-cpu", "gfx942", "sm_90", "gfx950", "sm_80"});
  targetBox->setToolTip("What the program is configured and compiled for; "
                        "its dispatches are timed where its device is here, "
                        "else compiled and predicted.");
  budgetBox->setRange(1, static_cast<int>(tune::TuneLimits::kMaxBudgetMinutes));
  budgetBox->setValue(30);
  budgetBox->setSuffix(" min");
  budgetBox->setToolTip("No new dispatch is swept after this.");
  candidatesBox->setRange(1,
                          static_cast<int>(tune::TuneLimits::kMaxCandidates));
  candidatesBox->setValue(8);
  candidatesBox->setToolTip("Candidates per kind of dispatch, nearest IREE's "
                            "config first.");
  placeBox->setObjectName("tunePlace");
  placeBox->setToolTip("Where the dispatches' timed runs, the winners' "
                       "checked runs and the program end to end go: here, "
                       "a GPU host over ssh or a Slurm partition (compiling "
                       "stays here).");
  stopButton->setEnabled(false);
  model->setHorizontalHeaderLabels(kColumns);
  table->setModel(model);
  table->setObjectName("tuneTable");
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->verticalHeader()->hide();
  table->horizontalHeader()->setStretchLastSection(true);
  summaryText->setReadOnly(true);
  summaryText->setObjectName("tuneSummary");
  summaryText->setPlaceholderText(
      "The spec, IREE's proof that it applies it, and the program with and "
      "without it, checked and timed end to end.");
  progressLabel->setWordWrap(true);

  // Two rows, so the dock asks no more width of the window than before
  // the place was added: what to tune, then how and where.
  auto *what = new QHBoxLayout;
  what->addWidget(programEdit, 3);
  what->addWidget(browseButton);
  what->addWidget(new QLabel("Target"));
  what->addWidget(targetBox, 1);
  auto *how = new QHBoxLayout;
  how->addWidget(new QLabel("Budget"));
  how->addWidget(budgetBox);
  how->addWidget(new QLabel("Candidates"));
  how->addWidget(candidatesBox);
  how->addWidget(new QLabel("Run on"));
  how->addWidget(placeBox, 1);
  how->addWidget(startButton);
  how->addWidget(stopButton);
  auto *choices = new QVBoxLayout;
  choices->addLayout(what);
  choices->addLayout(how);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(choices);
  layout->addWidget(progressLabel);
  auto *results = new QHBoxLayout;
  results->addWidget(table, 3);
  results->addWidget(summaryText, 2);
  layout->addLayout(results, 1);

  connect(browseButton, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, "Program to tune", programEdit->text(), "MLIR (*.mlir)");
    if (!path.isEmpty())
      programEdit->setText(path);
  });
  connect(startButton, &QPushButton::clicked, this, &TunePanel::start);
  connect(stopButton, &QPushButton::clicked, this, &TunePanel::stop);
  connect(watcher, &QFutureWatcher<Result<tune::TuneResult>>::finished, this,
          &TunePanel::onFinished);
}

TunePanel::~TunePanel() {
  stop();
  watcher->waitForFinished();
}

void TunePanel::setProgram(const QString &path) { programEdit->setText(path); }
void TunePanel::setTarget(const QString &target) {
  targetBox->setCurrentText(target);
}
void TunePanel::setCandidates(int perDispatch) {
  candidatesBox->setValue(perDispatch);
}
void TunePanel::setBudgetMinutes(int minutes) { budgetBox->setValue(minutes); }
void TunePanel::setPlace(const QString &place) {
  placeBox->setCurrentText(place);
}
bool TunePanel::running() const { return watcher->isRunning(); }
QString TunePanel::summary() const { return summaryText->toPlainText(); }

void TunePanel::setRunning(bool isRunning) {
  startButton->setEnabled(!isRunning);
  stopButton->setEnabled(isRunning);
  for (QWidget *w :
       std::initializer_list<QWidget *>{programEdit, browseButton, targetBox,
                                        budgetBox, candidatesBox, placeBox})
    w->setEnabled(!isRunning);
}

void TunePanel::start() {
  if (running())
    return;
  auto fail = [this](const QString &message) {
    progressLabel->setText(message);
    emit finished(false, message);
  };
  const QString program = programEdit->text().trimmed();
  if (program.isEmpty())
    return fail("Choose the program to tune.");
  if (!bench)
    return fail("No IREE to tune with: the app gave this window none.");
  // The boxes as set; the workbench's choice checks them, as it does the
  // command line's options and Python's arguments.
  workbench::TuneChoice choice;
  choice.program = program.toStdString();
  choice.target = targetBox->currentText().trimmed().toStdString();
  if (choice.target.empty())
    return fail("Choose the target to tune for.");
  choice.budgetMinutes = budgetBox->value();
  choice.candidates = candidatesBox->value();
  choice.on = placeBox->currentText().trimmed().toStdString();
  auto made = bench->tuneRequest(choice);
  if (!made)
    return fail(qs(made.refusal().message));
  tune::TuneRequest request = std::move(*made);
  cancel = std::make_shared<std::atomic<bool>>(false);
  request.cancel = cancel.get();
  // From the job's thread: each handed to this one, in order.
  request.onProgress = [this](const tune::TuneProgress &progress) {
    QString text = qs(progress.step);
    if (progress.total > 0)
      text += QString(" [%1/%2]").arg(progress.done).arg(progress.total);
    if (progress.secondsLeft)
      text += QString(", ~%1 s left").arg(*progress.secondsLeft, 0, 'f', 0);
    QMetaObject::invokeMethod(
        this, [this, text] { progressLabel->setText(text); },
        Qt::QueuedConnection);
  };
  request.onDispatch = [this](const tune::DispatchTune &tuned) {
    QMetaObject::invokeMethod(
        this, [this, tuned] { showDispatch(tuned); }, Qt::QueuedConnection);
  };
  model->removeRows(0, model->rowCount());
  summaryText->clear();
  progressLabel->setText("Tuning " + program + "…");
  setRunning(true);
  watcher->setFuture(
      QtConcurrent::run([bench = bench, request = std::move(request),
                         keep = cancel]() -> Result<tune::TuneResult> {
        auto tuned = bench->tune(request);
        if (!tuned)
          return Error{tuned.refusal().message};
        return std::move(*tuned);
      }));
}

void TunePanel::stop() {
  if (cancel)
    cancel->store(true);
}

void TunePanel::showDispatch(const tune::DispatchTune &tuned) {
  const tune::TuneRow row = tune::tuneRow(tuned);
  const int at = static_cast<int>(tuned.dispatch);
  while (model->rowCount() <= at)
    model->appendRow(QList<QStandardItem *>{new QStandardItem});
  const QStringList cells{
      qs(row.dispatch),   qs(row.op),      qs(row.share),  qs(row.defaultTime),
      qs(row.winnerTime), qs(row.speedup), qs(row.outcome)};
  QString tip = qs(row.winner.empty() ? "" : "winner: " + row.winner);
  if (!row.why.empty())
    tip += (tip.isEmpty() ? "" : "\n") + qs(row.why);
  for (int column = 0; column < cells.size(); ++column) {
    auto *item = new QStandardItem(cells[column]);
    item->setToolTip(tip);
    if (column == 5 && tuned.kept)
      item->setForeground(QColor(0, 120, 0));
    model->setItem(at, column, item);
  }
  table->resizeColumnsToContents();
}

void TunePanel::onFinished() {
  setRunning(false);
  Result<tune::TuneResult> result = watcher->result();
  if (!result) {
    progressLabel->setText("Not tuned: " + qs(result.error()));
    emit finished(false, qs(result.error()));
    return;
  }
  for (const tune::DispatchTune &tuned : result->dispatches)
    showDispatch(tuned);
  // The report's lines after its table: spec, proof, program times.
  const std::string report = tune::tuneReport(*result);
  const size_t after = report.find("\n\n", report.find("outcome\n"));
  summaryText->setPlainText(
      qs(after == std::string::npos ? report : report.substr(after + 2))
          .trimmed());
  progressLabel->setText(result->cancelled
                             ? "Stopped; run again to resume from the history."
                             : QString("Tuned in %1 s: %2 tries, %3 from the "
                                       "history.")
                                   .arg(result->wallSeconds, 0, 'f', 0)
                                   .arg(result->tries)
                                   .arg(result->resumed));
  emit finished(true, {});
}

} // namespace tilescope::widgets
