// TapeValue: a JSON value of simdjson's tape, with DomValue's interface
// (JsonValue.h). simdjson parses the parse worker's answer (about 860 KiB
// for a 1000-dispatch program) in about a millisecond into one buffer, where
// nlohmann's DOM took 13 ms to build and 8 more to free (bench_documents).
// Included by the export area's .cpp files only: simdjson stays private.
#pragma once

#include "core/export/detail/JsonValue.h"

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::exporting::detail {

class TapeValue {
public:
  explicit TapeValue(simdjson::dom::element value) : value(value) {}

  bool isObject() const { return is(simdjson::dom::element_type::OBJECT); }
  bool isArray() const { return is(simdjson::dom::element_type::ARRAY); }
  bool isString() const { return is(simdjson::dom::element_type::STRING); }
  bool isBool() const { return is(simdjson::dom::element_type::BOOL); }
  bool isInteger() const {
    return is(simdjson::dom::element_type::INT64) ||
           is(simdjson::dom::element_type::UINT64);
  }
  // As DomValue: every whole number >= 0 reads as unsigned.
  bool isUnsigned() const {
    return is(simdjson::dom::element_type::UINT64) ||
           (is(simdjson::dom::element_type::INT64) && int64() >= 0);
  }
  int64_t int64() const {
    if (is(simdjson::dom::element_type::UINT64))
      return static_cast<int64_t>(uint64());
    int64_t out = 0;
    if (value.get_int64().get(out))
      throw JsonReadError("not a whole number: " + text());
    return out;
  }
  uint64_t uint64() const {
    if (is(simdjson::dom::element_type::INT64))
      return static_cast<uint64_t>(int64());
    uint64_t out = 0;
    if (value.get_uint64().get(out))
      throw JsonReadError("not a whole number: " + text());
    return out;
  }

  std::optional<TapeValue> find(const char *key) const {
    simdjson::dom::object object;
    if (value.get_object().get(object))
      return std::nullopt;
    // The last of equal keys, as nlohmann keeps it.
    std::optional<TapeValue> found;
    for (auto field : object)
      if (field.key == key)
        found = TapeValue(field.value);
    return found;
  }
  TapeValue at(const char *key) const {
    if (auto found = find(key))
      return *found;
    throw JsonReadError(std::string("no \"") + key + "\"");
  }
  std::vector<TapeValue> elements() const {
    simdjson::dom::array array;
    if (value.get_array().get(array))
      throw JsonReadError("not an array: " + text());
    std::vector<TapeValue> out;
    out.reserve(array.size());
    for (simdjson::dom::element element : array)
      out.emplace_back(element);
    return out;
  }
  std::string string() const {
    std::string_view out;
    if (value.get_string().get(out))
      throw JsonReadError("not text: " + text());
    return std::string(out);
  }
  bool boolean() const {
    bool out = false;
    if (value.get_bool().get(out))
      throw JsonReadError("not true or false: " + text());
    return out;
  }
  bool get(std::string &out) const {
    std::string_view text;
    if (value.get_string().get(text))
      return false;
    out.assign(text);
    return true;
  }
  bool get(bool &out) const { return !value.get_bool().get(out); }
  // A list of text, or of whole numbers: only whole ones (nlohmann's get<>
  // would truncate 1.5; no field of a document is such a list).
  template <typename T> bool get(std::vector<T> &out) const {
    simdjson::dom::array array;
    if (value.get_array().get(array))
      return false;
    std::vector<T> read;
    read.reserve(array.size());
    for (simdjson::dom::element element : array) {
      T item{};
      if (!TapeValue(element).getItem(item))
        return false;
      read.push_back(std::move(item));
    }
    out = std::move(read);
    return true;
  }
  // As DomValue prints it (errors quote values): nlohmann's printing of
  // the same value, so both readers refuse in the same words.
  std::string text() const {
    return DomValue(
               nlohmann::json::parse(simdjson::minify(value), nullptr, false))
        .text();
  }

private:
  bool is(simdjson::dom::element_type type) const {
    return value.type() == type;
  }
  bool getItem(std::string &out) const { return get(out); }
  template <typename T> bool getItem(T &out) const {
    if (!isInteger())
      return false;
    out = isUnsigned() ? static_cast<T>(uint64()) : static_cast<T>(int64());
    return true;
  }

  simdjson::dom::element value;
};

} // namespace tilescope::exporting::detail
