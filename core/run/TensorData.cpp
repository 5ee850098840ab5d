#include "core/run/TensorData.h"

#include "core/util/Numbers.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <regex>
#include <sstream>

namespace tilescope::run {
namespace {

struct ElementFacts {
  const char *name;
  size_t bytes;
  bool isFloat;
};
constexpr ElementFacts kElements[] = {
    {"f64", 8, true},  {"f32", 4, true},  {"f16", 2, true},  {"bf16", 2, true},
    {"i64", 8, false}, {"i32", 4, false}, {"i16", 2, false}, {"i8", 1, false},
};

const ElementFacts *factsOf(const std::string &element) {
  for (const ElementFacts &facts : kElements)
    if (element == facts.name)
      return &facts;
  return nullptr;
}

// IEEE half from float, round to nearest even (normal range and
// subnormals; the random data stays well inside).
uint16_t halfFromFloat(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffffu;
  if (exponent <= 0) {
    if (exponent < -10)
      return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    const int shift = 14 - exponent;
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  if (exponent >= 31)
    return static_cast<uint16_t>(sign | 0x7c00u);
  uint32_t half = (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
    ++half;
  return static_cast<uint16_t>(sign | half);
}

double floatFromHalf(uint16_t half) {
  const int sign = half & 0x8000 ? -1 : 1;
  const int exponent = (half >> 10) & 0x1f;
  const int mantissa = half & 0x3ff;
  if (exponent == 0)
    return sign * std::ldexp(mantissa, -24);
  if (exponent == 31)
    return mantissa ? std::nan("") : sign * INFINITY;
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

uint16_t bfloatFromFloat(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint32_t rounding = 0x7fffu + ((bits >> 16) & 1);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

double floatFromBfloat(uint16_t bfloat) {
  const uint32_t bits = static_cast<uint32_t>(bfloat) << 16;
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

// SplitMix64: a small generator whose output is fixed by its definition.
uint64_t nextRandom(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

template <typename T> void append(std::string &bytes, T value) {
  char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  bytes.append(raw, sizeof(T));
}

template <typename T> T load(const char *at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}

} // namespace

size_t TensorType::elementCount() const {
  size_t count = 1;
  for (int64_t size : shape)
    count *= static_cast<size_t>(size);
  return count;
}

size_t TensorType::elementBytes() const {
  const ElementFacts *facts = factsOf(element);
  return facts ? facts->bytes : 0;
}

std::string TensorType::toString() const {
  std::string text;
  for (int64_t size : shape)
    text += std::to_string(size) + "x";
  return text + element;
}

Result<TensorType> parseTensorType(std::string_view input) {
  std::string text(input);
  if (text.rfind("tensor<", 0) == 0 && text.back() == '>')
    text = text.substr(7, text.size() - 8);
  TensorType type;
  constexpr int64_t kMostElements = int64_t{1} << 31;
  int64_t elements = 1;
  size_t start = 0;
  while (true) {
    const size_t x = text.find('x', start);
    const std::string piece = text.substr(start, x - start);
    if (x == std::string::npos || piece.empty() ||
        !std::isdigit(static_cast<unsigned char>(piece[0]))) {
      type.element = text.substr(start);
      break;
    }
    if (piece.find_first_not_of("0123456789") != std::string::npos)
      return Error{"'" + std::string(input) + "': dimension '" + piece +
                   "' is not a static size"};
    // A checked run writes every element of its inputs: a shape past 2^31
    // elements (or a size past 64 bits) is none it runs.
    const std::optional<int64_t> size = parseInt64(piece);
    if (!size || *size > kMostElements ||
        elements * std::max<int64_t>(*size, 1) > kMostElements)
      return Error{"'" + std::string(input) +
                   "' is more elements than a checked run feeds (2^31)"};
    elements *= std::max<int64_t>(*size, 1);
    type.shape.push_back(*size);
    start = x + 1;
  }
  if (type.element.find('?') != std::string::npos ||
      text.find('?') != std::string::npos)
    return Error{"'" + std::string(input) +
                 "' has a dynamic size: a checked run needs static shapes"};
  if (!factsOf(type.element))
    return Error{"'" + std::string(input) + "': element type " + type.element +
                 " is not one a checked run feeds (f64, f32, f16, bf16, "
                 "i64, i32, i16, i8)"};
  return type;
}

Result<std::vector<FunctionSignature>>
parseAbiDeclarations(std::string_view output) {
  static const std::regex declaration(
      R"(iree\.abi\.declaration:\s*(?:sync\s+)?func\s+@([\w$.]+)\((.*)\)\s*->\s*\((.*)\)\s*$)");
  static const std::regex tensor(R"(tensor<([^>]*)>)");
  std::vector<FunctionSignature> functions;
  std::istringstream lines{std::string(output)};
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch match;
    if (!std::regex_search(line, match, declaration))
      continue;
    FunctionSignature signature;
    signature.name = match[1].str();
    for (int part : {2, 3}) {
      const std::string list = match[part].str();
      for (auto it = std::sregex_iterator(list.begin(), list.end(), tensor);
           it != std::sregex_iterator(); ++it) {
        auto type = parseTensorType((*it)[1].str());
        if (!type)
          return Error{"@" + signature.name + ": " + type.error()};
        (part == 2 ? signature.inputs : signature.results).push_back(*type);
      }
    }
    functions.push_back(std::move(signature));
  }
  return functions;
}

namespace {

// From `at` (just past an opening bracket) to its matching close, or npos.
size_t closingBracket(std::string_view text, size_t at, char open, char close) {
  int depth = 1;
  for (; at < text.size(); ++at) {
    if (text[at] == '"') { // strings hold brackets of their own
      for (++at; at < text.size() && text[at] != '"'; ++at)
        if (text[at] == '\\')
          ++at;
      continue;
    }
    if (text[at] == open ||
        (open == '(' &&
         (text[at] == '<' || text[at] == '[' || text[at] == '{')))
      ++depth;
    else if (text[at] == close ||
             (open == '(' &&
              (text[at] == '>' || text[at] == ']' || text[at] == '}')))
      if (--depth == 0)
        return at;
  }
  return std::string_view::npos;
}

// The pieces of a list separated by commas outside brackets.
std::vector<std::string> topLevelPieces(std::string_view list) {
  std::vector<std::string> pieces;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= list.size(); ++i) {
    const char c = i < list.size() ? list[i] : ',';
    if (c == '<' || c == '[' || c == '(' || c == '{')
      ++depth;
    else if (c == '>' || c == ']' || c == ')' || c == '}')
      --depth;
    else if (c == '"')
      while (++i < list.size() && list[i] != '"')
        ;
    else if (c == ',' && depth == 0) {
      std::string piece(list.substr(start, i - start));
      const size_t first = piece.find_first_not_of(" \t\n");
      if (first != std::string::npos)
        pieces.push_back(piece.substr(first));
      start = i + 1;
    }
  }
  return pieces;
}

// A type as a checked run feeds it: `tensor<4x8xf32>` or
// `!torch.vtensor<[4,8],f32>`.
Result<TensorType> sourceTensorType(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.pop_back();
  if (text.rfind("tensor<", 0) == 0)
    return parseTensorType(text);
  static const std::regex torch(R"(^!torch\.vtensor<\[([^\]]*)\],\s*(\w+)>$)");
  std::smatch match;
  if (!std::regex_match(text, match, torch))
    return Error{"'" + text + "' is not a tensor a checked run feeds"};
  std::string element = match[2].str();
  if (element.rfind("si", 0) == 0 || element.rfind("ui", 0) == 0)
    element = element.substr(element[0] == 's' ? 1 : 0);
  std::string dims = match[1].str();
  std::string shape;
  for (const std::string &dim : topLevelPieces(dims))
    shape += (dim == "-1" || dim == "?" ? std::string("?") : dim) + "x";
  if (auto type = parseTensorType(shape + element))
    return type;
  else
    return Error{"'" + text + "': " + type.error()};
}

} // namespace

std::vector<SourceFunction> parseSourceFunctions(std::string_view mlir) {
  std::vector<SourceFunction> functions;
  static const std::regex head(
      R"(func\.func\s+(private\s+|public\s+|nested\s+)?@([\w$.]+)\s*\()");
  // Not into the resource blobs at the end (a model's weights, as
  // iree-import-onnx writes them: hundreds of MB of hex).
  const std::string text(mlir.substr(0, mlir.find("\n{-#")));
  for (auto it = std::sregex_iterator(text.begin(), text.end(), head);
       it != std::sregex_iterator(); ++it) {
    if ((*it)[1].str().rfind("private", 0) == 0 ||
        (*it)[1].str().rfind("nested", 0) == 0)
      continue;
    SourceFunction function;
    function.signature.name = (*it)[2].str();
    const size_t open = static_cast<size_t>(it->position(0) + it->length(0));
    const size_t close = closingBracket(text, open, '(', ')');
    if (close == std::string::npos)
      continue;
    auto note = [&](const std::string &why) {
      if (function.unfed.empty())
        function.unfed = why;
    };
    for (const std::string &argument :
         topLevelPieces(std::string_view(text).substr(open, close - open))) {
      // %name: TYPE {attributes}
      const size_t colon = argument.find(':');
      std::string type =
          colon == std::string::npos ? argument : argument.substr(colon + 1);
      if (const size_t attributes = type.rfind(" {");
          attributes != std::string::npos && type.back() == '}')
        type = type.substr(0, attributes);
      const size_t first = type.find_first_not_of(' ');
      auto parsed = sourceTensorType(
          first == std::string::npos ? type : type.substr(first));
      if (parsed)
        function.signature.inputs.push_back(*parsed);
      else
        note(parsed.error());
    }
    // -> TYPE or -> (TYPE, TYPE), then `attributes {...}` or the body's `{`.
    size_t at = text.find_first_not_of(" \t\n", close + 1);
    if (at != std::string::npos && text.compare(at, 2, "->") == 0) {
      at = text.find_first_not_of(" \t\n", at + 2);
      std::vector<std::string> results;
      if (at != std::string::npos && text[at] == '(') {
        const size_t end = closingBracket(text, at + 1, '(', ')');
        if (end != std::string::npos)
          results = topLevelPieces(
              std::string_view(text).substr(at + 1, end - at - 1));
      } else if (at != std::string::npos) {
        // One type, up to its closing bracket.
        const size_t angle = text.find('<', at);
        const size_t end = angle == std::string::npos
                               ? std::string::npos
                               : closingBracket(text, angle + 1, '<', '>');
        if (end != std::string::npos)
          results.push_back(text.substr(at, end + 1 - at));
      }
      for (std::string result : results) {
        if (const size_t attributes = result.rfind(" {");
            attributes != std::string::npos && result.back() == '}')
          result = result.substr(0, attributes);
        if (auto parsed = sourceTensorType(result))
          function.signature.results.push_back(*parsed);
        else
          note(parsed.error());
      }
    }
    functions.push_back(std::move(function));
  }
  return functions;
}

std::string randomTensorBytes(const TensorType &type, uint64_t seed) {
  std::string bytes;
  bytes.reserve(type.elementCount() * type.elementBytes());
  uint64_t state = seed;
  for (size_t i = 0; i < type.elementCount(); ++i) {
    const uint64_t bits = nextRandom(state);
    const double unit =
        static_cast<double>(bits >> 11) * 0x1.0p-53 * 2.0 - 1.0; // [-1, 1)
    const int64_t integer = static_cast<int64_t>(bits % 16) - 8; // [-8, 8)
    const std::string &e = type.element;
    if (e == "f64")
      append(bytes, unit);
    else if (e == "f32")
      append(bytes, static_cast<float>(unit));
    else if (e == "f16")
      append(bytes, halfFromFloat(static_cast<float>(unit)));
    else if (e == "bf16")
      append(bytes, bfloatFromFloat(static_cast<float>(unit)));
    else if (e == "i64")
      append(bytes, integer);
    else if (e == "i32")
      append(bytes, static_cast<int32_t>(integer));
    else if (e == "i16")
      append(bytes, static_cast<int16_t>(integer));
    else if (e == "i8")
      append(bytes, static_cast<int8_t>(integer));
  }
  return bytes;
}

Result<std::vector<double>> tensorValues(const TensorType &type,
                                         std::string_view bytes) {
  const size_t width = type.elementBytes();
  if (width == 0 || bytes.size() != type.elementCount() * width)
    return Error{"expected " + std::to_string(type.elementCount() * width) +
                 " bytes for " + type.toString() + ", found " +
                 std::to_string(bytes.size())};
  std::vector<double> values(type.elementCount());
  const std::string &e = type.element;
  for (size_t i = 0; i < values.size(); ++i) {
    const char *at = bytes.data() + i * width;
    if (e == "f64")
      values[i] = load<double>(at);
    else if (e == "f32")
      values[i] = load<float>(at);
    else if (e == "f16")
      values[i] = floatFromHalf(load<uint16_t>(at));
    else if (e == "bf16")
      values[i] = floatFromBfloat(load<uint16_t>(at));
    else if (e == "i64")
      values[i] = static_cast<double>(load<int64_t>(at));
    else if (e == "i32")
      values[i] = load<int32_t>(at);
    else if (e == "i16")
      values[i] = load<int16_t>(at);
    else if (e == "i8")
      values[i] = load<int8_t>(at);
  }
  return values;
}

Tolerance defaultTolerance(const std::string &element) {
  if (element == "f64")
    return {1e-9, 1e-9};
  if (element == "f32")
    return {1e-3, 1e-3};
  if (element == "f16")
    return {2e-2, 2e-2};
  if (element == "bf16")
    return {8e-2, 8e-2};
  return {0, 0};
}

TensorComparison compareTensors(const TensorType &type,
                                const std::vector<double> &values,
                                const std::vector<double> &reference,
                                const Tolerance &tolerance) {
  TensorComparison comparison;
  comparison.type = type;
  comparison.tolerance = tolerance;
  const size_t count = std::min(values.size(), reference.size());
  for (size_t i = 0; i < count; ++i) {
    const double value = values[i], expected = reference[i];
    bool matches;
    double absolute = 0, relative = 0;
    if (std::isnan(value) || std::isnan(expected)) {
      matches = std::isnan(value) && std::isnan(expected);
      absolute = relative = matches ? 0 : INFINITY;
    } else if (std::isinf(value) || std::isinf(expected)) {
      // Equal infinities agree (a mask's -inf, log(0), a max-reduction's
      // initial value); their difference would be NaN and match nothing.
      matches = value == expected;
      absolute = relative = matches ? 0 : INFINITY;
    } else {
      absolute = std::fabs(value - expected);
      relative = expected != 0 ? absolute / std::fabs(expected)
                               : (absolute == 0 ? 0 : INFINITY);
      matches = absolute <=
                tolerance.absolute + tolerance.relative * std::fabs(expected);
    }
    comparison.maxAbsoluteError =
        std::max(comparison.maxAbsoluteError, absolute);
    if (std::isfinite(relative))
      comparison.maxRelativeError =
          std::max(comparison.maxRelativeError, relative);
    if (matches)
      continue;
    ++comparison.mismatches;
    if (comparison.firstMismatches.size() < 5) {
      Mismatch mismatch{{}, value, expected};
      size_t rest = i;
      mismatch.index.assign(type.shape.size(), 0);
      for (size_t d = type.shape.size(); d-- > 0;) {
        mismatch.index[d] =
            static_cast<int64_t>(rest % static_cast<size_t>(type.shape[d]));
        rest /= static_cast<size_t>(type.shape[d]);
      }
      comparison.firstMismatches.push_back(std::move(mismatch));
    }
  }
  comparison.mismatches += std::max(values.size(), reference.size()) - count;
  return comparison;
}

} // namespace tilescope::run
