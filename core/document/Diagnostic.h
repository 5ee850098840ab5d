// A compiler diagnostic as data: severity, the place in the user's file it
// points at (whole-file lines, also for a part of a `// -----` split file),
// its message and its notes; and the text iree-opt prints for it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilescope::document {

enum class Severity { Note, Warning, Error, Remark };
std::string toString(Severity severity);
// The inverse of toString; an error for any other word.
Severity severityFromString(std::string_view word);

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  int line = 0;   // 1-based, in the whole file; 0 if the location has none
  int column = 0; // 1-based; 0 if none
  std::string message;
  std::vector<Diagnostic> notes;

  // "file:line:column: error: message", then one such line per note.
  std::string toString() const;
};

// The diagnostic as iree-opt prints it for the same file: each line
// "file:line:column: severity: message" followed by the source line and a
// caret under the column (tabs expanded to 8 columns, as LLVM's SourceMgr
// does); a note shows its source line only when its location differs from
// the one printed before it. `fileText` is the whole file.
std::string formatLikeIreeOpt(const Diagnostic &diagnostic,
                              std::string_view fileText);

} // namespace tilescope::document
