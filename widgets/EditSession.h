// The open document as the window edits it: the core's edit model
// (edit::EditableDocument) driven by a QUndoStack, one command per edit, so
// Edit > Undo, Ctrl+Z and the core's undo list always agree. Every change
// (an edit, an undo, a redo, a new document) is announced by changed().
//
// No IREE here: an edit's attribute is printed by the config model and, on
// commit, read by IREE out of process (the reader the window gives, the
// parse worker's), as `set-config` and Python read it; IREE's verdict on
// the edited text is asked by the window, out of process.
#pragma once

#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/util/Result.h"

#include <QObject>

#include <memory>
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
  // model's print alone), for this document and the next.
  void setAttributeReader(edit::AttributeReader reader);
  bool hasDocument() const { return editable != nullptr; }
  const document::Document &document() const { return editable->document(); }
  // The document as opened: the "original" beside edits and the diff's
  // left side, for the whole session (saving does not move it).
  const document::Document &original() const { return *opened; }
  const edit::EditableDocument &model() const { return *editable; }
  QUndoStack *undoStack() const { return stack; }

  // Sets `field` of `op` to `value` (unset: removes it) as one undoable
  // command. An Error, in the config model's words, changes nothing.
  Result<edit::Edit> setField(edit::OpRef op, const std::string &field,
                              const std::optional<std::string> &value);
  // The op's dispatch as it would be with `field` set to `value`: what the
  // views draw while a person types, before anything is committed.
  Result<document::Dispatch> draft(edit::OpRef op, const std::string &field,
                                   const std::string &value) const;
  // Whether `op` differs from the original.
  bool edited(edit::OpRef op) const;

  // Writes the text to `path` atomically and marks the undo stack clean;
  // the edits stay undoable.
  Result<bool> save(const std::filesystem::path &path);

signals:
  void changed();

private:
  friend class EditCommand;
  std::unique_ptr<edit::EditableDocument> editable;
  std::unique_ptr<document::Document> opened;
  edit::AttributeReader reader;
  QUndoStack *stack;
};

} // namespace tilescope::widgets
