#include "core/document/MlirFile.h"

#include "core/util/Files.h"

#include <cctype>
#include <utility>
#include <vector>

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

namespace {

// Where one top-level alias ends: just past the line where its brackets
// close (an arrow's '>' is not one, nor anything inside a string).
size_t aliasEnd(const std::string &text, size_t first) {
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
  return i < text.size() ? i + 1 : text.size();
}

// Each top-level alias of `text`: where its definition starts and ends.
std::vector<std::pair<size_t, size_t>> aliasSpans(const std::string &text) {
  std::vector<std::pair<size_t, size_t>> spans;
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
    at = aliasEnd(text, first);
    spans.emplace_back(first, at);
  }
  return spans;
}

// An alias definition's name with its sigil ("#config" of "#config = ...").
std::string aliasName(const std::string &definition) {
  size_t end = 1;
  while (end < definition.size() &&
         (std::isalnum(static_cast<unsigned char>(definition[end])) ||
          definition[end] == '_' || definition[end] == '.' ||
          definition[end] == '$' || definition[end] == '-'))
    ++end;
  return definition.substr(0, end);
}

// Whether `text` names the alias `name` (not a longer one it prefixes).
bool namesAlias(const std::string &text, const std::string &name) {
  for (size_t at = text.find(name); at != std::string::npos;
       at = text.find(name, at + 1)) {
    const size_t after = at + name.size();
    if (after >= text.size())
      return true;
    const char c = text[after];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' &&
        c != '$' && c != '-')
      return true;
  }
  return false;
}

} // namespace

AliasesAndBody splitTopLevelAliases(const std::string &text) {
  const auto spans = aliasSpans(text);
  const size_t aliasesEnd = spans.empty() ? 0 : spans.back().second;
  return {text.substr(0, aliasesEnd), text.substr(aliasesEnd)};
}

std::string aliasesUsedBy(const std::string &source, const std::string &text,
                          const std::string &except) {
  std::vector<std::pair<std::string, std::string>> definitions;
  for (const auto &[start, end] : aliasSpans(source)) {
    std::string definition = source.substr(start, end - start);
    if (definition.empty() || definition.back() != '\n')
      definition += '\n';
    definitions.emplace_back(aliasName(definition), std::move(definition));
  }
  std::vector<bool> used(definitions.size(), false);
  // What is used, and what that uses in turn, until nothing is added.
  std::string reached = text;
  for (bool added = true; added;) {
    added = false;
    for (size_t i = 0; i < definitions.size(); ++i)
      if (!used[i] && namesAlias(reached, definitions[i].first) &&
          !namesAlias(except, definitions[i].first + " =")) {
        used[i] = true;
        reached += definitions[i].second;
        added = true;
      }
  }
  std::string out;
  for (size_t i = 0; i < definitions.size(); ++i)
    if (used[i])
      out += definitions[i].second;
  return out;
}

} // namespace tilescope::document
