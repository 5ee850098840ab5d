// The window's files, settings and help: loading (its progress and
// Cancel), Open Recent, drag and drop, the edits kept on disk while a
// person works (restored after a crash or a kill), the conversion of a file
// from another IREE release, Edit > Settings, and Help.
#include "widgets/MainWindow.h"

#include "core/edit/EditJournal.h"
#include "core/util/Files.h"
#include "widgets/EditSession.h"
#include "widgets/LayoutTab.h"
#include "widgets/OfferBar.h"
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

// "2026-11-23T23:45:34Z" as a person reads it: "2026-11-23 23:45 UTC".
QString when(const std::string &utc) {
  QString text = qs(utc);
  if (text.size() == 20 && text[10] == 'T' && text.endsWith('Z'))
    return text.left(10) + ' ' + text.mid(11, 5) + " UTC";
  return text;
}

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

// --- Edits kept on disk ----------------------------------------------------

std::filesystem::path MainWindow::journalPath() const {
  if (!services.keepEditsForRecovery || services.workspace.empty() ||
      !edits->hasDocument())
    return {};
  return edit::journalFile(services.workspace / "recovery",
                           edits->document().path);
}

// Edits made while older ones wait on the "Restore them?" bar: kept beside
// the offered journal, which stays as it is until restored or discarded.
static std::filesystem::path sideJournal(const std::filesystem::path &file) {
  return file.empty() ? file : std::filesystem::path(file.string() + ".next");
}

void MainWindow::recordEdits() {
  const std::filesystem::path main = journalPath();
  if (main.empty())
    return;
  std::error_code ignored;
  const bool clean = edits->undoStack()->isClean();
  if (pendingJournal) {
    if (clean)
      std::filesystem::remove(sideJournal(main), ignored);
    else if (auto written = writeJournal(
                 edit::EditJournal::of(edits->model(), edits->document().path),
                 sideJournal(main));
             !written)
      statusLabel->setText("Edits not kept for recovery: " +
                           qs(written.error()));
    return;
  }
  if (clean) {
    if (journalWritten) {
      std::filesystem::remove(main, ignored);
      std::filesystem::remove(sideJournal(main), ignored);
      journalWritten = false;
    }
    return;
  }
  auto written = writeJournal(
      edit::EditJournal::of(edits->model(), edits->document().path), main);
  journalWritten = written.ok();
  if (written) // what waited beside an offer is in this one now
    std::filesystem::remove(sideJournal(main), ignored);
  else
    statusLabel->setText("Edits not kept for recovery: " + qs(written.error()));
}

void MainWindow::forgetEdits() {
  const std::filesystem::path file = journalPath();
  if (file.empty())
    return;
  std::error_code ignored;
  std::filesystem::remove(file, ignored);
  std::filesystem::remove(sideJournal(file), ignored);
  journalWritten = false;
  pendingJournal.reset();
  recoveryBar->hide();
}

void MainWindow::offerRecovery() {
  pendingJournal.reset();
  recoveryBar->hide();
  const std::filesystem::path file = journalPath();
  if (file.empty() || !std::filesystem::exists(file))
    return;
  auto journal = edit::readJournal(file);
  // Edits made while this journal was last offered (the window closed
  // before the offer was answered) follow it: nothing made is lost.
  size_t later = 0;
  if (journal)
    if (auto next = edit::readJournal(sideJournal(file));
        next && next->originalHash == journal->originalHash) {
      later = next->entries.size();
      journal->entries.insert(journal->entries.end(), next->entries.begin(),
                              next->entries.end());
      journal->writtenAt = next->writtenAt;
    }
  if (!journal) {
    recoveryBar->offer("Unsaved edits were kept for this file but cannot "
                       "be read: " +
                       qs(journal.error()));
    recoveryBar->acceptButton()->setEnabled(false);
  } else if (!journal->appliesTo(edits->model().originalText())) {
    recoveryBar->offer(
        QString("%1 unsaved edit%2 from %3 were made to this file as it was "
                "then; it has changed since, so they cannot be replayed.")
            .arg(journal->entries.size())
            .arg(journal->entries.size() == 1 ? "" : "s")
            .arg(when(journal->writtenAt)));
    recoveryBar->acceptButton()->setEnabled(false);
  } else {
    recoveryBar->offer(
        QString("Tilescope closed with %1 unsaved edit%2 to this file (last "
                "at %3%4). Restore them?")
            .arg(journal->entries.size())
            .arg(journal->entries.size() == 1 ? "" : "s")
            .arg(when(journal->writtenAt))
            .arg(later ? QString("; %1 of them made while older ones waited "
                                 "to be restored")
                             .arg(later)
                       : QString()));
    recoveryBar->acceptButton()->setEnabled(true);
    pendingJournal = std::move(*journal);
  }
}

