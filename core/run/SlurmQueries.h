// Asking Slurm about jobs, with its own client commands (squeue, sacct,
// scontrol) as a user would: what SlurmRun.cpp polls a job array with.
#pragma once

#include "core/process/Process.h"
#include "core/util/Result.h"

#include <map>
#include <string>
#include <vector>

namespace tilescope::run::slurm {

// `text` without its trailing blanks and line breaks.
std::string trimmed(std::string text);

// Splits "a|b|c" (squeue and sacct's parsable form).
std::vector<std::string> fields(const std::string &line, char separator);

// A Slurm command, found on PATH; its output, or an Error with what it
// said (with `mustSucceed`, also when it failed).
struct Slurm {
  Result<process::ProcessResult> run(const std::string &program,
                                     std::vector<std::string> arguments,
                                     bool mustSucceed = true) const;
};

// Slurm's words for a task ("12_3"): its state, the reason it waits, its
// node and how it exited ("0:15", code:signal).
struct TaskState {
  std::string state, reason, node, exitCode;
};

// The live tasks of `jobs` (queued, running, completing), by "JOB_TASK".
Result<std::map<std::string, TaskState>>
liveTasks(const Slurm &slurm, const std::vector<std::string> &jobs);

// How the tasks of `job` that left the queue ended: sacct where accounting
// is on, else scontrol (which keeps ended jobs for MinJobAge, 5 minutes by
// default). Empty when neither says.
std::map<std::string, TaskState> endedTasks(const Slurm &slurm,
                                            const std::string &job);

} // namespace tilescope::run::slurm
