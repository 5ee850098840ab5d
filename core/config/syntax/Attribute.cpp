// An attribute's parts: finding parameters, reading integers, building
// attributes to print, resolving the aliases it names.
#include "core/config/syntax/Attribute.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <system_error>

namespace tilescope::config {

bool Attribute::isDialect(std::string_view d, std::string_view m) const {
  return kind == Kind::Dialect && dialect == d && mnemonic == m;
}

std::string Attribute::qualifiedName() const {
  return dialect + "." + mnemonic;
}

const Attribute *Attribute::find(std::string_view name) const {
  for (const Parameter &p : parameters)
    if (p.name == name)
      return &p.get();
  return nullptr;
}

Attribute *Attribute::find(std::string_view name) {
  for (Parameter &p : parameters)
    if (p.name == name)
      return &p.get();
  return nullptr;
}

std::vector<const Attribute *> Attribute::positional() const {
  std::vector<const Attribute *> result;
  for (const Parameter &p : parameters)
    if (p.name.empty())
      result.push_back(&p.get());
  return result;
}

std::optional<int64_t> Attribute::asInt64() const {
  if (kind != Kind::Integer)
    return std::nullopt;
  int64_t value = 0;
  std::string_view digits = text;
  const bool negative = !digits.empty() && digits.front() == '-';
  if (negative)
    digits.remove_prefix(1);
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' &&
      (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  uint64_t magnitude = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(),
                                   magnitude, base);
  if (ec != std::errc() || end != digits.data() + digits.size())
    return std::nullopt;
  if (negative) {
    if (magnitude > static_cast<uint64_t>(INT64_MAX) + 1)
      return std::nullopt;
    value = magnitude == static_cast<uint64_t>(INT64_MAX) + 1
                ? INT64_MIN
                : -static_cast<int64_t>(magnitude);
  } else {
    if (magnitude > static_cast<uint64_t>(INT64_MAX))
      return std::nullopt;
    value = static_cast<int64_t>(magnitude);
  }
  return value;
}

std::optional<std::vector<int64_t>> Attribute::asInt64Array() const {
  if (kind != Kind::Array)
    return std::nullopt;
  std::vector<int64_t> values;
  for (const Attribute &element : elements) {
    auto value = element.asInt64();
    if (!value)
      return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

Attribute Attribute::integer(int64_t value) {
  Attribute a;
  a.kind = Kind::Integer;
  a.text = std::to_string(value);
  return a;
}

Attribute Attribute::integerArray(const std::vector<int64_t> &values) {
  std::vector<Attribute> elements;
  for (int64_t v : values)
    elements.push_back(integer(v));
  return array(std::move(elements));
}

Attribute Attribute::string(std::string value) {
  Attribute a;
  a.kind = Kind::String;
  a.text = std::move(value);
  return a;
}

Attribute Attribute::keyword(std::string word) {
  Attribute a;
  a.kind = Kind::Keyword;
  a.text = std::move(word);
  return a;
}

Attribute Attribute::boolean(bool value) {
  Attribute a;
  a.kind = Kind::Bool;
  a.text = value ? "true" : "false";
  return a;
}

Attribute Attribute::unit() { return Attribute{}; }

Attribute Attribute::array(std::vector<Attribute> elements) {
  Attribute a;
  a.kind = Kind::Array;
  a.elements = std::move(elements);
  return a;
}

Attribute Attribute::dictionary(std::vector<Parameter> entries) {
  Attribute a;
  a.kind = Kind::Dictionary;
  a.parameters = std::move(entries);
  return a;
}

Attribute Attribute::dialectAttribute(std::string dialect, std::string mnemonic,
                                      std::vector<Parameter> parameters) {
  Attribute a;
  a.kind = Kind::Dialect;
  a.dialect = std::move(dialect);
  a.mnemonic = std::move(mnemonic);
  a.parameters = std::move(parameters);
  a.hasBody = true;
  return a;
}

Parameter Attribute::parameter(std::string name, Attribute value,
                               char separatorBefore) {
  Parameter p;
  p.name = std::move(name);
  p.value.push_back(std::move(value));
  p.separatorBefore = separatorBefore;
  return p;
}

namespace {

// Aliases may name aliases, so what resolving builds can be far deeper and
// larger than the text (nine aliases of eight copies each make 8^9 nodes):
// both are bounded, with the parser's default depth and a node budget far
// above any real config.
struct AliasResolver {
  const std::map<std::string, Attribute> &aliases;
  std::vector<std::string> stack;
  int depth = 0;
  size_t nodes = 0;
  static constexpr int kMaximumDepth = ParseLimits{}.maximumDepth;
  static constexpr size_t kMaximumNodes = 1u << 20;

  Result<Attribute> resolve(const Attribute &attribute) {
    if (++nodes > kMaximumNodes)
      return Error{"resolving aliases builds more than " +
                   std::to_string(kMaximumNodes) +
                   " attributes; aliases that repeat each other this much "
                   "are not a config"};
    if (depth >= kMaximumDepth)
      return Error{"line " + std::to_string(attribute.location.line) +
                   ", column " + std::to_string(attribute.location.column) +
                   ": resolving aliases nests deeper than " +
                   std::to_string(kMaximumDepth) + " levels"};
    ++depth;
    auto result = resolveNested(attribute);
    --depth;
    return result;
  }

  Result<Attribute> resolveNested(const Attribute &attribute) {
    if (attribute.is(Attribute::Kind::AliasReference)) {
      auto it = aliases.find(attribute.text);
      if (it == aliases.end())
        return Error{"line " + std::to_string(attribute.location.line) +
                     ", column " + std::to_string(attribute.location.column) +
                     ": #" + attribute.text + " is not defined"};
      if (std::find(stack.begin(), stack.end(), attribute.text) != stack.end())
        return Error{"alias #" + attribute.text + " refers to itself"};
      stack.push_back(attribute.text);
      auto resolved = resolve(it->second);
      stack.pop_back();
      return resolved;
    }
    Attribute copy = attribute;
    for (Attribute &element : copy.elements) {
      auto resolved = resolve(element);
      if (!resolved)
        return resolved;
      element = std::move(*resolved);
    }
    for (Parameter &parameter : copy.parameters) {
      auto resolved = resolve(parameter.get());
      if (!resolved)
        return resolved;
      parameter.get() = std::move(*resolved);
    }
    return copy;
  }
};

} // namespace

Result<Attribute>
resolveAliases(const Attribute &attribute,
               const std::map<std::string, Attribute> &aliases) {
  return AliasResolver{aliases, {}}.resolve(attribute);
}

} // namespace tilescope::config
