#include "widgets/views/TryComparisonView.h"

#include "core/edit/RootOpContext.h"
#include "core/tries/ConfigsPutBack.h"
#include "core/tries/TryJob.h"
#include "widgets/render/RootOpScene.h"
#include "widgets/views/SceneView.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

QString timeText(const std::optional<double> &microseconds) {
  return microseconds ? QString::number(*microseconds, 'f', 2) + " µs" : "–";
}

// "Try 12: bench, ok, 2026-11-23T18:25:01Z\n31.20 µs, check passed, on
// llvm-cpu (local-task)"
QString heading(const char *letter, const tries::TryRecord &r) {
  QString text = QString("%1: try %2, %3, %4 (%5)")
                     .arg(letter)
                     .arg(r.id)
                     .arg(qs(r.kind), qs(r.outcome), qs(r.createdAt));
  text += "\n" + (r.medianMicroseconds ? timeText(r.medianMicroseconds)
                                       : QString("not timed"));
  if (r.checkPassed)
    text += *r.checkPassed ? ", check passed" : ", check FAILED";
  text += ", " + qs(r.target) + (r.device.empty() ? "" : " on " + qs(r.device));
  if (!r.candidate.empty())
    text += "\nsweep " + qs(r.sweep) + ": " + qs(r.candidate);
  return text;
}

// A row of A's and B's values, bold with B in blue where they differ.
QTreeWidgetItem *addRow(QTreeWidgetItem *under, const QString &name,
                        const QString &before, const QString &after) {
  auto *item = new QTreeWidgetItem(under, {name, before, after});
  for (int c = 0; c < 3; ++c)
    item->setToolTip(c, item->text(c));
  if (before != after) {
    for (int c = 0; c < 3; ++c) {
      QFont bold = item->font(c);
      bold.setBold(true);
      item->setFont(c, bold);
    }
    item->setForeground(2, QColor("#1f5fbf"));
  }
  return item;
}

// One field's row; a whole attribute (a CPU config) opens into its
// entries, so both are read in full rather than cut after their first
// words.
void addFieldRows(QTreeWidgetItem *opItem, const edit::FieldDifference &f) {
  auto add = [](QTreeWidgetItem *under, const edit::FieldDifference &d) {
    auto value = [](const std::string &text) {
      return text.empty() ? QString("(unset)") : qs(text);
    };
    return addRow(under, qs(d.field), value(d.before), value(d.after));
  };
  QTreeWidgetItem *row = add(opItem, f);
  for (const edit::FieldDifference &entry : f.entries)
    add(row, entry);
}

// The configs, the kernels' resources and instruction counts, and the
// runs of A and B, row by row.
void addComparisonRows(QTreeWidget *table,
                       const tries::TryComparison &comparison,
                       const tries::TryRecord &a, const tries::TryRecord &b) {
  auto *configs = new QTreeWidgetItem(table, {"Configs"});
  if (comparison.configs.empty())
    new QTreeWidgetItem(configs, {"the same in both"});
  for (const edit::OpDifference &op : comparison.configs.ops) {
    auto *opItem =
        new QTreeWidgetItem(configs, {"@" + qs(op.dispatch) +
                                      (op.op.empty() ? "" : ": " + qs(op.op))});
    for (const edit::FieldDifference &f : op.fields)
      addFieldRows(opItem, f);
  }
  for (const std::string &name : comparison.configs.onlyBefore)
    addRow(configs, "@" + qs(name), "present", "absent");
  for (const std::string &name : comparison.configs.onlyAfter)
    addRow(configs, "@" + qs(name), "absent", "present");
  auto *resources = new QTreeWidgetItem(table, {"Resources"});
  if (comparison.kernels.empty())
    new QTreeWidgetItem(resources,
                        {"both tries must have read resources to compare"});
  for (const tries::KernelComparison &kernel : comparison.kernels) {
    auto *kernelItem = new QTreeWidgetItem(resources, {qs(kernel.kernel)});
    for (const tries::ResourcePair &pair : kernel.resources)
      addRow(kernelItem, qs(pair.key), resourceText(pair.a),
             resourceText(pair.b));
  }
  if (!comparison.instructions.empty()) {
    auto *instructions = new QTreeWidgetItem(table, {"Instructions"});
    for (const tries::KernelInstructions &kernel : comparison.instructions) {
      auto *kernelItem = new QTreeWidgetItem(instructions, {qs(kernel.kernel)});
      for (const tries::InstructionCountPair &pair : kernel.counts)
        addRow(kernelItem,
               qs(pair.region) +
                   (pair.region == "loop" ? " (a pass), " : ", ") +
                   qs(pair.instructionClass),
               QString::number(pair.a), QString::number(pair.b));
    }
  }
  auto *times = new QTreeWidgetItem(table, {"Run"});
  addRow(times, "median", timeText(a.medianMicroseconds),
         timeText(b.medianMicroseconds));
  auto check = [](const tries::TryRecord &r) -> QString {
    return r.checkPassed ? (*r.checkPassed ? "passed" : "FAILED") : "–";
  };
  addRow(times, "check", check(a), check(b));
  addRow(times, "outcome", qs(a.outcome), qs(b.outcome));
}

} // namespace

QString resourceText(const std::optional<long long> &value) {
  return value ? QString::number(*value) : QString("–");
}

