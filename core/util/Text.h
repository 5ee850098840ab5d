// Small text helpers the parsers of several areas share.
#pragma once

#include <cctype>
#include <cstdio>
#include <string>
#include <string_view>

namespace tilescope {

// `text` without the whitespace at either end.
inline std::string_view trimmed(std::string_view text) {
  while (!text.empty() &&
         std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

// One number through a printf pattern: formatted("%.2f", 1.5) is "1.50".
inline std::string formatted(const char *pattern, double value) {
  const int size = std::snprintf(nullptr, 0, pattern, value);
  if (size <= 0)
    return {};
  std::string out(static_cast<size_t>(size) + 1, '\0');
  std::snprintf(out.data(), out.size(), pattern, value);
  out.resize(static_cast<size_t>(size));
  return out;
}

} // namespace tilescope
