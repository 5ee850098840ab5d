#include "core/document/MlirFile.h"

#include "core/util/Files.h"

namespace fs = std::filesystem;

namespace tilescope::document {

Result<std::string> readMlirFile(const fs::path &path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    return Error{path.string() + ": no such file"};
  if (fs::is_directory(path, ec))
    return Error{path.string() + ": is a directory, not an MLIR file"};
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec)
    return Error{path.string() + ": cannot read: " + ec.message()};
  if (size > kMaximumFileBytes)
    return Error{path.string() + ": " + std::to_string(size >> 20) +
                 " MiB is larger than the " +
                 std::to_string(kMaximumFileBytes >> 20) +
                 " MiB Tilescope reads; pass a single dispatch"};
  return readTextFile(path);
}

} // namespace tilescope::document

namespace tilescope::document {

AliasesAndBody splitTopLevelAliases(const std::string &text) {
  size_t aliasesEnd = 0; // just past the last alias's line
  size_t at = 0;
  while (at < text.size()) {
    const size_t first = text.find_first_not_of(" \t\r\n", at);
    if (first == std::string::npos)
      break;
    if (text.compare(first, 2, "//") == 0) {
      const size_t end = text.find('\n', first);
      at = end == std::string::npos ? text.size() : end + 1;
      continue;
    }
    if (text[first] != '#' && text[first] != '!')
      break;
    // An alias: to the end of the line where its brackets close (an
    // arrow's '>' is not one, nor anything inside a string).
    int depth = 0;
    bool quoted = false;
    size_t i = first;
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (quoted) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          quoted = false;
      } else if (c == '"') {
        quoted = true;
      } else if (c == '<' || c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if ((c == '>' && (i == 0 || text[i - 1] != '-')) || c == ')' ||
                 c == ']' || c == '}') {
        --depth;
      } else if (c == '\n' && depth <= 0) {
        break;
      }
    }
    at = i < text.size() ? i + 1 : text.size();
    aliasesEnd = at;
  }
  return {text.substr(0, aliasesEnd), text.substr(aliasesEnd)};
}

} // namespace tilescope::document
