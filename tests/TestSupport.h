// Shared helpers for Tilescope's tests: where the sources, the build and the
// project-local IREE are.
#pragma once

#include "core/iree/CompilerLibrary.h"
#include "core/tools/IreeInstallation.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <string>

namespace tilescope::test {

inline std::filesystem::path sourceDir() { return TILESCOPE_SOURCE_DIR; }
inline std::filesystem::path binaryDir() { return TILESCOPE_BINARY_DIR; }
inline std::filesystem::path examplesDir() { return sourceDir() / "examples"; }

// The project-local IREE the set-up script installs; tests use it and
// nothing else, so a stray $TILESCOPE_IREE_DIR cannot change what they test.
inline tools::IreeSearchOptions projectIreeOnly() {
  tools::IreeSearchOptions options;
  options.useEnvironment = false;
  options.usePythonPackages = false;
  options.projectPrefixes = {TILESCOPE_IREE_PREFIX};
  return options;
}

inline tools::IreeInstallation projectIree() {
  auto installation = tools::locateIree(projectIreeOnly());
  if (!installation)
    qFatal("%s", installation.error().c_str());
  return *installation;
}

inline std::shared_ptr<iree::CompilerLibrary> projectCompiler() {
  auto library = iree::CompilerLibrary::load(projectIree().compilerLibrary);
  if (!library)
    qFatal("%s", library.error().c_str());
  return *library;
}

inline std::string readFile(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
}

inline void writeFile(const std::filesystem::path &path,
                      const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Every committed benchmark file of one target folder.
inline std::vector<std::filesystem::path>
exampleBenchmarks(const std::string &targetFolder) {
  std::vector<std::filesystem::path> files;
  for (const auto &entry :
       std::filesystem::directory_iterator(examplesDir() / targetFolder))
    if (entry.path().string().ends_with(".benchmark.mlir"))
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace tilescope::test
