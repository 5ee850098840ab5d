#include "widgets/MainWindow.h"

#include "widgets/BundleActions.h"
#include "widgets/ConfigEditor.h"
#include "widgets/ConversionBar.h"
#include "widgets/DefaultConfigView.h"
#include "widgets/DetailTabs.h"
#include "widgets/DispatchBrowser.h"
#include "widgets/DocumentLoading.h"
#include "widgets/EditSession.h"
#include "widgets/EditVerdicts.h"
#include "widgets/HelpMenu.h"
#include "widgets/IreeDefault.h"
#include "widgets/IreeLayoutView.h"
#include "widgets/LayoutTab.h"
#include "widgets/MlirView.h"
#include "widgets/ProblemList.h"
#include "widgets/RecentFiles.h"
#include "widgets/RecoveryBar.h"
#include "widgets/RunPanel.h"
#include "widgets/SceneView.h"
#include "widgets/SweepPanel.h"
#include "widgets/TryActions.h"
#include "widgets/ViewSettings.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

MainWindow::MainWindow(DocumentLoader documentLoader, QWidget *parent)
    : MainWindow(std::move(documentLoader), Services{}, parent) {}

MainWindow::MainWindow(DocumentLoader documentLoader, Services windowServices,
                       QWidget *parent)
    : QMainWindow(parent), loader(std::move(documentLoader)),
      services(std::move(windowServices)), edits(new EditSession(this)) {
  setWindowTitle("Tilescope");
  // Each committed edit's attribute is read by IREE in the parse worker, as
  // set-config and Python read it: what IREE refuses is refused.
  if (services.documentWorker)
    if (services.documentWorker().ok())
      edits->setAttributeReader(
          [source = services.documentWorker](
              const std::string &text) -> Result<std::string> {
            auto worker = source();
            if (!worker)
              return Error{worker.error()};
            return worker->printAttribute(text);
          });
  // At least 1440x900, more where the screen has room (a saved layout
  // replaces this).
  resize(1440, 900);
  if (const QScreen *shown = screen()) {
    const QSize room = shown->availableGeometry().size() * 0.9;
    if (room.width() > 1440 && room.height() > 900)
      resize(std::min(room.width(), 1920), std::min(room.height(), 1200));
  }
  setDockNestingEnabled(true);

  // The views of the selected op, under the bars that offer edits a crash
  // left behind and a refused file's conversion.
  tabs = new DetailTabs(services);
  connect(tabs->layout(), &LayoutTab::redrawRequested, this,
          [this] { showLayout(); });
  connect(tabs->defaults(), &DefaultConfigView::askRequested, this,
          &MainWindow::askIreeDefault);
  connect(tabs->defaults(), &DefaultConfigView::useRequested, this,
          &MainWindow::useIreeDefault);
  connect(tabs->splitK(), &SplitKView::sourceActivated, this,
          &MainWindow::goToLine);
  connect(tabs->splitK(), &SplitKView::finished, this,
          [this](bool, const QString &summary) {
            statusBar()->showMessage("Split-k: " + summary, 10000);
          });
  ireeDefault = new IreeDefault(services.ireeDefaults, tabs->defaults(), this);
  connect(ireeDefault, &IreeDefault::answered, this,
          [this](bool ok, const QString &message) {
            if (ok) {
              showIreeDefault();
              statusLabel->setText("IREE's default: " + message);
            }
            emit ireeDefaultShown(ok, message);
          });
  // The views, under the bar that offers edits a crash left behind.
  auto *central = new QWidget;
  auto *centralColumn = new QVBoxLayout(central);
  centralColumn->setContentsMargins(0, 0, 0, 0);
  centralColumn->setSpacing(2);
  recoveryBar =
      new RecoveryBar(edits, services.workspace, services.keepEditsForRecovery);
  connect(recoveryBar, &RecoveryBar::said, this,
          [this](const QString &message) { statusLabel->setText(message); });
  conversionBar = new ConversionBar(services.releaseOffer);
  connect(conversionBar, &ConversionBar::checked, this,
          &MainWindow::conversionChecked);
  connect(conversionBar, &ConversionBar::convertedSaved, this,
          &MainWindow::openFile);
  centralColumn->addWidget(recoveryBar);
  centralColumn->addWidget(conversionBar);
  centralColumn->addWidget(tabs, 1);
  setCentralWidget(central);
  setAcceptDrops(true);

  statusLabel = new QLabel("No file open");
  statusLabel->setObjectName("statusLabel");
  statusBar()->addWidget(statusLabel, 1);
  loading = new DocumentLoading(loader, statusBar(), this);
  connect(loading, &DocumentLoading::ticking, statusLabel, &QLabel::setText);
  connect(loading, &DocumentLoading::finished, this,
          &MainWindow::onLoadFinished);

  verdicts = new EditVerdicts(edits, services.parseText,
                              services.ireeConstraints, this);
  connect(verdicts, &EditVerdicts::changed, this, &MainWindow::showProblems);
  connect(verdicts, &EditVerdicts::asking, this, [this] {
    statusLabel->setText("Asking IREE about the edited file…");
  });
  connect(verdicts, &EditVerdicts::ireeRead, this,
          [this](bool ok, const QString &message) {
            statusLabel->setText(message.section('\n', 0, 0));
            emit ireeVerdict(ok, message);
          });
  buildDocks();
  buildMenus();

  connect(edits, &EditSession::changed, this, &MainWindow::onDocumentChanged);
  connect(edits, &EditSession::changed, recoveryBar, &RecoveryBar::recordEdits);
  connect(edits->undoStack(), &QUndoStack::cleanChanged, this,
          [this](bool clean) {
            setWindowModified(!clean);
            recoveryBar->recordEdits(); // saved: nothing left to recover
          });

  applyTheme(savedTheme());
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  arrangeWhenShown =
      !restoreState(settings.value("window/state").toByteArray());
}

