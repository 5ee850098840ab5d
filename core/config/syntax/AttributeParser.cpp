// Reading attribute text: MLIR's attribute syntax as IREE prints it, with
// clear errors (line, column, the line itself), bounded depth and size, and
// alias definitions resolved.
#include "core/config/syntax/Attribute.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

namespace tilescope::config {
namespace {

bool isIdentifierStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.' || c == '-';
}

// Builtin scalar types a bare word can name.
bool isBuiltinScalarType(std::string_view word) {
  static const std::set<std::string_view> named = {
      "index",    "bf16",       "tf32",   "none",       "f4E2M1FN",
      "f6E2M3FN", "f6E3M2FN",   "f8E3M4", "f8E4M3",     "f8E4M3B11FNUZ",
      "f8E4M3FN", "f8E4M3FNUZ", "f8E5M2", "f8E5M2FNUZ", "f8E8M0FNU"};
  if (named.count(word))
    return true;
  size_t digits = 0;
  if (word.size() > 1 && (word[0] == 'f' || word[0] == 'i'))
    digits = 1;
  else if (word.size() > 2 &&
           (word.substr(0, 2) == "si" || word.substr(0, 2) == "ui"))
    digits = 2;
  else
    return false;
  return std::all_of(
      word.begin() + static_cast<long>(digits), word.end(),
      [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Words followed by `<...>` that are builtin types, and those kept verbatim.
bool isBuiltinShapedType(std::string_view word) {
  return word == "vector" || word == "tensor" || word == "memref" ||
         word == "complex" || word == "tuple";
}

class Parser {
public:
  Parser(std::string_view text, const ParseLimits &limits,
         const std::map<std::string, Attribute> *aliases)
      : text(text), limits(limits), aliases(aliases) {}

  std::optional<ParseError> error;

  bool atEnd() {
    skipSpace();
    return position >= text.size();
  }

  std::optional<Attribute> parseValue() {
    if (++depth > limits.maximumDepth) {
      fail("nesting deeper than " + std::to_string(limits.maximumDepth) +
           " levels");
      return std::nullopt;
    }
    auto value = parseValueImpl();
    --depth;
    return value;
  }

  // `#name = value` at the current position, if there is one.
  bool peekAliasDefinition(std::string &name) {
    skipSpace();
    size_t p = position;
    if (p >= text.size() || text[p] != '#')
      return false;
    ++p;
    size_t start = p;
    while (p < text.size() && isIdentifierChar(text[p]))
      ++p;
    if (p == start)
      return false;
    std::string candidate(text.substr(start, p - start));
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t'))
      ++p;
    if (p < text.size() && text[p] == '=') {
      name = candidate;
      position = p + 1;
      return true;
    }
    return false;
  }

  void setAliases(const std::map<std::string, Attribute> *table) {
    aliases = table;
  }

  SourceLocation here() const { return locationAt(position); }

  void fail(const std::string &message) { failAt(position, message); }

private:
  std::string_view text;
  const ParseLimits &limits;
  const std::map<std::string, Attribute> *aliases;
  size_t position = 0;
  int depth = 0;

  // Counted on from the last location asked for (the parser asks in text
  // order), so a long list costs one pass over the text, not one per
  // element.
  SourceLocation locationAt(size_t offset) const {
    if (offset < counted.offset)
      counted = SourceLocation{};
    SourceLocation location = counted;
    for (size_t i = location.offset; i < offset && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++location.line;
        location.column = 1;
      } else {
        ++location.column;
      }
    }
    location.offset = offset;
    if (offset <= text.size())
      counted = location;
    return location;
  }
  mutable SourceLocation counted;

  void failAt(size_t offset, const std::string &message) {
    if (error)
      return;
    ParseError e;
    e.message = message;
    e.location = locationAt(std::min(offset, text.size()));
    size_t lineStart = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    lineStart =
        lineStart == std::string_view::npos || offset == 0 ? 0 : lineStart + 1;
    if (offset > 0 && offset <= text.size() && text[offset - 1] == '\n')
      lineStart = offset;
    size_t lineEnd = text.find('\n', lineStart);
    if (lineEnd == std::string_view::npos)
      lineEnd = text.size();
    e.lineText = std::string(
        text.substr(lineStart, std::min<size_t>(lineEnd - lineStart, 400)));
    error = e;
  }

  void skipSpace() {
    while (position < text.size()) {
      const char c = text[position];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++position;
      } else if (c == '/' && position + 1 < text.size() &&
                 text[position + 1] == '/') {
        while (position < text.size() && text[position] != '\n')
          ++position;
      } else {
        break;
      }
    }
  }

  bool consume(char c) {
    skipSpace();
    if (position < text.size() && text[position] == c) {
      ++position;
      return true;
    }
    return false;
  }

  bool expect(char c, const std::string &context) {
    if (consume(c))
      return true;
    std::string found = position < text.size()
                            ? "'" + std::string(1, text[position]) + "'"
                            : "the end of the text";
    fail(std::string("expected '") + c + "' " + context + ", found " + found);
    return false;
  }

  char peek() {
    skipSpace();
    return position < text.size() ? text[position] : '\0';
  }

  std::string identifier() {
    size_t start = position;
    if (position < text.size() && isIdentifierStart(text[position])) {
      ++position;
      while (position < text.size() && isIdentifierChar(text[position]))
        ++position;
    }
    return std::string(text.substr(start, position - start));
  }

  // The text up to the `>` matching an already consumed `<`, verbatim.
  std::optional<std::string> balancedAngleBody() {
    size_t start = position;
    int nesting = 1;
    bool inString = false;
    while (position < text.size()) {
      const char c = text[position];
      if (inString) {
        if (c == '\\')
          ++position;
        else if (c == '"')
          inString = false;
      } else if (c == '"') {
        inString = true;
      } else if (c == '<') {
        ++nesting;
      } else if (c == '>') {
        // `->` inside affine maps is not a closing bracket.
        if (!(position > 0 && text[position - 1] == '-') && --nesting == 0) {
          std::string body(text.substr(start, position - start));
          ++position;
          return body;
        }
      }
      ++position;
    }
    failAt(start, "unbalanced '<': no matching '>'");
    return std::nullopt;
  }

  std::optional<Attribute> parseValueImpl() {
    skipSpace();
    if (position >= text.size()) {
      fail("expected an attribute, found the end of the text");
      return std::nullopt;
    }
    const size_t start = position;
    const char c = text[position];
    std::optional<Attribute> result;
    if (c == '[')
      result = parseArray();
    else if (c == '{')
      result = parseDictionary();
    else if (c == '"')
      result = parseString();
    else if (c == '#')
      result = parseHashAttribute();
    else if (c == '<')
      result = parseElided();
    else if (c == '?') {
      ++position;
      Attribute a;
      a.kind = Attribute::Kind::Dynamic;
      result = a;
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c)))
      result = parseNumber();
    else if (c == '@')
      result = parseSymbol();
    else if (c == '!')
      result = parseDialectType();
    else if (isIdentifierStart(c))
      result = parseWord();
    else {
      fail(std::string("expected an attribute, found '") + c + "'");
      return std::nullopt;
    }
    if (result)
      result->location = locationAt(start);
    return result;
  }

