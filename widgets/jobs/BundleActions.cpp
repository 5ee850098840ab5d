#include "widgets/jobs/BundleActions.h"

#include "widgets/editor/EditSession.h"
#include "widgets/jobs/RunPanel.h"
#include "widgets/jobs/SweepPanel.h"

#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

BundleActions::BundleActions(Context given, QObject *parent)
    : QObject(parent), context(std::move(given)) {}

void BundleActions::exportRunBundle() {
  if (!context.bench) {
    QMessageBox::warning(context.dialogParent, "No run bundle",
                         "No IREE was given to this window: a bundle carries "
                         "its runtime tools.");
    return;
  }
  auto installation = context.bench->iree();
  auto history =
      tries::History::open(tries::historyFile(context.runPanel->workspace()));
  if (!installation || !history) {
    QMessageBox::warning(
        context.dialogParent, "No run bundle",
        qs(installation ? history.error() : installation.error()));
    return;
  }
  // What can go: the tries picked, the sweep's, the file's latest.
  QStringList choices;
  std::vector<std::vector<long long>> ids;
  const QList<long long> picked = context.runPanel->selectedTries();
  if (!picked.isEmpty()) {
    choices << QString("The %1 tries selected in History").arg(picked.size());
    ids.emplace_back(picked.begin(), picked.end());
  }
  if (const auto swept = context.sweepPanel->compiledTries(); !swept.empty()) {
    choices << QString("The sweep's %1 compiled candidates").arg(swept.size());
    ids.push_back(swept);
  }
  if (context.edits->hasDocument()) {
    tries::HistoryFilter filter;
    filter.document = context.edits->document().path.string();
    if (auto tries = history->list(filter))
      for (const tries::TryRecord &r : *tries)
        if (tries::bundleModuleOf(r)) {
          choices << QString("The latest compiled try of this file (try %1)")
                         .arg(r.id);
          ids.push_back({r.id});
          break;
        }
  }
  if (choices.isEmpty()) {
    QMessageBox::information(context.dialogParent, "Nothing to bundle",
                             "No compiled try to carry: compile (Ctrl+B), "
                             "read resources or sweep first.");
    return;
  }
  int choice = 0;
  if (choices.size() > 1) {
    bool ok = false;
    const QString item =
        QInputDialog::getItem(context.dialogParent, "Export run bundle",
                              "Which tries?", choices, 0, false, &ok);
    if (!ok)
      return;
    choice = static_cast<int>(choices.indexOf(item));
  }
  const QString folder = QFileDialog::getSaveFileName(
      context.dialogParent, "Export run bundle (a folder)", "run-bundle",
      "Folders (*)");
  if (folder.isEmpty())
    return;
  auto written =
      exportRunBundleTo(ids[static_cast<size_t>(choice)], folder.toStdString());
  if (!written) {
    QMessageBox::warning(context.dialogParent, "No run bundle",
                         qs(written.error()));
    return;
  }
  emit said(QString("Run bundle of %1 tries in %2: run its run.sh on the GPU "
                    "machine, then File > Import run results")
                .arg(ids[static_cast<size_t>(choice)].size())
                .arg(qs(written->string())));
}

Result<std::filesystem::path>
BundleActions::exportRunBundleTo(const std::vector<long long> &ids,
                                 const std::filesystem::path &folder) {
  if (!context.bench)
    return Error{"no IREE was given to this window: a bundle carries its "
                 "runtime tools"};
  auto installation = context.bench->iree();
  if (!installation)
    return Error{installation.error()};
  auto history =
      tries::History::open(tries::historyFile(context.runPanel->workspace()));
  if (!history)
    return Error{history.error()};
  std::vector<tries::TryRecord> tries;
  for (long long id : ids) {
    auto record = tries::bundledTryOf(*history, id);
    if (!record)
      return Error{record.error()};
    tries.push_back(std::move(*record));
  }
  return tries::bundleTries(tries, folder, *installation);
}

Result<tries::ImportReport>
BundleActions::importRunResultsFrom(const std::filesystem::path &folder) {
  auto history =
      tries::History::open(tries::historyFile(context.runPanel->workspace()));
  if (!history)
    return Error{history.error()};
  auto report = tries::importBundleResults(folder, *history);
  if (report)
    context.runPanel->refreshHistory();
  return report;
}

void BundleActions::importRunResults() {
  const QString folder = QFileDialog::getExistingDirectory(
      context.dialogParent,
      "Import run results (a run bundle after its run.sh)");
  if (folder.isEmpty())
    return;
  auto report = importRunResultsFrom(folder.toStdString());
  if (!report) {
    QMessageBox::warning(context.dialogParent, "Not imported",
                         qs(report.error()));
    return;
  }
  int timed = 0, failed = 0, before = 0;
  for (const tries::ImportedModule &m : report->modules) {
    before += m.alreadyImported;
    if (m.timing.timed())
      ++timed;
    else
      ++failed;
  }
  QString text = QString("Imported %1 timed, %2 without a time, %3 imported "
                         "before, from %4")
                     .arg(timed)
                     .arg(failed)
                     .arg(before)
                     .arg(folder);
  for (const tries::OrderAgreement &a : report->orders)
    text += QString("; predicted order against measured, %1 (%2 modules): %3")
                .arg(QString::fromStdString(
                    std::filesystem::path(a.document).filename().string()))
                .arg(a.modules)
                .arg(a.rankCorrelation, 0, 'f', 2);
  emit said(text);
}

} // namespace tilescope::widgets
