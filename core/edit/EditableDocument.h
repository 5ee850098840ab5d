// The edit model: an IREE document plus the ordered edits made to its
// configs, with undo, redo, a diff against the original and an atomic save.
// Any front end drives it: the GUI's undo stack wraps each Edit in a
// command, `tilescope-cli set-config` applies them in a row.
//
// An edit changes one field of one root op's lowering config (or its
// dispatch's translation_info) and rewrites exactly the characters of that
// attribute in the file: the op's inline attribute, or its alias definition
// when no other op uses the alias. The new attribute text is IREE's own
// print of it, read by the AttributeReader the caller passes (the loaded
// IREE); what IREE refuses is refused with IREE's words, tied to the field,
// and changes nothing.
#pragma once

#include "core/document/Document.h"
#include "core/edit/AttributeLocator.h"
#include "core/edit/FieldEdit.h"
#include "core/util/Result.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::edit {

// A root op of the document: dispatches[dispatch].rootOps[op].
struct OpRef {
  size_t dispatch = 0;
  size_t op = 0;
  bool operator==(const OpRef &other) const = default;
};

// IREE's reading of an attribute's text: IREE's print of it, or IREE's
// diagnostics when it refuses it.
using AttributeReader =
    std::function<Result<std::string>(const std::string &attributeText)>;

struct Edit {
  OpRef op;
  Field field;
  std::string oldValue; // the field's text before ("" = absent)
  std::string newValue; // and after ("" = removed)
  // The attribute that holds the field, where it is, and its text (as IREE
  // prints it) before and after.
  std::string
      attributeKey; // lowering_config, compilation_info, translation_info
  bool onFunction = false; // translation_info on the dispatch's function
  std::string oldAttribute;
  std::string newAttribute;
  bool readByIree = false; // newAttribute is IREE's print, not only ours
  Splice splice;           // the characters of the file it replaces
  int line = 0;            // where the splice starts (before it is applied)

  // "workgroup of linalg.matmul (line 23): [64, 64, 0] -> [128, 64, 0]"
  std::string describe(const document::Document &document) const;
  // The field already holds the value: the edit would change no character.
  bool changesNothing() const { return splice.removed == splice.inserted; }
};

class EditableDocument {
public:
  explicit EditableDocument(document::Document document,
                            AttributeReader reader = {});

  // IREE's reading for the edits prepared from now on.
  void setReader(AttributeReader newReader) { reader = std::move(newReader); }

  const document::Document &document() const { return current; }
  const std::string &originalText() const { return original; }
  const std::string &text() const { return current.text; }
  bool modified() const { return current.text != original; }

  // The edit that sets `field` of `op` to `value` (unset: removes it),
  // checked by IREE when a reader was given (and `askIree`: a draft drawn
  // while a person types skips it); nothing changes yet.
  Result<Edit> prepare(OpRef op, const std::string &field,
                       const std::optional<std::string> &value,
                       bool askIree = true) const;
  // Applies a prepared edit (made against the current text); the redo list
  // is dropped. An edit that changes no character is refused.
  Result<bool> apply(Edit edit);
  // The op's dispatch as it would be after `edit` (made by prepare(), not
  // applied): what live validation and drawing show while a person types.
  document::Dispatch preview(const Edit &edit) const;
  // prepare() and apply() in one.
  Result<Edit> set(OpRef op, const std::string &field,
                   const std::optional<std::string> &value);

  bool canUndo() const { return !done.empty(); }
  bool canRedo() const { return !undone.empty(); }
  bool undo();
  bool redo();
  const std::vector<Edit> &edits() const { return done; } // oldest first
  const std::vector<Edit> &redoList() const { return undone; }

  // Whether IREE's reading of the current text (parsed afresh) is what the
  // model says: the same dispatches and root ops at the same lines, with
  // the same config texts. An error names the first difference.
  Result<bool> agreesWith(const document::Document &reparsed) const;

  // The unified diff of the current text against the original.
  std::string diff(int context = 3) const;
  // Writes the current text to `path` atomically (a crash mid-save leaves
  // the old file).
  Result<bool> save(const std::filesystem::path &path) const;

private:
  struct Site {
    std::string key;
    bool onFunction = false;
    std::string attribute; // as the document holds it
    // As the document's reading of it holds it: parsed once per text.
    Result<config::Attribute> written = Error{"not read"};
  };
  Result<Site> siteOf(OpRef op, ConfigPart part) const;
  Result<size_t> offsetOfOp(int part, int line, int column) const;
  void applyToModel(const Edit &edit, bool forward);
  void shiftLines(int afterLine, int delta);
  void shiftParts(size_t offset, long long delta, int lineDelta);

  document::Document current;
  std::string original;
  AttributeReader reader;
  std::vector<TextRange> parts; // of the current text
  std::vector<int> partFirstLines;
  std::vector<Edit> done;
  std::vector<Edit> undone;
};

} // namespace tilescope::edit