  std::optional<Attribute> parseArray() {
    ++position; // [
    Attribute array;
    array.kind = Attribute::Kind::Array;
    if (consume(']'))
      return array;
    while (true) {
      auto element = parseValue();
      if (!element)
        return std::nullopt;
      array.elements.push_back(std::move(*element));
      if (consume(','))
        continue;
      if (!expect(']', "to close the array"))
        return std::nullopt;
      return array;
    }
  }

  std::optional<std::string> parseKey() {
    skipSpace();
    if (position < text.size() && text[position] == '"') {
      auto key = parseString();
      if (!key)
        return std::nullopt;
      return key->text;
    }
    std::string key = identifier();
    if (key.empty()) {
      fail("expected a key (a name or a quoted string)");
      return std::nullopt;
    }
    return key;
  }

  std::optional<Attribute> parseDictionary() {
    ++position; // {
    Attribute dictionary;
    dictionary.kind = Attribute::Kind::Dictionary;
    if (consume('}'))
      return dictionary;
    while (true) {
      auto key = parseKey();
      if (!key)
        return std::nullopt;
      Parameter entry;
      entry.name = *key;
      if (consume('=')) {
        auto value = parseValue();
        if (!value)
          return std::nullopt;
        entry.value.push_back(std::move(*value));
      } else {
        entry.value.push_back(Attribute::unit());
      }
      dictionary.parameters.push_back(std::move(entry));
      if (consume(','))
        continue;
      if (!expect('}', "to close the dictionary"))
        return std::nullopt;
      return dictionary;
    }
  }

