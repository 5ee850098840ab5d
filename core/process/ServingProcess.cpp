#include "core/process/ServingProcess.h"

#include "core/process/Spawn.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tilescope::process {
namespace {

using Clock = std::chrono::steady_clock;

// Standard error kept per request: its tail, where a crash's last words are.
constexpr size_t kKeptStandardError = 1u << 20;

void keepTail(std::string &text) {
  if (text.size() > 2 * kKeptStandardError)
    text.erase(0, text.size() - kKeptStandardError);
}

// SIGPIPE held back for this thread while it writes, so that a dead child
// is an answer, not the end of the caller; the one a write raised is taken
// before it is let through again.
class PipeSignalHeld {
public:
  PipeSignalHeld() {
    sigemptyset(&pipeSignal);
    sigaddset(&pipeSignal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous);
  }
  ~PipeSignalHeld() {
    if (broken) {
      const timespec now{0, 0};
      sigtimedwait(&pipeSignal, nullptr, &now);
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  }
  bool broken = false;

private:
  sigset_t pipeSignal, previous;
};

} // namespace

Result<std::unique_ptr<ServingProcess>>
ServingProcess::start(const ProcessSpec &spec) {
  detail::Pipe in, out, err;
  if (!in.open() || !out.open() || !err.open())
    return Error{std::string("pipe: ") + std::strerror(errno)};
  // A serving process outlives the thread that started it; it ends when its
  // stdin closes, which the parent's death does too.
  ProcessSpec serving = spec;
  serving.dieWithParent = false;
  auto spawned = detail::spawnProcess(serving, in.read, out.write, err.write);
  if (!spawned)
    return Error{spawned.error()};
  std::unique_ptr<ServingProcess> process(new ServingProcess());
  process->pid = *spawned;
  // The child's ends close here; ours pass to the process.
  in.closeRead();
  out.closeWrite();
  err.closeWrite();
  std::swap(process->input, in.write);
  // Writes wait in poll, not in write: a request's payload larger than
  // the pipe holds is written as the child reads it, within the request's
  // time and cancel.
  ::fcntl(process->input, F_SETFL,
          ::fcntl(process->input, F_GETFL) | O_NONBLOCK);
  std::swap(process->output, out.read);
  std::swap(process->error, err.read);
  return process;
}

ServingProcess::~ServingProcess() {
  if (!ended && pid > 0) {
    // It holds nothing worth a goodbye: stop it at once.
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
  closeStreams();
}

void ServingProcess::stopWithoutReaping() {
  if (!ended && pid > 0)
    ::kill(-pid, SIGKILL);
  ended = true;
  closeStreams();
}

void ServingProcess::closeStreams() {
  for (int *fd : {&input, &output, &error})
    if (*fd >= 0) {
      ::close(*fd);
      *fd = -1;
    }
}

bool ServingProcess::running() {
  if (ended)
    return false;
  int status = 0;
  if (::waitpid(pid, &status, WNOHANG) == pid) {
    ended = true;
    closeStreams();
  }
  return !ended;
}

ServingProcess::Answer ServingProcess::ask(const std::string &request,
                                           std::chrono::milliseconds timeout,
                                           const std::atomic<bool> *cancel) {
  const Clock::time_point start = Clock::now();
  // A write to a child that is gone fails; what it said, and how it ended,
  // is then read below.
  tell(request, {}, timeout, cancel);
  return await(start, timeout, cancel);
}

bool ServingProcess::tell(const std::string &request,
                          const std::string &payload,
                          std::chrono::milliseconds timeout,
                          const std::atomic<bool> *cancel) {
  // What it said after its last answer is not this request's.
  std::string earlier;
  drainStandardError(earlier);
  told.clear();
  if (ended)
    return false;
  const Clock::time_point start = Clock::now();
  PipeSignalHeld held;
  for (const std::string *part : {&request, &newline, &payload}) {
    size_t written = 0;
    while (written < part->size()) {
      const ssize_t n =
          ::write(input, part->data() + written, part->size() - written);
      if (n > 0) {
        written += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR)
        continue;
      if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
        held.broken = errno == EPIPE;
        return false; // gone: listen says how it ended
      }
      // The pipe is full: wait for the child to read, hearing what it says
      // meanwhile (a child blocked on a full stderr never reads).
      const bool stop = stopRequested(cancel);
      if (stop || Clock::now() - start > timeout) {
        stoppedWhileTelling = stop ? ProcessResult::Outcome::Cancelled
                                   : ProcessResult::Outcome::TimedOut;
        detail::stopProcessGroup(pid);
        return false;
      }
      pollfd fds[2] = {{input, POLLOUT, 0}, {error, POLLIN, 0}};
      if (::poll(fds, 2, 100) > 0 &&
          (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
        drainStandardError(told);
    }
  }
  return true;
}

ServingProcess::Answer ServingProcess::listen(std::chrono::milliseconds timeout,
                                              const std::atomic<bool> *cancel) {
  return await(Clock::now(), timeout, cancel);
}

bool ServingProcess::readStandardError(std::string &into) {
  char buffer[65536];
  const ssize_t n = ::read(error, buffer, sizeof(buffer));
  if (n <= 0)
    return false;
  into.append(buffer, static_cast<size_t>(n));
  keepTail(into);
  return true;
}

void ServingProcess::drainStandardError(std::string &into) {
  for (;;) {
    pollfd fd{error, POLLIN, 0};
    if (error < 0 || ::poll(&fd, 1, 0) <= 0 ||
        !(fd.revents & (POLLIN | POLLHUP | POLLERR)) ||
        !readStandardError(into))
      return;
  }
}

ServingProcess::Answer ServingProcess::await(Clock::time_point start,
                                             std::chrono::milliseconds timeout,
                                             const std::atomic<bool> *cancel) {
  Answer answer;
  auto finish = [&](ProcessResult::Outcome outcome, int status) {
    answer.ending.elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() -
                                                              start);
    answer.ending.outcome = outcome;
    if (outcome == ProcessResult::Outcome::Exited)
      detail::setEnding(answer.ending, status);
    answer.ending.standardError = answer.standardError;
    ended = true;
    closeStreams();
    return answer;
  };
  answer.standardError = std::move(told);
  told.clear();
  if (stoppedWhileTelling) {
    const ProcessResult::Outcome outcome = *stoppedWhileTelling;
    stoppedWhileTelling.reset();
    return finish(outcome, 0);
  }
  if (ended) {
    answer.ending.outcome = ProcessResult::Outcome::FailedToStart;
    answer.ending.startError = "it had already ended";
    return answer;
  }

  size_t searched = 0;
  bool outputOpen = true, errorOpen = true;
  while (outputOpen) {
    if (const size_t newline = pending.find('\n', searched);
        newline != std::string::npos) {
      answer.answered = true;
      answer.line = pending.substr(0, newline);
      pending.erase(0, newline + 1);
      // It wrote its stderr before this line: all of it is in the pipe.
      drainStandardError(answer.standardError);
      ++answers;
      return answer;
    }
    searched = pending.size();
    if (stopRequested(cancel))
      return finish(ProcessResult::Outcome::Cancelled,
                    detail::stopProcessGroup(pid));
    const auto left = timeout - (Clock::now() - start);
    if (left <= Clock::duration::zero())
      return finish(ProcessResult::Outcome::TimedOut,
                    detail::stopProcessGroup(pid));
    pollfd fds[2] = {{output, POLLIN, 0}, {errorOpen ? error : -1, POLLIN, 0}};
    const int wait = static_cast<int>(std::min<long long>(
        100,
        std::chrono::duration_cast<std::chrono::milliseconds>(left).count() +
            1));
    const int ready = ::poll(fds, 2, wait);
    if (ready < 0 && errno != EINTR)
      break;
    if (ready <= 0)
      continue;
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR))
      errorOpen = readStandardError(answer.standardError);
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buffer[65536];
      const ssize_t n = ::read(output, buffer, sizeof(buffer));
      if (n <= 0)
        outputOpen = false;
      else
        pending.append(buffer, static_cast<size_t>(n));
    }
  }

  // Its stdout closed without an answer: it is ending. Read its last words
  // and how it ended, still within the time allowed.
  while (errorOpen) {
    pollfd fd{error, POLLIN, 0};
    if (::poll(&fd, 1, 100) <= 0) {
      if (Clock::now() - start > timeout)
        break;
      continue;
    }
    errorOpen = readStandardError(answer.standardError);
  }
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (Clock::now() - start > timeout)
      return finish(ProcessResult::Outcome::TimedOut,
                    detail::stopProcessGroup(pid));
    if (stopRequested(cancel))
      return finish(ProcessResult::Outcome::Cancelled,
                    detail::stopProcessGroup(pid));
    ::usleep(1'000);
  }
  return finish(ProcessResult::Outcome::Exited, status);
}

} // namespace tilescope::process
