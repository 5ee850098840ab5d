#include "core/run/SlurmScripts.h"

#include "core/run/RemoteRun.h"
#include "core/run/SlurmRun.h"
#include "core/util/Files.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tilescope::run::slurm {

// The script every task of a submission runs: its bundles' run.sh in turn,
// with the run's settings.
std::string taskScript(const fs::path &tasks,
                       const std::map<std::string, std::string> &environment) {
  std::string script =
      "#!/bin/bash\n"
      "# One task of a Tilescope job array (core/run/SlurmRun.h): the run\n"
      "# bundles listed for it in the task list, each timed by its run.sh.\n"
      "set -u\n";
  for (const auto &[name, value] : environment)
    script += "export " + name + "=" + process::shellQuote(value) + "\n";
  script += "tasks=" + process::shellQuote(tasks.string()) +
            "\n"
            "status=0\n"
            "while IFS=$'\\t' read -r task bundle compiled; do\n"
            "  [ \"$task\" = \"${SLURM_ARRAY_TASK_ID:-0}\" ] || continue\n"
            "  if [ -n \"${compiled:-}\" ]; then\n"
            "    code=missing\n"
            "    [ -f \"$compiled/compile.status\" ] && read -r code _ < "
            "\"$compiled/compile.status\"\n"
            "    if [ \"$code\" != 0 ]; then\n"
            "      echo \"tilescope: $bundle not run: its compile in $compiled "
            "ended $code\"\n"
            "      continue\n"
            "    fi\n"
            "  fi\n"
            "  echo \"tilescope: $bundle on $(hostname)\"\n"
            "  bash \"$bundle/run.sh\" || status=$?\n"
            "done < \"$tasks\"\n"
            "exit $status\n";
  return script;
}

// The script every task of a compile array runs: its try folders'
// command.sh in turn, each under the compile's time limit, its exit and
// milliseconds written last to compile.status. It ends well whatever the
// compiles did: a compile's failure is its candidate's, not the task's (the
// run task of the same number starts and skips it).
std::string compileTaskScript(const fs::path &tasks,
                              std::chrono::milliseconds timeout) {
  const long long seconds = std::max<long long>(
      1, std::chrono::duration_cast<std::chrono::seconds>(timeout).count());
  return "#!/bin/bash\n"
         "# One task of a Tilescope compile array (core/run/SlurmRun.h): the\n"
         "# try folders listed for it, each compiled by its command.sh.\n"
         "set -u\n"
         "tasks=" +
         process::shellQuote(tasks.string()) +
         "\nlimit=" + std::to_string(seconds) +
         "\n"
         "while IFS=$'\\t' read -r task folder; do\n"
         "  [ \"$task\" = \"${SLURM_ARRAY_TASK_ID:-0}\" ] || continue\n"
         "  echo \"tilescope: compiling $folder on $(hostname)\"\n"
         "  rm -f \"$folder/compile.status\"\n"
         "  start=$(date +%s%N)\n"
         "  if command -v timeout >/dev/null 2>&1; then\n"
         "    timeout --kill-after=10 \"$limit\" sh \"$folder/command.sh\" "
         "> \"$folder/compile.log\" 2>&1\n"
         "  else\n"
         "    sh \"$folder/command.sh\" > \"$folder/compile.log\" 2>&1\n"
         "  fi\n"
         "  code=$?\n"
         "  end=$(date +%s%N)\n"
         "  echo \"$code $(( (end - start) / 1000000 ))\" > "
         "\"$folder/compile.status.partial\" &&\n"
         "    mv \"$folder/compile.status.partial\" "
         "\"$folder/compile.status\"\n"
         "done < \"$tasks\"\n"
         "exit 0\n";
}

