// Files the core reads and writes: whole-file reads that say why they fail,
// atomic writes (a crash mid-write leaves the old file), and temporary
// directories that clean up after themselves.
#pragma once

#include "core/util/Result.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace tilescope {

// The whole of a regular file (links followed), or an error naming the path
// and the reason; a FIFO, a device or a folder is refused before it is
// opened (one would block the open, another never end).
Result<std::string> readTextFile(const std::filesystem::path &path);

// Writes `text` to a new file beside `path`, flushes it to disk and renames
// it over `path`: readers see the old file or the new one, never a part. The
// file keeps the old file's permissions when it replaces one. A symbolic
// link is written through (its target changes, the link stays); a path
// that exists and is not a regular file (a device, a FIFO, a folder) is
// refused, never replaced.
Result<bool> writeFileAtomically(const std::filesystem::path &path,
                                 const std::string &text);

// A fresh directory under the system's temporary directory (or `parent`),
// removed with everything in it when the object goes away, unless kept.
class TemporaryDirectory {
public:
  static Result<TemporaryDirectory>
  create(const std::string &prefix = "tilescope",
         const std::filesystem::path &parent = {});
  TemporaryDirectory(TemporaryDirectory &&other) noexcept;
  TemporaryDirectory &operator=(TemporaryDirectory &&other) noexcept;
  TemporaryDirectory(const TemporaryDirectory &) = delete;
  TemporaryDirectory &operator=(const TemporaryDirectory &) = delete;
  ~TemporaryDirectory();

  const std::filesystem::path &path() const { return directory; }
  std::filesystem::path file(const std::string &name) const {
    return directory / name;
  }
  // Leaves the directory on disk (a job's artifacts, a reproducer).
  void keep() { kept = true; }

private:
  TemporaryDirectory() = default;
  std::filesystem::path directory;
  bool kept = false;
};

// Whether the process whose id is `digits` (as a file or folder name holds
// it) is gone: false for text that is no process id, and for a process that
// lives or may (one not ours to signal). What Tilescope names with its
// process id (temporary folders, partial copies of a file being written,
// try folders) is removed only once this holds.
bool processGone(std::string_view digits);

// Removes the temporary folders of Tilescope processes that are gone (a
// kill leaves them: "tilescope-parse-4242-Ab3xYz" of a dead 4242) from
// `parent` (default: the system's temporary folder). Returns how many.
// Tilescope's programs call it when they start.
size_t
removeStaleTemporaryDirectories(const std::filesystem::path &parent = {});

} // namespace tilescope
