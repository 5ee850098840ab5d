// A value or an error message that says what went wrong and where.
//
// Tilescope's core reports every failure of bad input (a missing file, a
// library that is not IREE, a compiler diagnostic) as data, never by throwing
// across a layer or by crashing.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace tilescope {

struct Error {
  std::string message;
};

template <typename T> class Result {
public:
  Result(T value) : storage(std::move(value)) {}
  Result(Error error) : storage(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(storage); }
  explicit operator bool() const { return ok(); }

  T &value() {
    assert(ok());
    return std::get<T>(storage);
  }
  const T &value() const {
    assert(ok());
    return std::get<T>(storage);
  }
  T &operator*() { return value(); }
  const T &operator*() const { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  const std::string &error() const {
    assert(!ok());
    return std::get<Error>(storage).message;
  }

private:
  std::variant<T, Error> storage;
};

} // namespace tilescope
