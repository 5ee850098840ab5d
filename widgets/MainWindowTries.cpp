// The window's tries, bundles and IREE's default: its API over TryActions
// and BundleActions, and IREE's choice for the open file shown (and used)
// in the IREE default tab.
#include "widgets/MainWindow.h"

#include "core/tries/TryJob.h"
#include "widgets/BundleActions.h"
#include "widgets/DefaultConfigView.h"
#include "widgets/EditSession.h"
#include "widgets/LayoutTab.h"
#include "widgets/TryActions.h"
#include "widgets/render/RootOpScene.h"

#include <QFileInfo>
#include <QLabel>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

// The window's API over TryActions and BundleActions.

Result<std::string> MainWindow::tuningSpec() const {
  return tryActions->tuningSpec();
}

Result<int> MainWindow::loadTry(long long id) {
  return tryActions->loadTry(id);
}

Result<TryComparisonView *> MainWindow::compareTries(long long a, long long b) {
  return tryActions->compareTries(a, b);
}

Result<std::filesystem::path>
MainWindow::exportRunBundleTo(const std::vector<long long> &ids,
                              const std::filesystem::path &folder) {
  return bundleActions->exportRunBundleTo(ids, folder);
}

Result<jobs::ImportReport>
MainWindow::importRunResultsFrom(const std::filesystem::path &folder) {
  return bundleActions->importRunResultsFrom(folder);
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
  auto applied = tryActions->applyChanges("use IREE's default", changes);
  statusLabel->setText(applied
                           ? "IREE's default put on the op (Ctrl+Z "
                             "undoes it)"
                           : "IREE's default not used: " + qs(applied.error()));
}

} // namespace tilescope::widgets
