#include "core/document/Diagnostic.h"

#include <algorithm>
#include <sstream>

namespace tilescope::document {
namespace {

void appendHeader(std::ostringstream &out, const Diagnostic &d) {
  out << (d.file.empty() ? "<unknown>" : d.file);
  if (d.line > 0)
    out << ':' << d.line;
  if (d.column > 0)
    out << ':' << d.column;
  out << ": " << document::toString(d.severity) << ": " << d.message << '\n';
}

// Where line `line` (1-based) starts, or npos past the end of the text.
size_t lineStart(std::string_view text, int line) {
  size_t start = 0;
  for (int i = 1; i < line; ++i) {
    const size_t newline = text.find('\n', start);
    if (newline == std::string_view::npos)
      return std::string_view::npos;
    start = newline + 1;
  }
  return start;
}

// LLVM's SMDiagnostic::print: the source line with tabs expanded to the next
// multiple of 8, and a caret line whose spaces follow the same expansion.
// As MLIR's SourceMgrDiagnosticHandler finds the place (SourceMgr::
// FindLocForLineAndColumn), a line past the end, a column past the end of
// the text or one with a line break (\r or \n) before it print no source.
void appendSource(std::ostringstream &out, std::string_view fileText, int line,
                  int column) {
  if (line <= 0)
    return;
  const size_t start = lineStart(fileText, line);
  if (start == std::string_view::npos)
    return;
  const size_t before = column > 0 ? static_cast<size_t>(column - 1) : 0;
  if (start + before > fileText.size() ||
      fileText.substr(start, before).find_first_of("\r\n") !=
          std::string_view::npos)
    return;
  // The printed line stops at the first \r or \n.
  std::string_view source = fileText.substr(start);
  source =
      source.substr(0, std::min(source.size(), source.find_first_of("\r\n")));
  // A line with any non-ASCII byte has its columns unknown to LLVM: it
  // prints the line (tabs expanded) and no caret.
  const bool nonAscii = std::any_of(source.begin(), source.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0x80) != 0;
  });
  std::string expanded, caret;
  for (size_t i = 0; i < source.size(); ++i) {
    const char mark = static_cast<int>(i) + 1 == column ? '^' : ' ';
    if (source[i] == '\t') {
      // A tab fills up to the next multiple of 8, in both lines.
      do {
        expanded += ' ';
        caret += mark;
      } while (expanded.size() % 8 != 0);
    } else {
      expanded += source[i];
      caret += mark;
    }
  }
  if (column > 0 && static_cast<size_t>(column) > source.size())
    caret +=
        std::string(static_cast<size_t>(column) - 1 - source.size(), ' ') + "^";
  while (!caret.empty() && caret.back() == ' ')
    caret.pop_back();
  out << expanded << '\n';
  if (!nonAscii)
    out << caret << '\n';
}

} // namespace

Severity severityFromString(std::string_view word) {
  for (Severity s :
       {Severity::Note, Severity::Warning, Severity::Remark, Severity::Error})
    if (toString(s) == word)
      return s;
  return Severity::Error;
}

std::string toString(Severity severity) {
  switch (severity) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Remark:
    return "remark";
  case Severity::Error:
    break;
  }
  return "error";
}

std::string Diagnostic::toString() const {
  std::ostringstream out;
  appendHeader(out, *this);
  for (const Diagnostic &note : notes)
    appendHeader(out, note);
  std::string text = out.str();
  if (!text.empty())
    text.pop_back();
  return text;
}

std::string formatLikeIreeOpt(const Diagnostic &diagnostic,
                              std::string_view fileText) {
  std::ostringstream out;
  appendHeader(out, diagnostic);
  appendSource(out, fileText, diagnostic.line, diagnostic.column);
  int line = diagnostic.line, column = diagnostic.column;
  std::string file = diagnostic.file;
  for (const Diagnostic &note : diagnostic.notes) {
    appendHeader(out, note);
    if (note.line != line || note.column != column || note.file != file)
      appendSource(out, fileText, note.line, note.column);
    line = note.line;
    column = note.column;
    file = note.file;
  }
  return out.str();
}

} // namespace tilescope::document
