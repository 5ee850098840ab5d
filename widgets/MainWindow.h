// Tilescope's main window: the editor. Docks the user can rearrange (the
// layout is remembered): the dispatches of an IREE file, its MLIR text, the
// config editor of the selected root op, the problems of that op as typed,
// the run panel and the sweep panel; in the middle, the op's layout picture,
// its configs as text and the diff of every edit.
//
// A client of the core, like qrenderdoc over RenderDoc's core: parsing and
// IREE's verdict come from the functions the app hands in (a child process
// there), edits go through the core's edit model, jobs through the core's job
// areas. This class never calls IREE itself.
#pragma once

#include "core/config/Validation.h"
#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/tries/BundleTries.h"
#include "widgets/LatestAnswer.h"
#include "widgets/WindowServices.h"
#include "widgets/render/OpPicture.h"

#include <QMainWindow>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

class QDragEnterEvent;
class QDropEvent;
class QMenu;
class QPushButton;
class QLabel;
class QProgressBar;
class QTabWidget;
class QPlainTextEdit;
class QTimer;

namespace tilescope::widgets {

class BundleActions;
class ConfigEditor;
class ConversionBar;
class DefaultConfigView;
class DetailTabs;
class DispatchBrowser;
class IreeDefault;
class IreeLayoutView;
class LayoutTab;
class MlirView;
class ProblemList;
class RecoveryBar;
class DocumentLoading;
class EditSession;
class EditVerdicts;
class RunPanel;
class SplitKView;
class SweepPanel;
class TunePanel;
class TryActions;
class TryComparisonView;

class MainWindow : public QMainWindow {
  Q_OBJECT

public:
  using DocumentLoader = WindowLoader;
  using Services = WindowServices;

  explicit MainWindow(DocumentLoader loader, QWidget *parent = nullptr);
  MainWindow(DocumentLoader loader, Services services,
             QWidget *parent = nullptr);
  ~MainWindow() override;

  // Starts loading `path` in the background; documentLoaded or loadFailed
  // follows.
  void openFile(const QString &path);
  const document::Document *document() const;
  EditSession *session() const { return edits; }
  bool isLoading() const;
  // What the window still waits on in the background ("IREE's pipeline
  // constraints", "the sweep's plan", ...): empty when every answer is in
  // (a scripted screenshot waits for that).
  QStringList pendingAnswers() const;
  // Selects a root op (as the dispatch tree does).
  void selectOp(edit::OpRef op);
  std::optional<edit::OpRef> selectedOp() const;
  // Shows `kind` of the selected op in the Layout tab (tilescope --view).
  void setView(render::OpViewKind kind);
  render::OpViewKind view() const;
  // The Split-k tab (brought to the front): how IREE splits the open
  // program's reductions.
  SplitKView *showSplitK();
  // Puts a try's configs (from the history) back on the open file's ops,
  // as one undoable step; an Error says why not.
  Result<int> loadTry(long long id);
  // Opens two tries of the history side by side in a window of their own;
  // an Error says why not.
  Result<TryComparisonView *> compareTries(long long a, long long b);
  // Asks IREE what it would choose for the open file (in the background);
  // ireeDefaultShown follows, and the IREE default tab shows the selected
  // op against IREE's choice.
  void askIreeDefault();
  // The files opened last, newest first (File > Open Recent).
  static QStringList recentFiles();
  // Unsaved edits left by a crash or a kill for the open file, as the bar
  // over the views offers them.
  bool offersRecovery() const;
  // Replays them as undoable steps; how many took, or why one did not.
  Result<size_t> restoreEdits();
  void discardRecovery();
  // A file IREE refused that converts for the release in use, as the bar
  // over the views offers it (after loadFailed, once the check is back:
  // conversionOffered).
  bool offersConversion() const;
  // Gives up on the file being loaded (File > Cancel loading, or the
  // status bar's Cancel): the window stays as it was.
  void cancelLoading();
  // Writes the converted text to `path` (never over the refused file) and
  // opens it.
  Result<bool> openConverted(const QString &path);
  // A tuning spec giving the edited contraction ops (else the selected op)
  // their configs, as IREE's default specs match them.
  Result<std::string> tuningSpec() const;

  // File > Export run bundle and Import run results without their dialogs:
  // the tries (history ids) as a bundle in `folder`, and a bundle's results
  // into the history (the run panel's history shows them).
  Result<std::filesystem::path>
  exportRunBundleTo(const std::vector<long long> &ids,
                    const std::filesystem::path &folder);
  Result<jobs::ImportReport>
  importRunResultsFrom(const std::filesystem::path &folder);

signals:
  void documentLoaded();
  void loadFailed(const QString &message);
  // The refused file's conversion was checked: offered or not.
  void conversionChecked(bool offered);
  // IREE's verdict on the edited text came back (ok: IREE reads it as the
  // model says).
  void ireeVerdict(bool ok, const QString &message);
  // IREE's default configs came back (or why not).
  void ireeDefaultShown(bool ok, const QString &message);

protected:
  void closeEvent(QCloseEvent *event) override;
  void showEvent(QShowEvent *event) override;
  void dragEnterEvent(QDragEnterEvent *event) override;
  void dropEvent(QDropEvent *event) override;

private:
  void buildDocks();
  // The panels where a first start puts them (View > Reset layout).
  void arrangeDocks();
  void buildMenus();
  void chooseFile();
  void saveAs();
  // The actions on tries and bundles (TryActions, BundleActions).
  void buildActions();

  bool saveTo(const QString &path);
  bool confirmDiscard();
  void onLoadFinished(bool cancelled);
  void showError(const QString &message);
  void onOpSelected(int dispatch, int op, int line);
  void onDocumentChanged();
  void showSelection(const document::Dispatch *draft = nullptr);
  void showProblems();
  void onDrafting(const QString &field, const QString &value);
  void onCommit(const QString &field, const std::optional<QString> &value);
  void showIreeDefault();
  void useIreeDefault();
  void goToLine(int line);
  // A click in the MLIR text: select the root op whose statement it is in.
  void selectOpAtLine(int line);
  // Settings (MainWindowFiles.cpp).
  void editSettings();
  // The Layout tab (MainWindowViews.cpp).
  void showLayout(const document::Dispatch *draft = nullptr);

  DocumentLoader loader;
  Services services;
  DocumentLoading *loading;
  // IREE's choice for the open file, once asked.
  IreeDefault *ireeDefault;
  EditSession *edits;
  // No layout saved: the docks are arranged once more at the window's
  // first shown size (at construction it has none yet).
  bool arrangeWhenShown = false;
  // The width arrangeDocks sizes the docks for (0: the window's own).
  int arrangingWidth = 0;
  // Edits kept on disk until saved, offered back after a crash.
  RecoveryBar *recoveryBar = nullptr;
  // A file IREE refused that converts for the release in use.
  ConversionBar *conversionBar = nullptr;

  DispatchBrowser *browser;
  MlirView *sourceView;
  bool selectingFromText = false; // keep the text where the click was
  ProblemList *problemList;
  ConfigEditor *configEditor;
  TryActions *tryActions;
  BundleActions *bundleActions;
  RunPanel *runPanel;
  SweepPanel *sweepPanel;
  TunePanel *tunePanel;
  DetailTabs *tabs;
  // The document the IREE layouts tab compares, shared with its run.
  std::shared_ptr<const document::Document> comparedDocument;
  QLabel *statusLabel;
  int selectedDispatch = -1;
  int selectedRootOp = -1;

  // What the Problems dock lists for the selected op, from its sources.
  EditVerdicts *verdicts;
};

} // namespace tilescope::widgets
