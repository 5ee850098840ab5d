#include "core/process/Process.h"
#include "core/process/Spawn.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace tilescope::process {
namespace {

using Clock = std::chrono::steady_clock;

// The signal that interrupted every job of this process, or 0.
std::atomic<int> interruptSignal{0};
static_assert(std::atomic<int>::is_always_lock_free,
              "interruptJobs is called from signal handlers");

bool stopAsked(const ProcessSpec &spec) {
  return (spec.cancel && spec.cancel->load()) || interruptSignal.load() != 0;
}

std::vector<std::string>
mergedEnvironment(const std::map<std::string, std::string> &additions) {
  std::vector<std::string> merged;
  for (char **entry = environ; entry && *entry; ++entry) {
    std::string text = *entry;
    const std::string key = text.substr(0, text.find('='));
    if (!additions.count(key))
      merged.push_back(std::move(text));
  }
  for (const auto &[key, value] : additions)
    merged.push_back(key + "=" + value);
  return merged;
}

std::vector<char *> pointers(std::vector<std::string> &strings) {
  std::vector<char *> result;
  for (std::string &s : strings)
    result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

// The CPU time of `pid` in clock ticks: its threads' and its finished
// children's (/proc/PID/stat utime, stime, cutime, cstime); nullopt where
// /proc cannot tell.
std::optional<unsigned long long> cpuTicks(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(file, stat))
    return std::nullopt;
  const size_t close = stat.rfind(')'); // the name may hold spaces
  if (close == std::string::npos)
    return std::nullopt;
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  unsigned long long ticks = 0;
  // Fields 3 to 17 follow the name; 14 to 17 are the times.
  for (int index = 3; index <= 17 && fields >> field; ++index)
    if (index >= 14)
      ticks += std::strtoull(field.c_str(), nullptr, 10);
  return ticks;
}

// Whether a thread of `pid` has a child alive (/proc/PID/task/*/children).
bool hasLiveChild(pid_t pid) {
  std::error_code error;
  for (const auto &task : std::filesystem::directory_iterator(
           "/proc/" + std::to_string(pid) + "/task", error)) {
    std::ifstream children(task.path() / "children");
    std::string first;
    if (children >> first)
      return true;
  }
  return false;
}

// ProcessSpec::stallTimeout: samples the process once a second and says
// when it has done nothing for the window. A sample that sees work (CPU
// used, a child alive) says only that the work went on until some time
// before the next sample, so the idle time is counted from the first
// sample that sees none: counted from the last busy sample, a parent whose
// child had just ended (a shell's `sleep 3; exit 0`, a compile driver
// whose last tool just returned) was called hung on a loaded machine when
// that sample came a little late.
class StallWatch {
public:
  StallWatch(pid_t pid, std::optional<std::chrono::milliseconds> window,
             Clock::time_point start)
      : pid_(pid), window_(window), lastSample_(start) {}

  bool stalled(Clock::time_point now) {
    if (!window_ || now - lastSample_ < std::chrono::seconds(1))
      return false;
    lastSample_ = now;
    const std::optional<unsigned long long> ticks = cpuTicks(pid_);
    if (!ticks || *ticks != ticks_ || hasLiveChild(pid_)) {
      ticks_ = ticks.value_or(0);
      idleSince_.reset();
      return false;
    }
    if (!idleSince_)
      idleSince_ = now;
    return now - *idleSince_ >= *window_;
  }

private:
  pid_t pid_;
  std::optional<std::chrono::milliseconds> window_;
  Clock::time_point lastSample_;
  std::optional<Clock::time_point> idleSince_;
  unsigned long long ticks_ = 0;
};

} // namespace

std::string shellQuote(const std::string &word) {
  if (!word.empty() &&
      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
                             "WXYZ0123456789_-+=/.,:@%") == std::string::npos)
    return word;
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'')
      quoted += "'\\''";
    else
      quoted += c;
  }
  return quoted + "'";
}

std::string ProcessSpec::shellCommand() const {
  std::string command;
  if (workingDirectory)
    command += "cd " + shellQuote(workingDirectory->string()) + " && ";
  for (const auto &[key, value] : environment)
    command += key + "=" + shellQuote(value) + " ";
  command += shellQuote(program.string());
  for (const std::string &argument : arguments)
    command += " " + shellQuote(argument);
  return command;
}

