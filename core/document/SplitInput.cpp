#include "core/document/SplitInput.h"

#include <algorithm>

namespace tilescope::document {
namespace {

constexpr std::string_view kMarker = "// -----";
constexpr size_t kCheckLength = 2;

struct Position {
  int line = 1;
  int column = 1;
};

// Line and column of byte `offset`, counting from `from` at `start`.
Position advance(std::string_view text, size_t from, size_t offset,
                 Position start) {
  for (size_t i = from; i < offset; ++i) {
    if (text[i] == '\n') {
      ++start.line;
      start.column = 1;
    } else {
      ++start.column;
    }
  }
  return start;
}

} // namespace

bool hasSplitMarker(std::string_view text) {
  return text.find(kMarker.substr(0, kMarker.size() - kCheckLength)) !=
         std::string_view::npos;
}

namespace {

// MLIR's lexer over [from, to): strings (with escapes, ended by a quote or a
// line break) and `//` comments. `onComment` sees each comment's text and
// may stop the scan by returning true.
template <typename OnComment>
TokenCut lexStrings(std::string_view text, size_t from, size_t to,
                    OnComment onComment) {
  TokenCut cut;
  for (size_t i = from; i < to; ++i) {
    const char c = text[i];
    if (cut.openString != std::string_view::npos) {
      if (c == '\\')
        ++i;
      else if (c == '"' || c == '\n' || c == '\v' || c == '\f')
        cut.openString = std::string_view::npos;
    } else if (c == '/' && i + 1 == to) {
      cut.trailingSlash = i;
    } else if (c == '/' && text[i + 1] == '/') {
      const size_t newline = text.find('\n', i);
      const size_t end = std::min(to, newline);
      if (onComment(text.substr(i, end - i)))
        return {};
      i = end;
    } else if (c == '"') {
      cut.openString = i;
    }
  }
  return cut;
}

} // namespace

TokenCut tokenCutAt(std::string_view text, size_t from, size_t to) {
  return lexStrings(text, from, to, [](std::string_view) { return false; });
}

bool hasSplitMarkerOutsideStrings(std::string_view text) {
  if (!hasSplitMarker(text))
    return false;
  const std::string_view probe =
      kMarker.substr(0, kMarker.size() - kCheckLength);
  bool found = false;
  (void)lexStrings(text, 0, text.size(), [&](std::string_view comment) {
    found = comment.find(probe) != std::string_view::npos;
    return found;
  });
  return found;
}

SplitInput splitInputFile(std::string_view text, const std::string &fileName) {
  // llvm::StringRef::split(marker minus its last two characters): every
  // occurrence, left to right, without overlap.
  const std::string_view probe =
      kMarker.substr(0, kMarker.size() - kCheckLength);
  const std::string_view suffix = kMarker.substr(kMarker.size() - kCheckLength);
  struct Raw {
    size_t offset, length;
  };
  std::vector<Raw> raw;
  size_t start = 0;
  while (true) {
    const size_t found = text.find(probe, start);
    if (found == std::string_view::npos) {
      raw.push_back({start, text.size() - start});
      break;
    }
    raw.push_back({start, found - start});
    start = found + probe.size();
  }

  SplitInput result;
  std::vector<Raw> parts;
  Raw prev{0, 0};
  bool havePrev = false;
  for (const Raw &buffer : raw) {
    const std::string_view body = text.substr(buffer.offset, buffer.length);
    if (!havePrev || prev.length == 0) {
      // MLIR takes the first non-empty piece as is.
      prev = buffer;
      havePrev = true;
      continue;
    }
    // MLIR's check compares the third character with '0' (not '-').
    const bool expected = body.starts_with(suffix) &&
                          body.size() > kCheckLength &&
                          body[kCheckLength] != '0';
    if (expected) {
      parts.push_back(prev);
      prev = {buffer.offset + kCheckLength, buffer.length - kCheckLength};
    } else {
      const Position at = advance(text, 0, buffer.offset, {});
      result.nearMisses.push_back(Diagnostic{Severity::Warning,
                                             fileName,
                                             at.line,
                                             at.column,
                                             "near miss with file split marker",
                                             {}});
      prev.length = buffer.offset + buffer.length - prev.offset;
    }
  }
  if (havePrev && prev.length != 0)
    parts.push_back(prev);

  Position position;
  size_t scanned = 0;
  for (const Raw &part : parts) {
    position = advance(text, scanned, part.offset, position);
    scanned = part.offset;
    result.parts.push_back(
        TextPart{part.offset, part.length, position.line, position.column});
  }
  return result;
}

} // namespace tilescope::document
