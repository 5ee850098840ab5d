// Reading an MLIR file from disk before anything parses it: plain text, no
// IREE, so a process that never loads IREE (the window) reads files the way
// the parser's callers do.
#pragma once

#include "core/util/Result.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace tilescope::document {

// Files up to this size are read; a larger one is refused with a message.
constexpr std::uintmax_t kMaximumFileBytes = 512ull << 20;

// Reads a file for parsing: a clear error for a missing path, a directory,
// a file past the size Tilescope reads, or one that cannot be opened.
Result<std::string> readMlirFile(const std::filesystem::path &path);

} // namespace tilescope::document
