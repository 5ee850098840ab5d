// Where a bracket in MLIR text closes, string literals skipped (an assert's
// message or a string attribute may hold any bracket).
#pragma once

#include <cstddef>
#include <string_view>

namespace tilescope {

// The offset of the bracket that closes the one at `open`, counting only
// the bracket kinds in `pairs` (opening and closing characters in turn:
// "{}" for a region, the default for a whole attribute); npos when it does
// not close.
inline size_t closingBracket(std::string_view text, size_t open,
                             std::string_view pairs = "<>[]{}()") {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    const size_t kind = pairs.find(c);
    if (kind == std::string_view::npos)
      continue;
    if (kind % 2 == 0)
      ++depth;
    else if (--depth == 0)
      return i;
  }
  return std::string_view::npos;
}

} // namespace tilescope
