// The edits made to an open document, kept on disk while a person works so
// that a crash or a kill loses none of them: which file they apply to (its
// path and a hash of its text as opened) and each edit as (root op, field,
// new value), oldest first. Replaying the entries on the same text through
// EditableDocument::set gives the same edited text and the same undo list.
#pragma once

#include "core/edit/EditableDocument.h"
#include "core/util/Result.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::edit {

struct JournalEntry {
  OpRef op;
  std::string field;                // Field::name(): "workgroup", ...
  std::optional<std::string> value; // unset: the field removed
  bool operator==(const JournalEntry &other) const = default;
};

struct EditJournal {
  std::string path;         // the file as opened
  std::string originalHash; // textHash of its text as opened
  std::string writtenAt;    // UTC, ISO 8601
  std::vector<JournalEntry> entries;

  // The journal of `document`'s edits (its undo list), opened from `path`.
  static EditJournal of(const EditableDocument &document,
                        const std::filesystem::path &path);
  std::string toJson() const;
  // An Error names what is wrong with the text.
  static Result<EditJournal> fromJson(std::string_view text);
  // Whether the entries were made against `originalText`.
  bool appliesTo(std::string_view originalText) const;
};

// Where the journal of the document at `documentPath` lives in
// `directory`: one file per document path.
std::filesystem::path journalFile(const std::filesystem::path &directory,
                                  const std::filesystem::path &documentPath);
// Written atomically (a crash mid-write leaves the previous journal).
Result<bool> writeJournal(const EditJournal &journal,
                          const std::filesystem::path &file);
Result<EditJournal> readJournal(const std::filesystem::path &file);

// A stable hash of a text (FNV-1a, 64 bits, as 16 hex digits): the same on
// every run and build.
std::string textHash(std::string_view text);

// Replays `journal` through `apply` (EditableDocument::set, or a front end's
// undoable step around it) on a document whose text as opened is
// `originalText`; how many entries took, or why the first one that did not
// failed (the ones before it stay applied).
using JournalApply = std::function<Result<bool>(const JournalEntry &entry)>;
Result<size_t> replay(const EditJournal &journal, std::string_view originalText,
                      const JournalApply &apply);

} // namespace tilescope::edit
