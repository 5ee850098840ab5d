#include "widgets/views/SplitKView.h"

#include "core/config/rules/SplitReduction.h"
#include "core/util/Files.h"
#include "widgets/render/SplitKScene.h"
#include "widgets/views/SceneView.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <QtConcurrent/QtConcurrentRun>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

QString sizesText(const std::vector<int64_t> &values) {
  QStringList parts;
  for (int64_t value : values)
    parts << QString::number(value);
  return "[" + parts.join(", ") + "]";
}

QString splitText(const std::optional<std::vector<int64_t>> &sizes) {
  return sizes ? sizesText(*sizes) : QString("not split");
}

enum Column {
  kReduction,
  kOp,
  kLoops,
  kIreeSplit,
  kChunks,
  kRule,
  kYours,
  kFrom,
  kColumns
};

// Item data of a dispatch list row: the source line it names (0: none).
constexpr int kLineRole = Qt::UserRole;

} // namespace

SplitKView::SplitKView(QWidget *parent)
    : QWidget(parent), watcher(new QFutureWatcher<Outcome>(this)) {
  setObjectName("splitKView");
  QHBoxLayout *top = controls();
  summary = new QLabel;
  summary->setObjectName("splitKSummary");
  summary->setWordWrap(true);
  summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

  buildTable();
  QWidget *lower = lowerPanes();
  auto *split = new QSplitter(Qt::Vertical);
  split->addWidget(table);
  split->addWidget(lower);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 3);

  auto *layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(summary);
  layout->addWidget(split, 1);
  connect(watcher, &QFutureWatcher<Outcome>::finished, this,
          &SplitKView::onFinished);
  setFile({}, 1);
}

// Target, part and parameter set, and the buttons that ask IREE.
QHBoxLayout *SplitKView::controls() {
  targetBox = new QComboBox;
  targetBox->setObjectName("splitKTarget");
  targetBox->setEditable(true);
  targetBox->addItems(
      {"gfx942", "gfx950", "gfx1100", "sm_90", "sm_80", "llvm-cpu"});
  targetBox->setToolTip("The target IREE compiles the program for: its "
                        "heuristic's numbers (workgroups, limits) follow it");
  partLabel = new QLabel("Part");
  partBox = new QSpinBox;
  partBox->setObjectName("splitKPart");
  partBox->setToolTip("The `// -----` part compiled alone");
  lowBox = new QCheckBox("Low parallelism");
  lowBox->setObjectName("splitKLowParallelism");
  lowBox->setToolTip("IREE's RDNA-class parameter set "
                     "(--iree-dispatch-creation-split-reduction-low-"
                     "parallelism)");
  askButton = new QPushButton("Ask IREE");
  askButton->setObjectName("splitKAsk");
  askButton->setToolTip("Run iree-compile to flow with IREE's split-reduction "
                        "heuristic on and read every reduction at the split "
                        "point");
  cancelButton = new QPushButton("Cancel");
  cancelButton->setObjectName("splitKCancel");
  cancelButton->setEnabled(false);
  connect(askButton, &QPushButton::clicked, this, &SplitKView::analyze);
  connect(cancelButton, &QPushButton::clicked, this, &SplitKView::cancel);
  copyButton = new QPushButton("Copy command");
  copyButton->setObjectName("splitKCopyCommand");
  copyButton->setEnabled(false);
  connect(copyButton, &QPushButton::clicked, this,
          [this] { QGuiApplication::clipboard()->setText(lastCommand); });
  auto *top = new QHBoxLayout;
  top->addWidget(new QLabel("Target"));
  top->addWidget(targetBox);
  top->addWidget(partLabel);
  top->addWidget(partBox);
  top->addWidget(lowBox);
  top->addStretch(1);
  top->addWidget(askButton);
  top->addWidget(cancelButton);
  top->addWidget(copyButton);

  return top;
}

