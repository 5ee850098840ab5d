#include "widgets/window/MainWindow.h"

#include "widgets/editor/ConfigEditor.h"
#include "widgets/editor/ConversionBar.h"
#include "widgets/editor/DispatchBrowser.h"
#include "widgets/editor/EditSession.h"
#include "widgets/editor/EditVerdicts.h"
#include "widgets/editor/ProblemList.h"
#include "widgets/editor/RecoveryBar.h"
#include "widgets/editor/SaveActions.h"
#include "widgets/jobs/BundleActions.h"
#include "widgets/jobs/RunPanel.h"
#include "widgets/jobs/RunPlaceBox.h"
#include "widgets/jobs/SweepPanel.h"
#include "widgets/jobs/TryActions.h"
#include "widgets/views/DefaultConfigView.h"
#include "widgets/views/IreeDefault.h"
#include "widgets/views/LayoutTab.h"
#include "widgets/views/SceneView.h"
#include "widgets/views/ViewSettings.h"
#include "widgets/window/ConfigureBar.h"
#include "widgets/window/DetailTabs.h"
#include "widgets/window/DockLayout.h"
#include "widgets/window/DocumentLoading.h"
#include "widgets/window/RecentFiles.h"
#include "widgets/window/SelectionViews.h"
#include "widgets/window/SettingsDialog.h"
#include "widgets/window/WindowMenus.h"

