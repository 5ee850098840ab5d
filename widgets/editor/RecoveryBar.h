// The open file's edits kept on disk until they are saved, and the bar
// that offers them back after a crash or a kill: each change of the
// session is written to the workspace's recovery journal (edit::EditJournal),
// a save or an undo back to the file as opened removes it, and opening a
// file with a journal left behind offers "Restore them?". Edits made while
// the offer waits are kept beside the journal, so nothing made is lost.
#pragma once

#include "core/edit/EditJournal.h"
#include "core/util/Result.h"
#include "widgets/editor/OfferBar.h"

#include <filesystem>
#include <optional>

namespace tilescope::widgets {

class EditSession;

class RecoveryBar : public OfferBar {
  Q_OBJECT

public:
  // `workspace` empty or `keep` false: nothing is kept or offered.
  RecoveryBar(EditSession *session, std::filesystem::path workspace, bool keep,
              QWidget *parent = nullptr);

  // Another file is about to be opened: what this one offered or wrote
  // no longer stands.
  void forgetDocument();
  // The session's file was just opened: offers what a crash left for it.
  void offerRecovery();
  bool offersRecovery() const { return pending.has_value(); }
  // Replays the offered edits as undoable steps; how many took, or why
  // one did not.
  Result<size_t> restoreEdits();
  void discardRecovery();
  // Writes the session's edits as they stand (a clean session: removes
  // them).
  void recordEdits();
  // The edits were discarded on purpose: nothing kept, nothing offered.
  void forgetEdits();

signals:
  // What the status line should say.
  void said(const QString &message);

private:
  std::filesystem::path journalPath() const;

  EditSession *edits;
  std::filesystem::path workspace;
  bool keep;
  // One offered from a previous session, and whether this session has
  // written the open file's.
  std::optional<edit::EditJournal> pending;
  bool written = false;
};

} // namespace tilescope::widgets
