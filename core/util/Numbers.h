// Integer parsing that reports failure instead of throwing or wrapping.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tilescope {

// The decimal integer that is all of `text`, if it fits in 64 bits.
inline std::optional<int64_t> parseInt64(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

} // namespace tilescope
