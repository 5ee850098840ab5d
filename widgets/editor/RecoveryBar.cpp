#include "widgets/editor/RecoveryBar.h"

#include "widgets/editor/EditSession.h"

#include <QMessageBox>
#include <QPushButton>
#include <QUndoStack>

namespace tilescope::widgets {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

// "2026-11-23T23:45:34Z" as a person reads it: "2026-11-23 23:45 UTC".
QString when(const std::string &utc) {
  QString text = qs(utc);
  if (text.size() == 20 && text[10] == 'T' && text.endsWith('Z'))
    return text.left(10) + ' ' + text.mid(11, 5) + " UTC";
  return text;
}

// Edits made while older ones wait on the "Restore them?" bar: kept beside
// the offered journal, which stays as it is until restored or discarded.
std::filesystem::path sideJournal(const std::filesystem::path &file) {
  return file.empty() ? file : std::filesystem::path(file.string() + ".next");
}

} // namespace

RecoveryBar::RecoveryBar(EditSession *session,
                         std::filesystem::path workspaceFolder, bool keepEdits,
                         QWidget *parent)
    : OfferBar("Restore edits", "Discard them", "restoreEditsButton", parent),
      edits(session), workspace(std::move(workspaceFolder)), keep(keepEdits) {
  setObjectName("recoveryBar");
  connect(this, &OfferBar::accepted, this, [this] {
    if (auto restored = restoreEdits(); !restored)
      QMessageBox::warning(this, "Edits restored in part",
                           qs(restored.error()));
  });
  connect(this, &OfferBar::dismissed, this, &RecoveryBar::discardRecovery);
}

void RecoveryBar::forgetDocument() {
  written = false;
  pending.reset();
}

std::filesystem::path RecoveryBar::journalPath() const {
  if (!keep || workspace.empty() || !edits->hasDocument())
    return {};
  return edit::journalFile(workspace / "recovery", edits->document().path);
}

void RecoveryBar::recordEdits() {
  const std::filesystem::path main = journalPath();
  if (main.empty())
    return;
  std::error_code ignored;
  const bool clean = edits->undoStack()->isClean();
  if (pending) {
    if (clean)
      std::filesystem::remove(sideJournal(main), ignored);
    else if (auto kept = writeJournal(
                 edit::EditJournal::of(edits->model(), edits->document().path),
                 sideJournal(main));
             !kept)
      emit said("Edits not kept for recovery: " + qs(kept.error()));
    return;
  }
  if (clean) {
    if (written) {
      std::filesystem::remove(main, ignored);
      std::filesystem::remove(sideJournal(main), ignored);
      written = false;
    }
    return;
  }
  auto kept = writeJournal(
      edit::EditJournal::of(edits->model(), edits->document().path), main);
  written = kept.ok();
  if (kept) // what waited beside an offer is in this one now
    std::filesystem::remove(sideJournal(main), ignored);
  else
    emit said("Edits not kept for recovery: " + qs(kept.error()));
}

void RecoveryBar::forgetEdits() {
  const std::filesystem::path file = journalPath();
  if (file.empty())
    return;
  std::error_code ignored;
  std::filesystem::remove(file, ignored);
  std::filesystem::remove(sideJournal(file), ignored);
  written = false;
  pending.reset();
  hide();
}

void RecoveryBar::offerRecovery() {
  pending.reset();
  hide();
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
    offer("Unsaved edits were kept for this file but cannot "
          "be read: " +
          qs(journal.error()));
    acceptButton()->setEnabled(false);
  } else if (!journal->appliesTo(edits->model().originalText())) {
    offer(QString("%1 unsaved edit%2 from %3 were made to this file as it was "
                  "then; it has changed since, so they cannot be replayed.")
              .arg(journal->entries.size())
              .arg(journal->entries.size() == 1 ? "" : "s")
              .arg(when(journal->writtenAt)));
    acceptButton()->setEnabled(false);
  } else {
    offer(QString("Tilescope closed with %1 unsaved edit%2 to this file (last "
                  "at %3%4). Restore them?")
              .arg(journal->entries.size())
              .arg(journal->entries.size() == 1 ? "" : "s")
              .arg(when(journal->writtenAt))
              .arg(later ? QString("; %1 of them made while older ones waited "
                                   "to be restored")
                               .arg(later)
                         : QString()));
    acceptButton()->setEnabled(true);
    pending = std::move(*journal);
  }
}

Result<size_t> RecoveryBar::restoreEdits() {
  if (!pending)
    return Error{"no unsaved edits to restore"};
  const edit::EditJournal journal = std::move(*pending);
  pending.reset();
  hide();
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
    emit said("Edits restored in part: " + qs(replayed.error()));
    return Error{replayed.error()};
  }
  emit said(QString("Restored %1 edit%2 from %3")
                .arg(*replayed)
                .arg(*replayed == 1 ? "" : "s")
                .arg(when(journal.writtenAt)));
  return replayed;
}

void RecoveryBar::discardRecovery() {
  forgetEdits();
  recordEdits(); // the edits made while the offer waited are kept now
}

} // namespace tilescope::widgets
