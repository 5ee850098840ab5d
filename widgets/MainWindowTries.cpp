// What the main window does with tries, exports and IREE's default: put a
// try's configs back on the editor, open two tries side by side, export a
// tuning spec or the JSON report, and show (and use) what IREE would choose.
// All of it through the core's job areas and core/export and the services the
// app hands in.
#include "widgets/MainWindow.h"

#include "core/export/JsonText.h"
#include "core/export/TuningSpec.h"
#include "core/tries/History.h"
#include "core/tries/Report.h"
#include "core/tries/TryComparison.h"
#include "core/tries/TryJob.h"
#include "core/tune/SpecProof.h"
#include "core/util/Files.h"
#include "widgets/DefaultConfigView.h"
#include "widgets/EditSession.h"
#include "widgets/LayoutTab.h"
#include "widgets/RunPanel.h"
#include "widgets/TryComparisonView.h"
#include "widgets/render/RootOpScene.h"

#include <QComboBox>
#include <QDialog>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

Result<std::string> MainWindow::tuningSpec() const {
  if (!edits->hasDocument())
    return Error{"no file is open"};
  const document::Document &current = edits->document();
  std::vector<exporting::SpecOp> ops;
  for (size_t d = 0; d < current.dispatches.size(); ++d)
    for (size_t k = 0; k < current.dispatches[d].rootOps.size(); ++k)
      if (edits->edited({d, k}))
        ops.push_back({static_cast<int>(d), static_cast<int>(k), {}});
  if (ops.empty()) {
    const auto op = selectedOp();
    if (!op)
      return Error{"select a root op, or edit one, to export"};
    ops.push_back(
        {static_cast<int>(op->dispatch), static_cast<int>(op->op), {}});
  }
  // An op that is not a contraction is matched by its body, which IREE
  // prints in the parse worker.
  if (!services.documentWorker)
    return exporting::tuningSpec(current, ops);
  auto worker = services.documentWorker();
  if (!worker)
    return Error{worker.error()};
  return tune::tuningSpecOf(*worker, current, std::move(ops));
}

void MainWindow::exportSpec() {
  auto spec = tuningSpec();
  if (!spec) {
    QMessageBox::warning(this, "No tuning spec", qs(spec.error()));
    return;
  }
  const QString path = QFileDialog::getSaveFileName(
      this, "Export a tuning spec", "tuning_spec.mlir",
      "MLIR files (*.mlir);;All files (*)");
  if (path.isEmpty())
    return;
  if (!writeFileAtomically(path.toStdString(), *spec)) {
    QMessageBox::warning(this, "Not exported", "Could not write " + path);
    return;
  }
  statusLabel->setText(
      "Tuning spec written to " + path +
      " (iree-compile --iree-codegen-tuning-spec-path=" + path + ")");
}

Result<int> MainWindow::loadTry(long long id) {
  if (!edits->hasDocument())
    return Error{"no file is open"};
  auto history = jobs::History::open(jobs::historyFile(runPanel->workspace()));
  if (!history)
    return Error{history.error()};
  auto record = history->get(id);
  if (!record)
    return Error{record.error()};
  const auto changes = jobs::configChanges(
      record->details.value("configs", nlohmann::json::object()),
      edits->document());
  if (changes.empty())
    return Error{"its configs are the ones the file has"};
  return applyChanges(QString("load try %1").arg(id), changes);
}

Result<int>
MainWindow::applyChanges(const QString &stepName,
                         const std::vector<jobs::ConfigChange> &changes) {
  const int before = edits->undoStack()->count();
  edits->undoStack()->beginMacro(stepName);
  int applied = 0;
  std::string refused;
  for (const jobs::ConfigChange &change : changes) {
    if (auto made = edits->setField(change.op, change.field, change.value))
      ++applied;
    else if (refused.empty())
      refused = change.field + ": " + made.error();
  }
  edits->undoStack()->endMacro();
  if (applied == 0) {
    // Nothing took: no empty step is left on the stack.
    if (edits->undoStack()->count() > before)
      edits->undoStack()->undo();
    return Error{refused};
  }
  return applied;
}

