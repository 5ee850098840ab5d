// Text that came from outside (a bundle's host and candidate names, a
// history's summaries) made safe to print: control characters other than a
// newline and a tab (ESC sequences that clear the screen or recolour it,
// BEL, a carriage return that overwrites a line) are shown as \xNN instead
// of reaching the terminal.
#pragma once

#include <string>
#include <string_view>

namespace tilescope {

inline std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7f) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

} // namespace tilescope
