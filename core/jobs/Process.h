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

namespace tilescope::jobs {

struct ProcessSpec {
  std::filesystem::path program;
  std::vector<std::string> arguments;
  std::optional<std::filesystem::path> workingDirectory;
  std::map<std::string, std::string> environment; // added to the parent's
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  // Set from another thread to stop the process early.
  const std::atomic<bool> *cancel = nullptr;
  // Output past this many bytes per stream is dropped (and noted).
  size_t maximumOutputBytes = 64u << 20;
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

  bool succeeded() const { return outcome == Outcome::Exited && exitCode == 0; }
  // "exited with 1", "killed by signal 11 (Segmentation fault)", "timed out
  // after 30 s", ...
  std::string describe() const;
};

ProcessResult runProcess(const ProcessSpec &spec);

// Quotes one word for a POSIX shell.
std::string shellQuote(const std::string &word);

} // namespace tilescope::jobs