  std::optional<Attribute> parseString() {
    const size_t start = position;
    ++position; // "
    std::string value;
    while (position < text.size()) {
      const char c = text[position++];
      if (c == '"') {
        Attribute a;
        a.kind = Attribute::Kind::String;
        a.text = std::move(value);
        return a;
      }
      if (c == '\n') {
        failAt(position - 1, "string literal runs past the end of the line");
        return std::nullopt;
      }
      if (c != '\\') {
        value += c;
        continue;
      }
      if (position >= text.size())
        break;
      const char e = text[position++];
      switch (e) {
      case '"':
      case '\\':
        value += e;
        break;
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      default:
        if (std::isxdigit(static_cast<unsigned char>(e)) &&
            position < text.size() &&
            std::isxdigit(static_cast<unsigned char>(text[position]))) {
          value += static_cast<char>(
              std::stoi(std::string{e, text[position]}, nullptr, 16));
          ++position;
        } else {
          failAt(position - 2,
                 std::string("unknown escape '\\") + e + "' in string");
          return std::nullopt;
        }
      }
    }
    failAt(start, "unterminated string literal");
    return std::nullopt;
  }

  std::optional<Attribute> parseNumber() {
    const size_t start = position;
    if (text[position] == '-')
      ++position;
    Attribute a;
    a.kind = Attribute::Kind::Integer;
    if (position + 1 < text.size() && text[position] == '0' &&
        (text[position + 1] == 'x' || text[position + 1] == 'X')) {
      position += 2;
      while (position < text.size() &&
             std::isxdigit(static_cast<unsigned char>(text[position])))
        ++position;
    } else {
      const size_t digits = position;
      while (position < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[position])))
        ++position;
      if (position == digits) {
        failAt(start, "expected digits after '-'");
        return std::nullopt;
      }
      if (position < text.size() && text[position] == '.') {
        a.kind = Attribute::Kind::Float;
        ++position;
        while (position < text.size() &&
               std::isdigit(static_cast<unsigned char>(text[position])))
          ++position;
      }
      if (position < text.size() &&
          (text[position] == 'e' || text[position] == 'E')) {
        a.kind = Attribute::Kind::Float;
        ++position;
        if (position < text.size() &&
            (text[position] == '+' || text[position] == '-'))
          ++position;
        while (position < text.size() &&
               std::isdigit(static_cast<unsigned char>(text[position])))
          ++position;
      }
    }
    a.text = std::string(text.substr(start, position - start));
    // An optional `: type` suffix.
    const size_t save = position;
    if (consume(':')) {
      skipSpace();
      auto type = parseTypeText();
      if (!type) {
        position = save;
        error.reset();
      } else {
        a.typeSuffix = *type;
      }
    } else {
      position = save; // keep the whitespace: it may separate parameters
    }
    return a;
  }

  // A type after `:`: a builtin scalar, vector<...>/tensor<...>, or !dialect.
  std::optional<std::string> parseTypeText() {
    if (position < text.size() && text[position] == '!') {
      auto type = parseDialectType();
      if (!type)
        return std::nullopt;
      return type->text;
    }
    const size_t start = position;
    std::string word = identifier();
    if (isBuiltinScalarType(word))
      return word;
    if (isBuiltinShapedType(word) && position < text.size() &&
        text[position] == '<') {
      ++position;
      if (!balancedAngleBody())
        return std::nullopt;
      return std::string(text.substr(start, position - start));
    }
    position = start;
    return std::nullopt;
  }

  std::optional<Attribute> parseSymbol() {
    const size_t start = position++;
    if (position < text.size() && text[position] == '"') {
      if (!parseString())
        return std::nullopt;
    } else {
      identifier();
    }
    Attribute a;
    a.kind = Attribute::Kind::Symbol;
    a.text = std::string(text.substr(start, position - start));
    return a;
  }

  std::optional<Attribute> parseDialectType() {
    const size_t start = position++;
    std::string name = identifier();
    if (name.empty()) {
      failAt(start, "expected a dialect type name after '!'");
      return std::nullopt;
    }
    if (position < text.size() && text[position] == '<') {
      ++position;
      if (!balancedAngleBody())
        return std::nullopt;
    }
    Attribute a;
    a.kind = Attribute::Kind::Type;
    a.text = std::string(text.substr(start, position - start));
    return a;
  }

  std::optional<Attribute> parseWord() {
    const size_t start = position;
    std::string word = identifier();
    Attribute a;
    if (word == "true" || word == "false") {
      a.kind = Attribute::Kind::Bool;
      a.text = word;
      return a;
    }
    if (position < text.size() && text[position] == '<') {
      ++position;
      if (!balancedAngleBody())
        return std::nullopt;
      a.kind = isBuiltinShapedType(word) ? Attribute::Kind::Type
                                         : Attribute::Kind::Opaque;
      a.text = std::string(text.substr(start, position - start));
      return a;
    }
    if (isBuiltinScalarType(word)) {
      a.kind = Attribute::Kind::Type;
      a.text = word;
      return a;
    }
    // Bit-enum sets: fp64|fp32|fp16.
    a.kind = Attribute::Kind::Keyword;
    a.text = word;
    while (true) {
      const size_t save = position;
      skipSpace();
      if (position < text.size() && text[position] == '|') {
        ++position;
        skipSpace();
        std::string next = identifier();
        if (next.empty()) {
          fail("expected a name after '|'");
          return std::nullopt;
        }
        a.text += "|" + next;
      } else {
        position = save;
        break;
      }
    }
    return a;
  }

  // Parameters inside `<...>`: `name = value` or a positional value,
  // separated by ',' or by whitespace alone.
  bool parseParameters(Attribute &owner) {
    char separator = ',';
    bool first = true;
    while (true) {
      skipSpace();
      if (position >= text.size()) {
        fail("expected '>' to close the attribute, found the end of the text");
        return false;
      }
      if (text[position] == '>') {
        ++position;
        return true;
      }
      if (!first && text[position] == ',') {
        ++position;
        separator = ',';
        continue;
      }
      Parameter parameter;
      parameter.separatorBefore = separator;
      const size_t save = position;
      if (isIdentifierStart(text[position])) {
        std::string name = identifier();
        skipSpace();
        if (position < text.size() && text[position] == '=' &&
            !(position + 1 < text.size() && text[position + 1] == '=')) {
          ++position;
          parameter.name = name;
        } else {
          position = save;
        }
      }
      auto value = parseValue();
      if (!value)
        return false;
      parameter.value.push_back(std::move(*value));
      owner.parameters.push_back(std::move(parameter));
      first = false;
      // Whatever separates this parameter from the next.
      const size_t afterValue = position;
      skipSpace();
      if (position < text.size() && text[position] == ',') {
        ++position;
        separator = ',';
      } else if (position < text.size() && text[position] == '>') {
        // closed on the next iteration
      } else if (position > afterValue) {
        separator = ' ';
      } else {
        fail("expected ',' or '>' after a parameter");
        return false;
      }
    }
  }

  std::optional<Attribute> parseBody(Attribute &a) {
    // position is just past '<'
    const size_t bodyStart = position;
    a.hasBody = true;
    if (!parseParameters(a))
      return std::nullopt;
    a.rawBody = std::string(text.substr(bodyStart, position - 1 - bodyStart));
    return a;
  }

  std::optional<Attribute> parseElided() {
    ++position; // <
    Attribute a;
    a.kind = Attribute::Kind::Elided;
    return parseBody(a);
  }

  std::optional<Attribute> parseHashAttribute() {
    const size_t start = position++;
    std::string name = identifier();
    if (name.empty()) {
      failAt(start, "expected a name after '#'");
      return std::nullopt;
    }
    const bool followedByBody = position < text.size() && text[position] == '<';
    Attribute a;
    if (aliases && aliases->count(name) && !followedByBody) {
      a.kind = Attribute::Kind::AliasReference;
      a.text = name;
      return a;
    }
    const size_t dot = name.find('.');
    if (dot == std::string::npos && !followedByBody) {
      a.kind = Attribute::Kind::AliasReference;
      a.text = name;
      return a;
    }
    a.kind = Attribute::Kind::Dialect;
    if (dot != std::string::npos) {
      a.dialect = name.substr(0, dot);
      a.mnemonic = name.substr(dot + 1);
      if (!followedByBody)
        return a;
      ++position;
      return parseBody(a);
    }
    // #dialect<mnemonic ...>
    a.dialect = name;
    a.bracketForm = true;
    ++position;
    skipSpace();
    a.mnemonic = identifier();
    if (a.mnemonic.empty()) {
      fail("expected an attribute name after '#" + name + "<'");
      return std::nullopt;
    }
    return parseBody(a);
  }
};

} // namespace

