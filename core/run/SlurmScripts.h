// The scripts the tasks of Tilescope's Slurm job arrays run
// (core/run/SlurmRun.h), and how a compile task's results are read back.
#pragma once

#include "core/process/Process.h"
#include "core/run/SlurmQueries.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace tilescope::jobs::slurm {

// The script every task of a run array runs: the bundles its task list
// names for it (lines "TASK\tBUNDLE[\tTRY_FOLDER]"), each bundle's run.sh in
// turn with `environment` set; a bundle whose try folder's compile.status
// says its compile failed (or has none) is skipped.
std::string taskScript(const std::filesystem::path &tasks,
                       const std::map<std::string, std::string> &environment);

// The script every task of a compile array runs (lines "TASK\tTRY_FOLDER"):
// each folder's command.sh in turn under `timeout`, its output to
// compile.log and "EXIT MILLISECONDS" to compile.status, written last. It
// ends well whatever the compiles did: a compile's failure is its
// candidate's, not the task's (the run task of the same number starts and
// skips it).
std::string compileTaskScript(const std::filesystem::path &tasks,
                              std::chrono::milliseconds timeout);

// A compile's end as the folder's compile.status says it, with compile.log's
// text as standard error; unset while there is none.
std::optional<ProcessResult> compileStatus(const std::filesystem::path &folder);

// A compile whose task (JOB_TASK) ended before it wrote its status, as a
// process result: Slurm's end of the task in words.
ProcessResult compileTaskEnded(const std::string &task, const TaskState &how);

} // namespace tilescope::jobs::slurm