MainWindow::~MainWindow() {
  // The undo stack announces itself clean as it is torn down: that is not a
  // save, and must not reach this half-destroyed window (nor drop the edits
  // kept for recovery).
  disconnect(edits->undoStack(), nullptr, this, nullptr);
  disconnect(edits, nullptr, this, nullptr);
  disconnect(edits, nullptr, recoveryBar, nullptr);
  delete loading; // waits for the load under way
  // The questions still out are cancelled and waited for, their answers
  // dropped, before the views they would fill go.
  delete verdicts;
  delete ireeDefault;
}

void MainWindow::buildMenus() {
  QMenu *file = menuBar()->addMenu("&File");
  QAction *open = file->addAction("&Open…", this, &MainWindow::chooseFile);
  open->setShortcut(QKeySequence::Open);
  QMenu *recent = file->addMenu("Open &Recent");
  recent->setObjectName("recentMenu");
  connect(recent, &QMenu::aboutToShow, this, [this, recent] {
    fillRecentMenu(recent, this,
                   [this](const QString &path) { openFile(path); });
  });
  QAction *save = file->addAction("&Save", this, [this] {
    if (edits->hasDocument())
      saveTo(qs(edits->document().path.string()));
  });
  save->setShortcut(QKeySequence::Save);
  QAction *saveAsAction =
      file->addAction("Save &As…", this, &MainWindow::saveAs);
  saveAsAction->setShortcut(QKeySequence::SaveAs);
  file->addAction("Export &tuning spec…", tryActions, &TryActions::exportSpec);
  file->addAction("Export &report (JSON)…", tryActions,
                  &TryActions::exportReport);
  file->addAction("Export run &bundle…", bundleActions,
                  &BundleActions::exportRunBundle);
  file->addAction("&Import run results…", bundleActions,
                  &BundleActions::importRunResults);
  file->addAction("Export the &picture… (PNG, SVG, PDF)",
                  tabs->layout()->scene(), &SceneView::chooseAndSave);
  file->addSeparator();
  QAction *quit = file->addAction("&Quit", this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu *editMenu = menuBar()->addMenu("&Edit");
  QAction *undo = edits->undoStack()->createUndoAction(this, "&Undo");
  undo->setShortcut(QKeySequence::Undo);
  QAction *redo = edits->undoStack()->createRedoAction(this, "&Redo");
  redo->setShortcut(QKeySequence::Redo);
  editMenu->addAction(undo);
  editMenu->addAction(redo);
  editMenu->addSeparator();
  editMenu->addAction("Ask IREE about the edited file", verdicts,
                      &EditVerdicts::askIree);
  QAction *defaults = editMenu->addAction("IREE's &default for this file", this,
                                          &MainWindow::askIreeDefault);
  defaults->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
  editMenu->addSeparator();
  QAction *preferences =
      editMenu->addAction("&Settings…", this, &MainWindow::editSettings);
  preferences->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));

  QMenu *runMenu = menuBar()->addMenu("&Run");
  for (QAction *action : runPanel->actions())
    runMenu->addAction(action);

  QMenu *view = menuBar()->addMenu("&View");
  QAction *find = view->addAction("&Find a dispatch or op", this, [this] {
    if (auto *filter = browser->findChild<QLineEdit *>("dispatchFilter")) {
      filter->setFocus();
      filter->selectAll();
    }
  });
  find->setShortcut(QKeySequence::Find);
  view->addSeparator();
  for (QDockWidget *widget : findChildren<QDockWidget *>())
    view->addAction(widget->toggleViewAction());
  view->addSeparator();
  QAction *reset =
      view->addAction("&Reset layout", this, &MainWindow::arrangeDocks);
  reset->setObjectName("resetLayoutAction");
  reset->setToolTip("Every panel back in its place, at its first size");
  addHelpMenu(this, services.ireeVersion);
}

