// The selected root op and every view of it, kept in step: the dispatch
// list picks the op, the MLIR text follows it (and a click there picks the
// op whose statement it is), the config editor edits it through the
// session, the Problems panel judges it as typed, the central tabs draw it
// (drafted or committed) and the run and sweep panels work on it.
//
// The window's controller of the selection: it owns which op is selected
// and reacts to the session's and the views' signals, so the window itself
// only assembles the views. A QObject (no widget of its own).
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace tilescope::widgets {

class ConfigEditor;
class DetailTabs;
class DispatchBrowser;
class EditSession;
class EditVerdicts;
class IreeDefault;
class MlirView;
class ProblemList;
class RunPanel;
class SweepPanel;

class SelectionViews : public QObject {
  Q_OBJECT

public:
  // The views it keeps in step; each outlives this object.
  struct Views {
    EditSession *edits = nullptr;
    DispatchBrowser *browser = nullptr;
    MlirView *source = nullptr;
    ConfigEditor *editor = nullptr;
    ProblemList *problems = nullptr;
    EditVerdicts *verdicts = nullptr;
    DetailTabs *tabs = nullptr;
    IreeDefault *ireeDefault = nullptr;
    RunPanel *runPanel = nullptr;
    SweepPanel *sweepPanel = nullptr;
  };

  SelectionViews(Views views, QObject *parent);

  // A newly loaded document replaces the session's; its first root op is
  // selected (or the Split-k tab shown where it holds no dispatch).
  void open(document::Document loaded);
  // Selects a root op (as the dispatch list does).
  void select(edit::OpRef op);
  std::optional<edit::OpRef> selected() const;
  // The IREE default tab shows the selected op against IREE's choice.
  void showIreeDefault();
  // The MLIR text shows the statement at `line`.
  void goToLine(int line);

signals:
  // A line for the status bar.
  void said(const QString &message);

private:
  void onOpSelected(int dispatch, int op, int line);
  void onDocumentChanged();
  // Every view of the selected op; `draft` is its dispatch as typed.
  void showSelection(const document::Dispatch *draft = nullptr);
  void showLayout(const document::Dispatch *draft = nullptr);
  void showProblems();
  void onDrafting(const QString &field, const QString &value);
  void onCommit(const QString &field, const std::optional<QString> &value);
  // A click in the MLIR text: select the root op whose statement it is in.
  void selectOpAtLine(int line);

  Views views;
  int selectedDispatch = -1;
  int selectedRootOp = -1;
  bool selectingFromText = false; // keep the text where the click was
  // The document the IREE layouts tab compares, shared with its run.
  std::shared_ptr<const document::Document> comparedDocument;
};

} // namespace tilescope::widgets
