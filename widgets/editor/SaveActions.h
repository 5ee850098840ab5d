// Saving the session's document: Save, Save As, and the question an editor
// asks before unsaved edits would be lost (Save is its default). Edits
// discarded on purpose are no longer kept for recovery.
#pragma once

#include <QObject>
#include <QString>

class QWidget;

namespace tilescope::widgets {

class EditSession;
class RecoveryBar;

class SaveActions : public QObject {
  Q_OBJECT

public:
  // The dialogs open over `dialogParent`.
  SaveActions(EditSession *edits, RecoveryBar *recovery, QWidget *dialogParent);

  // A file to open, asked for in a dialog that starts in `folder`; empty
  // where the person chose none.
  QString chooseFileToOpen(const QString &folder) const;
  void save();
  void saveAs();
  bool saveTo(const QString &path);
  // Whether the open document may be replaced or closed: true where there
  // is nothing unsaved, or it was saved or discarded on purpose.
  bool confirmDiscard();

signals:
  // A line for the status bar.
  void said(const QString &message);

private:
  EditSession *edits;
  RecoveryBar *recovery;
  QWidget *dialogParent;
};

} // namespace tilescope::widgets