TryComparisonView::TryComparisonView(Side a, Side b,
                                     const tries::TryComparison &comparison,
                                     QWidget *parent)
    : QWidget(parent) {
  setObjectName("tryComparison");
  auto *top = new QGridLayout;
  const Side *sides[] = {&a, &b};
  for (int column = 0; column < 2; ++column) {
    const Side &side = *sides[column];
    auto *label = new QLabel(heading(column ? "B" : "A", side.record));
    label->setObjectName(column ? "compareHeadingB" : "compareHeadingA");
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setToolTip(qs(side.record.directory));
    top->addWidget(label, 0, column);
    auto *load = new QPushButton(
        QString("Load %1 into the editor").arg(column ? "B" : "A"));
    load->setObjectName(column ? "loadBButton" : "loadAButton");
    const long long id = side.record.id;
    connect(load, &QPushButton::clicked, this,
            [this, id] { emit loadRequested(id); });
    top->addWidget(load, 1, column, Qt::AlignLeft);
  }

  QString speed = "Times: " + timeText(comparison.aMicroseconds) + " → " +
                  timeText(comparison.bMicroseconds);
  if (comparison.times)
    speed += ": " + qs(comparison.times->text);
  else
    speed += " (both must be timed runs to compare speed)";
  auto *speedLabel = new QLabel(speed);
  speedLabel->setObjectName("compareSpeed");
  QFont bold = speedLabel->font();
  bold.setBold(true);
  speedLabel->setFont(bold);

  table = new QTreeWidget;
  table->setObjectName("compareTable");
  table->setColumnCount(3);
  table->setHeaderLabels({"", QString("A (try %1)").arg(a.record.id),
                          QString("B (try %1)").arg(b.record.id)});
  table->setRootIsDecorated(true);
  table->setAlternatingRowColors(true);
  addComparisonRows(table, comparison, a.record, b.record);
  table->expandAll();
  table->header()->setSectionResizeMode(QHeaderView::Interactive);
  table->resizeColumnToContents(0);
  table->setColumnWidth(1, 260);

  QStringList undrawn;
  QSplitter *pictures = picturesOf(a, b, undrawn);
  auto *split = new QSplitter(Qt::Vertical);
  split->addWidget(table);
  if (pictures->count() > 0) {
    split->addWidget(pictures);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
  } else {
    delete pictures;
  }
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(speedLabel);
  layout->addWidget(split, 1);
  if (!undrawn.isEmpty()) {
    auto *note = new QLabel(undrawn.join("\n"));
    note->setObjectName("compareUndrawn");
    note->setWordWrap(true);
    layout->addWidget(note);
  }
}

// Pictures only where there is one to draw: a CPU try (no layout) or a try
// of another file says why in a line (`undrawn`) instead of an empty pane.
QSplitter *TryComparisonView::picturesOf(Side &a, Side &b,
                                         QStringList &undrawn) {
  auto *pictures = new QSplitter(Qt::Horizontal);
  for (Side *side : {&a, &b}) {
    if (side->scene.panels.empty()) {
      undrawn << QString("%1 (try %2): %3")
                     .arg(side == &a ? "A" : "B")
                     .arg(side->record.id)
                     .arg(side->note.isEmpty() ? "nothing to draw"
                                               : side->note);
      continue;
    }
    auto *box = new QWidget;
    auto *column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    auto *caption = new QLabel(QString("%1 (try %2): %3")
                                   .arg(side == &a ? "A" : "B")
                                   .arg(side->record.id)
                                   .arg(side->note));
    caption->setWordWrap(true);
    auto *view = new SceneView;
    view->setObjectName(side == &a ? "compareSceneA" : "compareSceneB");
    view->setScene(std::move(side->scene));
    column->addWidget(caption);
    column->addWidget(view, 1);
    pictures->addWidget(box);
  }
  return pictures;
}

TryComparisonView::Side TryComparisonView::sideOf(
    tries::TryRecord record, const document::Document &open,
    std::optional<edit::OpRef> fallback, render::ColorBy colorBy) {
  Side side;
  side.record = std::move(record);
  const tries::TryRecord &r = side.record;
  if (r.document != open.path.string()) {
    side.note = "a try of " + qs(r.document) + ", not the open file: not drawn";
    return side;
  }
  // The op the try names (none if it names one the file lacks), else the
  // selected one.
  std::optional<edit::OpRef> op = fallback;
  if (!r.op.empty()) {
    auto named = edit::findOp(open, r.op);
    op = named ? std::optional<edit::OpRef>(*named) : std::nullopt;
  }
  const document::Document tried = tries::withConfigs(r.configs, open);
  if (!op || op->dispatch >= tried.dispatches.size() ||
      op->op >= tried.dispatches[op->dispatch].rootOps.size()) {
    side.note = "no root op of the open file to draw";
    return side;
  }
  const document::Dispatch &dispatch = tried.dispatches[op->dispatch];
  auto [scene, note] =
      render::rootOpScene(dispatch, dispatch.rootOps[op->op], colorBy, 0);
  side.scene = std::move(scene);
  side.note = note;
  return side;
}

QStringList TryComparisonView::changedRows() const {
  QStringList rows;
  for (QTreeWidgetItemIterator it(table); *it; ++it)
    if ((*it)->font(0).bold())
      rows << (*it)->text(0);
  return rows;
}

} // namespace tilescope::widgets
