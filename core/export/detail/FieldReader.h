// Strict reading of one JSON object's fields for the export area's readers
// (DocumentJson, ProgramReductionsJson): the first missing or mistyped
// field is remembered and named, and a whole number outside its field's
// range is refused rather than converted.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tilescope::exporting::detail {

using nlohmann::json;

// Reads fields of one JSON object; the first missing or mistyped field is
// remembered and named.
class FieldReader {
public:
  FieldReader(const json &object, std::string where)
      : object(object), where(std::move(where)) {
    if (!object.is_object())
      fail("is not an object");
  }

  template <typename T>
  void read(const char *key, T &out, bool required = false) {
    if (!error.empty())
      return;
    auto it = object.find(key);
    if (it == object.end()) {
      if (required)
        fail(std::string("has no \"") + key + "\"");
      return;
    }
    // A number outside the field's range is refused: converting it would be
    // undefined (found by fuzz_document: "parts": 1111...1).
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (!it->is_number_integer()) {
        fail(std::string("\"") + key + "\" is not a whole number");
      } else if (it->is_number_unsigned()
                     ? !std::in_range<T>(it->template get<uint64_t>())
                     : !std::in_range<T>(it->template get<int64_t>())) {
        fail(std::string("\"") + key + "\" is out of range");
      } else {
        out = it->is_number_unsigned()
                  ? static_cast<T>(it->template get<uint64_t>())
                  : static_cast<T>(it->template get<int64_t>());
      }
      return;
    }
    try {
      out = it->template get<T>();
    } catch (const json::exception &) {
      fail(std::string("\"") + key + "\" has the wrong type");
    }
  }
  // A text field that may instead be an index into `shared`: the long texts
  // a document repeats (toJson with shareTexts).
  void readText(const char *key, std::string &out,
                const std::vector<std::string> &shared) {
    auto it = object.find(key);
    if (!error.empty() || it == object.end() || !it->is_number_integer()) {
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

  const json *array(const char *key) {
    auto it = object.find(key);
    if (it == object.end())
      return nullptr;
    if (!it->is_array()) {
      fail(std::string("\"") + key + "\" is not an array");
      return nullptr;
    }
    return &*it;
  }
  void fail(const std::string &what) {
    if (error.empty())
      error = where + " " + what;
  }

  const json &object;
  std::string where;
  std::string error;
};

} // namespace tilescope::exporting::detail
