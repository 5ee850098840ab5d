#include "core/edit/AttributeLocator.h"

#include <algorithm>
#include <cctype>

namespace tilescope::edit {
namespace {

// A character of an MLIR bare identifier (keys, alias names).
bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.';
}

// Past a string literal starting at `i` (on its opening quote).
size_t skipString(std::string_view text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\')
      ++i;
    else if (text[i] == '"')
      return i + 1;
    else if (text[i] == '\n')
      return i; // MLIR strings do not span lines
  }
  return text.size();
}

size_t skipLine(std::string_view text, size_t i) {
  const size_t newline = text.find('\n', i);
  return newline == std::string_view::npos ? text.size() : newline;
}

// Steps `i` past a string literal or a `//` comment starting there; false
// when neither starts at `i`.
bool skipStringOrComment(std::string_view text, size_t &i, size_t end) {
  if (text[i] == '"') {
    i = skipString(text, i);
    return true;
  }
  if (text[i] == '/' && i + 1 < end && text[i + 1] == '/') {
    i = skipLine(text, i);
    return true;
  }
  return false;
}

size_t skipSpaces(std::string_view text, size_t i, size_t end) {
  while (i < end && std::isspace(static_cast<unsigned char>(text[i])))
    ++i;
  return i;
}

// The end of an attribute value starting at `i`: balanced over (), [], {}
// and <> (an arrow `->` is not a bracket), stopping at depth 0 on `,`, a
// closing bracket or the end of the line.
size_t valueEnd(std::string_view text, size_t i, size_t end) {
  int depth = 0;
  while (i < end) {
    if (skipStringOrComment(text, i, end))
      continue;
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}' ||
               (c == '>' && !(i > 0 && text[i - 1] == '-'))) {
      if (depth == 0)
        break;
      --depth;
    } else if (depth == 0 && (c == ',' || c == '\n')) {
      break;
    }
    ++i;
  }
  // Trailing blanks belong to the layout, not to the value.
  while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t'))
    --i;
  return i;
}

// Where `key` (not part of a longer name) followed by `=` first appears in
// [from, end) as a key of the op's own: in its custom syntax (no bracket
// opened after `from`: `pipeline = ` of iree_codegen.smt.constraints), in
// its properties (`op <key = ...>` or `<{key = ...}>`: attention's
// decomposition_config) or in its attribute dictionary (one `{` and no
// other). A key nested deeper belongs to an attribute's value: the
// `lowering_config` inside attention's `decomposition_config = {qk_attrs =
// {lowering_config = ...}}`, or an op in the op's region. Strings and comments
// are skipped; npos if nowhere.
size_t findKey(std::string_view text, std::string_view key, size_t from,
               size_t end, size_t &valueStart) {
  std::string open; // the brackets opened since `from`, innermost last
  size_t i = from;
  while (i < end) {
    if (skipStringOrComment(text, i, end))
      continue;
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      // `op <key = ...>` (a space before it): the op's properties, whose
      // keys are the op's own attributes, as an attribute dictionary's are;
      // `#dialect.name<...>`, `tensor<...>` and the like have none.
      open.push_back(c == '<' && i > from && text[i - 1] == ' ' ? 'P' : c);
      ++i;
      continue;
    }
    if (c == ')' || c == ']' || c == '}' ||
        (c == '>' && !(i > 0 && text[i - 1] == '-'))) {
      if (!open.empty())
        open.pop_back();
      ++i;
      continue;
    }
    if ((open.empty() || open == "{" || open == "P" || open == "P{") &&
        text.compare(i, key.size(), key) == 0 && i + key.size() <= end &&
        (i == 0 || !isIdentifierChar(text[i - 1])) &&
        (i + key.size() == end || !isIdentifierChar(text[i + key.size()]))) {
      const size_t after = skipSpaces(text, i + key.size(), end);
      if (after < end && text[after] == '=' &&
          !(after + 1 < end && text[after + 1] == '=')) {
        valueStart = skipSpaces(text, after + 1, end);
        return i;
      }
    }
    ++i;
  }
  return std::string_view::npos;
}

