// The window's files and settings: drag and drop, Edit > Settings, and the
// window's API over the recent files (RecentFiles), the edits kept on disk
// (RecoveryBar) and a conversion offered (ConversionBar).
#include "widgets/MainWindow.h"

#include "widgets/ConversionBar.h"
#include "widgets/DetailTabs.h"
#include "widgets/LayoutTab.h"
#include "widgets/RecentFiles.h"
#include "widgets/RecoveryBar.h"
#include "widgets/RunPlaceBox.h"
#include "widgets/SceneView.h"
#include "widgets/SettingsDialog.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QLabel>
#include <QMimeData>

namespace tilescope::widgets {
namespace {

// The local .mlir (or any) files a drag carries.
QStringList droppedFiles(const QMimeData *data) {
  QStringList files;
  if (!data || !data->hasUrls())
    return files;
  for (const QUrl &url : data->urls())
    if (url.isLocalFile())
      files << url.toLocalFile();
  return files;
}

} // namespace

QStringList MainWindow::recentFiles() { return widgets::recentFiles(); }

void MainWindow::dragEnterEvent(QDragEnterEvent *event) {
  if (!droppedFiles(event->mimeData()).isEmpty())
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event) {
  const QStringList files = droppedFiles(event->mimeData());
  if (files.isEmpty())
    return;
  event->acceptProposedAction();
  if (files.size() > 1)
    statusLabel->setText(
        QString("Opening the first of %1 dropped files").arg(files.size()));
  openFile(files.front());
}

// --- Edits kept on disk, a conversion offered (RecoveryBar, ConversionBar) --

bool MainWindow::offersRecovery() const {
  return recoveryBar->offersRecovery();
}

Result<size_t> MainWindow::restoreEdits() {
  return recoveryBar->restoreEdits();
}

void MainWindow::discardRecovery() { recoveryBar->discardRecovery(); }

bool MainWindow::offersConversion() const {
  return conversionBar->offersConversion();
}

Result<bool> MainWindow::openConverted(const QString &path) {
  return conversionBar->saveConvertedTo(path);
}

void MainWindow::editSettings() {
  SettingsDialog dialog(services.checkIree, services.ireePathSetting, this);
  if (dialog.exec() != QDialog::Accepted)
    return;
  tabs->layout()
      ->scene()
      ->fitToView(); // the largest fitted cell may have changed
  // The places to run on may have changed: the panels' lists follow.
  for (RunPlaceBox *box : findChildren<RunPlaceBox *>())
    box->reload();
  statusLabel->setText("Settings saved");
}

} // namespace tilescope::widgets