// The reductions, one row each, with the person's split editable.
void SplitKView::buildTable() {
  table = new QTableWidget(0, kColumns);
  table->setObjectName("splitKTable");
  table->setHorizontalHeaderLabels({"Reduction", "Op", "Loops", "IREE's split",
                                    "Chunks", "Rule", "Your split", "From"});
  table->horizontalHeaderItem(kYours)->setToolTip(
      "Type a split (640, [1, 64]) or 'none'; empty keeps IREE's");
  table->verticalHeader()->hide();
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->setEditTriggers(QAbstractItemView::DoubleClicked |
                         QAbstractItemView::EditKeyPressed |
                         QAbstractItemView::AnyKeyPressed);
  table->horizontalHeader()->setStretchLastSection(true);
  // A few reductions in view without dragging the splitter.
  table->setMinimumHeight(table->horizontalHeader()->sizeHint().height() +
                          4 * table->verticalHeader()->defaultSectionSize());
  connect(table, &QTableWidget::currentCellChanged, this,
          [this](int row) { showReduction(row); });
  connect(table, &QTableWidget::itemChanged, this, &SplitKView::onSplitEdited);
  connect(table, &QTableWidget::cellDoubleClicked, this,
          [this](int row, int column) {
            if (column == kYours || !shown || row < 0 ||
                static_cast<size_t>(row) >= shown->reductions.size())
              return;
            if (const int line = activeLine(
                    shown->reductions[static_cast<size_t>(row)].op.source))
              emit sourceActivated(line);
          });
}

// The selected reduction's picture beside why IREE splits it and the
// dispatches formed.
QWidget *SplitKView::lowerPanes() {
  picture = new SceneView;
  picture->setObjectName("splitKScene");
  reasons = new QPlainTextEdit;
  reasons->setObjectName("splitKReasons");
  reasons->setReadOnly(true);
  reasons->setPlaceholderText("Why IREE splits the selected reduction (or "
                              "not): each rule in the order IREE asks it");
  dispatchList = new QListWidget;
  dispatchList->setObjectName("splitKDispatches");
  connect(dispatchList, &QListWidget::itemActivated, this,
          [this](QListWidgetItem *item) {
            if (const int line = item->data(kLineRole).toInt())
              emit sourceActivated(line);
          });
  formButton = new QPushButton("Form dispatches with your splits");
  formButton->setObjectName("splitKForm");
  formButton->setToolTip("Write the splits on the program at the split point "
                         "and run iree-compile on to flow with the heuristic "
                         "off");
  saveButton = new QPushButton("Save program…");
  saveButton->setObjectName("splitKSave");
  saveButton->setToolTip("The program at the split point with these splits, "
                         "for iree-compile --compile-from=global-optimization");
  connect(formButton, &QPushButton::clicked, this, &SplitKView::formDispatches);
  connect(saveButton, &QPushButton::clicked, this, &SplitKView::saveWithDialog);
  // Why and what forms, a tab each: both want height more than width.
  auto *formedPage = new QWidget;
  auto *formedColumn = new QVBoxLayout(formedPage);
  formedColumn->setContentsMargins(0, 0, 0, 0);
  formedColumn->addWidget(dispatchList, 1);
  auto *buttons = new QHBoxLayout;
  buttons->addWidget(formButton);
  buttons->addWidget(saveButton);
  formedColumn->addLayout(buttons);
  side = new QTabWidget;
  side->setObjectName("splitKSideTabs");
  side->addTab(reasons, "Why");
  side->addTab(formedPage, "Dispatches");
  auto *lower = new QSplitter(Qt::Horizontal);
  lower->addWidget(picture);
  lower->addWidget(side);
  lower->setStretchFactor(0, 3);
  lower->setStretchFactor(1, 2);
  lower->setSizes({640, 320}); // the picture first
  return lower;
}

SplitKView::~SplitKView() {
  *stop = true;
  watcher->waitForFinished();
}

void SplitKView::setRunners(Analyzer newAnalyzer, Applier newApplier) {
  analyzer = std::move(newAnalyzer);
  applier = std::move(newApplier);
}

