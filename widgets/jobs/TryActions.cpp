#include "widgets/jobs/TryActions.h"

#include "core/export/JsonText.h"
#include "core/export/TuningSpec.h"
#include "core/tries/History.h"
#include "core/tries/Report.h"
#include "core/tries/TryComparison.h"
#include "core/tune/SpecProof.h"
#include "core/util/Files.h"
#include "widgets/editor/EditSession.h"
#include "widgets/views/TryComparisonView.h"

#include <QDialog>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QUndoStack>
#include <QVBoxLayout>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

TryActions::TryActions(Context given, QObject *parent)
    : QObject(parent), context(std::move(given)) {}

Result<std::string> TryActions::tuningSpec() const {
  if (!context.edits->hasDocument())
    return Error{"no file is open"};
  const document::Document &current = context.edits->document();
  std::vector<exporting::SpecOp> ops;
  for (size_t d = 0; d < current.dispatches.size(); ++d)
    for (size_t k = 0; k < current.dispatches[d].rootOps.size(); ++k)
      if (context.edits->edited({d, k}))
        ops.push_back({static_cast<int>(d), static_cast<int>(k), {}});
  if (ops.empty()) {
    const auto op = context.selectedOp();
    if (!op)
      return Error{"select a root op, or edit one, to export"};
    ops.push_back(
        {static_cast<int>(op->dispatch), static_cast<int>(op->op), {}});
  }
  // An op that is not a contraction is matched by its body, which IREE
  // prints in the parse worker.
  if (!context.bench)
    return exporting::tuningSpec(current, ops);
  auto worker = context.bench->worker();
  if (!worker)
    return Error{worker.error()};
  return tune::tuningSpecOf(*worker, current, std::move(ops));
}

void TryActions::exportSpec() {
  auto spec = tuningSpec();
  if (!spec) {
    QMessageBox::warning(context.dialogParent, "No tuning spec",
                         qs(spec.error()));
    return;
  }
  const QString path = QFileDialog::getSaveFileName(
      context.dialogParent, "Export a tuning spec", "tuning_spec.mlir",
      "MLIR files (*.mlir);;All files (*)");
  if (path.isEmpty())
    return;
  if (!writeFileAtomically(path.toStdString(), *spec)) {
    QMessageBox::warning(context.dialogParent, "Not exported",
                         "Could not write " + path);
    return;
  }
  emit said("Tuning spec written to " + path +
            " (iree-compile --iree-codegen-tuning-spec-path=" + path + ")");
}

Result<int> TryActions::loadTry(long long id) {
  if (!context.edits->hasDocument())
    return Error{"no file is open"};
  auto history = tries::History::open(tries::historyFile(context.workspace()));
  if (!history)
    return Error{history.error()};
  auto record = history->get(id);
  if (!record)
    return Error{record.error()};
  const auto changes =
      tries::configChanges(record->configs, context.edits->document());
  if (changes.empty())
    return Error{"its configs are the ones the file has"};
  return applyChanges(QString("load try %1").arg(id), changes);
}

Result<int>
TryActions::applyChanges(const QString &stepName,
                         const std::vector<tries::ConfigChange> &changes) {
  const int before = context.edits->undoStack()->count();
  context.edits->undoStack()->beginMacro(stepName);
  int applied = 0;
  std::string refused;
  for (const tries::ConfigChange &change : changes) {
    if (auto made =
            context.edits->setField(change.op, change.field, change.value))
      ++applied;
    else if (refused.empty())
      refused = change.field + ": " + made.error();
  }
  context.edits->undoStack()->endMacro();
  if (applied == 0) {
    // Nothing took: no empty step is left on the stack.
    if (context.edits->undoStack()->count() > before)
      context.edits->undoStack()->undo();
    return Error{refused};
  }
  return applied;
}

Result<TryComparisonView *> TryActions::compareTries(long long a, long long b) {
  if (!context.edits->hasDocument())
    return Error{"no file is open"};
  auto history = tries::History::open(tries::historyFile(context.workspace()));
  if (!history)
    return Error{history.error()};
  auto first = history->get(a);
  auto second = history->get(b);
  if (!first || !second)
    return Error{first ? second.error() : first.error()};
  const render::ColorBy colorBy = context.colorBy();
  tries::TryComparison comparison = tries::compareTries(*first, *second);
  comparison.instructions = tries::compareInstructions(*first, *second);
  auto *view = new TryComparisonView(
      TryComparisonView::sideOf(*first, context.edits->document(),
                                context.selectedOp(), colorBy),
      TryComparisonView::sideOf(*second, context.edits->document(),
                                context.selectedOp(), colorBy),
      comparison);
  auto *dialog = new QDialog(context.dialogParent);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(QString("Try %1 and try %2").arg(a).arg(b));
  auto *layout = new QVBoxLayout(dialog);
  layout->addWidget(view);
  dialog->resize(1100, 820);
  connect(view, &TryComparisonView::loadRequested, this,
          &TryActions::loadTryAndSay);
  dialog->show();
  return view;
}

void TryActions::loadTryAndSay(long long id) {
  auto loaded = loadTry(id);
  emit said(
      loaded
          ? QString("Try %1: %2 config%3 loaded (Ctrl+Z undoes it)")
                .arg(id)
                .arg(*loaded)
                .arg(*loaded == 1 ? "" : "s")
          : QString("Try %1 not loaded: %2").arg(id).arg(qs(loaded.error())));
}

void TryActions::exportReport() {
  if (!context.edits->hasDocument())
    return;
  const document::Document &current = context.edits->document();
  std::vector<tries::TryRecord> tries;
  if (auto history =
          tries::History::open(tries::historyFile(context.workspace()))) {
    tries::HistoryFilter filter;
    filter.document = current.path.string();
    if (auto listed = history->list(filter))
      tries = std::move(*listed);
  }
  const QString path = QFileDialog::getSaveFileName(
      context.dialogParent, "Export the JSON report",
      QFileInfo(qs(current.path.string())).completeBaseName() + ".report.json",
      "JSON (*.json)");
  if (path.isEmpty())
    return;
  const std::string text =
      exporting::jsonText(
          tries::tuningReport(context.edits->original(), current, tries), 2) +
      "\n";
  if (auto written = writeFileAtomically(path.toStdString(), text); !written)
    QMessageBox::warning(context.dialogParent, "Not exported",
                         qs(written.error()));
  else
    emit said("Report written to " + path);
}

} // namespace tilescope::widgets
