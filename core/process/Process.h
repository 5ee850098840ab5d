// Runs a program as a child process: the compiler and the kernels run outside
// Tilescope's own process, so a crash or a hang never takes the GUI (or the
// user's unsaved edits) with it.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::process {

struct ProcessSpec {
  std::filesystem::path program;
  std::vector<std::string> arguments;
  std::optional<std::filesystem::path> workingDirectory;
  std::map<std::string, std::string> environment; // added to the parent's
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  // Set: the process is stopped as hung (TimedOut, `stalled`) when for
  // this long it has used no CPU (its threads' and its finished
  // children's) and no child of it lives. For tools that compute from
  // start to end (iree-compile), never for ones that wait on a device or
  // a remote machine.
  std::optional<std::chrono::milliseconds> stallTimeout;
  // A run stopped as hung is started again this many times (a deadlock
  // that strikes now and then, not every run).
  int stallRetries = 0;
  // Set from another thread to stop the process early.
  const std::atomic<bool> *cancel = nullptr;
  // Output past this many bytes per stream is dropped (and noted).
  size_t maximumOutputBytes = 64u << 20;
  // The child gets SIGTERM when the thread that started it ends, the
  // parent's SIGKILL included (PR_SET_PDEATHSIG): a compile never outlives
  // the Tilescope that asked for it. Off for processes that serve requests
  // across threads (they end when their stdin closes).
  bool dieWithParent = true;
  // Told each piece of output as it arrives (on the calling thread), for
  // live output: `fromStandardError` says which stream.
  std::function<void(std::string_view text, bool fromStandardError)> onOutput;

  // The exact shell command that reproduces this run.
  std::string shellCommand() const;
};

struct ProcessResult {
  enum class Outcome { Exited, Signaled, TimedOut, Cancelled, FailedToStart };
  Outcome outcome = Outcome::FailedToStart;
  int exitCode = -1; // when Exited
  int signal = 0;    // when Signaled
  std::string standardOutput;
  std::string standardError;
  std::chrono::milliseconds elapsed{0};
  std::string startError; // when FailedToStart
  bool stalled = false;   // TimedOut by ProcessSpec::stallTimeout
  std::chrono::milliseconds stallWindow{0}; // that timeout, when stalled
  // Runs of the same spec stopped as hung before this one
  // (ProcessSpec::stallRetries).
  int stalledRuns = 0;

  bool succeeded() const { return outcome == Outcome::Exited && exitCode == 0; }
  // "exited with 1", "killed by signal 11 (Segmentation fault)", "timed out
  // after 30 s and was stopped", "hung: it used no CPU for 60 s, and was
  // stopped after 75 s", ...
  std::string describe() const;
};

ProcessResult runProcess(const ProcessSpec &spec);

// A stop for every job of this process at once: the command line's SIGINT,
// SIGTERM and SIGHUP handlers call interruptJobs (async-signal-safe), and
// every running child is stopped as a cancel stops it, every later one
// before it starts its work. jobsInterruptedBy says by which signal (0:
// none); stopRequested is a job's cancel flag or that.
void interruptJobs(int signal);
int jobsInterruptedBy();
bool stopRequested(const std::atomic<bool> *cancel);

// Quotes one word for a POSIX shell.
std::string shellQuote(const std::string &word);

} // namespace tilescope::process