std::string ProcessResult::describe() const {
  switch (outcome) {
  case Outcome::Exited:
    return "exited with " + std::to_string(exitCode);
  case Outcome::Signaled:
    return "killed by signal " + std::to_string(signal) + " (" +
           ::strsignal(signal) + ")";
  case Outcome::TimedOut:
    if (stalled)
      return "hung: it used no CPU for " +
             std::to_string(
                 std::chrono::duration_cast<std::chrono::seconds>(stallWindow)
                     .count()) +
             " s, and was stopped after " +
             std::to_string(
                 std::chrono::duration_cast<std::chrono::seconds>(elapsed)
                     .count()) +
             " s";
    return "timed out after " +
           std::to_string(
               std::chrono::duration_cast<std::chrono::seconds>(elapsed)
                   .count()) +
           " s and was stopped";
  case Outcome::Cancelled:
    return "was cancelled";
  case Outcome::FailedToStart:
    return "could not start: " + startError;
  }
  return "unknown";
}

namespace detail {

bool Pipe::open() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return false;
  read = fds[0];
  write = fds[1];
  return true;
}

void Pipe::closeRead() {
  if (read >= 0)
    ::close(read);
  read = -1;
}

void Pipe::closeWrite() {
  if (write >= 0)
    ::close(write);
  write = -1;
}

Result<pid_t> spawnProcess(const ProcessSpec &spec, int standardInput,
                           int standardOutput, int standardError) {
  // Everything the child needs is made before the fork: between fork and
  // exec it may only make async-signal-safe calls.
  std::vector<std::string> argv = {spec.program.string()};
  argv.insert(argv.end(), spec.arguments.begin(), spec.arguments.end());
  std::vector<std::string> envp = mergedEnvironment(spec.environment);
  std::vector<char *> argvPointers = pointers(argv);
  std::vector<char *> envpPointers = pointers(envp);
  const char *directory =
      spec.workingDirectory ? spec.workingDirectory->c_str() : nullptr;
  const char *program = spec.program.c_str();
  const pid_t parent = ::getpid();
  Pipe failure; // the child writes errno here when exec fails
  if (!failure.open())
    return Error{std::string("pipe: ") + std::strerror(errno)};

  const pid_t pid = ::fork();
  if (pid < 0)
    return Error{spec.program.string() + ": fork: " + std::strerror(errno)};
  if (pid == 0) {
    // Its own process group, so a timeout or a cancel stops its children
    // too; and, unless it serves requests, gone with the thread that
    // started it (the parent's SIGKILL included), as nothing else would
    // stop it.
    ::setpgid(0, 0);
    if (spec.dieWithParent) {
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (::getppid() != parent)
        ::_exit(127); // the parent died before the line above
    }
    int in = standardInput;
    if (in < 0)
      in = ::open("/dev/null", O_RDONLY);
    ::dup2(in, STDIN_FILENO);
    ::dup2(standardOutput, STDOUT_FILENO);
    ::dup2(standardError, STDERR_FILENO);
    int error = 0;
    if (directory && ::chdir(directory) != 0)
      error = errno;
    if (error == 0) {
      ::execve(program, argvPointers.data(), envpPointers.data());
      error = errno;
    }
    ssize_t ignored = ::write(failure.write, &error, sizeof error);
    (void)ignored;
    ::_exit(127);
  }
  // The exec closes the child's copy of the pipe (close-on-exec): reading
  // nothing means it ran.
  failure.closeWrite();
  int error = 0;
  ssize_t n;
  do
    n = ::read(failure.read, &error, sizeof error);
  while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof error)) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return Error{spec.program.string() + ": " + std::strerror(error)};
  }
  return pid;
}

