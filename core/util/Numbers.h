// Integer parsing and arithmetic that report failure or saturate instead of
// throwing or wrapping: configs come from users, and a tile size of 2^62 must
// give a message, not undefined behaviour.
#pragma once

#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// An integer literal as assemblers write one: decimal or 0x hexadecimal, a
// leading '-', PTX's trailing 'U'; if it fits in 64 bits (hexadecimal up to
// 2^64 - 1, read as its bits).
inline std::optional<int64_t> parseIntegerLiteral(std::string_view text) {
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  if (!text.empty() && text.back() == 'U')
    text.remove_suffix(1);
  std::optional<int64_t> value;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    uint64_t bits = 0;
    auto [end, ec] =
        std::from_chars(text.data() + 2, text.data() + text.size(), bits, 16);
    if (ec == std::errc() && end == text.data() + text.size())
      value = static_cast<int64_t>(bits);
  } else {
    value = parseInt64(text);
  }
  if (value && negative)
    *value = static_cast<int64_t>(0 - static_cast<uint64_t>(*value));
  return value;
}

// "4 x 1" for join({4, 1}, " x ").
inline std::string join(const std::vector<int64_t> &values,
                        const char *separator) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      out += separator;
    out += std::to_string(values[i]);
  }
  return out;
}

// "[4, 1]", as MLIR prints an integer array.
inline std::string bracketedList(const std::vector<int64_t> &values) {
  return "[" + join(values, ", ") + "]";
}

// a * b, clamped to the int64_t range instead of overflowing.
inline int64_t saturatingMultiply(int64_t a, int64_t b) {
  int64_t result = 0;
  if (!__builtin_mul_overflow(a, b, &result))
    return result;
  return (a < 0) != (b < 0) ? std::numeric_limits<int64_t>::min()
                            : std::numeric_limits<int64_t>::max();
}

// a + b, clamped to the int64_t range instead of overflowing.
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t result = 0;
  if (!__builtin_add_overflow(a, b, &result))
    return result;
  return b < 0 ? std::numeric_limits<int64_t>::min()
               : std::numeric_limits<int64_t>::max();
}

// a / b rounded up; `a` itself when b is not positive (no tile: one step).
// A positive `a` divides first: (a + b - 1) / b overflowed past 2^63 - b
// (a file's bound of 2^63 - 1 over a tile of 64); a bound of zero or less
// (none, or dynamic) keeps that form, which cannot overflow there.
inline int64_t ceilDiv(int64_t a, int64_t b) {
  if (b <= 0)
    return a;
  return a > 0 ? a / b + (a % b != 0 ? 1 : 0) : (a + b - 1) / b;
}

// A config's optional tile sizes as exactly `rank` values, 0 (no tile) where
// absent or short.
inline std::vector<int64_t>
zeroPadded(const std::optional<std::vector<int64_t>> &sizes, size_t rank) {
  std::vector<int64_t> result = sizes.value_or(std::vector<int64_t>{});
  result.resize(rank, 0);
  return result;
}

// The product of `values` (1 when empty), clamped to the int64_t range.
template <typename Range> int64_t saturatingProduct(const Range &values) {
  int64_t result = 1;
  for (int64_t value : values)
    result = saturatingMultiply(result, value);
  return result;
}

// ceil(a / b) for a >= 0, b > 0, without the overflow of (a + b - 1) / b.
inline int64_t ceilDivide(int64_t a, int64_t b) {
  return a / b + (a % b != 0 ? 1 : 0);
}

// a rounded up to a multiple of b (a >= 0, b > 0), clamped to int64_t.
inline int64_t roundUpToMultiple(int64_t a, int64_t b) {
  return saturatingMultiply(ceilDivide(a, b), b);
}

} // namespace tilescope
