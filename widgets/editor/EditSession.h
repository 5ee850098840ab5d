// The open document as the window edits it: the core's session
// (session::Session, the one every front end drives) with a QUndoStack, one
// command per edit, so Edit > Undo, Ctrl+Z and the session's undo list
// always agree. Every change (an edit, an undo, a redo, a new document, a
// save) is announced by changed(); an edit, undo or redo also by
// fieldChanged(op, field).
//
// No IREE here: an edit's attribute is printed by the config model and, on
// commit, read by IREE out of process (the reader the window gives, the
// parse worker's), as `set-config` and Python read it; IREE's verdict on
// the edited text is asked by the window, out of process.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/session/Session.h"
#include "core/util/Result.h"

#include <QObject>
#include <QString>

#include <optional>
#include <string>

class QUndoStack;

namespace tilescope::widgets {

class EditSession : public QObject {
  Q_OBJECT

public:
  explicit EditSession(QObject *parent = nullptr);
  ~EditSession() override;

  // A new document; the undo history is cleared.
  void reset(document::Document document);
  // IREE's reading of each committed edit's attribute (unset: the config
  // model's print alone) and of the whole text before a save (unset: saved
  // unread), for this document and the next.
  void setServices(session::SessionServices services);
  bool hasDocument() const { return core.hasDocument(); }
  const document::Document &document() const { return core.document(); }
  // The document as opened: the "original" beside edits and the diff's
  // left side, for the whole session (saving does not move it).
  const document::Document &original() const { return core.original(); }
  const edit::EditableDocument &model() const { return core.model(); }
  const session::Session &session() const { return core; }
  QUndoStack *undoStack() const { return stack; }

  // Sets `field` of `op` to `value` (unset: removes it) as one undoable
  // command. An Error, in the session's words, changes nothing.
  Result<edit::Edit> setField(edit::OpRef op, const std::string &field,
                              const std::optional<std::string> &value);
  // The op's dispatch as it would be with `field` set to `value`: what the
  // views draw while a person types, before anything is committed.
  Result<document::Dispatch> draft(edit::OpRef op, const std::string &field,
                                   const std::string &value) const;
  // Whether `op` differs from the original.
  bool edited(edit::OpRef op) const { return core.edited(op); }

  // Writes the text to `path` atomically and marks the undo stack clean;
  // the edits stay undoable.
  Result<bool> save(const std::filesystem::path &path);

signals:
  void changed();
  void fieldChanged(edit::OpRef op, const QString &field);

private:
  friend class EditCommand;
  session::Session core;
  QUndoStack *stack;
  // Set while the session changes on this object's behalf: changed() comes
  // once the undo stack agrees.
  bool quiet = false;
};

} // namespace tilescope::widgets
