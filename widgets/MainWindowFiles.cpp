// The window's files, settings and help: loading (its progress and
// Cancel), Open Recent, drag and drop, Edit > Settings, and Help; the edits
// kept on disk (RecoveryBar) and a conversion offered (ConversionBar) as the
// window's API gives them.
#include "widgets/MainWindow.h"

#include "core/edit/EditJournal.h"
#include "core/util/Files.h"
#include "widgets/ConversionBar.h"
#include "widgets/EditSession.h"
#include "widgets/LayoutTab.h"
#include "widgets/RecoveryBar.h"
#include "widgets/RunPlaceBox.h"
#include "widgets/SceneView.h"
#include "widgets/SettingsDialog.h"

#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

namespace tilescope::widgets {
namespace {

constexpr int kMaxRecentFiles = 10;
constexpr const char *kRecentKey = "files/recent";

QString qs(const std::string &text) { return QString::fromStdString(text); }

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

QStringList MainWindow::recentFiles() {
  return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::rememberRecent(const QString &path) {
  QStringList files = recentFiles();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  files.removeAll(absolute);
  files.prepend(absolute);
  while (files.size() > kMaxRecentFiles)
    files.removeLast();
  QSettings().setValue(kRecentKey, files);
}

void MainWindow::fillRecentMenu(QMenu *menu) {
  menu->clear();
  const QStringList files = recentFiles();
  for (int i = 0; i < files.size(); ++i) {
    const QFileInfo info(files[i]);
    QAction *action =
        menu->addAction(QString("&%1 %2 — %3")
                            .arg((i + 1) % 10)
                            .arg(info.fileName(), info.absolutePath()),
                        this, [this, path = files[i]] { openFile(path); });
    action->setEnabled(info.exists());
  }
  if (files.isEmpty())
    menu->addAction("No recent files")->setEnabled(false);
  menu->addSeparator();
  menu->addAction("Clear the list", this,
                  [] { QSettings().remove(kRecentKey); })
      ->setEnabled(!files.isEmpty());
}

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

// --- Help ------------------------------------------------------------------

void MainWindow::buildHelpMenu() {
  QMenu *help = menuBar()->addMenu("&Help");
  QAction *controls =
      help->addAction("Tilescope &help", this, &MainWindow::showHelp);
  controls->setShortcut(QKeySequence::HelpContents);
  help->addAction("&About Tilescope", this, &MainWindow::showAbout);
  help->addAction("About &Qt", qApp, &QApplication::aboutQt);
}

void MainWindow::showHelp() {
  QMessageBox box(this);
  box.setWindowTitle("Tilescope help");
  box.setTextFormat(Qt::RichText);
  box.setText(
      "<b>Pick</b> a dispatch's root op on the left (Ctrl+F filters); its "
      "MLIR line is highlighted.<br>"
      "<b>Edit</b> a field in the Config editor: the views redraw as you type, "
      "Enter applies (Ctrl+Z / Ctrl+Shift+Z undo and redo), an empty value "
      "removes the field; Problems lists what the rules and IREE say, click "
      "one to reach its field.<br>"
      "<b>Views</b>: Layouts, lane and subgroup bases, MMA fragments, "
      "shared-memory banks and the workgroup grid. Ctrl+wheel or Ctrl+= / "
      "Ctrl+- zoom, Ctrl+0 fits, hover tells who holds a cell, a click (or "
      "Mark) marks every cell of that lane, subgroup or bank, Escape "
      "clears.<br>"
      "<b>Run</b>: compile, read resources, run, check against the CPU and "
      "compare tries in the Run dock; sweep neighbouring configs in Sweep.<br>"
      "<b>IREE's default</b> (Ctrl+D) shows what IREE would choose.<br>"
      "Edits are kept on disk until saved: after a crash the next start "
      "offers them back.<br>"
      "The same is scriptable: <tt>tilescope-cli --help</tt>, and "
      "<tt>tilescope FILE --op D:O --set FIELD=VALUE --view VIEW "
      "--screenshot OUT.png</tt>.");
  box.exec();
}

void MainWindow::showAbout() {
  QString iree = "not located";
  if (services.ireeVersion)
    iree = qs(services.ireeVersion()).toHtmlEscaped().replace('\n', "<br>");
  QMessageBox::about(
      this, "About Tilescope",
      QString("<h3>Tilescope %1</h3>"
              "<p>How IREE spreads a GPU dispatch over workgroups, subgroups, "
              "lanes and registers.</p>"
              "<p><b>Qt</b> %2 (built with %3)</p>"
              "<p><b>IREE</b><br>%4</p>")
          .arg(QApplication::applicationVersion(), qVersion(), QT_VERSION_STR,
               iree));
}

void MainWindow::buildLoadingIndicator() {
  loadBar = new QProgressBar;
  loadBar->setObjectName("loadProgress");
  loadBar->setRange(0, 0);
  loadBar->setMaximumWidth(160);
  loadCancelButton = new QPushButton("Cancel");
  loadCancelButton->setObjectName("loadCancelButton");
  connect(loadCancelButton, &QPushButton::clicked, this,
          &MainWindow::cancelLoading);
  statusBar()->addPermanentWidget(loadBar);
  statusBar()->addPermanentWidget(loadCancelButton);
  loadTicker = new QTimer(this);
  loadTicker->setInterval(200);
  connect(loadTicker, &QTimer::timeout, this, [this] {
    const double seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - loadStarted)
                               .count();
    statusLabel->setText(QString("Loading %1… %2 s (IREE parses it)")
                             .arg(loadingPath)
                             .arg(seconds, 0, 'f', 1));
  });
  showLoading(false);
}

void MainWindow::cancelLoading() {
  // Until its answer is shown, a load can be given up: a parse that has
  // just finished is dropped as well.
  if (loadCancel && !loadBar->isHidden())
    loadCancel->store(true);
}

void MainWindow::showLoading(bool loading) {
  loadBar->setVisible(loading);
  loadCancelButton->setVisible(loading);
  if (loading)
    loadTicker->start();
  else
    loadTicker->stop();
}

void MainWindow::editSettings() {
  SettingsDialog dialog(services.checkIree, services.ireePathSetting, this);
  if (dialog.exec() != QDialog::Accepted)
    return;
  layoutTab->scene()->fitToView(); // the largest fitted cell may have changed
  // The places to run on may have changed: the panels' lists follow.
  for (RunPlaceBox *box : findChildren<RunPlaceBox *>())
    box->reload();
  statusLabel->setText("Settings saved");
}

} // namespace tilescope::widgets
