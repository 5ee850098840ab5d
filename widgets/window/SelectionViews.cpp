#include "widgets/window/SelectionViews.h"

#include "widgets/editor/ConfigEditor.h"
#include "widgets/editor/DispatchBrowser.h"
#include "widgets/editor/EditSession.h"
#include "widgets/editor/EditVerdicts.h"
#include "widgets/editor/ProblemList.h"
#include "widgets/jobs/RunPanel.h"
#include "widgets/jobs/SweepPanel.h"
#include "widgets/views/IreeDefault.h"
#include "widgets/views/IreeLayoutView.h"
#include "widgets/views/LayoutTab.h"
#include "widgets/views/MlirView.h"
#include "widgets/views/SplitKView.h"
#include "widgets/window/DetailTabs.h"

#include <algorithm>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

SelectionViews::SelectionViews(Views shown, QObject *parent)
    : QObject(parent), views(shown) {
  connect(views.browser, &DispatchBrowser::selected, this,
          &SelectionViews::onOpSelected);
  connect(views.source, &MlirView::lineClicked, this,
          &SelectionViews::selectOpAtLine);
  connect(views.edits, &EditSession::changed, this,
          &SelectionViews::onDocumentChanged);
  connect(views.verdicts, &EditVerdicts::changed, this,
          &SelectionViews::showProblems);
  connect(views.problems, &ProblemList::fieldActivated, this,
          [this](const QString &field) { views.editor->focusField(field); });
  connect(views.problems, &ProblemList::lineActivated, this,
          &SelectionViews::goToLine);
  connect(views.editor, &ConfigEditor::drafting, this,
          &SelectionViews::onDrafting);
  // Queued: a commit that adds or removes a field rebuilds the editor's
  // boxes, which must not happen inside the signal of the box committed.
  connect(
      views.editor, &ConfigEditor::commit, this,
      [this](const QString &field, const QString &value) {
        onCommit(field, value);
      },
      Qt::QueuedConnection);
  connect(
      views.editor, &ConfigEditor::removeField, this,
      [this](const QString &field) { onCommit(field, std::nullopt); },
      Qt::QueuedConnection);
  connect(views.tabs->layout(), &LayoutTab::redrawRequested, this,
          [this] { showLayout(); });
  connect(views.tabs->splitK(), &SplitKView::sourceActivated, this,
          &SelectionViews::goToLine);
  connect(views.runPanel, &RunPanel::fieldActivated, this,
          [this](edit::OpRef op, const QString &field, int line) {
            select(op);
            if (field.isEmpty() || !views.editor->focusField(field))
              goToLine(line);
          });
}

void SelectionViews::open(document::Document loaded) {
  // Questions about the previous file no longer stand.
  selectedDispatch = selectedRootOp = -1;
  views.tabs->layout()->forgetStep();
  views.verdicts->opened(loaded.text); // IREE has just read it
  views.ireeDefault->forget(); // IREE's choice was for the previous file
  views.browser->clear();      // its rows index the old document
  views.edits->reset(std::move(loaded));
  views.browser->rebuild(*views.edits);
  const document::Document &current = views.edits->document();
  views.tabs->splitK()->setFile(qs(current.path.string()), current.partCount,
                                current.dispatches.size());
  // The first dispatch's root op is what a person came to see; a program
  // not yet configured shows how IREE would split its reductions.
  if (!views.browser->selectFirst()) {
    views.editor->clear("This file holds no dispatches: a program is "
                        "configured for a target by the bar over the views "
                        "(or `tilescope-cli configure`); a dispatch "
                        "benchmark or a configuration dump opens as it is. "
                        "The Split-k tab shows how IREE splits its "
                        "reductions.");
    views.tabs->setCurrentWidget(views.tabs->splitK());
  }
}

void SelectionViews::select(edit::OpRef op) { views.browser->select(op); }

std::optional<edit::OpRef> SelectionViews::selected() const {
  if (selectedDispatch < 0 || selectedRootOp < 0)
    return std::nullopt;
  return edit::OpRef{static_cast<size_t>(selectedDispatch),
                     static_cast<size_t>(selectedRootOp)};
}

void SelectionViews::showIreeDefault() {
  if (views.edits->hasDocument())
    views.ireeDefault->show(views.edits->document(), selected(),
                            views.tabs->layout()->colorBy());
}

void SelectionViews::goToLine(int line) {
  views.source->showStatement(line, !selectingFromText);
}

void SelectionViews::onOpSelected(int dispatch, int op, int line) {
  selectedDispatch = dispatch;
  selectedRootOp = op;
  views.verdicts->setDraft({}, {}); // a typed value of another op
  views.tabs->layout()->forgetSlice();
  const EditSession &edits = *views.edits;
  if (edits.hasDocument() && dispatch >= 0 &&
      static_cast<size_t>(dispatch) < edits.document().dispatches.size())
    views.tabs->splitK()->setPart(
        edits.document().dispatches[static_cast<size_t>(dispatch)].part);
  // The editor's rows follow the session's edits from here on.
  if (const auto shown = selected())
    views.editor->show(views.edits, *shown);
  else
    views.editor->clear("This dispatch has no configured root op.");
  showSelection();
  goToLine(line);
}

