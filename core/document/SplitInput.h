// Splits a file on `// -----` exactly as iree-opt --split-input-file does
// (MLIR's splitAndProcessBuffer): on the raw text "// ---" followed by "--"
// anywhere, mid-line included, with a "near miss with file split marker"
// warning where "// ---" is followed by something else, and MLIR's quirks
// kept (a file that starts with the marker keeps its "--"; a marker at the
// very end of the file is a near miss).
#pragma once

#include "core/document/Diagnostic.h"

#include <string>
#include <string_view>
#include <vector>

namespace tilescope::document {

struct TextPart {
  size_t offset = 0; // in the file
  size_t length = 0;
  int firstLine = 1;   // 1-based line of the part's first character
  int firstColumn = 1; // 1-based column of it (a part can start mid-line)
  std::string_view in(std::string_view file) const {
    return file.substr(offset, length);
  }
};

struct SplitInput {
  std::vector<TextPart> parts;
  std::vector<Diagnostic> nearMisses; // warnings, as iree-opt gives them
};

SplitInput splitInputFile(std::string_view text, const std::string &fileName);

// Whether the text holds a split marker at all (a file without one is one
// part whatever the options say).
bool hasSplitMarker(std::string_view text);

// Whether it holds one outside string literals: what Tilescope splits on
// when not told (a string that happens to hold "// -----" is no marker).
bool hasSplitMarkerOutsideStrings(std::string_view text);

// Lexing [from, to) as MLIR's lexer reads strings and `//` comments: a
// token that would run on past `to` (MLIR's lexer does, when `to` ends a
// split part): a string literal still open there, or a lone '/' just before
// it (which the marker's "//" turns into a comment).
struct TokenCut {
  size_t openString = std::string_view::npos;
  size_t trailingSlash = std::string_view::npos;
};
TokenCut tokenCutAt(std::string_view text, size_t from, size_t to);

} // namespace tilescope::document
