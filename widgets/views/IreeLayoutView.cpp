#include "widgets/views/IreeLayoutView.h"

#include "core/config/configs/LayoutAttributes.h"
#include "core/layout/NestedLayout.h"
#include "widgets/render/Scenes.h"
#include "widgets/views/SceneView.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

// Item data: the operand's two layout texts, for drawing.
constexpr int kOursRole = Qt::UserRole;
constexpr int kIreeRole = Qt::UserRole + 1;
// The biggest slice drawn (IREE's layout for a broken config can name
// billions of elements).
constexpr int64_t kMaximumCells = int64_t(1) << 24;

// The layout's two largest dimensions (its one, for rank 1), in order, the
// others at 0: a packed partial reduction's unit dimensions say nothing. An
// Error says why it is not drawn.
Result<render::GridScene> layoutPicture(const QString &text,
                                        const QString &subtitle) {
  if (text.isEmpty())
    return Error{"no layout"};
  auto attr = config::NestedLayoutAttr::parse(text.toStdString());
  if (!attr)
    return Error{attr.error()};
  auto layout = layout::NestedLayout::create(*attr);
  if (!layout)
    return Error{layout.error()};
  const size_t rank = layout->rank();
  if (rank == 0)
    return Error{"a rank-0 layout"};
  const auto &shape = layout->shape();
  std::vector<size_t> order(rank);
  for (size_t i = 0; i < rank; ++i)
    order[i] = i;
  // Largest first; among equals the innermost, as IREE's picture would.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return shape[a] > shape[b] || (shape[a] == shape[b] && a > b);
  });
  size_t rows = rank >= 2 ? std::min(order[0], order[1]) : 0;
  const size_t columns = rank >= 2 ? std::max(order[0], order[1]) : 0;
  const int64_t rowCount = rank >= 2 ? shape[rows] : 1;
  const int64_t cells = rowCount * shape[columns];
  if (cells > kMaximumCells || cells <= 0)
    return Error{"too large to draw: a " + std::to_string(rowCount) + " x " +
                 std::to_string(shape[columns]) + " slice"};
  if (rank < 2)
    rows = 0;
  auto shared =
      std::make_shared<const layout::NestedLayout>(std::move(*layout));
  return render::nestedLayoutScene(shared, render::ColorBy::Lane, rows, columns,
                                   std::vector<int64_t>(rank, 0), subtitle);
}

void markDifference(QTreeWidgetItem *item) {
  for (int c = 0; c < item->columnCount(); ++c) {
    item->setForeground(c, QColor(0xb0, 0x20, 0x20));
    QFont font = item->font(c);
    font.setBold(true);
    item->setFont(c, font);
  }
}

void addDifferences(QTreeWidgetItem *parent,
                    const std::vector<service::LayoutFieldDifference> &list) {
  for (const service::LayoutFieldDifference &d : list) {
    auto *row =
        new QTreeWidgetItem(parent, {qs(d.field), qs(d.ours), qs(d.iree)});
    markDifference(row);
    for (int c = 0; c < 3; ++c)
      row->setToolTip(c, row->text(c));
  }
}

} // namespace

IreeLayoutView::IreeLayoutView(QWidget *parent)
    : QWidget(parent), pause(new QTimer(this)),
      latest(
          [this](Result<service::IreeLayoutAnswer> result) {
            onAnswer(std::move(result));
          },
          [this] { compareButton->setEnabled(true); }) {
  setObjectName("ireeLayoutView");
  summary = new QLabel;
  summary->setObjectName("ireeLayoutSummary");
  summary->setWordWrap(true);
  summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary->setMinimumHeight(2 * summary->fontMetrics().lineSpacing() + 4);
  summary->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  compareButton = new QPushButton("Compare with IREE");
  compareButton->setObjectName("compareIreeButton");
  compareButton->setToolTip(
      "Run IREE's GPU lowering on the file as it stands (iree-opt in a child "
      "process) and read back the layouts it set");
  connect(compareButton, &QPushButton::clicked, this, &IreeLayoutView::compare);
  followBox = new QCheckBox("Follow edits");
  followBox->setObjectName("followEditsBox");
  followBox->setChecked(true);
  followBox->setToolTip("Ask IREE again after each edit or selection, once "
                        "typing pauses");
  auto *top = new QHBoxLayout;
  top->addWidget(summary, 1);
  top->addWidget(followBox);
  top->addWidget(compareButton);

  tree = new QTreeWidget;
  tree->setObjectName("ireeLayoutTree");
  tree->setColumnCount(3);
  tree->setHeaderLabels({"Op / operand / field", "Tilescope", "IREE"});
  tree->header()->setSectionResizeMode(QHeaderView::Interactive);
  connect(tree, &QTreeWidget::currentItemChanged, this,
          [this](QTreeWidgetItem *item) { drawOperand(item); });

  auto picture = [](SceneView *&view, QLabel *&caption, const char *name) {
    view = new SceneView;
    view->setObjectName(name);
    caption = new QLabel;
    caption->setWordWrap(true);
    auto *box = new QWidget;
    auto *column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(caption);
    column->addWidget(view, 1);
    return box;
  };
  auto *pictures = new QSplitter(Qt::Horizontal);
  pictures->addWidget(picture(oursView, oursCaption, "oursLayoutScene"));
  pictures->addWidget(picture(ireeView, ireeCaption, "ireeLayoutScene"));
  auto *split = new QSplitter(Qt::Vertical);
  split->addWidget(tree);
  split->addWidget(pictures);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);

  command = new QLabel;
  command->setObjectName("ireeLayoutCommand");
  command->setWordWrap(true);
  command->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont small = command->font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  command->setFont(small);

  auto *layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(split, 1);
  layout->addWidget(command);

  pause->setSingleShot(true);
  pause->setInterval(500);
  connect(pause, &QTimer::timeout, this, &IreeLayoutView::start);
  showMessage("IREE's own layouts for this dispatch, beside Tilescope's: "
              "Compare with IREE runs its GPU lowering on the file as it "
              "stands.");
}

