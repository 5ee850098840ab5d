#include "widgets/editor/SaveActions.h"

#include "widgets/editor/EditSession.h"
#include "widgets/editor/RecoveryBar.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QUndoStack>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

} // namespace

SaveActions::SaveActions(EditSession *session, RecoveryBar *recoveryBar,
                         QWidget *parent)
    : QObject(parent), edits(session), recovery(recoveryBar),
      dialogParent(parent) {}

QString SaveActions::chooseFileToOpen(const QString &folder) const {
  return QFileDialog::getOpenFileName(dialogParent, "Open an IREE MLIR file",
                                      folder,
                                      "MLIR files (*.mlir);;All files (*)");
}

void SaveActions::save() {
  if (edits->hasDocument())
    saveTo(qs(edits->document().path.string()));
}

void SaveActions::saveAs() {
  if (!edits->hasDocument())
    return;
  const QString path = QFileDialog::getSaveFileName(
      dialogParent, "Save the edited MLIR", qs(edits->document().path.string()),
      "MLIR files (*.mlir);;All files (*)");
  if (!path.isEmpty())
    saveTo(path);
}

bool SaveActions::saveTo(const QString &path) {
  auto saved = edits->save(path.toStdString());
  if (!saved) {
    QMessageBox::warning(dialogParent, "Not saved", qs(saved.error()));
    return false;
  }
  emit said("Saved " + path);
  return true;
}

bool SaveActions::confirmDiscard() {
  if (!edits->hasDocument() || edits->undoStack()->isClean())
    return true;
  // Save is the default (Return saves), as in every editor.
  QMessageBox box(
      QMessageBox::Question, "Unsaved edits",
      "The open file has edits that are not saved. Save them first?",
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
      dialogParent);
  box.setObjectName("unsavedEditsBox");
  box.setDefaultButton(QMessageBox::Save);
  const int answer = box.exec();
  if (answer == QMessageBox::Save)
    return saveTo(qs(edits->document().path.string()));
  if (answer != QMessageBox::Discard)
    return false;
  recovery->forgetEdits(); // discarded on purpose: nothing to offer next time
  return true;
}

} // namespace tilescope::widgets