void SelectionViews::onDocumentChanged() {
  if (!views.edits->hasDocument())
    return;
  const document::Document &current = views.edits->document();
  // The text follows the model at once, where the reader was.
  if (views.source->toPlainText().toStdString() != current.text)
    views.source->setMlir(qs(current.text));
  views.tabs->showDiff(views.edits->model().diff(),
                       views.edits->model().edits().size());
  // The dispatch list marks the changed op itself (EditSession::fieldChanged).
  views.verdicts->documentChanged();
  showSelection();
  if (const auto op = selected())
    if (op->dispatch < current.dispatches.size() &&
        op->op < current.dispatches[op->dispatch].rootOps.size())
      goToLine(current.dispatches[op->dispatch].rootOps[op->op].line);
}

void SelectionViews::showSelection(const document::Dispatch *draft) {
  const EditSession &edits = *views.edits;
  const document::Document *open =
      edits.hasDocument() ? &edits.document() : nullptr;
  views.runPanel->setDocument(open, selected(),
                              open ? &edits.original() : nullptr);
  if (!draft)
    views.sweepPanel->setDocument(open, selected());
  if (!open || selectedDispatch < 0)
    return;
  const document::Dispatch &dispatch =
      draft ? *draft : open->dispatches[static_cast<size_t>(selectedDispatch)];
  const document::RootOp *op =
      selectedRootOp >= 0
          ? &dispatch.rootOps[static_cast<size_t>(selectedRootOp)]
          : nullptr;
  views.tabs->showConfigs(dispatch, op);
  views.verdicts->judge(dispatch, op,
                        static_cast<size_t>(std::max(selectedRootOp, 0)));
  showLayout(draft);
  if (!draft) {
    showIreeDefault();
    if (!comparedDocument || comparedDocument->text != open->text)
      comparedDocument = std::make_shared<const document::Document>(*open);
    views.tabs->ireeLayouts()->setSubject(comparedDocument, selected());
    views.verdicts->askConstraints(comparedDocument, selected());
  }
}

void SelectionViews::showLayout(const document::Dispatch *draft) {
  if (!views.edits->hasDocument() || selectedDispatch < 0)
    return;
  views.tabs->layout()->show(
      draft ? *draft
            : views.edits->document()
                  .dispatches[static_cast<size_t>(selectedDispatch)],
      selectedRootOp, draft != nullptr);
}

void SelectionViews::showProblems() {
  const ProblemList::Contents contents = views.verdicts->contents();
  views.problems->show(contents);
  views.editor->clearFieldMessages();
  for (const ProblemList::FieldMessage &m :
       ProblemList::fieldMessages(contents))
    views.editor->setFieldMessage(m.field, m.message, m.error);
}

void SelectionViews::onDrafting(const QString &field, const QString &value) {
  const auto op = selected();
  if (!op)
    return;
  views.verdicts->setDraft(field, {});
  if (value.trimmed().isEmpty()) {
    showSelection(nullptr);
    return;
  }
  auto draft =
      views.edits->draft(*op, field.toStdString(), value.toStdString());
  if (!draft) {
    views.verdicts->setDraft(field, qs(draft.error()));
    return;
  }
  showSelection(&*draft);
}

void SelectionViews::onCommit(const QString &field,
                              const std::optional<QString> &value) {
  const auto op = selected();
  if (!op)
    return;
  std::optional<std::string> text;
  if (value)
    text = value->toStdString();
  auto made = views.edits->setField(*op, field.toStdString(), text);
  if (!made) {
    // The typed value stays in its box, marked, with the reason.
    views.verdicts->setDraft(field, qs(made.error()));
    emit said(field + ": " + qs(made.error()).section('\n', 0, 0));
    return;
  }
  emit said(qs(made->describe(views.edits->document())));
}

void SelectionViews::selectOpAtLine(int line) {
  if (!views.edits->hasDocument())
    return;
  // The innermost root op whose statement holds the line.
  std::optional<edit::OpRef> found;
  int foundLine = 0;
  const auto &dispatches = views.edits->document().dispatches;
  for (size_t d = 0; d < dispatches.size(); ++d)
    for (size_t o = 0; o < dispatches[d].rootOps.size(); ++o) {
      const int first = dispatches[d].rootOps[o].line;
      if (first > 0 && first <= line && first > foundLine &&
          line <= views.source->statementEnd(first)) {
        found = edit::OpRef{d, o};
        foundLine = first;
      }
    }
  if (!found || found == selected())
    return;
  selectingFromText = true;
  views.browser->select(*found);
  selectingFromText = false;
}

} // namespace tilescope::widgets
