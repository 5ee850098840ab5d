#include "core/process/Workspace.h"

#include "core/util/Files.h"
#include "core/util/Hash.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace tilescope::process {

std::filesystem::path defaultWorkspace() {
  if (const char *path = std::getenv("TILESCOPE_WORKSPACE"); path && *path)
    return path;
  if (const char *data = std::getenv("XDG_DATA_HOME"); data && *data)
    return std::filesystem::path(data) / "tilescope";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".local/share/tilescope";
  return std::filesystem::temp_directory_path() / "tilescope";
}

namespace {

// A new, empty folder WORKSPACE/AREA/YYYYMMDD-HHMMSS-PID-N.
Result<std::filesystem::path> newFolderIn(const std::filesystem::path &tries) {
  std::error_code error;
  std::filesystem::create_directories(tries, error);
  if (error)
    return Error{"cannot create " + tries.string() + ": " + error.message()};
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  static std::atomic<int> counter{0};
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const std::filesystem::path directory =
        tries / (std::string(stamp) + "-" + std::to_string(::getpid()) + "-" +
                 std::to_string(counter++));
    if (::mkdir(directory.c_str(), 0755) == 0)
      return directory;
    if (errno != EEXIST)
      return Error{"cannot create " + directory.string() + ": " +
                   std::strerror(errno)};
  }
  return Error{"cannot find a free folder name under " + tries.string()};
}

} // namespace

Result<std::filesystem::path>
newTryDirectory(const std::filesystem::path &workspace) {
  return newFolderIn(workspace / "tries");
}

namespace {

// The input kept in `folder` before, where it holds `text`.
std::optional<std::filesystem::path>
keptBefore(const std::filesystem::path &folder, const std::string &text) {
  std::error_code error;
  for (const auto &entry : std::filesystem::directory_iterator(folder, error))
    if (auto kept = readTextFile(entry.path()); kept && *kept == text)
      return entry.path();
  return std::nullopt;
}

// Removes the least recently crashed kept inputs beyond `keep`.
void pruneCrashes(const std::filesystem::path &crashes, size_t keep) {
  std::error_code error;
  std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>>
      folders;
  for (const auto &entry : std::filesystem::directory_iterator(crashes, error))
    if (entry.is_directory(error))
      folders.emplace_back(entry.last_write_time(error), entry.path());
  if (folders.size() <= keep)
    return;
  std::sort(folders.begin(), folders.end());
  for (size_t i = 0; i + keep < folders.size(); ++i)
    std::filesystem::remove_all(folders[i].second, error);
}

} // namespace

Result<std::filesystem::path>
keepCrashReproducer(const std::filesystem::path &file,
                    const std::filesystem::path &workspace, size_t keep) {
  auto text = readTextFile(file);
  if (!text)
    return Error{"cannot keep " + file.string() + ": " + text.error()};
  const std::filesystem::path crashes = workspace / "crashes";
  const std::filesystem::path folder = crashes / Fnv1a().add(*text).hex();
  std::error_code error;
  if (std::filesystem::is_directory(folder, error))
    if (auto kept = keptBefore(folder, *text)) {
      // Crashed again: the most recent, for pruning.
      std::filesystem::last_write_time(
          folder, std::filesystem::file_time_type::clock::now(), error);
      return *kept;
    }
  std::filesystem::create_directories(folder, error);
  const std::filesystem::path kept = folder / file.filename();
  if (!error)
    std::filesystem::copy_file(
        file, kept, std::filesystem::copy_options::overwrite_existing, error);
  if (error)
    return Error{"cannot keep " + file.string() + " in " + folder.string() +
                 ": " + error.message()};
  pruneCrashes(crashes, keep);
  return kept;
}

} // namespace tilescope::process