std::string ParseError::toString() const {
  std::string out = "line " + std::to_string(location.line) + ", column " +
                    std::to_string(location.column) + ": " + message;
  if (!lineText.empty()) {
    out += "\n  " + lineText + "\n  ";
    const size_t caret = static_cast<size_t>(std::max(location.column - 1, 0));
    for (size_t i = 0; i < caret && i < lineText.size(); ++i)
      out += lineText[i] == '\t' ? '\t' : ' ';
    out += '^';
  }
  return out;
}

std::variant<Attribute, ParseError> parseAttribute(std::string_view text,
                                                   const ParseLimits &limits) {
  auto document = parseAttributeDocument(text, limits);
  if (auto *error = std::get_if<ParseError>(&document))
    return *error;
  AttributeDocument &parsed = std::get<AttributeDocument>(document);
  if (parsed.attributes.size() != 1 || !parsed.aliases.empty()) {
    ParseError error;
    error.message =
        parsed.attributes.empty()
            ? "expected an attribute, found none"
            : "expected one attribute, found " +
                  std::to_string(parsed.attributes.size()) +
                  (parsed.aliases.empty() ? "" : " and alias definitions");
    return error;
  }
  return std::move(parsed.attributes.front());
}

std::variant<AttributeDocument, ParseError>
parseAttributeDocument(std::string_view text, const ParseLimits &limits) {
  if (text.size() > limits.maximumBytes) {
    ParseError error;
    error.message = "the text is " + std::to_string(text.size() >> 20) +
                    " MiB; attributes longer than " +
                    std::to_string(limits.maximumBytes >> 20) +
                    " MiB are not read";
    return error;
  }
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    ParseError error;
    error.message = "NUL byte in attribute text";
    const size_t lineStart = text.rfind('\n', nul);
    error.location.offset = nul;
    error.location.line = static_cast<int>(
        std::count(text.begin(), text.begin() + static_cast<long>(nul), '\n') +
        1);
    error.location.column = static_cast<int>(
        nul - (lineStart == std::string_view::npos ? 0 : lineStart + 1) + 1);
    return error;
  }

  AttributeDocument document;
  Parser parser(text, limits, &document.aliases);
  std::string aliasName;
  while (parser.peekAliasDefinition(aliasName)) {
    auto value = parser.parseValue();
    if (!value)
      return *parser.error;
    if (document.aliases.count(aliasName)) {
      parser.fail("alias #" + aliasName + " is defined twice");
      return *parser.error;
    }
    document.aliases.emplace(aliasName, std::move(*value));
    document.aliasOrder.push_back(aliasName);
  }
  while (!parser.atEnd()) {
    auto value = parser.parseValue();
    if (!value)
      return *parser.error;
    document.attributes.push_back(std::move(*value));
  }
  return document;
}

} // namespace tilescope::config
