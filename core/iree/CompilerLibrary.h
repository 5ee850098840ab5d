// libIREECompiler.so, loaded at run time and checked.
//
// The library is dlopen'ed in place, its API version checked (major 1, minor
// >= 4), initialized once per process, and every function Tilescope calls is
// resolved one by one. Required functions missing means "not IREE"; optional
// ones missing are listed and degrade the feature that needs them.
#pragma once

#include "core/util/Result.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace tilescope::iree {

namespace capi {
struct FunctionTable;
}

struct ApiVersion {
  int major = 0;
  int minor = 0;
  std::string toString() const {
    return std::to_string(major) + "." + std::to_string(minor);
  }
};

inline constexpr ApiVersion kMinimumApiVersion{1, 4};

class CompilerLibrary {
public:
  // Loads (or returns the already loaded) library at `path`. Never crashes on
  // a bad path: a missing file, a file that is not a shared library, and a
  // library that is not IREE each give an error that says which.
  static Result<std::shared_ptr<CompilerLibrary>>
  load(const std::filesystem::path &path);

  ~CompilerLibrary();
  CompilerLibrary(const CompilerLibrary &) = delete;
  CompilerLibrary &operator=(const CompilerLibrary &) = delete;

  const std::filesystem::path &path() const { return libraryPath; }
  ApiVersion apiVersion() const { return version; }
  // The IREE source revision the library was built from.
  const std::string &revision() const { return revisionText; }
  // HAL target backends the compiler registered (rocm, cuda, llvm-cpu, ...).
  std::vector<std::string> halTargetBackends() const;
  // Compiler plugins (API >= 1.2).
  std::vector<std::string> plugins() const;
  // Optional functions this library does not export.
  const std::vector<std::string> &missingOptionalFunctions() const {
    return missingOptional;
  }
  bool hasFunction(const std::string &name) const;

  // For core/iree/ only: the resolved function pointers.
  const capi::FunctionTable &functions() const { return *table; }

private:
  CompilerLibrary() = default;

  std::filesystem::path libraryPath;
  void *handle = nullptr;
  ApiVersion version;
  std::string revisionText;
  std::unique_ptr<capi::FunctionTable> table;
  std::vector<std::string> missingOptional;
};

} // namespace tilescope::iree