IreeLayoutView::~IreeLayoutView() = default;

void IreeLayoutView::setRunner(Runner newRunner) {
  runner = std::move(newRunner);
}

void IreeLayoutView::setSubject(
    std::shared_ptr<const document::Document> newDocument,
    std::optional<edit::OpRef> newOp) {
  const bool sameDispatch =
      document && newDocument && op && newOp &&
      (document == newDocument || document->text == newDocument->text) &&
      op->dispatch == newOp->dispatch;
  document = std::move(newDocument);
  op = newOp;
  if (sameDispatch) {
    // Another op of the same dispatch: the answer stands; select its row.
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
      if (tree->topLevelItem(i)->data(0, kOursRole).toULongLong() == op->op)
        tree->setCurrentItem(tree->topLevelItem(i));
    return;
  }
  latest.drop(); // its answer would be for the old subject
  stale = true;
  if (shown) {
    summary->setText(summary->text().startsWith("Out of date")
                         ? summary->text()
                         : "Out of date (the file or selection changed): " +
                               summary->text());
  }
  if (isVisible() && followBox->isChecked() && askedOnce)
    pause->start();
}

void IreeLayoutView::compare() {
  pause->stop();
  start();
}

bool IreeLayoutView::isRunning() const { return latest.busy(); }

QStringList IreeLayoutView::differingOperands() const {
  QStringList names;
  for (int i = 0; i < tree->topLevelItemCount(); ++i) {
    const QTreeWidgetItem *opItem = tree->topLevelItem(i);
    for (int j = 0; j < opItem->childCount(); ++j)
      if (opItem->child(j)->childCount() > 0)
        names << opItem->text(0).section(' ', 0, 1) + " " +
                     opItem->child(j)->text(0);
  }
  return names;
}

void IreeLayoutView::showEvent(QShowEvent *event) {
  QWidget::showEvent(event);
  if (stale && document && op && followBox->isChecked())
    pause->start();
}

void IreeLayoutView::start() {
  if (!document || !op) {
    showMessage("Select a root op of a GPU dispatch to compare.");
    return;
  }
  if (!runner) {
    showMessage("No IREE to ask: Tilescope was started without one.");
    return;
  }
  askedOnce = true;
  compareButton->setEnabled(false);
  summary->setText("Asking IREE (its GPU lowering, in a child process)…");
  auto subject = document;
  const size_t dispatch = op->dispatch;
  latest.ask(
      [run = runner, subject, dispatch](const std::atomic<bool> *cancel) {
        return run(*subject, dispatch, cancel);
      });
}

void IreeLayoutView::onAnswer(Result<service::IreeLayoutAnswer> result) {
  stale = false;
  if (!result) {
    showMessage("IREE gave no layouts: " + qs(result.error()));
    emit compared(false, {}, qs(result.error()));
    return;
  }
  showAnswer(*result);
}

void IreeLayoutView::showMessage(const QString &text) {
  shown.reset();
  summary->setText(text);
  tree->clear();
  command->clear();
  oursCaption->clear();
  ireeCaption->clear();
  oursView->setScene({});
  ireeView->setScene({});
}