void SplitKView::setFile(const QString &path, int partCount,
                         size_t dispatches) {
  if (path == file && partCount == parts && dispatches == formedAlready)
    return;
  file = path;
  parts = std::max(1, partCount);
  formedAlready = dispatches;
  partBox->setRange(0, parts - 1);
  partLabel->setVisible(parts > 1);
  partBox->setVisible(parts > 1);
  shown.reset();
  formed.reset();
  typed.clear();
  showAnalysis();
  say(file.isEmpty()
          ? "Open a program to see how IREE's split-reduction heuristic "
            "splits its reductions."
      : formedAlready > 0
          ? QFileInfo(file).fileName() +
                " holds dispatches already formed: IREE splits reductions "
                "before it forms dispatches, so open the program they came "
                "from to see its splits (Ask IREE still asks about this "
                "file as it is)."
          : "Split-k: which reductions of " + QFileInfo(file).fileName() +
                " IREE splits before forming dispatches, by which rule, and "
                "the dispatches that result. Ask IREE runs iree-compile to "
                "flow on the file as saved.");
}

void SplitKView::setTarget(const QString &name) {
  targetBox->setCurrentText(name);
}

QString SplitKView::target() const {
  return targetBox->currentText().trimmed();
}

void SplitKView::setPart(int part) { partBox->setValue(part); }

bool SplitKView::isRunning() const { return watcher->isRunning(); }

void SplitKView::cancel() { *stop = true; }

QString SplitKView::summaryText() const { return summary->text(); }

void SplitKView::say(const QString &text) { summary->setText(text); }

void SplitKView::setCommand(const QString &text) {
  lastCommand = text;
  copyButton->setEnabled(!text.isEmpty());
  copyButton->setToolTip(text.isEmpty() ? QString("No command run yet")
                                        : "Copies: " + text);
}

service::SplitKRequest SplitKView::request() const {
  service::SplitKRequest asked;
  asked.source = file.toStdString();
  if (parts > 1)
    asked.part = partBox->value();
  asked.options.lowParallelism = lowBox->isChecked();
  asked.timeout = std::chrono::minutes(10);
  asked.cancel = stop.get();
  return asked;
}

void SplitKView::analyze() { start(false); }

void SplitKView::formDispatches() { start(true); }

void SplitKView::start(bool apply) {
  // A run that cannot start is said, and answered as a failed one.
  auto refuse = [this](const QString &why) {
    say(why);
    emit finished(false, why);
  };
  if (file.isEmpty())
    return refuse("No file is open.");
  if (!analyzer || !applier)
    return refuse("No IREE to ask: Tilescope was started without one.");
  if (watcher->isRunning())
    return;
  if (apply && !shown)
    return refuse("Ask IREE first: the splits are written on the program at "
                  "IREE's split point.");
  auto compileTarget = service::compileTarget(target().toStdString());
  if (!compileTarget)
    return refuse("Target " + target() + ": " + qs(compileTarget.error()));
  service::SplitKRequest asked = request();
  asked.target = *compileTarget;
  QPointer<SplitKView> self(this);
  asked.progress = [self](const std::string &step) {
    if (self)
      QMetaObject::invokeMethod(
          self,
          [self, text = qs(step)] {
            if (self)
              self->onProgress(text);
          },
          Qt::QueuedConnection);
  };
  *stop = false;
  askButton->setEnabled(false);
  formButton->setEnabled(false);
  cancelButton->setEnabled(true);
  if (apply) {
    std::vector<document::SplitChoice> picked = choices();
    watcher->setFuture(
        QtConcurrent::run([run = applier, asked, analysis = *shown, picked] {
          Outcome outcome;
          outcome.applied = run(asked, analysis, picked);
          return outcome;
        }));
  } else {
    formed.reset();
    watcher->setFuture(QtConcurrent::run([run = analyzer, asked] {
      Outcome outcome;
      outcome.analysis = run(asked);
      return outcome;
    }));
  }
  onProgress(apply ? "forming the dispatches with your splits" : "asking IREE");
}

void SplitKView::onProgress(const QString &step) {
  if (watcher->isRunning())
    say(step.left(1).toUpper() + step.mid(1) + "…");
}

