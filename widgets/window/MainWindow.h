// Tilescope's main window: the editor. Docks the user can rearrange (the
// layout is remembered): the dispatches of an IREE file, its MLIR text, the
// config editor of the selected root op, the problems of that op as typed,
// the run panel and the sweep panel; in the middle, the op's layout picture,
// its configs as text and the diff of every edit.
//
// A client of the core, like qrenderdoc over RenderDoc's core: parsing and
// IREE's verdict come from the functions the app hands in (a child process
// there), edits go through the core's edit model, jobs through the core's job
// areas. This class never calls IREE itself, and only assembles: the views
// of the selected op are kept in step by SelectionViews, the menus built by
// buildWindowMenus, saving done by SaveActions.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "widgets/render/OpPicture.h"
#include "widgets/window/DockLayout.h"
#include "widgets/window/WindowServices.h"

#include <QMainWindow>

#include <optional>

class QDragEnterEvent;
class QDropEvent;
class QLabel;

namespace tilescope::widgets {

class BundleActions;
class ConfigureBar;
class ConversionBar;
class DetailTabs;
class DocumentLoading;
class EditSession;
class EditVerdicts;
class IreeDefault;
class RecoveryBar;
class SaveActions;
class SelectionViews;
class SplitKView;
class TryActions;

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
  // Asks IREE what it would choose for the open file (in the background);
  // ireeDefaultShown follows, and the IREE default tab shows the selected
  // op against IREE's choice.
  void askIreeDefault();
  // What the bars over the views offer: unsaved edits a crash or a kill
  // left for the open file, and a refused file's conversion for the IREE
  // release in use.
  RecoveryBar *recovery() const { return recoveryBar; }
  ConversionBar *conversion() const { return conversionBar; }
  // Gives up on the file being loaded (File > Cancel loading, or the
  // status bar's Cancel): the window stays as it was.
  void cancelLoading();
  // The tries and the run bundles of the open file, as the menus and the
  // run panel reach them (tuning spec, loading and comparing tries,
  // exporting a bundle, importing its results).
  TryActions *tries() const { return tryActions; }
  BundleActions *bundles() const { return bundleActions; }

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
  // The panels where a first start puts them (View > Reset layout).
  void arrangeDocks();
  void buildMenus();
  // The actions on tries and bundles (TryActions, BundleActions).
  void buildActions();

  void onLoadFinished(bool cancelled);
  void useIreeDefault();
  void editSettings();

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
  // A program with no dispatches yet, configured for a target.
  ConfigureBar *configureBar = nullptr;
  SaveActions *saving = nullptr;

  // The docked panels (DockLayout).
  WindowPanels panels;
  TryActions *tryActions;
  BundleActions *bundleActions;
  DetailTabs *tabs;
  QLabel *statusLabel;
  // What the Problems dock lists for the selected op, from its sources.
  EditVerdicts *verdicts;
  // The selected op and every view of it.
  SelectionViews *selection = nullptr;
};

} // namespace tilescope::widgets
