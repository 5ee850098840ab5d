// The window's tries, bundles and IREE's default: its API over TryActions
// and BundleActions, and IREE's choice for the open file shown (and used)
// in the IREE default tab.
#include "widgets/MainWindow.h"

#include "core/tries/TryJob.h"
#include "widgets/BundleActions.h"
#include "widgets/DefaultConfigView.h"
#include "widgets/DetailTabs.h"
#include "widgets/EditSession.h"
#include "widgets/IreeDefault.h"
#include "widgets/LayoutTab.h"
#include "widgets/TryActions.h"

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
  tabs->setCurrentWidget(tabs->defaults());
  ireeDefault->ask(edits->document());
}

void MainWindow::showIreeDefault() {
  if (edits->hasDocument())
    ireeDefault->show(edits->document(), selectedOp(),
                      tabs->layout()->colorBy());
}

// IREE's choice for the selected op, put on it as one undoable step.
void MainWindow::useIreeDefault() {
  const auto op = selectedOp();
  if (!op || !edits->hasDocument())
    return;
  const auto changes = ireeDefault->changesFor(edits->document(), *op);
  if (changes.empty())
    return;
  auto applied = tryActions->applyChanges("use IREE's default", changes);
  statusLabel->setText(applied
                           ? "IREE's default put on the op (Ctrl+Z "
                             "undoes it)"
                           : "IREE's default not used: " + qs(applied.error()));
}

} // namespace tilescope::widgets