bool MainWindow::offersRecovery() const { return pendingJournal.has_value(); }

Result<size_t> MainWindow::restoreEdits() {
  if (!pendingJournal)
    return Error{"no unsaved edits to restore"};
  const edit::EditJournal journal = std::move(*pendingJournal);
  pendingJournal.reset();
  recoveryBar->hide();
  auto replayed =
      edit::replay(journal, edits->model().originalText(),
                   [this](const edit::JournalEntry &entry) -> Result<bool> {
                     auto made =
                         edits->setField(entry.op, entry.field, entry.value);
                     if (!made)
                       return Error{made.error()};
                     return true;
                   });
  recordEdits(); // what was restored is what is kept now
  if (!replayed) {
    statusLabel->setText("Edits restored in part: " + qs(replayed.error()));
    return Error{replayed.error()};
  }
  statusLabel->setText(QString("Restored %1 edit%2 from %3")
                           .arg(*replayed)
                           .arg(*replayed == 1 ? "" : "s")
                           .arg(when(journal.writtenAt)));
  return replayed;
}

void MainWindow::discardRecovery() {
  forgetEdits();
  recordEdits(); // the edits made while the offer waited are kept now
}

QWidget *MainWindow::buildRecoveryBar() {
  recoveryBar =
      new OfferBar("Restore edits", "Discard them", "restoreEditsButton");
  recoveryBar->setObjectName("recoveryBar");
  connect(recoveryBar, &OfferBar::accepted, this, [this] {
    if (auto restored = restoreEdits(); !restored)
      QMessageBox::warning(this, "Edits restored in part",
                           qs(restored.error()));
  });
  connect(recoveryBar, &OfferBar::dismissed, this,
          &MainWindow::discardRecovery);
  return recoveryBar;
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

QWidget *MainWindow::buildConversionBar() {
  conversionBar = new OfferBar("Save converted as… and open", "Dismiss",
                               "openConvertedButton");
  conversionBar->setObjectName("conversionBar");
  connect(conversionBar, &OfferBar::accepted, this, &MainWindow::saveConverted);
  offerAnswer =
      std::make_unique<LatestAnswer<std::optional<jobs::ReleaseOffer>>>(
          [this](std::optional<jobs::ReleaseOffer> offer) {
            conversion = std::move(offer);
            if (conversion)
              conversionBar->offer(
                  qs(conversion->describe(conversionOf.filename().string())) +
                  " Nothing is written until you save the converted file.");
            emit conversionChecked(conversion.has_value());
          });
  return conversionBar;
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

void MainWindow::offerConversion(const std::filesystem::path &file) {
  conversion.reset();
  conversionBar->hide();
  if (!services.releaseOffer)
    return;
  conversionOf = file;
  offerAnswer->ask([check = services.releaseOffer,
                    file](const std::atomic<bool> *) { return check(file); });
}

void MainWindow::saveConverted() {
  if (!conversion)
    return;
  const std::filesystem::path suggested =
      conversionOf.parent_path() /
      (conversionOf.stem().string() + ".iree-" + conversion->release + ".mlir");
  const QString path = QFileDialog::getSaveFileName(
      this, "Save the converted file", qs(suggested.string()),
      "MLIR files (*.mlir);;All files (*)");
  if (path.isEmpty())
    return;
  if (auto opened = openConverted(path); !opened)
    QMessageBox::warning(this, "Not saved", qs(opened.error()));
}

Result<bool> MainWindow::openConverted(const QString &path) {
  if (!conversion)
    return Error{"no conversion is offered"};
  const std::filesystem::path target = path.toStdString();
  std::error_code same;
  if (std::filesystem::equivalent(target, conversionOf, same))
    return Error{"the converted file goes beside the original, not over it "
                 "(tilescope-cli convert --in-place rewrites it)"};
  if (auto written = writeFileAtomically(target, conversion->converted);
      !written)
    return Error{written.error()};
  conversionBar->hide();
  openFile(path);
  return true;
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