void SplitKView::onFinished() {
  askButton->setEnabled(true);
  formButton->setEnabled(shown.has_value());
  cancelButton->setEnabled(false);
  Outcome outcome = watcher->result();
  const bool cancelled = *stop;
  if (outcome.analysis) {
    if (!*outcome.analysis) {
      const QString why = cancelled ? QString("Cancelled.")
                                    : "IREE gave no split-k answer: " +
                                          qs(outcome.analysis->error());
      say(why);
      emit finished(false, why);
      return;
    }
    shown = std::move(**outcome.analysis);
    typed.clear();
    showAnalysis();
    size_t split = 0;
    for (const service::SplitKReduction &reduction : shown->reductions)
      split += reduction.op.split.has_value();
    const QString line =
        QString("%1 reduction(s); IREE splits %2 of them; %3 dispatch(es).")
            .arg(shown->reductions.size())
            .arg(split)
            .arg(shown->dispatches.size()) +
        (shown->reductions.empty()
             ? formedAlready > 0
                   ? QString(" Nothing to split: the file's dispatches were "
                             "formed already; open the program they came "
                             "from.")
                   : QString(" Nothing to split: no op reduces at the split "
                             "point.")
             : QString(" Type a split in Your split, then Form dispatches."));
    say(line);
    emit finished(true, line);
    return;
  }
  if (!outcome.applied || !*outcome.applied) {
    const QString why =
        cancelled ? QString("Cancelled.")
                  : "The splits did not form dispatches: " +
                        (outcome.applied ? qs(outcome.applied->error())
                                         : QString("no answer"));
    say(why);
    emit finished(false, why);
    return;
  }
  formed = std::move(**outcome.applied);
  saveButton->setEnabled(true);
  side->setCurrentIndex(1); // what the splits formed
  showDispatches(formed->dispatches, "With your splits");
  for (const std::string &warning : formed->warnings)
    dispatchList->addItem("warning: " + qs(warning));
  setCommand(qs(formed->command));
  const QString line =
      QString("Your splits form %1 dispatch(es)%2.")
          .arg(formed->dispatches.size())
          .arg(formed->warnings.empty()
                   ? QString()
                   : QString("; %1 warning(s)").arg(formed->warnings.size()));
  say(line);
  emit finished(true, line);
}

void SplitKView::showAnalysis() {
  filling = true;
  table->setRowCount(0);
  reasons->clear();
  dispatchList->clear();
  setCommand({});
  picture->setScene({});
  formButton->setEnabled(shown.has_value());
  saveButton->setEnabled(formed.has_value());
  if (!shown) {
    filling = false;
    return;
  }
  table->setRowCount(static_cast<int>(shown->reductions.size()));
  for (size_t i = 0; i < shown->reductions.size(); ++i) {
    const service::SplitKReduction &reduction = shown->reductions[i];
    const document::ProgramReduction &op = reduction.op;
    const int row = static_cast<int>(i);
    const std::vector<int64_t> bounds = config::reductionBounds(op.facts.space);
    auto cell = [&](int column, const QString &text, bool editable = false) {
      auto *item = new QTableWidgetItem(text);
      if (!editable)
        item->setFlags(item->flags() & ~Qt::ItemIsEditable);
      item->setToolTip(text);
      table->setItem(row, column, item);
    };
    cell(kReduction, qs(op.function) + ":" + QString::number(op.index));
    cell(kOp, qs(op.name));
    cell(kLoops, qs(op.facts.space.toString()));
    cell(kIreeSplit, splitText(op.split));
    cell(kChunks, op.split ? sizesText(config::splitCounts(bounds, *op.split))
                           : QString("1"));
    cell(kRule, QString(config::toString(reduction.decision.rule)) +
                    (reduction.agrees ? QString()
                                      : QString(" (Tilescope reads it "
                                                "otherwise)")));
    cell(kYours, "", true);
    const int line = activeLine(op.source);
    cell(kFrom, line        ? QString("line %1").arg(line)
                : op.source ? qs(op.source->file) + ":" +
                                  QString::number(op.source->line)
                            : QString());
  }
  table->resizeColumnsToContents();
  showDispatches(shown->dispatches, "With IREE's splits");
  if (!shown->commands.empty())
    setCommand(qs(shown->commands.back()));
  filling = false;
  if (!shown->reductions.empty())
    table->setCurrentCell(0, kReduction);
}

