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

// A source's top-level attribute and type aliases (`#config = ...`,
// `!acc = ...`, with the comments and blank lines among them) and the rest,
// split at the start of the line where the first operation begins:
// aliases + body is the text. What wraps a source in a module keeps the
// aliases outside it (MLIR takes them only at the top level) and its lines
// where they were.
struct AliasesAndBody {
  std::string aliases;
  std::string body;
};
AliasesAndBody splitTopLevelAliases(const std::string &text);

// The top-level alias definitions of `source` that `text` uses, directly or
// through another alias, one per line in the source's order, less those
// `except` defines itself ("#name =" in it): what a text moved out of its
// file (a device target taken from a configured program) needs beside it.
std::string aliasesUsedBy(const std::string &source, const std::string &text,
                          const std::string &except = "");

} // namespace tilescope::document