// `#name` if the value is a bare alias reference.
// `#name` is an alias; `#dialect.mnemonic` with no body (MLIR reads a dotted
// name after '#' as a dialect attribute, e.g.
// #iree_gpu.derived_thread_config) is the attribute itself.
std::string aliasName(std::string_view value) {
  if (value.size() < 2 || value[0] != '#' ||
      value.find('.') != std::string_view::npos)
    return {};
  for (size_t i = 1; i < value.size(); ++i)
    if (!isIdentifierChar(value[i]))
      return {};
  return std::string(value);
}

bool startsLine(std::string_view text, size_t i) {
  return i == 0 || text[i - 1] == '\n';
}

} // namespace

size_t offsetOf(std::string_view text, int line, int column) {
  if (line < 1 || column < 1)
    return std::string_view::npos;
  size_t offset = 0;
  for (int l = 1; l < line; ++l) {
    offset = text.find('\n', offset);
    if (offset == std::string_view::npos)
      return std::string_view::npos;
    ++offset;
  }
  offset += static_cast<size_t>(column - 1);
  return offset <= text.size() ? offset : std::string_view::npos;
}

int lineOf(std::string_view text, size_t offset) {
  const std::string_view before = text.substr(0, offset);
  return 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
}

Result<AttributeSite> locateAttribute(std::string_view text, size_t opOffset,
                                      std::string_view key, TextRange part) {
  const size_t end = std::min(part.end(), text.size());
  if (opOffset < part.offset || opOffset >= end)
    return Error{"the op's position is outside its part of the file"};
  AttributeSite site;
  size_t valueStart = 0;
  const size_t keyAt = findKey(text, key, opOffset, end, valueStart);
  if (keyAt == std::string_view::npos)
    return Error{"no `" + std::string(key) + " =` after the op at line " +
                 std::to_string(lineOf(text, opOffset))};
  site.key = {keyAt, key.size()};
  site.value = {valueStart, valueEnd(text, valueStart, end) - valueStart};
  if (site.value.length == 0)
    return Error{"`" + std::string(key) + " =` at line " +
                 std::to_string(lineOf(text, keyAt)) + " has no value"};

  const std::string alias =
      aliasName(text.substr(site.value.offset, site.value.length));
  if (alias.empty())
    return site;
  // Its definition, `#name = value` at the start of a line of this part,
  // and the other references to it.
  int references = 0;
  size_t definitionAt = std::string_view::npos;
  for (size_t i = part.offset; i < end;) {
    if (skipStringOrComment(text, i, end))
      continue;
    if (text.compare(i, alias.size(), alias) == 0 &&
        (i + alias.size() == end ||
         !isIdentifierChar(text[i + alias.size()]))) {
      const size_t after = skipSpaces(text, i + alias.size(), end);
      if (startsLine(text, i) && after < end && text[after] == '=')
        definitionAt = skipSpaces(text, after + 1, end);
      else
        ++references;
      i += alias.size();
      continue;
    }
    ++i;
  }
  if (definitionAt == std::string_view::npos)
    return Error{"the alias " + alias + " used at line " +
                 std::to_string(lineOf(text, keyAt)) +
                 " has no definition in its part of the file"};
  site.alias = alias;
  site.definition = {definitionAt,
                     valueEnd(text, definitionAt, end) - definitionAt};
  site.aliasShared = references > 1;
  return site;
}

Splice replaceAttribute(std::string_view text, const AttributeSite &site,
                        const std::string &newText) {
  const TextRange &range =
      !site.alias.empty() && !site.aliasShared ? site.definition : site.value;
  return Splice{range.offset,
                std::string(text.substr(range.offset, range.length)), newText};
}

} // namespace tilescope::edit