void SplitKView::showDispatches(
    const std::vector<document::FormedDispatch> &dispatches,
    const QString &title) {
  dispatchList->clear();
  auto *header = new QListWidgetItem(
      QString("%1: %2 dispatch(es)").arg(title).arg(dispatches.size()));
  QFont italic = header->font();
  italic.setItalic(true);
  header->setFont(italic);
  QFont bold = header->font();
  bold.setItalic(false);
  bold.setBold(true);
  dispatchList->addItem(header);
  for (const document::FormedDispatch &dispatch : dispatches) {
    auto *name = new QListWidgetItem(qs(dispatch.name));
    name->setFont(bold);
    dispatchList->addItem(name);
    for (const document::DispatchedOp &op : dispatch.ops) {
      QString text = "    " + qs(op.name);
      if (op.split)
        text += "  partial results, split " + sizesText(*op.split);
      const int line = activeLine(op.source);
      if (line)
        text += QString("  (line %1)").arg(line);
      auto *item = new QListWidgetItem(text);
      item->setData(kLineRole, line);
      dispatchList->addItem(item);
    }
  }
}

void SplitKView::showReduction(int row) {
  if (!shown || row < 0 || static_cast<size_t>(row) >= shown->reductions.size())
    return;
  const service::SplitKReduction &reduction =
      shown->reductions[static_cast<size_t>(row)];
  const document::ProgramReduction &op = reduction.op;
  QStringList lines;
  lines << QString("%1:%2  %3  %4")
               .arg(qs(op.function))
               .arg(op.index)
               .arg(qs(op.name), qs(op.facts.space.toString()));
  lines << "IREE's split: " + splitText(op.split) +
               "  (rule: " + config::toString(reduction.decision.rule) + ")";
  if (!reduction.agrees)
    lines << "Tilescope's reading of the rule gives " +
                 splitText(reduction.decision.attributeTiles()) +
                 "; IREE's answer is the one used";
  const auto yours = typed.find(row);
  if (yours != typed.end())
    lines << "Your split: " + splitText(yours->second);
  lines << ""
        << "Why (each rule in the order IREE asks it):";
  for (const std::string &reason : reduction.decision.reasons)
    lines << "  " + qs(reason);
  reasons->setPlainText(lines.join("\n"));

  render::SplitKPicture asked;
  asked.op =
      QString("%1:%2 %3").arg(qs(op.function)).arg(op.index).arg(qs(op.name));
  asked.space = op.facts.space;
  asked.sizes = yours != typed.end() ? yours->second : op.split;
  asked.whose = yours != typed.end() ? "your split" : "IREE's split";
  auto scene = render::splitKScene(asked);
  if (!scene) {
    picture->setScene({});
    reasons->appendPlainText("\nNo picture: " + qs(scene.error()));
    return;
  }
  picture->setScene(std::move(*scene));
}

Result<bool> SplitKView::setSplit(int row, const QString &text) {
  if (!shown || row < 0 || static_cast<size_t>(row) >= shown->reductions.size())
    return Error{"no reduction row " + std::to_string(row)};
  if (QTableWidgetItem *item = table->item(row, kYours);
      item && item->text() != text) {
    item->setText(text); // onSplitEdited takes it
  } else {
    onSplitEdited(item);
  }
  QTableWidgetItem *item = table->item(row, kYours);
  if (item && !item->data(Qt::UserRole).toString().isEmpty())
    return Error{item->data(Qt::UserRole).toString().toStdString()};
  return true;
}

