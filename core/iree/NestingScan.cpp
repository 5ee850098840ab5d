#include "core/iree/NestingScan.h"

namespace tilescope::iree {

std::optional<NestingExcess> findExcessiveNesting(std::string_view text,
                                                  int limit) {
  int depth = 0, line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      lineStart = i + 1;
      break;
    case '/':
      if (i + 1 < text.size() && text[i + 1] == '/')
        while (i + 1 < text.size() && text[i + 1] != '\n')
          ++i;
      break;
    case '"':
      // A string literal: backslash escapes, ends at the quote or the line.
      while (i + 1 < text.size() && text[i + 1] != '"' && text[i + 1] != '\n') {
        if (text[i + 1] == '\\')
          ++i;
        ++i;
      }
      if (i + 1 < text.size() && text[i + 1] == '"')
        ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > limit)
        return NestingExcess{line, static_cast<int>(i - lineStart) + 1, depth};
      break;
    case '>':
      // "->" is an arrow and ">=" a comparison (affine sets), not a close.
      if ((i > 0 && text[i - 1] == '-') ||
          (i + 1 < text.size() && text[i + 1] == '='))
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

} // namespace tilescope::iree
