// MLIR attribute text as data: a reader for the attributes IREE prints and
// people write, and a writer that prints them back as IREE does.
//
// No compiler is needed: a config pasted as text can be read, checked and
// drawn anywhere. What the reader does not understand it keeps verbatim.
#pragma once

#include "core/util/Result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tilescope::config {

struct SourceLocation {
  int line = 1;   // 1-based
  int column = 1; // 1-based, in bytes
  size_t offset = 0;
};

struct Attribute;

// One entry of a dictionary or one parameter of a dialect attribute:
// `name = value`, a unit entry `name` (value of kind Unit), or, for
// dialect attribute parameters only, a positional `value` (empty name).
struct Parameter {
  std::string name;
  std::vector<Attribute> value; // exactly one element (vector: incomplete type)
  // How it was separated from the previous parameter: ',' or ' '. IREE's
  // translation_info separates some parameters by spaces only.
  char separatorBefore = ',';

  const Attribute &get() const { return value.front(); }
  Attribute &get() { return value.front(); }
};

struct Attribute {
  enum class Kind {
    Integer,    // text: digits as written (with sign); typeSuffix: "index", ...
    Float,      // text: as written
    Bool,       // text: "true" / "false"
    String,     // text: the decoded value
    Unit,       // a dictionary key with no value
    Dynamic,    // `?`
    Keyword,    // a bare word or a `|`-joined set: VectorDistribute, fp64|fp32
    Type,       // text: f16, vector<4xf16>, tensor<?x4xf32>, !hal.device
    Array,      // elements
    Dictionary, // parameters (named)
    Dialect,    // #dialect.mnemonic<parameters> or #dialect<mnemonic ...>
    Elided, // <parameters>: a dialect attribute whose name the context gives
    AliasReference, // text: the alias name without '#'
    Symbol,         // text: @name
    Opaque, // text: verbatim (affine_map<...>, dense<...>, array<i64: ...>)
  };

  Kind kind = Kind::Unit;
  std::string text;
  std::string typeSuffix;   // for Integer/Float written `64 : index`
  std::string dialect;      // Dialect: "iree_gpu"
  std::string mnemonic;     // Dialect: "lowering_config"
  bool bracketForm = false; // Dialect written `#iree_gpu<mma_intrinsic X>`
  bool hasBody = false;     // Dialect/Elided: had `<...>`
  std::string rawBody;      // Dialect/Elided: the text between < and >
  std::vector<Attribute> elements;   // Array
  std::vector<Parameter> parameters; // Dictionary, Dialect, Elided
  SourceLocation location;

  // Queries
  bool is(Kind k) const { return kind == k; }
  bool isDialect(std::string_view d, std::string_view m) const;
  std::string qualifiedName() const; // "iree_gpu.lowering_config"
  // The named parameter / dictionary entry, or nullptr.
  const Attribute *find(std::string_view name) const;
  Attribute *find(std::string_view name);
  // Positional parameters of a dialect attribute, in order.
  std::vector<const Attribute *> positional() const;
  // An integer's value, if it fits in 64 bits.
  std::optional<int64_t> asInt64() const;
  // An array of integers, if every element is one that fits.
  std::optional<std::vector<int64_t>> asInt64Array() const;

  // Builders
  static Attribute integer(int64_t value);
  static Attribute integerArray(const std::vector<int64_t> &values);
  static Attribute string(std::string value);
  static Attribute keyword(std::string word);
  static Attribute boolean(bool value);
  static Attribute unit();
  static Attribute array(std::vector<Attribute> elements);
  static Attribute dictionary(std::vector<Parameter> entries);
  static Attribute dialectAttribute(std::string dialect, std::string mnemonic,
                                    std::vector<Parameter> parameters);
  static Parameter parameter(std::string name, Attribute value,
                             char separatorBefore = ',');
};

// A problem in attribute text: what was expected, and where.
struct ParseError {
  std::string message;
  SourceLocation location;
  std::string lineText; // the offending line
  // "line 3, column 14: expected ']'\n  <line>\n  ^"
  std::string toString() const;
};

// `#name = <attribute>` definitions plus the attribute(s) that use them.
struct AttributeDocument {
  std::map<std::string, Attribute> aliases;
  std::vector<std::string> aliasOrder;
  std::vector<Attribute> attributes; // what follows the aliases
};

struct ParseLimits {
  size_t maximumBytes = 64u << 20;
  int maximumDepth = 256;
};

// Reads one attribute (leading/trailing whitespace and // comments allowed).
std::variant<Attribute, ParseError>
parseAttribute(std::string_view text, const ParseLimits &limits = {});

// Reads alias definitions followed by zero or more attributes, e.g. the top
// of an MLIR file or a config pasted with its `#config = ...` lines.
std::variant<AttributeDocument, ParseError>
parseAttributeDocument(std::string_view text, const ParseLimits &limits = {});

// Replaces alias references by their definitions (recursively). Fails on an
// undefined alias, a cycle, or a result nested deeper than the parser's
// default depth or larger than a million attributes.
Result<Attribute>
resolveAliases(const Attribute &attribute,
               const std::map<std::string, Attribute> &aliases);

// Prints an attribute the way MLIR/IREE print it: dictionaries sorted by key,
// `, ` between parameters, i64 integer types elided, strings escaped.
std::string printAttribute(const Attribute &attribute);

} // namespace tilescope::config