void SplitKView::onSplitEdited(QTableWidgetItem *item) {
  if (filling || !shown || !item || item->column() != kYours)
    return;
  const int row = item->row();
  const document::ProgramReduction &op =
      shown->reductions[static_cast<size_t>(row)].op;
  const QString text = item->text().trimmed();
  QString error;
  QStringList warnings;
  if (text.isEmpty()) {
    typed.erase(row);
  } else if (text.compare("none", Qt::CaseInsensitive) == 0) {
    typed[row] = std::nullopt;
  } else {
    auto parsed = config::parseSplitSizes(
        text.toStdString(), config::reductionBounds(op.facts.space));
    if (!parsed) {
      error = qs(parsed.error());
    } else {
      typed[row] = parsed->sizes;
      for (const std::string &warning : parsed->warnings)
        warnings << qs(warning);
    }
  }
  // Dispatches formed with the splits before this change are not these
  // splits' any more: IREE's are shown until the next Form.
  if (formed) {
    formed.reset();
    saveButton->setEnabled(false);
    showDispatches(shown->dispatches, "With IREE's splits");
  }
  // A value that cannot be taken stays in its cell, marked, with the
  // reason; the picture keeps the last split that could.
  filling = true;
  item->setData(Qt::UserRole, error);
  item->setBackground(error.isEmpty() ? QBrush()
                                      : QBrush(QColor(255, 214, 214)));
  item->setForeground(error.isEmpty() ? QBrush() : QBrush(QColor(0x90, 0, 0)));
  item->setToolTip(error.isEmpty() ? warnings.join("\n") : error);
  const std::vector<int64_t> bounds = config::reductionBounds(op.facts.space);
  const auto chosen = typed.find(row);
  const std::optional<std::vector<int64_t>> effect =
      chosen != typed.end() ? chosen->second : op.split;
  if (QTableWidgetItem *chunks = table->item(row, kChunks))
    chunks->setText(effect ? sizesText(config::splitCounts(bounds, *effect))
                           : QString("1"));
  filling = false;
  const QString name = qs(op.function) + ":" + QString::number(op.index);
  if (!error.isEmpty())
    say(name + ": " + error);
  else if (!warnings.isEmpty())
    say(name + ": " + warnings.join("; "));
  else
    say(QString("%1 split(s) differ from IREE's: Form dispatches to see what "
                "they make.")
            .arg(choices().size()));
  if (table->currentRow() == row)
    showReduction(row);
  else
    table->setCurrentCell(row, kYours);
}

std::vector<document::SplitChoice> SplitKView::choices() const {
  std::vector<document::SplitChoice> picked;
  if (!shown)
    return picked;
  for (const auto &[row, sizes] : typed) {
    const document::ProgramReduction &op =
        shown->reductions[static_cast<size_t>(row)].op;
    if (sizes != op.split)
      picked.push_back({op.function, op.index, sizes});
  }
  return picked;
}

bool SplitKView::saveProgram(const QString &path, QString *error) const {
  if (!formed) {
    if (error)
      *error = "form the dispatches first: the saved program is the one they "
               "were formed from";
    return false;
  }
  auto written = writeFileAtomically(path.toStdString(), formed->program);
  if (!written && error)
    *error = qs(written.error());
  return static_cast<bool>(written);
}

void SplitKView::saveWithDialog() {
  const QFileInfo info(file);
  const QString path = QFileDialog::getSaveFileName(
      this, "Save the program with these splits",
      info.absoluteDir().filePath(info.completeBaseName() + ".split.mlir"),
      "MLIR (*.mlir)");
  if (path.isEmpty())
    return;
  QString error;
  if (!saveProgram(path, &error)) {
    QMessageBox::warning(this, "Save program",
                         path + " was not written: " + error);
    return;
  }
  say("Saved " + path + ": iree-compile " + QFileInfo(path).fileName() +
      " --compile-from=global-optimization builds it with these splits.");
}

int SplitKView::activeLine(
    const std::optional<document::SourceLocation> &source) const {
  if (!source || file.isEmpty())
    return 0;
  const QFileInfo named(qs(source->file)), opened(file);
  return named.absoluteFilePath() == opened.absoluteFilePath() ||
                 (named.exists() &&
                  named.canonicalFilePath() == opened.canonicalFilePath())
             ? source->line
             : 0;
}

} // namespace tilescope::widgets
