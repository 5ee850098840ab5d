// A child process that answers requests, a line in and a line out, and lives
// on between them. Tilescope's parse worker runs this way so that opening a
// file does not load IREE's compiler library again (DocumentWorker): the
// price of a separate process is paid once, not per open.
#pragma once

#include "core/process/Process.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <sys/types.h>

namespace tilescope::process {

class ServingProcess {
public:
  // Starts spec.program with pipes on its three streams (spec.timeout,
  // cancel and onOutput are per request here, not per process).
  static Result<std::unique_ptr<ServingProcess>> start(const ProcessSpec &spec);
  ~ServingProcess(); // stops it if it still runs
  ServingProcess(const ServingProcess &) = delete;
  ServingProcess &operator=(const ServingProcess &) = delete;

  struct Answer {
    bool answered = false; // a line came back; the process lives on
    std::string line;      // that line, without its newline
    // What it wrote on stderr while the request was open.
    std::string standardError;
    // Unless answered: how it ended (exited, killed by a signal, or timed
    // out or cancelled and stopped), with elapsed set.
    ProcessResult ending;
  };

  // Writes `request` and a newline to its stdin and waits for one line on
  // its stdout, at most `timeout`, stopping it when `cancel` is set.
  Answer ask(const std::string &request, std::chrono::milliseconds timeout,
             const std::atomic<bool> *cancel = nullptr);
  // The two halves of ask, for a caller with work to do meanwhile: tell
  // writes `request`, a newline and `payload` (bytes the request line says
  // the length of), waiting while the pipe is full at most `timeout` and
  // until `cancel` (false when the process is gone or was stopped; listen
  // then says how it ended), listen waits for the next line.
  bool tell(const std::string &request, const std::string &payload = {},
            std::chrono::milliseconds timeout = std::chrono::hours(24),
            const std::atomic<bool> *cancel = nullptr);
  Answer listen(std::chrono::milliseconds timeout,
                const std::atomic<bool> *cancel = nullptr);

  // Still running and able to answer.
  bool running();
  // How many requests it has answered.
  int answered() const { return answers; }
  // Stops it without waiting for it to end: for a caller about to exit,
  // whose parent (or init) reaps it. Waiting would cost the time the kernel
  // takes to free its memory (~10 ms for a worker holding a large module).
  void stopWithoutReaping();

private:
  ServingProcess() = default;
  Answer await(std::chrono::steady_clock::time_point start,
               std::chrono::milliseconds timeout,
               const std::atomic<bool> *cancel);
  // Reads what waits on its stderr into `into` (its tail kept); false once
  // the stream is closed.
  bool readStandardError(std::string &into);
  // Reads all that is waiting on its stderr, without waiting for more.
  void drainStandardError(std::string &into);
  void closeStreams();

  pid_t pid = -1;
  int input = -1, output = -1, error = -1;
  std::string pending; // stdout read past the last answer
  std::string told;    // stderr heard while a request was written
  // A request's write outlived its time or was cancelled: the process was
  // stopped, and listen says so.
  std::optional<ProcessResult::Outcome> stoppedWhileTelling;
  inline static const std::string newline = "\n";
  bool ended = false;
  int answers = 0;
};

} // namespace tilescope::process
