#include "core/process/Workspace.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sys/stat.h>
#include <unistd.h>

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

Result<std::filesystem::path>
keepCrashReproducer(const std::filesystem::path &file) {
  auto folder = newFolderIn(defaultWorkspace() / "crashes");
  if (!folder)
    return Error{folder.error()};
  const std::filesystem::path kept = *folder / file.filename();
  std::error_code error;
  std::filesystem::copy_file(file, kept, error);
  if (error)
    return Error{"cannot keep " + file.string() + " in " + folder->string() +
                 ": " + error.message()};
  return kept;
}

} // namespace tilescope::process