void MainWindow::chooseFile() {
  const QString path = QFileDialog::getOpenFileName(
      this, "Open an IREE MLIR file", QFileInfo(loading->path()).absolutePath(),
      "MLIR files (*.mlir);;All files (*)");
  if (!path.isEmpty())
    openFile(path);
}

void MainWindow::saveAs() {
  if (!edits->hasDocument())
    return;
  const QString path = QFileDialog::getSaveFileName(
      this, "Save the edited MLIR", qs(edits->document().path.string()),
      "MLIR files (*.mlir);;All files (*)");
  if (!path.isEmpty())
    saveTo(path);
}

bool MainWindow::saveTo(const QString &path) {
  auto saved = edits->save(path.toStdString());
  if (!saved) {
    QMessageBox::warning(this, "Not saved", qs(saved.error()));
    return false;
  }
  statusLabel->setText("Saved " + path);
  return true;
}

bool MainWindow::confirmDiscard() {
  if (!edits->hasDocument() || edits->undoStack()->isClean())
    return true;
  // Save is the default (Return saves), as in every editor.
  QMessageBox box(
      QMessageBox::Question, "Unsaved edits",
      "The open file has edits that are not saved. Save them "
      "first?",
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
  box.setObjectName("unsavedEditsBox");
  box.setDefaultButton(QMessageBox::Save);
  const int answer = box.exec();
  if (answer == QMessageBox::Save)
    return saveTo(qs(edits->document().path.string()));
  if (answer != QMessageBox::Discard)
    return false;
  recoveryBar
      ->forgetEdits(); // discarded on purpose: nothing to offer next time
  return true;
}

void MainWindow::closeEvent(QCloseEvent *event) {
  if (!confirmDiscard()) {
    event->ignore();
    return;
  }
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  runPanel->cancel();
  sweepPanel->stop();
  event->accept();
}

void MainWindow::openFile(const QString &path) {
  if (loading->running()) {
    statusLabel->setText("Still loading " + loading->path() + "…");
    return;
  }
  if (!confirmDiscard())
    return;
  statusLabel->setText("Loading " + path + "…");
  loading->start(path);
}

bool MainWindow::isLoading() const { return loading->running(); }

void MainWindow::cancelLoading() { loading->cancel(); }

QStringList MainWindow::pendingAnswers() const {
  QStringList pending;
  if (isLoading())
    pending << "the file";
  pending << verdicts->pending();
  if (ireeDefault->busy())
    pending << "IREE's default config";
  if (sweepPanel->planning())
    pending << "the sweep's plan";
  return pending;
}

const document::Document *MainWindow::document() const {
  return edits->hasDocument() ? &edits->document() : nullptr;
}

void MainWindow::onLoadFinished(bool cancelled) {
  if (cancelled) {
    // The person gave up: nothing to report, the window as it was.
    statusLabel->setText("Stopped loading " + loading->path());
    emit loadFailed("cancelled");
    return;
  }
  Result<document::Document> result = loading->result();
  if (!result) {
    // The previous document (and its edits) stays on screen.
    showError(qs(result.error()));
    emit loadFailed(qs(result.error()));
    conversionBar->checkFile(loading->path().toStdString());
    return;
  }
  // Questions about the previous file no longer stand.
  conversionBar->withdraw();
  selectedDispatch = selectedRootOp = -1;
  tabs->layout()->forgetStep();
  verdicts->opened(result->text); // IREE has just read it
  ireeDefault->forget();          // IREE's choice was for the previous file
  browser->clear();               // its rows index the old document
  recoveryBar->forgetDocument();
  edits->reset(std::move(*result));
  browser->rebuild(*edits);
  const document::Document &current = edits->document();
  const QString name = QFileInfo(qs(current.path.string())).fileName();
  setWindowTitle(name + "[*] — Tilescope");
  statusLabel->setText(QString("%1: %2 dispatch%3, %4 part%5")
                           .arg(qs(current.path.string()))
                           .arg(current.dispatches.size())
                           .arg(current.dispatches.size() == 1 ? "" : "es")
                           .arg(current.partCount)
                           .arg(current.partCount == 1 ? "" : "s"));
  rememberRecentFile(qs(current.path.string()));
  recoveryBar->offerRecovery();
  tabs->splitK()->setFile(qs(current.path.string()), current.partCount,
                          current.dispatches.size());
  // The first dispatch's root op is what a person came to see; a program
  // not yet configured shows how IREE would split its reductions.
  if (!browser->selectFirst()) {
    configEditor->clear("This file holds no dispatches: open a dispatch "
                        "benchmark, a configuration dump or a program "
                        "configured by `tilescope-cli configure`. The "
                        "Split-k tab shows how IREE splits its reductions.");
    tabs->setCurrentWidget(tabs->splitK());
  }
  emit documentLoaded();
}

void MainWindow::showError(const QString &message) {
  problemList->showError(message);
  statusLabel->setText("Could not open " + loading->path());
}

void MainWindow::selectOp(edit::OpRef op) { browser->select(op); }

std::optional<edit::OpRef> MainWindow::selectedOp() const {
  if (selectedDispatch < 0 || selectedRootOp < 0)
    return std::nullopt;
  return edit::OpRef{static_cast<size_t>(selectedDispatch),
                     static_cast<size_t>(selectedRootOp)};
}

void MainWindow::onOpSelected(int dispatch, int op, int line) {
  selectedDispatch = dispatch;
  selectedRootOp = op;
  verdicts->setDraft({}, {}); // a typed value of another op
  tabs->layout()->forgetSlice();
  if (const document::Document *open = document();
      open && dispatch >= 0 &&
      static_cast<size_t>(dispatch) < open->dispatches.size())
    tabs->splitK()->setPart(
        open->dispatches[static_cast<size_t>(dispatch)].part);
  // The editor's rows follow the session's edits from here on.
  if (const auto shown = selectedOp())
    configEditor->show(edits, *shown);
  else
    configEditor->clear("This dispatch has no configured root op.");
  showSelection();
  goToLine(line);
}

void MainWindow::onDocumentChanged() {
  if (!edits->hasDocument())
    return;
  const document::Document &current = edits->document();
  // The text follows the model at once, where the reader was.
  if (sourceView->toPlainText().toStdString() != current.text)
    sourceView->setMlir(qs(current.text));
  const std::string diff = edits->model().diff();
  tabs->showDiff(diff, edits->model().edits().size());
  // The dispatch list marks the changed op itself (EditSession::fieldChanged).
  verdicts->documentChanged();
  showSelection();
  if (const auto op = selectedOp())
    if (op->dispatch < current.dispatches.size() &&
        op->op < current.dispatches[op->dispatch].rootOps.size())
      goToLine(current.dispatches[op->dispatch].rootOps[op->op].line);
}

// Every view of the selected op: the editor's rows, the configs as text, the
// picture and the problems; `draft` is the op's dispatch as typed.
void MainWindow::showSelection(const document::Dispatch *draft) {
  runPanel->setDocument(document(), selectedOp(),
                        edits->hasDocument() ? &edits->original() : nullptr);
  if (!draft)
    sweepPanel->setDocument(document(), selectedOp());
  if (!edits->hasDocument() || selectedDispatch < 0)
    return;
  const document::Document &current = edits->document();
  const size_t d = static_cast<size_t>(selectedDispatch);
  const document::Dispatch &dispatch = draft ? *draft : current.dispatches[d];
  const document::RootOp *op =
      selectedRootOp >= 0
          ? &dispatch.rootOps[static_cast<size_t>(selectedRootOp)]
          : nullptr;
  tabs->showConfigs(dispatch, op);
  verdicts->judge(dispatch, op,
                  static_cast<size_t>(std::max(selectedRootOp, 0)));
  showLayout(draft);
  if (!draft) {
    showIreeDefault();
    if (!comparedDocument || comparedDocument->text != current.text)
      comparedDocument = std::make_shared<const document::Document>(current);
    tabs->ireeLayouts()->setSubject(comparedDocument, selectedOp());
    verdicts->askConstraints(comparedDocument, selectedOp());
  }
}

void MainWindow::showProblems() {
  const ProblemList::Contents contents = verdicts->contents();
  problemList->show(contents);
  configEditor->clearFieldMessages();
  for (const ProblemList::FieldMessage &m :
       ProblemList::fieldMessages(contents))
    configEditor->setFieldMessage(m.field, m.message, m.error);
}

void MainWindow::onDrafting(const QString &field, const QString &value) {
  const auto op = selectedOp();
  if (!op)
    return;
  verdicts->setDraft(field, {});
  if (value.trimmed().isEmpty()) {
    showSelection(nullptr);
    return;
  }
  auto draft = edits->draft(*op, field.toStdString(), value.toStdString());
  if (!draft) {
    verdicts->setDraft(field, qs(draft.error()));
    return;
  }
  showSelection(&*draft);
}

void MainWindow::onCommit(const QString &field,
                          const std::optional<QString> &value) {
  const auto op = selectedOp();
  if (!op)
    return;
  std::optional<std::string> text;
  if (value)
    text = value->toStdString();
  auto made = edits->setField(*op, field.toStdString(), text);
  if (!made) {
    // The typed value stays in its box, marked, with the reason.
    verdicts->setDraft(field, qs(made.error()));
    statusLabel->setText(field + ": " + qs(made.error()).section('\n', 0, 0));
    return;
  }
  statusLabel->setText(qs(made->describe(edits->document())));
}

void MainWindow::goToLine(int line) {
  sourceView->showStatement(line, !selectingFromText);
}

void MainWindow::selectOpAtLine(int line) {
  if (!edits->hasDocument())
    return;
  // The innermost root op whose statement holds the line.
  std::optional<edit::OpRef> found;
  int foundLine = 0;
  const auto &dispatches = edits->document().dispatches;
  for (size_t d = 0; d < dispatches.size(); ++d)
    for (size_t o = 0; o < dispatches[d].rootOps.size(); ++o) {
      const int first = dispatches[d].rootOps[o].line;
      if (first > 0 && first <= line && first > foundLine &&
          line <= sourceView->statementEnd(first)) {
        found = edit::OpRef{d, o};
        foundLine = first;
      }
    }
  if (!found || found == selectedOp())
    return;
  selectingFromText = true;
  browser->select(*found);
  selectingFromText = false;
}

} // namespace tilescope::widgets
