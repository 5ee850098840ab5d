#include "core/iree/CompilerLibrary.h"

#include "core/iree/detail/CApi.h"

#include <algorithm>
#include <dlfcn.h>
#include <fstream>
#include <map>
#include <mutex>

namespace fs = std::filesystem;

namespace tilescope::iree {
namespace {

// Libraries stay loaded and initialized for the life of the process:
// ireeCompilerGlobalShutdown is final (a later initialize aborts), so we
// never call it, and a second load of the same path returns the same object.
std::mutex registryMutex;
std::map<fs::path, std::shared_ptr<CompilerLibrary>> &registry() {
  static std::map<fs::path, std::shared_ptr<CompilerLibrary>> libraries;
  return libraries;
}

bool looksLikeElf(const fs::path &path) {
  std::ifstream file(path, std::ios::binary);
  char magic[4] = {};
  file.read(magic, sizeof(magic));
  return file.gcount() == 4 && magic[0] == 0x7f && magic[1] == 'E' &&
         magic[2] == 'L' && magic[3] == 'F';
}

template <typename Fn> Fn resolve(void *handle, const char *name) {
  return reinterpret_cast<Fn>(::dlsym(handle, name));
}

void collectString(const char *value, void *userData) {
  static_cast<std::vector<std::string> *>(userData)->emplace_back(value);
}

} // namespace

Result<std::shared_ptr<CompilerLibrary>>
CompilerLibrary::load(const fs::path &path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    return Error{"cannot load the IREE compiler: " + path.string() +
                 " does not exist"};
  if (!fs::is_regular_file(path, ec))
    return Error{"cannot load the IREE compiler: " + path.string() +
                 " is not a file"};
  if (!looksLikeElf(path))
    return Error{"cannot load the IREE compiler: " + path.string() +
                 " is not a shared library (no ELF header)"};

  const fs::path canonical = fs::canonical(path, ec);
  std::lock_guard lock(registryMutex);
  if (auto it = registry().find(canonical); it != registry().end())
    return it->second;

  // RTLD_LOCAL: IREE's LLVM must not interpose on another LLVM in the process
  // (Mesa's, in a GUI).
  void *handle = ::dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = ::dlerror();
    return Error{"cannot load the IREE compiler: " + path.string() +
                 " could not be loaded as a shared library: " +
                 (reason ? reason : "unknown dlopen error")};
  }

  auto table = std::make_unique<capi::FunctionTable>();
  std::vector<std::string> missingRequired;
#define TILESCOPE_RESOLVE_REQUIRED(name, ret, params)                          \
  table->name = resolve<decltype(table->name)>(handle, #name);                 \
  if (!table->name)                                                            \
    missingRequired.emplace_back(#name);
  TILESCOPE_IREE_REQUIRED_FUNCTIONS(TILESCOPE_RESOLVE_REQUIRED)
#undef TILESCOPE_RESOLVE_REQUIRED

  if (!missingRequired.empty()) {
    ::dlclose(handle);
    std::string message = "cannot load the IREE compiler: " + path.string() +
                          " is a shared library but not IREE's compiler (it "
                          "does not export ";
    const size_t shown = std::min<size_t>(missingRequired.size(), 3);
    for (size_t i = 0; i < shown; ++i)
      message += (i ? ", " : "") + missingRequired[i];
    if (missingRequired.size() > shown)
      message +=
          " and " + std::to_string(missingRequired.size() - shown) + " more";
    return Error{message + ")"};
  }

  const int packed = table->ireeCompilerGetAPIVersion();
  const ApiVersion version{packed >> 16, packed & 0xffff};
  if (version.major != kMinimumApiVersion.major ||
      version.minor < kMinimumApiVersion.minor) {
    ::dlclose(handle);
    return Error{"cannot use the IREE compiler at " + path.string() +
                 ": its C API version is " + version.toString() +
                 ", Tilescope needs " +
                 std::to_string(kMinimumApiVersion.major) +
                 ".x with x >= " + std::to_string(kMinimumApiVersion.minor)};
  }

  std::shared_ptr<CompilerLibrary> library(new CompilerLibrary());
  library->libraryPath = canonical;
  library->handle = handle;
  library->version = version;
  library->table = std::move(table);
#define TILESCOPE_RESOLVE_OPTIONAL(name, ret, params)                          \
  library->table->name = resolve<decltype(table->name)>(handle, #name);        \
  if (!library->table->name)                                                   \
    library->missingOptional.emplace_back(#name);
  TILESCOPE_IREE_OPTIONAL_FUNCTIONS(TILESCOPE_RESOLVE_OPTIONAL)
#undef TILESCOPE_RESOLVE_OPTIONAL

  library->table->ireeCompilerGlobalInitialize();
  const char *revision = library->table->ireeCompilerGetRevision();
  library->revisionText = revision ? revision : "";

  registry()[canonical] = library;
  return library;
}

CompilerLibrary::~CompilerLibrary() {
  // Deliberately no ireeCompilerGlobalShutdown and no dlclose: shutdown is
  // final for the process and IREE's static destructors run at exit.
}

std::vector<std::string> CompilerLibrary::halTargetBackends() const {
  std::vector<std::string> backends;
  table->ireeCompilerEnumerateRegisteredHALTargetBackends(collectString,
                                                          &backends);
  std::sort(backends.begin(), backends.end());
  return backends;
}

std::vector<std::string> CompilerLibrary::plugins() const {
  std::vector<std::string> names;
  if (table->ireeCompilerEnumeratePlugins)
    table->ireeCompilerEnumeratePlugins(collectString, &names);
  std::sort(names.begin(), names.end());
  return names;
}

bool CompilerLibrary::hasFunction(const std::string &name) const {
  return std::find(missingOptional.begin(), missingOptional.end(), name) ==
         missingOptional.end();
}

} // namespace tilescope::iree