Result<TryComparisonView *> MainWindow::compareTries(long long a, long long b) {
  if (!edits->hasDocument())
    return Error{"no file is open"};
  auto history = jobs::History::open(jobs::historyFile(runPanel->workspace()));
  if (!history)
    return Error{history.error()};
  auto first = history->get(a);
  auto second = history->get(b);
  if (!first || !second)
    return Error{first ? second.error() : first.error()};
  const render::ColorBy colorBy = layoutTab->colorBy();
  const jobs::TryComparison comparison = jobs::compareTries(*first, *second);
  auto *view = new TryComparisonView(
      TryComparisonView::sideOf(*first, edits->document(), selectedOp(),
                                colorBy),
      TryComparisonView::sideOf(*second, edits->document(), selectedOp(),
                                colorBy),
      comparison);
  auto *dialog = new QDialog(this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(QString("Try %1 and try %2").arg(a).arg(b));
  auto *layout = new QVBoxLayout(dialog);
  layout->addWidget(view);
  dialog->resize(1100, 820);
  connect(view, &TryComparisonView::loadRequested, this,
          &MainWindow::loadTryAndSay);
  dialog->show();
  return view;
}

void MainWindow::loadTryAndSay(long long id) {
  auto loaded = loadTry(id);
  statusLabel->setText(
      loaded
          ? QString("Try %1: %2 config%3 loaded (Ctrl+Z undoes it)")
                .arg(id)
                .arg(*loaded)
                .arg(*loaded == 1 ? "" : "s")
          : QString("Try %1 not loaded: %2").arg(id).arg(qs(loaded.error())));
}

void MainWindow::exportReport() {
  if (!edits->hasDocument())
    return;
  const document::Document &current = edits->document();
  std::vector<jobs::TryRecord> tries;
  if (auto history =
          jobs::History::open(jobs::historyFile(runPanel->workspace()))) {
    jobs::HistoryFilter filter;
    filter.document = current.path.string();
    if (auto listed = history->list(filter))
      tries = std::move(*listed);
  }
  const QString path = QFileDialog::getSaveFileName(
      this, "Export the JSON report",
      QFileInfo(qs(current.path.string())).completeBaseName() + ".report.json",
      "JSON (*.json)");
  if (path.isEmpty())
    return;
  const std::string text =
      exporting::jsonText(jobs::tuningReport(edits->original(), current, tries),
                          2) +
      "\n";
  if (auto written = writeFileAtomically(path.toStdString(), text); !written)
    QMessageBox::warning(this, "Not exported", qs(written.error()));
  else
    statusLabel->setText("Report written to " + path);
}

void MainWindow::askIreeDefault() {
  if (!edits->hasDocument())
    return;
  detailTabs->setCurrentWidget(defaultView);
  if (!services.ireeDefaults) {
    defaultView->showMessage("No IREE to ask: this window was started "
                             "without one.");
    emit ireeDefaultShown(false, "no IREE to ask");
    return;
  }
  defaultView->showMessage(
      "Asking IREE what it would choose for " +
      QFileInfo(qs(edits->document().path.string())).fileName() + "…");
  defaultAnswer->ask([ask = services.ireeDefaults,
                      document = edits->document()](const std::atomic<bool> *) {
    return ask(document);
  });
}

// IREE's answer for the file open now (one for a file closed since was
// dropped: LatestAnswer).
void MainWindow::onIreeDefault(Result<jobs::DefaultConfigs> answer) {
  if (!answer) {
    ireeDefault.reset();
    defaultView->showMessage("IREE could not choose: " + qs(answer.error()));
    emit ireeDefaultShown(false, qs(answer.error()));
    return;
  }
  ireeDefault = std::move(answer->document);
  showIreeDefault();
  statusLabel->setText("IREE's default: " + qs(answer->command));
  emit ireeDefaultShown(true, qs(answer->command));
}

// The selected op against IREE's choice for it (dispatches and root ops in
// the same order), drawn under IREE's choice.
void MainWindow::showIreeDefault() {
  const auto op = selectedOp();
  if (!ireeDefault || !edits->hasDocument() || !op)
    return;
  const document::Document &current = edits->document();
  if (op->dispatch >= current.dispatches.size() ||
      op->dispatch >= ireeDefault->dispatches.size() ||
      op->op >= ireeDefault->dispatches[op->dispatch].rootOps.size()) {
    defaultView->showMessage("IREE's choice has no root op to match this "
                             "one.");
    return;
  }
  const document::Dispatch &dispatch = current.dispatches[op->dispatch];
  const document::Dispatch &chosen = ireeDefault->dispatches[op->dispatch];
  auto [scene, note] = render::rootOpScene(chosen, chosen.rootOps[op->op],
                                           layoutTab->colorBy(), 0);
  defaultView->showDefault(dispatch, dispatch.rootOps[op->op], chosen,
                           chosen.rootOps[op->op], std::move(scene), note);
}

// IREE's choice for the selected op, put on it the way a try's configs
// are (jobs::configChanges), as one undoable step.
void MainWindow::useIreeDefault() {
  const auto op = selectedOp();
  if (!op || !ireeDefault || !edits->hasDocument())
    return;
  std::vector<jobs::ConfigChange> changes;
  for (jobs::ConfigChange &change :
       jobs::configChanges(jobs::configsJson(*ireeDefault), edits->document()))
    if (change.op == *op)
      changes.push_back(std::move(change));
  if (changes.empty())
    return;
  auto applied = applyChanges("use IREE's default", changes);
  statusLabel->setText(applied
                           ? "IREE's default put on the op (Ctrl+Z "
                             "undoes it)"
                           : "IREE's default not used: " + qs(applied.error()));
}

} // namespace tilescope::widgets