// A compile's end as compile.status says it ("CODE MILLISECONDS"), with
// compile.log's text; unset while there is none.
std::optional<process::ProcessResult> compileStatus(const fs::path &folder) {
  auto status = readTextFile(folder / "compile.status");
  if (!status)
    return std::nullopt;
  std::stringstream words(*status);
  long long code = -1, milliseconds = 0;
  if (!(words >> code))
    return std::nullopt;
  words >> milliseconds;
  process::ProcessResult result;
  result.elapsed = std::chrono::milliseconds(milliseconds);
  // coreutils' timeout: 124 (137 when it had to kill); a shell's 128+N for
  // a child killed by signal N.
  if (code == 124 || code == 137) {
    result.outcome = process::ProcessResult::Outcome::TimedOut;
  } else if (code > 128 && code < 128 + 65) {
    result.outcome = process::ProcessResult::Outcome::Signaled;
    result.signal = static_cast<int>(code - 128);
  } else {
    result.outcome = process::ProcessResult::Outcome::Exited;
    result.exitCode = static_cast<int>(code);
  }
  if (auto log = readTextFile(folder / "compile.log"))
    result.standardError = *log;
  return result;
}

// A compile whose task ended before it wrote its status, as a process
// result: Slurm's end of the task in words.
process::ProcessResult compileTaskEnded(const std::string &task,
                                        const TaskState &how) {
  process::ProcessResult result;
  const std::string on =
      how.node.empty() || how.node == "(null)" ? "" : " on " + how.node;
  const std::string said =
      "Slurm compile task " + task + " ended " +
      (how.state.empty() ? "(Slurm no longer says how)" : how.state) + on +
      " before it compiled this";
  if (how.state == "TIMEOUT") {
    result.outcome = process::ProcessResult::Outcome::TimedOut;
  } else if (how.state == "CANCELLED" || how.state.empty()) {
    result.outcome = process::ProcessResult::Outcome::Cancelled;
  } else {
    result.outcome = process::ProcessResult::Outcome::FailedToStart;
    result.startError = said;
  }
  result.standardError = said + "\n";
  return result;
}

std::string timeLimit(std::chrono::milliseconds each, size_t bundles) {
  const long long seconds = std::max<long long>(
      60, std::chrono::duration_cast<std::chrono::seconds>(each).count() *
              static_cast<long long>(bundles));
  return std::to_string(seconds / 60) + ":" + (seconds % 60 < 10 ? "0" : "") +
         std::to_string(seconds % 60);
}

namespace {

// Copies the runtime tools into SHARED/iree-runtime-KEY once (filled
// beside it and renamed into place, so a task never sees half of them).
Result<fs::path> sharedTools(const fs::path &tools, const fs::path &shared) {
  auto key = runtimeToolsKey(tools);
  if (!key)
    return Error{key.error()};
  const fs::path target = shared / ("iree-runtime-" + *key);
  std::error_code ec;
  const auto complete = [&] {
    return ::access((target / "iree-benchmark-module").c_str(), X_OK) == 0 &&
           ::access((target / "iree-run-module").c_str(), X_OK) == 0;
  };
  if (complete())
    return target;
  const fs::path partial = shared / ("iree-runtime-" + *key + ".partial." +
                                     std::to_string(::getpid()));
  fs::remove_all(partial, ec);
  fs::create_directories(partial, ec);
  for (const char *tool : {"iree-benchmark-module", "iree-run-module"})
    if (!fs::copy_file(tools / tool, partial / tool,
                       fs::copy_options::overwrite_existing, ec))
      return Error{"cannot copy " + (tools / tool).string() + " to " +
                   partial.string() + ": " + ec.message()};
  fs::remove_all(target, ec);
  fs::rename(partial, target, ec);
  if (ec && !complete())
    return Error{"cannot put the runtime tools in " + target.string() + ": " +
                 ec.message()};
  fs::remove_all(partial, ec);
  return target;
}

} // namespace

// $TILESCOPE_SBATCH_OPTIONS's words, after Tilescope's own.
void addExtraOptions(std::vector<std::string> &arguments) {
  if (const char *extra = std::getenv(kSbatchOptionsVariable)) {
    std::stringstream words(extra);
    for (std::string word; words >> word;)
      arguments.push_back(word);
  }
}

// The shared copy of the runtime tools: in $TILESCOPE_SLURM_CACHE when set,
// else in `shared`.
Result<fs::path> sharedToolsIn(const fs::path &tools, const fs::path &shared) {
  const char *cache = std::getenv(kSlurmCacheVariable);
  return sharedTools(tools, cache && *cache ? fs::path(cache) : shared);
}

} // namespace tilescope::run::slurm