#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace tilescope::widgets {
namespace {

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

MainWindow::MainWindow(DocumentLoader documentLoader, QWidget *parent)
    : MainWindow(std::move(documentLoader), Services{}, parent) {}

MainWindow::MainWindow(DocumentLoader documentLoader, Services windowServices,
                       QWidget *parent)
    : QMainWindow(parent), loader(std::move(documentLoader)),
      services(std::move(windowServices)), edits(new EditSession(this)) {
  setWindowTitle("Tilescope");
  // Each committed edit's attribute is read by IREE in the parse worker, as
  // set-config and Python read it: what IREE refuses is refused.
  // The whole text is read back by IREE before a save, as set-config and
  // Python save.
  // Without IREE, edits are held to the rules alone.
  session::SessionServices sessionServices;
  if (services.bench && services.bench->worker().ok())
    sessionServices.printAttribute =
        services.bench->sessionServices().printAttribute;
  sessionServices.parseText = services.parseText;
  edits->setServices(std::move(sessionServices));
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
  connect(tabs->defaults(), &DefaultConfigView::askRequested, this,
          &MainWindow::askIreeDefault);
  connect(tabs->defaults(), &DefaultConfigView::useRequested, this,
          &MainWindow::useIreeDefault);
  connect(tabs->splitK(), &SplitKView::finished, this,
          [this](bool, const QString &summary) {
            statusBar()->showMessage("Split-k: " + summary, 10000);
          });
  ireeDefault = new IreeDefault(services.ireeDefaults, tabs->defaults(), this);
  connect(ireeDefault, &IreeDefault::answered, this,
          [this](bool ok, const QString &message) {
            if (ok) {
              selection->showIreeDefault();
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
  saving = new SaveActions(edits, recoveryBar, this);
  auto say = [this](const QString &message) { statusLabel->setText(message); };
  connect(recoveryBar, &RecoveryBar::said, this, say);
  conversionBar = new ConversionBar(services.releaseOffer);
  connect(conversionBar, &ConversionBar::checked, this,
          &MainWindow::conversionChecked);
  connect(conversionBar, &ConversionBar::convertedSaved, this,
          &MainWindow::openFile);
  configureBar = new ConfigureBar(ConfigureBar::through(services));
  connect(configureBar, &ConfigureBar::configured, this, &MainWindow::openFile);
  connect(configureBar, &ConfigureBar::failed, this, [this] {
    statusLabel->setText("Not configured: see the bar over the views");
  });
  centralColumn->addWidget(recoveryBar);
  centralColumn->addWidget(conversionBar);
  centralColumn->addWidget(configureBar);
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
  connect(verdicts, &EditVerdicts::asking, this, [this] {
    statusLabel->setText("Asking IREE about the edited file…");
  });
  connect(verdicts, &EditVerdicts::ireeRead, this,
          [this](bool ok, const QString &message) {
            statusLabel->setText(message.section('\n', 0, 0));
            emit ireeVerdict(ok, message);
          });
  panels = addWindowDocks(*this, services);
  buildActions();
  arrangeDocks();
  selection = new SelectionViews({edits, panels.browser, panels.source,
                                  panels.editor, panels.problems, verdicts,
                                  tabs, ireeDefault, panels.run, panels.sweep},
                                 this);
  connect(selection, &SelectionViews::said, this, say);
  connect(saving, &SaveActions::said, this, say);
  buildMenus();

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
  delete selection;
  selection = nullptr;
  delete verdicts;
  delete ireeDefault;
}

void MainWindow::buildMenus() {
  MenuCommands menus;
  menus.open = [this] {
    const QString path =
        saving->chooseFileToOpen(QFileInfo(loading->path()).absolutePath());
    if (!path.isEmpty())
      openFile(path);
  };
  menus.openRecent = [this](const QString &path) { openFile(path); };
  menus.save = [this] { saving->save(); };
  menus.saveAs = [this] { saving->saveAs(); };
  menus.exports = {
      {"Export &tuning spec…", [this] { tryActions->exportSpec(); }},
      {"Export &report (JSON)…", [this] { tryActions->exportReport(); }},
      {"Export run &bundle…", [this] { bundleActions->exportRunBundle(); }},
      {"&Import run results…", [this] { bundleActions->importRunResults(); }},
      {"Export the &picture… (PNG, SVG, PDF)",
       [this] { tabs->layout()->scene()->chooseAndSave(); }}};
  menus.undoStack = edits->undoStack();
  menus.askIree = [this] { verdicts->askIree(); };
  menus.ireeDefault = [this] { askIreeDefault(); };
  menus.settings = [this] { editSettings(); };
  menus.runActions = panels.run->actions();
  menus.findOp = [this] {
    if (auto *filter =
            panels.browser->findChild<QLineEdit *>("dispatchFilter")) {
      filter->setFocus();
      filter->selectAll();
    }
  };
  menus.resetLayout = [this] { arrangeDocks(); };
  menus.ireeVersion = services.ireeVersion;
  buildWindowMenus(*this, menus);
}

void MainWindow::closeEvent(QCloseEvent *event) {
  if (!saving->confirmDiscard()) {
    event->ignore();
    return;
  }
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  panels.run->cancel();
  panels.sweep->stop();
  event->accept();
}

void MainWindow::openFile(const QString &path) {
  if (loading->running()) {
    statusLabel->setText("Still loading " + loading->path() + "…");
    return;
  }
  if (!saving->confirmDiscard())
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
  if (configureBar->configuring())
    pending << "the program's configuration";
  if (panels.sweep->planning())
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
    panels.problems->showError(qs(result.error()));
    statusLabel->setText("Could not open " + loading->path());
    emit loadFailed(qs(result.error()));
    conversionBar->checkFile(loading->path().toStdString());
    return;
  }
  // Questions about the previous file no longer stand.
  conversionBar->withdraw();
  recoveryBar->forgetDocument();
  selection->open(std::move(*result));
  const document::Document &current = edits->document();
  configureBar->opened(current); // a program not configured yet
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
  emit documentLoaded();
}

void MainWindow::selectOp(edit::OpRef op) { selection->select(op); }

std::optional<edit::OpRef> MainWindow::selectedOp() const {
  return selection->selected();
}

void MainWindow::buildActions() {
  auto say = [this](const QString &message) { statusLabel->setText(message); };
  TryActions::Context tries;
  tries.edits = edits;
  tries.dialogParent = this;
  tries.workspace = [this] { return panels.run->workspace(); };
  tries.selectedOp = [this] { return selectedOp(); };
  tries.colorBy = [this] { return tabs->layout()->colorBy(); };
  tries.bench = services.bench;
  tryActions = new TryActions(std::move(tries), this);
  connect(tryActions, &TryActions::said, this, say);
  connect(panels.run, &RunPanel::tryActivated, tryActions,
          &TryActions::loadTryAndSay);
  connect(panels.sweep, &SweepPanel::tryActivated, tryActions,
          &TryActions::loadTryAndSay);
  // The kernel's instructions and the Layout tab's picture, linked both
  // ways: an instruction chosen marks the cells it touches (accumulator,
  // LHS, RHS), a cell clicked selects the instructions that load, stage,
  // compute and store it.
  connect(
      panels.run, &RunPanel::instructionCellsChosen, this,
      [this](const std::set<std::vector<int64_t>> &cells, const QString &what) {
        tabs->layout()->scene()->markPoints(cells, what);
        if (!cells.empty())
          statusLabel->setText("Marked in the Layout tab: " + what);
      });
  connect(tabs->layout()->scene(), &SceneView::pointClicked, this,
          [this](const std::vector<int64_t> &point) {
            QStringList at;
            for (int64_t v : point)
              at << (v < 0 ? QString("*") : QString::number(v));
            if (panels.run->showInstructionsOfCell(point))
              statusLabel->setText(
                  QString("Point [%1]: the instructions that load, compute "
                          "and store it are selected in the Instructions tab")
                      .arg(at.join(", ")));
          });
  connect(panels.run, &RunPanel::compareRequested, this,
          [this](long long a, long long b) {
            if (auto opened = tryActions->compareTries(a, b); !opened)
              statusLabel->setText(QString("Tries %1 and %2 not compared: %3")
                                       .arg(a)
                                       .arg(b)
                                       .arg(qs(opened.error())));
          });
  BundleActions::Context bundles;
  bundles.edits = edits;
  bundles.runPanel = panels.run;
  bundles.sweepPanel = panels.sweep;
  bundles.dialogParent = this;
  bundles.bench = services.bench;
  bundleActions = new BundleActions(std::move(bundles), this);
  connect(bundleActions, &BundleActions::said, this, say);
}

void MainWindow::showEvent(QShowEvent *event) {
  QMainWindow::showEvent(event);
  if (!arrangeWhenShown)
    return;
  arrangeWhenShown = false;
  // After the layout has taken the shown size. The docks as first arranged
  // (for 1440 wide) left the window a minimum width past a smaller screen's
  // (1346 at 1280x800), which Qt does not lower again: the docks arranged
  // for the shown width, the minimum what the docks need, the shown size.
  QTimer::singleShot(0, this, [this, shown = size()] {
    arrangingWidth = std::max(shown.width(), minimumSizeHint().width());
    arrangeDocks();
    arrangingWidth = 0;
    setMinimumSize(layout()->minimumSize());
    resize(shown.expandedTo(minimumSizeHint()));
  });
}

void MainWindow::arrangeDocks() {
  arrangeWindowDocks(*this, arrangingWidth > 0 ? arrangingWidth : width());
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

void MainWindow::editSettings() {
  SettingsDialog dialog(services.checkIree, services.ireePathSetting, this);
  if (dialog.exec() != QDialog::Accepted)
    return;
  tabs->layout()->scene()->fitToView(); // the largest fitted cell may change
  // The places to run on may have changed: the panels' lists follow.
  for (RunPlaceBox *box : findChildren<RunPlaceBox *>())
    box->reload();
  statusLabel->setText("Settings saved");
}

void MainWindow::askIreeDefault() {
  if (!edits->hasDocument())
    return;
  tabs->setCurrentWidget(tabs->defaults());
  ireeDefault->ask(edits->document());
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

void MainWindow::setView(render::OpViewKind kind) {
  tabs->setCurrentWidget(tabs->layout());
  tabs->layout()->setView(kind);
}

render::OpViewKind MainWindow::view() const { return tabs->layout()->view(); }

SplitKView *MainWindow::showSplitK() {
  tabs->setCurrentWidget(tabs->splitK());
  return tabs->splitK();
}

} // namespace tilescope::widgets
