// One open document as every front end edits it: the window (through
// widgets::EditSession, which puts each edit on its QUndoStack), Python's
// Editor and `tilescope-cli set-config` drive this one object, so an edit is
// spelled, refused, read by IREE and announced the same way wherever it is
// typed.
//
// The session owns the document as opened, the edit model (edits, undo,
// redo), the selected op and its observers. IREE is reached only through
// the services its front end gives (the parse worker's printer and parser):
// no IREE, no Qt here.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/edit/RootOpContext.h"
#include "core/util/Result.h"

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::session {

// What IREE does for a session, given by its front end: `printAttribute`
// reads an edited attribute back (IREE's printer; unset: the config model's
// print alone), `parseText` reads a whole edited text (unset: readBack
// cannot ask).
struct SessionServices {
  edit::AttributeReader printAttribute;
  std::function<Result<document::Document>(const std::string &text,
                                           const std::string &name)>
      parseText;
};

// What changed, for the session's observers: which op and which field,
// not just "something".
struct Change {
  enum class Kind { Opened, Edited, Undone, Redone, Saved, Selected };
  Kind kind = Kind::Opened;
  std::optional<edit::OpRef> op; // Edited, Undone, Redone, Selected
  std::string field;             // Edited, Undone, Redone: the canonical name
};

// How a front end saves: whether IREE must read the edited text back as
// edited first, and whether rule errors hold the write. One policy object
// for the window (read back where IREE is, never held: a person saves work
// in progress), set-config (read back, held unless --force) and Python.
struct SavePolicy {
  enum class ReadBack {
    Required,    // no parser, or IREE reads it otherwise: nothing written
    WhereIreeIs, // asked where the session has a parser
    No,
  };
  ReadBack readBack = ReadBack::Required;
  bool holdOnRuleErrors = false;
  // The ops whose rule errors hold it; empty: every edited op.
  std::vector<edit::OpRef> judged;
};

// What a save did: written, or held (and why), or refused by IREE's
// reading; an Error only where the file could not be written.
struct SaveOutcome {
  bool written = false;
  bool readByIree = false; // IREE read the text back as edited first
  // IREE's reading differs (or no parser was given): why, nothing written.
  std::string notReadBack;
  // The rule errors that held it ("0:0 workgroup: ..."), nothing written.
  std::vector<std::string> heldFor;
};

// One asked edit, as it went: applied (`edit` set) or refused, and why.
struct SetOutcome {
  std::optional<edit::Edit> edit;
  std::string field;   // the field as asked
  std::string refusal; // the config model's or IREE's words; empty if applied
  // Refused because the field already holds the value (a script may go on).
  bool unchanged = false;
  explicit operator bool() const { return edit.has_value(); }
};

class Session {
public:
  using Observer = std::function<void(const Change &)>;

  explicit Session(SessionServices services = {});
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  // Other services, for this document and the next.
  void setServices(SessionServices given);

  // A new document; the edit history and the selection are cleared.
  void open(document::Document document);
  bool hasDocument() const { return editable != nullptr; }
  const document::Document &document() const { return editable->document(); }
  // The document as opened (the diff's left side; saving does not move it).
  const document::Document &original() const { return *opened; }
  const edit::EditableDocument &model() const { return *editable; }
  std::string text() const { return editable->text(); }

  // Sets `field` of `op` to `value` (unset: removes it): spelled as IREE
  // spells it, printed by the config model, read by IREE's printer, applied
  // as one edit. A refusal changes nothing.
  SetOutcome set(edit::OpRef op, const std::string &field,
                 const std::optional<std::string> &value);
  // The op's dispatch as it would be with `field` set to `value` (nothing
  // applied; IREE not asked): what the views draw while a person types.
  Result<document::Dispatch> draft(edit::OpRef op, const std::string &field,
                                   const std::string &value) const;
  bool canUndo() const { return editable && editable->canUndo(); }
  bool canRedo() const { return editable && editable->canRedo(); }
  bool undo();
  bool redo();
  // Whether `op`'s configs differ from the original's.
  bool edited(edit::OpRef op) const;

  // IREE reads the whole edited text afresh and finds it as edited: the
  // same dispatches and root ops with the same configs; IREE's reading is
  // returned. An Error names the first difference (or IREE's refusal); one
  // also when no parser is given.
  Result<document::Document> readBack() const;
  // Writes the text to `path` atomically, as `policy` says (read back by
  // IREE first, held on rule errors); the edits stay undoable.
  Result<SaveOutcome> save(const std::filesystem::path &path,
                           const SavePolicy &policy = {});

  // The op the front end shows; unset until one is selected.
  std::optional<edit::OpRef> selection() const { return selected; }
  Result<bool> select(edit::OpRef op);
  // The rules' verdict on `op` in its dispatch (edit::ruleVerdict).
  edit::RuleVerdict verdict(edit::OpRef op) const;

  // Observers are told each change, in the order they were added.
  int observe(Observer observer);
  void forget(int id);

private:
  void tell(const Change &change) const;

  SessionServices services;
  std::unique_ptr<edit::EditableDocument> editable;
  std::unique_ptr<document::Document> opened;
  std::optional<edit::OpRef> selected;
  std::map<int, Observer> observers;
  int nextObserver = 0;
};

} // namespace tilescope::session
