// Where the IREE compiler library and the IREE tools live on this machine.
//
// Tilescope loads libIREECompiler.so in place (IREE finds iree-lld and the
// ROCm device bitcode beside it) and runs iree-compile, iree-opt,
// iree-run-module and iree-benchmark-module as child processes.
#pragma once

#include "core/util/Result.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::tools {

// Where to look, in this order: the command line, $TILESCOPE_IREE_DIR, the
// user's settings, the project-local prefix the set-up script fills, and an
// `iree.compiler` Python package installed on the machine.
struct IreeSearchOptions {
  std::optional<std::filesystem::path> commandLinePath;
  std::optional<std::filesystem::path> settingsPath;
  bool useEnvironment = true;
  bool usePythonPackages = true;
  // The running interpreter's sys.path (the Python package passes it):
  // searched first among Python packages, so a wheel uses the
  // iree-base-compiler of its own environment.
  std::vector<std::filesystem::path> pythonPaths;
  // Defaults to the prefix this build was configured with.
  std::vector<std::filesystem::path> projectPrefixes = defaultProjectPrefixes();

  static std::vector<std::filesystem::path> defaultProjectPrefixes();
};

// The tools Tilescope runs.
// The environment variable naming the IREE to use (a library, a build, an
// unpacked wheel).
inline constexpr const char *kIreeDirectoryVariable = "TILESCOPE_IREE_DIR";

inline constexpr const char *kIreeCompile = "iree-compile";
inline constexpr const char *kIreeOpt = "iree-opt";
inline constexpr const char *kIreeRunModule = "iree-run-module";
inline constexpr const char *kIreeBenchmarkModule = "iree-benchmark-module";
inline constexpr const char *kIreeDumpModule = "iree-dump-module";

struct IreeInstallation {
  std::filesystem::path compilerLibrary; // .../libIREECompiler.so
  std::string foundBy;                   // e.g. "$TILESCOPE_IREE_DIR"
  std::map<std::string, std::filesystem::path> tools; // name -> executable
  std::vector<std::string> missingTools;

  // The path of a tool, or an error naming where it was looked for.
  Result<std::filesystem::path> tool(const std::string &name) const;
};

// A path given by the user may be the library itself, the directory holding
// it (a wheel's _mlir_libs, an IREE build's lib/), or a prefix with
// iree/compiler/_mlir_libs below it (an unpacked wheel, a site-packages).
std::optional<std::filesystem::path>
compilerLibraryUnder(const std::filesystem::path &path);

// Finds the compiler library and the tools. The error lists every place tried.
Result<IreeInstallation> locateIree(const IreeSearchOptions &options = {});

// What a settings path for IREE gives, in words: the path must itself hold
// an IREE compiler library; then the installation the whole search finds
// with it (a command-line path or the environment still come first, and
// the answer says so). Empty `settingsPath`: what the search finds without.
Result<std::string> describeIreeSetting(
    const std::string &settingsPath,
    const std::optional<std::filesystem::path> &commandLinePath);

// Finds the tools for a given library: beside it, in the sibling runtime
// wheel (iree/_runtime_libs), in an IREE build's tools/ and bin/, then $PATH.
IreeInstallation
describeInstallation(const std::filesystem::path &compilerLibrary,
                     std::string foundBy);

} // namespace tilescope::tools