void IreeLayoutView::showAnswer(const service::IreeLayoutAnswer &answer) {
  showMessage({});
  shown = answer;
  QTreeWidgetItem *current = nullptr;
  size_t comparedOps = 0, differing = 0;
  for (const service::OpLayoutAnswer &opAnswer : answer.ops) {
    const bool agrees = opAnswer.agrees();
    comparedOps += opAnswer.problem.empty();
    differing += opAnswer.problem.empty() && !agrees;
    auto *opItem = new QTreeWidgetItem(
        tree,
        {QString("op %1 %2").arg(opAnswer.rootOp).arg(qs(opAnswer.opName)),
         !opAnswer.problem.empty() ? "not compared"
         : agrees                  ? "agrees"
                                   : "differs",
         qs(opAnswer.problem)});
    opItem->setData(0, kOursRole, static_cast<qulonglong>(opAnswer.rootOp));
    opItem->setToolTip(2, opItem->text(2));
    if (opAnswer.problem.empty() && !agrees)
      markDifference(opItem);
    for (const service::OperandLayoutAnswer &operand : opAnswer.operands) {
      auto *item = new QTreeWidgetItem(
          opItem, {qs(operand.operand), qs(operand.ours), qs(operand.iree)});
      item->setData(0, kOursRole, qs(operand.ours));
      item->setData(0, kIreeRole, qs(operand.iree));
      item->setToolTip(1, qs(operand.ours));
      item->setToolTip(2, qs(operand.iree));
      if (!operand.agrees()) {
        markDifference(item);
        addDifferences(item, operand.differences);
        item->setExpanded(true);
        if (!current)
          current = item;
      }
    }
    if (opAnswer.forall) {
      const service::ForallAnswer &forall = *opAnswer.forall;
      auto list = [](const auto &values) {
        QStringList parts;
        for (const auto value : values)
          parts << QString::number(value);
        return "[" + parts.join(", ") + "]";
      };
      new QTreeWidgetItem(opItem,
                          {qs(forall.level) + " forall trips",
                           list(forall.oursTrips), list(forall.ireeTrips)});
      new QTreeWidgetItem(opItem, {qs(forall.level) + " forall linear ids",
                                   list(forall.oursLinearDims),
                                   list(forall.ireeLinearDims)});
      addDifferences(opItem, forall.differences);
    }
    opItem->setExpanded(true);
    if (!current && op && opAnswer.rootOp == op->op)
      current = opAnswer.operands.empty() ? opItem : opItem->child(0);
  }
  tree->resizeColumnToContents(0);
  tree->setColumnWidth(
      1, std::max(240, (tree->width() - tree->columnWidth(0)) / 2));
  if (current)
    tree->setCurrentItem(current);
  const QString text =
      comparedOps == 0
          ? "IREE's " + qs(answer.pipeline) +
                " lowering ran, but no op could be compared (see below)."
      : differing == 0
          ? QString("IREE agrees: its %1 lowering lays out %2 op%3 as "
                    "Tilescope draws them.")
                .arg(qs(answer.pipeline))
                .arg(comparedOps)
                .arg(comparedOps == 1 ? "" : "s")
          : QString("IREE differs from Tilescope on %1 of %2 op%3 (marked "
                    "red): IREE's code is the truth; the picture on the right "
                    "is what it will do.")
                .arg(differing)
                .arg(comparedOps)
                .arg(comparedOps == 1 ? "" : "s");
  summary->setText(text);
  command->setText(
      (answer.inputIsTheDocument ? QString("IREE's run, on the file: ")
       : answer.input.empty()
           ? QString("IREE's run, on the edited text (not saved, and it "
                     "could not be kept for this command): ")
           : QString("IREE's run, on the edited text (not saved; kept at "
                     "%1): ")
                 .arg(qs(answer.input))) +
      qs(answer.command));
  emit compared(comparedOps > 0 && differing == 0, text, {});
}

void IreeLayoutView::drawOperand(QTreeWidgetItem *item) {
  // A field row draws its operand.
  while (item && item->parent() && item->data(0, kIreeRole).isNull())
    item = item->parent();
  if (!item || !item->parent()) {
    oursCaption->setText("Select an operand to draw both layouts.");
    ireeCaption->clear();
    oursView->setScene({});
    ireeView->setScene({});
    return;
  }
  const QString name = item->parent()->text(0) + " " + item->text(0);
  auto draw = [&](SceneView *view, QLabel *caption, const QString &who,
                  int role) {
    auto scene = layoutPicture(item->data(0, role).toString(), who);
    if (!scene) {
      caption->setText(who + ": " + qs(scene.error()));
      view->setScene({});
      return;
    }
    caption->setText(who + ": " + name);
    view->setScene(std::move(*scene));
  };
  draw(oursView, oursCaption, "Tilescope", kOursRole);
  draw(ireeView, ireeCaption, "IREE", kIreeRole);
}

} // namespace tilescope::widgets
