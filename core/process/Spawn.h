// What Process and ServingProcess share: close-on-exec pipes, starting a
// program in its own process group, and stopping that group.
#pragma once

#include "core/process/Process.h"
#include "core/util/Result.h"

#include <sys/types.h>

namespace tilescope::process::detail {

struct Pipe {
  int read = -1;
  int write = -1;
  Pipe() = default;
  Pipe(const Pipe &) = delete;
  Pipe &operator=(const Pipe &) = delete;
  ~Pipe() { closeBoth(); }
  bool open(); // both ends close-on-exec
  void closeRead();
  void closeWrite();
  void closeBoth() {
    closeRead();
    closeWrite();
  }
};

// Starts spec.program (arguments, working directory, environment) in its own
// process group, with `standardInput` (-1: /dev/null), `standardOutput` and
// `standardError` as its streams. The Error says why it could not start.
Result<pid_t> spawnProcess(const ProcessSpec &spec, int standardInput,
                           int standardOutput, int standardError);

// Stops the whole process group (the program and anything it spawned):
// SIGTERM, a second to go, then SIGKILL; reaps `pid`. The wait status.
int stopProcessGroup(pid_t pid);

// Fills `result` (outcome, exit code or signal) from a wait status.
void setEnding(ProcessResult &result, int waitStatus);

} // namespace tilescope::process::detail
