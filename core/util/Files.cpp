#include "core/util/Files.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tilescope {

namespace {

// What a path that is not a regular file is, in words ("a FIFO").
std::string kindOf(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a regular file";
}

} // namespace

Result<std::string> readTextFile(const fs::path &path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    return Error{path.string() + ": no such file"};
  if (fs::is_directory(path, ec))
    return Error{path.string() + ": is a directory, not a file"};
  // A FIFO would block the open and a device read without end (/dev/zero):
  // only regular files are read, links followed.
  if (struct stat st{}; ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return Error{path.string() + ": is " + kindOf(st.st_mode) +
                 ", not a regular file"};
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error{path.string() +
                 ": cannot open for reading: " + std::strerror(errno)};
  // Read in blocks, not a character at a time: 8 MB in 2 ms, not 15.
  std::string text;
  const std::uintmax_t expected = fs::file_size(path, ec);
  if (!ec)
    text.reserve(static_cast<size_t>(expected));
  char block[1 << 16];
  while (in.read(block, sizeof(block)) || in.gcount() > 0)
    text.append(block, static_cast<size_t>(in.gcount()));
  if (in.bad())
    return Error{path.string() + ": read failed"};
  return text;
}

namespace {

// The partial copies earlier writes of `path` left behind when their
// process was killed between writing and renaming (".NAME.tilescope-PID-
// XXXXXX", PID gone): removed before the next write of the same file.
void removeStalePartialCopies(const fs::path &directory,
                              const std::string &name) {
  const std::string prefix = "." + name + ".tilescope-";
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    if (entry.rfind(prefix, 0) != 0)
      continue;
    const std::string_view rest = std::string_view(entry).substr(prefix.size());
    if (!processGone(rest.substr(0, rest.find('-'))))
      continue;
    std::error_code removing;
    fs::remove(it->path(), removing);
  }
}

} // namespace

Result<bool> writeFileAtomically(const fs::path &requested,
                                 const std::string &text) {
  // A link is written through, as editors do: its target changes and the
  // link stays. A target that exists and is not a regular file (a device,
  // a FIFO) is refused: renaming a copy onto it would replace it.
  fs::path path = requested;
  std::error_code ec;
  for (int hops = 0; fs::is_symlink(fs::symlink_status(path, ec)); ++hops) {
    fs::path next = fs::read_symlink(path, ec);
    if (ec || hops == 40)
      return Error{"cannot write " + requested.string() +
                   (ec ? ": cannot read the link: " + ec.message()
                       : std::string(": too many levels of links"))};
    path = next.is_absolute() ? next : path.parent_path() / next;
  }
  if (struct stat st{}; ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return Error{"cannot write " + requested.string() + ": it is " +
                 kindOf(st.st_mode) +
                 ", not a regular file; Tilescope writes over regular files "
                 "only"};
  const fs::path directory =
      path.has_parent_path() ? path.parent_path() : fs::path(".");
  removeStalePartialCopies(directory, path.filename().string());
  // The writer's process id in the name: a copy whose writer was killed
  // before the rename is known for what it is.
  std::string pattern =
      (directory / ("." + path.filename().string() + ".tilescope-" +
                    std::to_string(::getpid()) + "-XXXXXX"))
          .string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0)
    return Error{"cannot write " + path.string() +
                 ": cannot create a file in " + directory.string() + ": " +
                 std::strerror(errno)};
  auto fail = [&](const std::string &what) -> Result<bool> {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    ::unlink(pattern.c_str());
    return Error{"cannot write " + path.string() + ": " + what + ": " + reason};
  };
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return fail("write failed");
    }
    written += static_cast<size_t>(n);
  }
  struct stat old {};
  if (::stat(path.c_str(), &old) == 0)
    ::fchmod(fd, old.st_mode & 07777);
  else
    ::fchmod(fd, 0644);
  if (::fsync(fd) != 0)
    return fail("flush to disk failed");
  if (::close(fd) != 0) {
    ::unlink(pattern.c_str());
    return Error{"cannot write " + path.string() + ": close failed"};
  }
  if (::rename(pattern.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(pattern.c_str());
    return Error{"cannot write " + path.string() +
                 ": rename failed: " + reason};
  }
  // Make the rename itself durable.
  if (const int dirFd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY);
      dirFd >= 0) {
    ::fsync(dirFd);
    ::close(dirFd);
  }
  return true;
}

Result<TemporaryDirectory> TemporaryDirectory::create(const std::string &prefix,
                                                      const fs::path &parent) {
  std::error_code ec;
  fs::path base = parent.empty() ? fs::temp_directory_path(ec) : parent;
  if (ec)
    base = "/tmp";
  fs::create_directories(base, ec);
  // The creator's process id in the name: a folder whose process is gone
  // (killed before it could clean up) is removed by the next Tilescope to
  // start (removeStaleTemporaryDirectories).
  std::string pattern =
      (base / (prefix + "-" + std::to_string(::getpid()) + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    return Error{"cannot create a temporary directory in " + base.string() +
                 ": " + std::strerror(errno)};
  TemporaryDirectory directory;
  directory.directory = pattern;
  return directory;
}

TemporaryDirectory::TemporaryDirectory(TemporaryDirectory &&other) noexcept
    : directory(std::move(other.directory)), kept(other.kept) {
  other.directory.clear();
}

TemporaryDirectory &
TemporaryDirectory::operator=(TemporaryDirectory &&other) noexcept {
  if (this != &other) {
    if (!directory.empty() && !kept) {
      std::error_code ec;
      fs::remove_all(directory, ec);
    }
    directory = std::move(other.directory);
    kept = other.kept;
    other.directory.clear();
  }
  return *this;
}

TemporaryDirectory::~TemporaryDirectory() {
  if (!directory.empty() && !kept) {
    std::error_code ec;
    fs::remove_all(directory, ec);
  }
}

bool processGone(std::string_view digits) {
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string_view::npos)
    return false;
  const pid_t pid = static_cast<pid_t>(std::stol(std::string(digits)));
  return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
}

size_t removeStaleTemporaryDirectories(const fs::path &parent) {
  std::error_code ec;
  const fs::path base = parent.empty() ? fs::temp_directory_path(ec) : parent;
  if (ec)
    return 0;
  size_t removed = 0;
  for (auto it = fs::directory_iterator(base, ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    // "tilescope-WHAT-PID-XXXXXX"
    if (name.rfind("tilescope-", 0) != 0 || name.size() < 19 ||
        name[name.size() - 7] != '-' || !it->is_directory(ec))
      continue;
    const std::string_view head =
        std::string_view(name).substr(0, name.size() - 7);
    const size_t dash = head.rfind('-');
    if (dash == std::string_view::npos || !processGone(head.substr(dash + 1)))
      continue; // its process lives (or may: not ours to judge)
    std::error_code removing;
    if (fs::remove_all(it->path(), removing) > 0 && !removing)
      ++removed;
  }
  return removed;
}

} // namespace tilescope
