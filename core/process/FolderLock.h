// One process at a time in a folder: a tune's folder is written by the tune
// that owns it (its configured program, spec, bundle and checked runs), so a
// second tune of the same program on the same workspace is refused, naming
// the one that holds it. The lock is the kernel's (flock on FOLDER/.lock):
// it goes with its process, however that process ends, and leaves nothing
// stale behind.
#pragma once

#include "core/util/Result.h"

#include <filesystem>
#include <string>

namespace tilescope::process {

class FolderLock {
public:
  // Holds `folder` (which must exist) for this process, or says which
  // process holds it; `what` names the work in that message ("a tune of
  // this program").
  static Result<FolderLock> acquire(const std::filesystem::path &folder,
                                    const std::string &what);
  FolderLock(FolderLock &&other) noexcept;
  FolderLock &operator=(FolderLock &&other) noexcept;
  FolderLock(const FolderLock &) = delete;
  FolderLock &operator=(const FolderLock &) = delete;
  ~FolderLock();

private:
  explicit FolderLock(int fd) : fd(fd) {}
  int fd = -1;
};

} // namespace tilescope::process
