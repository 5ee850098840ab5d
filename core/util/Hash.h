// FNV-1a, 64 bits: a short stable key for texts and files (a cache folder's
// name, a journal's check of the text it was made for). Not a checksum
// against tampering.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace tilescope {

struct Fnv1a {
  uint64_t hash = 14695981039346656037ull;

  Fnv1a &add(std::string_view bytes) {
    for (const char c : bytes) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ull;
    }
    return *this;
  }
  // 16 lower-case hex digits.
  std::string hex() const {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx",
                  static_cast<unsigned long long>(hash));
    return text;
  }
};

} // namespace tilescope
