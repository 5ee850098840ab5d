// The scripts the tasks of Tilescope's Slurm job arrays run
// (core/run/SlurmRun.h), how a compile task's results are read back, and
// what every submission takes along: the shared copy of the runtime tools,
// a time limit, $TILESCOPE_SBATCH_OPTIONS.
#pragma once

#include "core/process/Process.h"
#include "core/run/SlurmQueries.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::run::slurm {

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
std::optional<process::ProcessResult>
compileStatus(const std::filesystem::path &folder);

// A compile whose task (JOB_TASK) ended before it wrote its status, as a
// process result: Slurm's end of the task in words.
process::ProcessResult compileTaskEnded(const std::string &task,
                                        const TaskState &how);

// A task's time limit for `bundles` bundles of `each` ("M:SS", a minute at
// least).
std::string timeLimit(std::chrono::milliseconds each, size_t bundles);

// The shared copy of the runtime tools in `tools` (copied once, renamed
// into place so a task never sees half of them): in
// $TILESCOPE_SLURM_CACHE when set, else in `shared`.
Result<std::filesystem::path>
sharedToolsIn(const std::filesystem::path &tools,
              const std::filesystem::path &shared);

// $TILESCOPE_SBATCH_OPTIONS's words, after Tilescope's own.
void addExtraOptions(std::vector<std::string> &arguments);

} // namespace tilescope::run::slurm
