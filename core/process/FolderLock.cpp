#include "core/process/FolderLock.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace tilescope::process {

Result<FolderLock> FolderLock::acquire(const std::filesystem::path &folder,
                                       const std::string &what) {
  const std::filesystem::path file = folder / ".lock";
  const int fd =
      ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0)
    return Error{"cannot lock " + folder.string() + ": " +
                 std::strerror(errno)};
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int why = errno;
    // The holder wrote its process id and start; read what is there.
    char held[128] = {};
    const ssize_t n = ::pread(fd, held, sizeof held - 1, 0);
    ::close(fd);
    std::string holder(held, n > 0 ? static_cast<size_t>(n) : 0);
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' '))
      holder.pop_back();
    if (why != EWOULDBLOCK)
      return Error{"cannot lock " + folder.string() + ": " +
                   std::strerror(why)};
    return Error{
        what + " is running already in " + folder.string() +
        (holder.empty() ? std::string() : " (process " + holder + ")") +
        ": wait for it to finish, or give this one another "
        "--workspace"};
  }
  // Who holds it, for the message above.
  char text[96];
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
  const int length = std::snprintf(text, sizeof text, "%d, since %s\n",
                                   static_cast<int>(::getpid()), stamp);
  if (::ftruncate(fd, 0) == 0 && length > 0)
    (void)!::pwrite(fd, text, static_cast<size_t>(length), 0);
  return FolderLock(fd);
}

FolderLock::FolderLock(FolderLock &&other) noexcept : fd(other.fd) {
  other.fd = -1;
}

FolderLock &FolderLock::operator=(FolderLock &&other) noexcept {
  if (this != &other) {
    if (fd >= 0)
      ::close(fd);
    fd = other.fd;
    other.fd = -1;
  }
  return *this;
}

FolderLock::~FolderLock() {
  if (fd >= 0)
    ::close(fd); // releases the flock
}

} // namespace tilescope::process