int stopProcessGroup(pid_t pid) {
  int status = 0;
  ::kill(-pid, SIGTERM);
  for (int i = 0; i < 20; ++i) {
    if (::waitpid(pid, &status, WNOHANG) == pid)
      return status;
    ::usleep(50'000);
  }
  ::kill(-pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return status;
}

void setEnding(ProcessResult &result, int waitStatus) {
  if (WIFEXITED(waitStatus)) {
    result.outcome = ProcessResult::Outcome::Exited;
    result.exitCode = WEXITSTATUS(waitStatus);
  } else if (WIFSIGNALED(waitStatus)) {
    result.outcome = ProcessResult::Outcome::Signaled;
    result.signal = WTERMSIG(waitStatus);
  }
}

} // namespace detail

void interruptJobs(int signal) { interruptSignal.store(signal); }
int jobsInterruptedBy() { return interruptSignal.load(); }
bool stopRequested(const std::atomic<bool> *cancel) {
  return (cancel && cancel->load()) || interruptSignal.load() != 0;
}

namespace {

ProcessResult runOnce(const ProcessSpec &spec) {
  ProcessResult result;
  detail::Pipe out, err;
  if (!out.open() || !err.open()) {
    result.startError = std::string("pipe: ") + std::strerror(errno);
    return result;
  }

  const Clock::time_point start = Clock::now();
  const Result<pid_t> spawned =
      detail::spawnProcess(spec, -1, out.write, err.write);
  out.closeWrite();
  err.closeWrite();
  if (!spawned) {
    result.startError = spawned.error();
    return result;
  }
  const pid_t pid = *spawned;

  struct Stream {
    int fd;
    std::string *text;
    bool isError;
    bool open = true;
  };
  Stream streams[2] = {{out.read, &result.standardOutput, false},
                       {err.read, &result.standardError, true}};
  bool stopped = false;
  StallWatch watch(pid, spec.stallTimeout, start);
  auto outOfTime = [&] {
    const Clock::time_point now = Clock::now();
    if (watch.stalled(now)) {
      result.stalled = true;
      result.stallWindow = *spec.stallTimeout;
      return true;
    }
    return now - start > spec.timeout;
  };
  char buffer[65536];
  while (streams[0].open || streams[1].open) {
    if (stopAsked(spec)) {
      detail::stopProcessGroup(pid);
      result.outcome = ProcessResult::Outcome::Cancelled;
      stopped = true;
      break;
    }
    if (outOfTime()) {
      detail::stopProcessGroup(pid);
      result.outcome = ProcessResult::Outcome::TimedOut;
      stopped = true;
      break;
    }
    pollfd fds[2];
    nfds_t count = 0;
    Stream *polled[2];
    for (Stream &stream : streams) {
      if (!stream.open)
        continue;
      fds[count] = {stream.fd, POLLIN, 0};
      polled[count++] = &stream;
    }
    const int ready = ::poll(fds, count, 100);
    if (ready < 0 && errno != EINTR)
      break;
    for (nfds_t i = 0; ready > 0 && i < count; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof(buffer));
      if (n <= 0) {
        polled[i]->open = false;
        continue;
      }
      if (spec.onOutput)
        spec.onOutput(std::string_view(buffer, static_cast<size_t>(n)),
                      polled[i]->isError);
      std::string &text = *polled[i]->text;
      if (text.size() < spec.maximumOutputBytes)
        text.append(buffer,
                    std::min<size_t>(static_cast<size_t>(n),
                                     spec.maximumOutputBytes - text.size()));
    }
  }

  int status = 0;
  if (!stopped) {
    // Output closed; wait for the exit itself, still honouring the timeout.
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      if (stopAsked(spec) || outOfTime()) {
        detail::stopProcessGroup(pid);
        result.outcome = stopAsked(spec) ? ProcessResult::Outcome::Cancelled
                                         : ProcessResult::Outcome::TimedOut;
        stopped = true;
        break;
      }
      ::usleep(1'000);
    }
  }
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      Clock::now() - start);
  if (!stopped)
    detail::setEnding(result, status);
  return result;
}

} // namespace

ProcessResult runProcess(const ProcessSpec &spec) {
  ProcessResult result = runOnce(spec);
  for (int again = 0;
       result.stalled && again < spec.stallRetries && !stopAsked(spec);
       ++again) {
    const int stalledRuns = result.stalledRuns + 1;
    result = runOnce(spec);
    result.stalledRuns = stalledRuns;
  }
  return result;
}

} // namespace tilescope::process
