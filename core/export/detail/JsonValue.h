// One JSON value as the export area's readers see it, whichever parser made
// it: DomValue over nlohmann's DOM (files, `--json`, every reader's public
// form) and TapeValue (JsonTape.h) over simdjson's tape (the parse worker's
// answer, read without a DOM to build and free). The readers are templates
// over this interface, so each field list is written once.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilescope::exporting::detail {

// What a reader throws where a value is missing or of another type (caught
// and turned into the reader's error by its caller).
struct JsonReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class DomValue {
public:
  DomValue(const nlohmann::json &value) : value(&value) {} // NOLINT: implicit

  bool isObject() const { return value->is_object(); }
  bool isArray() const { return value->is_array(); }
  bool isString() const { return value->is_string(); }
  bool isBool() const { return value->is_boolean(); }
  bool isInteger() const { return value->is_number_integer(); }
  // A whole number read as unsigned (nlohmann reads every one >= 0 so).
  bool isUnsigned() const { return value->is_number_unsigned(); }
  int64_t int64() const { return value->get<int64_t>(); }
  uint64_t uint64() const { return value->get<uint64_t>(); }

  std::optional<DomValue> find(const char *key) const {
    if (!value->is_object())
      return std::nullopt;
    auto it = value->find(key);
    if (it == value->end())
      return std::nullopt;
    return DomValue(*it);
  }
  DomValue at(const char *key) const {
    if (auto found = find(key))
      return *found;
    throw JsonReadError(std::string("no \"") + key + "\"");
  }
  std::vector<DomValue> elements() const {
    if (!value->is_array())
      throw JsonReadError("not an array: " + text());
    return {value->begin(), value->end()};
  }
  std::string string() const {
    if (!value->is_string())
      throw JsonReadError("not text: " + text());
    return value->get<std::string>();
  }
  bool boolean() const {
    if (!value->is_boolean())
      throw JsonReadError("not true or false: " + text());
    return value->get<bool>();
  }
  // Anything else nlohmann converts to (text, lists of text or numbers);
  // false where it would not.
  template <typename T> bool get(T &out) const {
    try {
      out = value->get<T>();
      return true;
    } catch (const nlohmann::json::exception &) {
      return false;
    }
  }
  std::string text() const {
    return value->dump(-1, ' ', false,
                       nlohmann::json::error_handler_t::replace);
  }

private:
  const nlohmann::json *value;
};

} // namespace tilescope::exporting::detail
