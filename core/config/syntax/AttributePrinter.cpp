// Printing attributes as MLIR prints them (the text IREE reads back).
#include "core/config/syntax/Attribute.h"

#include <algorithm>
#include <cctype>

namespace tilescope::config {
namespace {

// As llvm::printEscapedString: a backslash doubled, a quote and every
// non-printable byte as \XX (upper-case hex).
void printEscapedString(const std::string &value, std::string &out) {
  static const char *hex = "0123456789ABCDEF";
  out += '"';
  for (unsigned char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c != '"' && c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += '\\';
      out += hex[c >> 4];
      out += hex[c & 0xf];
    }
  }
  out += '"';
}

bool isBareKey(const std::string &key) {
  if (key.empty() ||
      !(std::isalpha(static_cast<unsigned char>(key[0])) || key[0] == '_'))
    return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '$' || c == '.';
  });
}

// Where an attribute is printed decides whether MLIR shows an integer's type:
// always for a dictionary value or a lone attribute, never for i64 inside an
// array, and as written for a dialect attribute's parameter (a C++ integer).
enum class Context { Alone, ArrayElement, Parameter };

void print(const Attribute &a, std::string &out,
           Context context = Context::Alone);

void printParameters(const std::vector<Parameter> &parameters,
                     std::string &out) {
  for (size_t i = 0; i < parameters.size(); ++i) {
    const Parameter &p = parameters[i];
    if (i > 0)
      out += p.separatorBefore == ' ' ? " " : ", ";
    if (!p.name.empty()) {
      out += p.name;
      out += " = ";
    }
    print(p.get(), out, Context::Parameter);
  }
}

void print(const Attribute &a, std::string &out, Context context) {
  using Kind = Attribute::Kind;
  switch (a.kind) {
  case Kind::Integer:
  case Kind::Float: {
    out += a.text;
    const std::string defaultType = a.kind == Kind::Integer ? "i64" : "f64";
    const std::string type = a.typeSuffix.empty() ? defaultType : a.typeSuffix;
    if ((context == Context::Alone) ||
        (context == Context::ArrayElement && type != defaultType) ||
        (context == Context::Parameter && !a.typeSuffix.empty())) {
      out += " : ";
      out += type;
    }
    return;
  }
  case Kind::Bool:
  case Kind::Keyword:
  case Kind::Type:
  case Kind::Symbol:
  case Kind::Opaque:
    out += a.text;
    return;
  case Kind::String:
    printEscapedString(a.text, out);
    return;
  case Kind::Unit:
    out += "unit";
    return;
  case Kind::Dynamic:
    out += '?';
    return;
  case Kind::AliasReference:
    out += '#';
    out += a.text;
    return;
  case Kind::Array:
    out += '[';
    for (size_t i = 0; i < a.elements.size(); ++i) {
      if (i > 0)
        out += ", ";
      print(a.elements[i], out, Context::ArrayElement);
    }
    out += ']';
    return;
  case Kind::Dictionary: {
    // DictionaryAttr keeps its entries sorted by name.
    std::vector<const Parameter *> sorted;
    for (const Parameter &p : a.parameters)
      sorted.push_back(&p);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Parameter *x, const Parameter *y) {
                       return x->name < y->name;
                     });
    out += '{';
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (i > 0)
        out += ", ";
      if (isBareKey(sorted[i]->name))
        out += sorted[i]->name;
      else
        printEscapedString(sorted[i]->name, out);
      if (!sorted[i]->get().is(Kind::Unit)) {
        out += " = ";
        print(sorted[i]->get(), out);
      }
    }
    out += '}';
    return;
  }
  case Kind::Dialect:
    out += '#';
    out += a.dialect;
    if (a.bracketForm) {
      out += '<';
      out += a.mnemonic;
      if (!a.parameters.empty())
        out += ' ';
      printParameters(a.parameters, out);
      out += '>';
      return;
    }
    out += '.';
    out += a.mnemonic;
    if (a.hasBody || !a.parameters.empty()) {
      out += '<';
      printParameters(a.parameters, out);
      out += '>';
    }
    return;
  case Kind::Elided:
    out += '<';
    printParameters(a.parameters, out);
    out += '>';
    return;
  }
}

} // namespace

std::string printAttribute(const Attribute &attribute) {
  std::string out;
  print(attribute, out);
  return out;
}

} // namespace tilescope::config
