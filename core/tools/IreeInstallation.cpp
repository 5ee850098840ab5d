#include "core/tools/IreeInstallation.h"

#include <cstdlib>
#include <system_error>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tilescope::tools {
namespace {

constexpr const char *kLibraryName = "libIREECompiler.so";

bool isFile(const fs::path &path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

bool isExecutable(const fs::path &path) {
  return isFile(path) && ::access(path.c_str(), X_OK) == 0;
}

// site-packages style directories where `pip install iree-base-compiler`
// puts the package, for the running user and the system.
std::vector<fs::path> pythonPackageDirectories() {
  std::vector<fs::path> roots;
  if (const char *venv = std::getenv("VIRTUAL_ENV"))
    roots.emplace_back(fs::path(venv) / "lib");
  if (const char *home = std::getenv("HOME"))
    roots.emplace_back(fs::path(home) / ".local/lib");
  roots.emplace_back("/usr/local/lib");
  roots.emplace_back("/usr/lib");

  std::vector<fs::path> directories;
  for (const fs::path &root : roots) {
    std::error_code ec;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end;
         it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.rfind("python3", 0) != 0)
        continue;
      for (const char *leaf : {"site-packages", "dist-packages"})
        directories.push_back(it->path() / leaf);
    }
  }
  directories.emplace_back("/usr/lib/python3/dist-packages");
  return directories;
}

std::optional<fs::path> findInPath(const std::string &name) {
  const char *pathVariable = std::getenv("PATH");
  if (!pathVariable)
    return std::nullopt;
  std::string paths = pathVariable;
  size_t start = 0;
  while (start <= paths.size()) {
    size_t end = paths.find(':', start);
    if (end == std::string::npos)
      end = paths.size();
    fs::path candidate = fs::path(paths.substr(start, end - start)) / name;
    if (end > start && isExecutable(candidate))
      return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

} // namespace

std::vector<fs::path> IreeSearchOptions::defaultProjectPrefixes() {
#ifdef TILESCOPE_IREE_PREFIX
  return {fs::path(TILESCOPE_IREE_PREFIX)};
#else
  return {};
#endif
}

Result<fs::path> IreeInstallation::tool(const std::string &name) const {
  if (auto it = tools.find(name); it != tools.end())
    return it->second;
  return Error{name + " was not found beside " + compilerLibrary.string() +
               ", in the IREE runtime package next to it, or on $PATH"};
}

std::optional<fs::path> compilerLibraryUnder(const fs::path &path) {
  if (path.filename() == kLibraryName && isFile(path))
    return path;
  for (const fs::path &candidate :
       {path / kLibraryName, path / "iree/compiler/_mlir_libs" / kLibraryName,
        path / "lib" / kLibraryName,
        path / "python_packages/iree_compiler/iree/compiler/_mlir_libs" /
            kLibraryName}) {
    if (isFile(candidate))
      return candidate;
  }
  // A path that names some other file (say, a library that is not IREE) is
  // taken as it is: the loader then says what is wrong with it.
  if (isFile(path))
    return path;
  return std::nullopt;
}

IreeInstallation describeInstallation(const fs::path &compilerLibrary,
                                      std::string foundBy) {
  IreeInstallation installation;
  installation.compilerLibrary = compilerLibrary;
  installation.foundBy = std::move(foundBy);

  const fs::path libraryDir = compilerLibrary.parent_path();
  // An unpacked wheel pair: <prefix>/iree/compiler/_mlir_libs and
  // <prefix>/iree/_runtime_libs.
  const fs::path ireePackage = libraryDir.parent_path().parent_path();
  const std::vector<fs::path> directories = {
      libraryDir, ireePackage / "_runtime_libs",
      libraryDir.parent_path() / "tools", // an IREE build tree
      libraryDir.parent_path() / "bin",   // an IREE install tree
  };
  for (const char *name : {kIreeCompile, kIreeOpt, kIreeRunModule,
                           kIreeBenchmarkModule, kIreeDumpModule}) {
    std::optional<fs::path> found;
    for (const fs::path &directory : directories) {
      if (isExecutable(directory / name)) {
        found = directory / name;
        break;
      }
    }
    if (!found)
      found = findInPath(name);
    if (found)
      installation.tools[name] = *found;
    else
      installation.missingTools.emplace_back(name);
  }
  return installation;
}

Result<IreeInstallation> locateIree(const IreeSearchOptions &options) {
  std::vector<std::string> tried;

  // Places the user named explicitly must work: a typo is an error, not a
  // reason to silently use another IREE.
  auto explicitPlace = [&](const fs::path &path, const std::string &source)
      -> std::optional<Result<IreeInstallation>> {
    if (auto library = compilerLibraryUnder(path))
      return Result<IreeInstallation>(describeInstallation(*library, source));
    return Result<IreeInstallation>(Error{
        source + " names " + path.string() + ", which holds no " +
        kLibraryName + " (looked at the path itself, <path>/" + kLibraryName +
        ", <path>/iree/compiler/_mlir_libs/ and <path>/lib/)"});
  };

  if (options.commandLinePath)
    return *explicitPlace(*options.commandLinePath, "--iree");
  if (options.useEnvironment) {
    if (const char *env = std::getenv(kIreeDirectoryVariable); env && *env)
      return *explicitPlace(env, std::string("$") + kIreeDirectoryVariable);
  }
  if (options.settingsPath) {
    if (auto library = compilerLibraryUnder(*options.settingsPath))
      return describeInstallation(*library, "settings");
    tried.push_back(options.settingsPath->string() + " (settings)");
  }
  for (const fs::path &prefix : options.projectPrefixes) {
    if (auto library = compilerLibraryUnder(prefix))
      return describeInstallation(*library, "project prefix");
    tried.push_back(prefix.string() + " (project prefix)");
  }
  if (options.usePythonPackages) {
    std::vector<fs::path> directories = options.pythonPaths;
    for (fs::path &directory : pythonPackageDirectories())
      directories.push_back(std::move(directory));
    for (const fs::path &directory : directories) {
      if (auto library = compilerLibraryUnder(directory);
          library && library->filename() == kLibraryName)
        return describeInstallation(*library, "Python package");
    }
    tried.emplace_back("the iree.compiler Python package (site-packages)");
  }

  std::string message = std::string("no ") + kLibraryName + " found; tried: ";
  for (size_t i = 0; i < tried.size(); ++i)
    message += (i ? "; " : "") + tried[i];
  message += ". Run scripts/tilescope.sh deps, or point TILESCOPE_IREE_DIR "
             "at an IREE build or an unpacked iree-base-compiler wheel.";
  return Error{message};
}

Result<std::string> describeIreeSetting(
    const std::string &settingsPath,
    const std::optional<std::filesystem::path> &commandLinePath) {
  IreeSearchOptions options;
  if (!settingsPath.empty()) {
    IreeSearchOptions only;
    only.settingsPath = settingsPath;
    only.useEnvironment = false;
    only.usePythonPackages = false;
    only.projectPrefixes.clear();
    if (auto at = locateIree(only); !at)
      return Error{settingsPath + " holds no IREE compiler library (" +
                   at.error() + ")"};
    options.settingsPath = settingsPath;
  }
  options.commandLinePath = commandLinePath;
  auto found = locateIree(options);
  if (!found)
    return Error{found.error()};
  std::string text = found->compilerLibrary.string() + " (found by " +
                     found->foundBy + "), " +
                     std::to_string(found->tools.size()) + " tools beside it";
  if (!settingsPath.empty() && found->foundBy != "settings")
    text += "; the " + found->foundBy + " comes before the settings";
  return text;
}

} // namespace tilescope::tools
