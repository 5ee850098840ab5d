// Strict reading of one JSON object's fields for the export area's readers
// (DocumentJson, ProgramReductionsJson): the first missing or mistyped
// field is remembered and named, and a whole number outside its field's
// range is refused rather than converted. Over either kind of value
// (JsonValue.h): nlohmann's DOM or simdjson's tape.
#pragma once

#include "core/export/detail/JsonValue.h"

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tilescope::exporting::detail {

// Reads fields of one JSON object; the first missing or mistyped field is
// remembered and named.
template <typename Value> class BasicFieldReader {
public:
  BasicFieldReader(Value object, std::string where)
      : object(object), where(std::move(where)) {
    if (!object.isObject())
      fail("is not an object");
  }

  template <typename T>
  void read(const char *key, T &out, bool required = false) {
    if (!error.empty())
      return;
    std::optional<Value> field = object.find(key);
    if (!field) {
      if (required)
        fail(std::string("has no \"") + key + "\"");
      return;
    }
    // A number outside the field's range is refused: converting it would be
    // undefined (found by fuzz_document: "parts": 1111...1).
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (!field->isInteger()) {
        fail(std::string("\"") + key + "\" is not a whole number");
      } else if (field->isUnsigned() ? !std::in_range<T>(field->uint64())
                                     : !std::in_range<T>(field->int64())) {
        fail(std::string("\"") + key + "\" is out of range");
      } else {
        out = field->isUnsigned() ? static_cast<T>(field->uint64())
                                  : static_cast<T>(field->int64());
      }
    } else if (!field->get(out)) {
      fail(std::string("\"") + key + "\" has the wrong type");
    }
  }
  // A text field that may instead be an index into `shared`: the long texts
  // a document repeats (toJson with shareTexts).
  void readText(const char *key, std::string &out,
                const std::vector<std::string> &shared) {
    std::optional<Value> field = object.find(key);
    if (!error.empty() || !field || !field->isInteger()) {
      read(key, out);
      return;
    }
    size_t index = 0;
    read(key, index);
    if (error.empty() && index >= shared.size())
      fail(std::string("\"") + key + "\" names shared text " +
           std::to_string(index) + " of " + std::to_string(shared.size()));
    else if (error.empty())
      out = shared[index];
  }

  std::optional<Value> array(const char *key) {
    std::optional<Value> field = object.find(key);
    if (field && !field->isArray()) {
      fail(std::string("\"") + key + "\" is not an array");
      return std::nullopt;
    }
    return field;
  }
  void fail(const std::string &what) {
    if (error.empty())
      error = where + " " + what;
  }

  Value object;
  std::string where;
  std::string error;
};

// Over nlohmann's DOM (a DomValue converts from `const nlohmann::json &`).
using FieldReader = BasicFieldReader<DomValue>;

} // namespace tilescope::exporting::detail
