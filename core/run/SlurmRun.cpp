#include "core/run/SlurmRun.h"

#include "core/run/SlurmQueries.h"
#include "core/run/SlurmScripts.h"
#include "core/util/Files.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tilescope::jobs {
namespace {

using slurm::compileStatus;
using slurm::compileTaskEnded;
using slurm::compileTaskScript;
using slurm::endedTasks;
using slurm::fields;
using slurm::liveTasks;
using slurm::Slurm;
using slurm::taskScript;
using slurm::TaskState;
using slurm::trimmed;

// The last lines of a file, on one line.
std::string tailOf(const fs::path &file, size_t keep = 400) {
  auto text = readTextFile(file);
  if (!text)
    return "";
  std::string tail = trimmed(*text);
  if (tail.size() > keep)
    tail = "..." + tail.substr(tail.size() - keep);
  std::replace(tail.begin(), tail.end(), '\n', ' ');
  return tail;
}

bool hasResults(const fs::path &bundle) {
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(bundle / "results", ec))
    if (entry.path().extension() == ".done")
      return true;
  return false;
}

std::string describeEnd(const SlurmTaskEnd &end) {
  const std::string task = "Slurm task " + end.task;
  const std::string on =
      end.node.empty() || end.node == "(null)" || end.node == "None assigned"
          ? ""
          : " on " + end.node;
  const std::string log =
      end.log.empty() ? "" : " (its output: " + end.log.string() + ")";
  if (end.state == "TIMEOUT")
    return task + " ran past its time limit" + on + " and Slurm ended it" + log;
  if (end.state == "CANCELLED" || end.state == "PREEMPTED")
    return task + " was " +
           (end.state == "CANCELLED" ? "cancelled" : "preempted") + on +
           " (scancel, or the cluster's policy)" + log;
  if (end.state == "NODE_FAIL")
    return task + ": the node went down while it ran" + on + log;
  if (end.state == "OUT_OF_MEMORY")
    return task + " ran out of memory" + on + log;
  if (end.state.empty() || end.state == "UNKNOWN")
    return task +
           " left the queue without results, and Slurm no longer says how "
           "(cancelled before it started?)" +
           log;
  std::string tail = tailOf(end.log);
  return task + " ended " + end.state + on +
         (end.exitCode.empty() ? "" : " (exit " + end.exitCode + ")") +
         " without results" + (tail.empty() ? log : ": " + tail);
}

std::string timeLimit(std::chrono::milliseconds each, size_t bundles) {
  const long long seconds = std::max<long long>(
      60, std::chrono::duration_cast<std::chrono::seconds>(each).count() *
              static_cast<long long>(bundles));
  return std::to_string(seconds / 60) + ":" + (seconds % 60 < 10 ? "0" : "") +
         std::to_string(seconds % 60);
}

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

// Where a bundle ran, as its task's log says ("tilescope: BUNDLE on NODE").
std::string nodeFromLog(const fs::path &log, const fs::path &bundle) {
  std::ifstream in(log);
  const std::string prefix =
      "tilescope: " + fs::absolute(bundle).string() + " on ";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0)
      return line.substr(prefix.size());
  return "";
}

// $TILESCOPE_SBATCH_OPTIONS's words, after Tilescope's own.
void addExtraOptions(std::vector<std::string> &arguments) {
  if (const char *extra = std::getenv(kSbatchOptionsVariable)) {
    std::stringstream words(extra);
    for (std::string word; words >> word;)
      arguments.push_back(word);
  }
}

// A compile array's extra options: $TILESCOPE_SBATCH_COMPILE_OPTIONS's
// words, else $TILESCOPE_SBATCH_OPTIONS's but a GPU request.
void addExtraCompileOptions(std::vector<std::string> &arguments) {
  const char *own = std::getenv(kSbatchCompileOptionsVariable);
  const char *runs = std::getenv(kSbatchOptionsVariable);
  std::stringstream words(own ? own : runs ? runs : "");
  for (std::string word; words >> word;)
    if (own || (word.rfind("--gres", 0) != 0 && word.rfind("--gpus", 0) != 0))
      arguments.push_back(word);
}

// The shared copy of the runtime tools: in $TILESCOPE_SLURM_CACHE when set,
// else in `shared`.
Result<fs::path> sharedToolsIn(const fs::path &tools, const fs::path &shared) {
  const char *cache = std::getenv(kSlurmCacheVariable);
  return sharedTools(tools, cache && *cache ? fs::path(cache) : shared);
}

// srun of one task on the partition, up to its command: `options` after
// Tilescope's, one GPU when `gpu`, $TILESCOPE_SBATCH_OPTIONS last.
Result<ProcessSpec> srunSpec(const std::string &partition,
                             std::vector<std::string> options, bool gpu) {
  auto srun = programOnPath("srun");
  if (!srun)
    return Error{"no srun on PATH: Slurm's client commands are needed to "
                 "run on a cluster (Debian: slurm-client)"};
  ProcessSpec spec;
  spec.program = *srun;
  spec.arguments = {"--partition=" + partition, "--ntasks=1"};
  spec.arguments.insert(spec.arguments.end(), options.begin(), options.end());
  if (gpu)
    spec.arguments.push_back("--gres=gpu:1");
  addExtraOptions(spec.arguments);
  return spec;
}

// Earlier submissions: bundle -> (job, task), the last one of each.
struct Submitted {
  std::string job;
  long long task = 0;
  std::string compileJob; // its compile array's, when it had one
};
std::map<std::string, Submitted> earlierSubmissions(const fs::path &file) {
  std::map<std::string, Submitted> earlier;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    auto f = fields(line, '\t');
    if (f.size() == 3 || f.size() == 4)
      if (auto task = parseInt64(f[1]))
        earlier[f[2]] = {f[0], *task, f.size() == 4 ? f[3] : ""};
  }
  return earlier;
}

// Sends one array (sbatch --parsable ... SCRIPT) and returns its job id;
// `spec` is the sbatch as run.
Result<std::string> submitArray(ProcessSpec &spec,
                                std::vector<std::string> options,
                                const std::string &partition,
                                const fs::path &script) {
  auto sbatch = programOnPath("sbatch");
  if (!sbatch)
    return Error{"no sbatch on PATH: Slurm's client commands are needed "
                 "to run on a cluster (Debian: slurm-client)"};
  spec.program = *sbatch;
  spec.arguments = std::move(options);
  spec.arguments.push_back(script.string());
  spec.timeout = std::chrono::minutes(2);
  const ProcessResult submitted = runProcess(spec);
  if (!submitted.succeeded())
    return Error{"sbatch " + submitted.describe() + ": " +
                 trimmed(submitted.standardError.empty()
                             ? submitted.standardOutput
                             : submitted.standardError) +
                 " (partition " + partition + ")"};
  // "41" or "41;cluster"
  const std::string job = trimmed(
      submitted.standardOutput.substr(0, submitted.standardOutput.find(';')));
  if (job.empty() || !parseInt64(job))
    return Error{"sbatch gave no job id: " + trimmed(submitted.standardOutput)};
  return job;
}

// Stops the jobs (not through runProcess: a Ctrl-C that stops the jobs of
// this process would stop scancel too).
void cancelJobs(const std::vector<std::string> &jobs) {
  if (auto scancel = programOnPath("scancel"))
    for (const std::string &job : jobs)
      (void)std::system((shellQuote(scancel->string()) + " " + shellQuote(job) +
                         " >/dev/null 2>&1")
                            .c_str());
}

} // namespace

fs::path sharedFolderOf(const fs::path &tryDirectory) {
  return tryDirectory.parent_path().filename() == "tries"
             ? tryDirectory.parent_path().parent_path() / "slurm"
             : tryDirectory;
}

std::string SlurmTaskEnd::outcome() const {
  if (timed)
    return "";
  if (state == "TIMEOUT")
    return "timed-out";
  if (state == "CANCELLED" || state == "PREEMPTED" || state.empty() ||
      state == "UNKNOWN")
    return "cancelled";
  if (state == "NODE_FAIL")
    return "node-failed";
  return "run-failed";
}

ProcessResult SlurmTaskEnd::process() const {
  ProcessResult result;
  result.outcome = state == "TIMEOUT" ? ProcessResult::Outcome::TimedOut
                   : state == "CANCELLED" || state.empty()
                       ? ProcessResult::Outcome::Cancelled
                       : ProcessResult::Outcome::Exited;
  auto code = parseInt64(exitCode.substr(0, exitCode.find(':')));
  result.exitCode = code ? static_cast<int>(*code) : 0;
  if (auto text = readTextFile(log))
    result.standardOutput = *text;
  return result;
}

Result<SlurmArrayResult> runSlurmArray(const SlurmArrayRequest &request) {
  if (request.partition.empty())
    return Error{"no Slurm partition to run on"};
  if (request.bundles.empty())
    return SlurmArrayResult{};
  Slurm slurm;
  std::error_code ec;
  fs::create_directories(request.folder / "logs", ec);
  if (ec)
    return Error{"cannot create " + (request.folder / "logs").string() + ": " +
                 ec.message()};
  const fs::path submissions = request.folder / "submissions.tsv";

  const SlurmCompileStage *compile =
      request.compile ? &*request.compile : nullptr;
  if (compile && compile->folders.size() != request.bundles.size())
    return Error{"a compile stage needs one try folder per bundle"};
  SlurmArrayResult result;
  result.ends.resize(request.bundles.size());
  std::vector<std::string> taskOf(request.bundles.size()); // "JOB_TASK"
  // With a compile stage: each bundle's compile task, and whether its end
  // has been taken (onCompiled).
  std::vector<std::string> compileTaskOf(request.bundles.size());
  std::vector<bool> compiled(request.bundles.size(), compile == nullptr);
  std::vector<bool> ended(request.bundles.size(), false);
  std::vector<bool> fromEarlier(request.bundles.size(), false);
  std::set<std::string> jobs; // every array waited on
  // sbatch --output=logs/%A_%a.log: "JOB_TASK.log".
  const auto logOf = [&](const std::string &task) {
    return request.folder / "logs" / (task + ".log");
  };
  // Task `task` (of bundle i) as Slurm said it ended.
  const auto taskEnd = [&](size_t i, const std::string &task,
                           const TaskState &state) {
    SlurmTaskEnd e;
    e.index = i;
    e.task = task;
    e.state = state.state;
    e.node = state.node;
    e.exitCode = state.exitCode;
    e.log = task.empty() ? fs::path() : logOf(task);
    return e;
  };
  const auto end = [&](size_t i, TaskState state, bool reattached) {
    SlurmTaskEnd &e = result.ends[i];
    e = taskEnd(i, taskOf[i], state);
    e.reattached = reattached;
    if (!reattached)
      e.submission = result.submission;
    if (e.node.empty() || e.node == "(null)")
      e.node = nodeFromLog(e.log, request.bundles[i]);
    e.timed = hasResults(request.bundles[i]);
    if (!e.timed)
      e.why = describeEnd(e);
    ended[i] = true;
    if (request.onEnd)
      request.onEnd(e);
  };

  // 1. What an earlier run of these bundles left: results there, or a task
  // still queued or running.
  const auto earlier = earlierSubmissions(submissions);
  std::vector<size_t> toSubmit;
  std::vector<size_t> waiting;
  std::set<std::string> earlierJobs;
  for (size_t i = 0; i < request.bundles.size(); ++i)
    if (auto it = earlier.find(fs::absolute(request.bundles[i]).string());
        it != earlier.end()) {
      earlierJobs.insert(it->second.job);
      if (compile && !it->second.compileJob.empty())
        earlierJobs.insert(it->second.compileJob);
    }
  std::map<std::string, TaskState> earlierLive;
  if (!earlierJobs.empty()) {
    auto live = liveTasks(slurm, {earlierJobs.begin(), earlierJobs.end()});
    if (!live)
      return Error{live.error()};
    earlierLive = std::move(*live);
  }
  for (size_t i = 0; i < request.bundles.size(); ++i) {
    auto it = earlier.find(fs::absolute(request.bundles[i]).string());
    if (it != earlier.end()) {
      const std::string task =
          it->second.job + "_" + std::to_string(it->second.task);
      if (earlierLive.count(task) || hasResults(request.bundles[i])) {
        taskOf[i] = task;
        jobs.insert(it->second.job);
        if (compile && !it->second.compileJob.empty()) {
          compileTaskOf[i] =
              it->second.compileJob + "_" + std::to_string(it->second.task);
          jobs.insert(it->second.compileJob);
        }
        waiting.push_back(i);
        fromEarlier[i] = true;
        ++result.reattached;
        continue;
      }
    }
    toSubmit.push_back(i);
  }

  // 2. The rest as one array: the tools shared, a task list, a script.
  if (!toSubmit.empty()) {
    auto tools = sharedToolsIn(request.run.tools, request.sharedCache.empty()
                                                      ? request.folder
                                                      : request.sharedCache);
    if (!tools)
      return Error{tools.error()};
    size_t number = 1;
    while (fs::exists(request.folder /
                      ("submit-" + std::to_string(number) + ".sh")))
      ++number;
    const std::string stem = "submit-" + std::to_string(number);
    size_t maximumTasks = std::max<size_t>(1, request.maximumTasks);
    if (const char *limit = std::getenv(kArrayLimitVariable))
      if (auto given = parseInt64(limit); given && *given > 0)
        maximumTasks = static_cast<size_t>(*given);
    const size_t perTask = (toSubmit.size() + maximumTasks - 1) / maximumTasks;
    const size_t tasks = (toSubmit.size() + perTask - 1) / perTask;
    std::string list, compileList;
    for (size_t n = 0; n < toSubmit.size(); ++n) {
      const size_t i = toSubmit[n];
      const std::string task = std::to_string(n / perTask);
      list += task + "\t" + fs::absolute(request.bundles[i]).string();
      if (compile) {
        const std::string folder = fs::absolute(compile->folders[i]).string();
        list += "\t" + folder;
        compileList += task + "\t" + folder + "\n";
        // A status left by an earlier compile is not this one's.
        fs::remove(compile->folders[i] / "compile.status", ec);
      }
      list += "\n";
    }
    const fs::path tasksFile = fs::absolute(request.folder / (stem + ".tsv"));
    BundleRunOptions run = request.run;
    run.tools = *tools;
    std::map<std::string, std::string> environment =
        runBundleCommand(request.bundles.front(), run).environment;
    environment.erase("TILESCOPE_RESULTS");
    const fs::path script = fs::absolute(request.folder / (stem + ".sh"));
    if (auto written = writeFileAtomically(tasksFile, list); !written)
      return Error{written.error()};
    if (auto written =
            writeFileAtomically(script, taskScript(tasksFile, environment));
        !written)
      return Error{written.error()};
    const auto options = [&](const std::string &name,
                             const std::string &partition,
                             std::chrono::milliseconds each) {
      return std::vector<std::string>{
          "--parsable",
          "--job-name=" + name,
          "--partition=" + partition,
          "--array=0-" + std::to_string(tasks - 1),
          "--ntasks=1",
          "--no-requeue",
          "--output=" + fs::absolute(request.folder / "logs").string() +
              "/%A_%a.log",
          "--time=" + timeLimit(each, perTask)};
    };

    // The compile array first; the run array's task N waits for its task N.
    std::string compileJob;
    std::vector<std::string> runOptions =
        options("tilescope", request.partition, request.run.timeout);
    if (compile) {
      const fs::path compileTasks =
          fs::absolute(request.folder / (stem + "-compile.tsv"));
      const fs::path compileScript =
          fs::absolute(request.folder / (stem + "-compile.sh"));
      if (auto written = writeFileAtomically(compileTasks, compileList);
          !written)
        return Error{written.error()};
      if (auto written = writeFileAtomically(
              compileScript, compileTaskScript(compileTasks, compile->timeout));
          !written)
        return Error{written.error()};
      std::vector<std::string> compileOptions =
          options("tilescope-compile", compile->partition, compile->timeout);
      addExtraCompileOptions(compileOptions);
      auto sent = submitArray(result.compileSubmission, compileOptions,
                              compile->partition, compileScript);
      if (!sent)
        return Error{"the compile array: " + sent.error()};
      compileJob = *sent;
      runOptions.push_back("--dependency=aftercorr:" + compileJob);
      runOptions.push_back("--kill-on-invalid-dep=yes");
    }
    if (request.gpu)
      runOptions.push_back("--gres=gpu:1");
    addExtraOptions(runOptions);
    auto sent =
        submitArray(result.submission, runOptions, request.partition, script);
    if (!sent) {
      if (!compileJob.empty())
        cancelJobs({compileJob});
      return Error{sent.error()};
    }
    const std::string job = *sent;
    std::string record;
    for (size_t n = 0; n < toSubmit.size(); ++n) {
      const size_t i = toSubmit[n];
      const std::string task = std::to_string(n / perTask);
      taskOf[i] = job + "_" + task;
      record +=
          job + "\t" + task + "\t" + fs::absolute(request.bundles[i]).string();
      if (compile) {
        compileTaskOf[i] = compileJob + "_" + task;
        record += "\t" + compileJob;
      }
      record += "\n";
      waiting.push_back(i);
    }
    std::ofstream(submissions, std::ios::app) << record;
    jobs.insert(job);
    result.jobs.push_back(job);
    if (!compileJob.empty()) {
      jobs.insert(compileJob);
      result.jobs.insert(result.jobs.begin(), compileJob);
    }
    result.submitted = toSubmit.size();
  }

  // 3. Wait: a bundle is done when its results are there (a task of several
  // bundles finishes them one by one), or ended when its task left the
  // queue without them.
  std::string lastStatus;
  std::vector<std::string> phase(request.bundles.size()); // as last told
  const std::vector<std::string> jobList(jobs.begin(), jobs.end());
  std::sort(waiting.begin(), waiting.end());
  for (;;) {
    if (stopRequested(request.cancel)) {
      cancelJobs(jobList);
      result.cancelled = true;
      break;
    }
    // A controller that does not answer for a while (restarting, busy)
    // is asked again; the tasks go on meanwhile.
    auto live = liveTasks(slurm, jobList);
    for (int retry = 0; !live && retry < 5 && !stopRequested(request.cancel);
         ++retry) {
      std::this_thread::sleep_for(std::chrono::seconds(2) * (retry + 1));
      live = liveTasks(slurm, jobList);
    }
    if (!live)
      return Error{live.error() + " (the tasks go on; run the same sweep "
                                  "again to take their results)"};
    size_t queued = 0, compiling = 0, running = 0, left = 0;
    std::map<std::string, std::map<std::string, TaskState>> endedByJob;
    // How a task that left the queue ended, as Slurm says.
    const auto howEnded = [&](const std::string &task) {
      if (task.empty())
        return TaskState{};
      const std::string job = task.substr(0, task.find('_'));
      auto known = endedByJob.find(job);
      if (known == endedByJob.end())
        known = endedByJob.emplace(job, endedTasks(slurm, job)).first;
      const auto how = known->second.find(task);
      return how != known->second.end() ? how->second : TaskState{};
    };
    const auto tell = [&](size_t i, const char *now) {
      if (phase[i] != now && request.onPhase)
        request.onPhase(i, now);
      phase[i] = now;
    };
    for (size_t i : waiting) {
      if (ended[i])
        continue;
      if (!compiled[i]) {
        // Its compile first: its status written, or its task still there,
        // or gone without one.
        std::optional<ProcessResult> done = compileStatus(compile->folders[i]);
        const auto task = live->find(compileTaskOf[i]);
        if (!done && task != live->end()) {
          ++left;
          const bool pending = task->second.state == "PENDING";
          (pending ? queued : compiling)++;
          tell(i, pending ? "queued" : "compiling");
          continue;
        }
        std::optional<SlurmTaskEnd> gone;
        if (!done) {
          const TaskState how = howEnded(compileTaskOf[i]);
          done = compileTaskEnded(compileTaskOf[i], how);
          gone = taskEnd(i, compileTaskOf[i], how);
          gone->why = "its compile: " + describeEnd(*gone);
        }
        compiled[i] = true;
        const bool succeeded = done->succeeded();
        const bool toRun = compile->onCompiled
                               ? compile->onCompiled(i, std::move(*done),
                                                     gone ? &*gone : nullptr)
                               : succeeded;
        if (!toRun) {
          // Its run task skips it; the caller has said how it ended.
          ended[i] = true;
          result.ends[i].index = i;
          result.ends[i].task = taskOf[i];
          result.ends[i].why = "not compiled, so not run";
          continue;
        }
      }
      const auto state = live->find(taskOf[i]);
      if (hasResults(request.bundles[i])) {
        // The bundle ran to its end: COMPLETED, though its task may still
        // be finishing (or running the task's next bundles) in squeue.
        TaskState done{"COMPLETED", "", "", "0:0"};
        if (state != live->end())
          done.node = state->second.node;
        end(i, done, fromEarlier[i]);
        continue;
      }
      if (state != live->end()) {
        ++left;
        const bool pending = state->second.state == "PENDING";
        (pending ? queued : running)++;
        tell(i, pending ? "queued" : "running");
        continue;
      }
      // Gone without results: how Slurm says it ended.
      end(i, howEnded(taskOf[i]), fromEarlier[i]);
    }
    std::string status;
    for (const std::string &job : jobList)
      status += (status.empty() ? "job " : ",") + job;
    const size_t done =
        static_cast<size_t>(std::count(ended.begin(), ended.end(), true));
    status += ": " + std::to_string(queued) + " queued, " +
              (compile ? std::to_string(compiling) + " compiling, " : "") +
              std::to_string(running) + " running, " + std::to_string(done) +
              " of " + std::to_string(request.bundles.size()) + " done";
    if (status != lastStatus && request.onStatus)
      request.onStatus(status);
    lastStatus = status;
    if (left == 0)
      break;
    for (auto slept = std::chrono::milliseconds(0);
         slept < request.poll && !stopRequested(request.cancel);
         slept += std::chrono::milliseconds(100))
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (size_t i = 0; i < request.bundles.size(); ++i)
    if (!ended[i]) {
      result.ends[i].index = i;
      result.ends[i].task = taskOf[i];
      result.ends[i].why = "stopped here before Slurm task " + taskOf[i] +
                           " ended; it was cancelled (scancel)";
    }
  return result;
}

Result<ProcessResult> runToolOnSlurm(
    const std::string &partition, const fs::path &directory,
    const std::string &tool, const std::vector<std::string> &arguments,
    bool gpu, const fs::path &toolsDirectory, const fs::path &sharedCache,
    std::chrono::milliseconds timeout, const std::atomic<bool> *cancel,
    std::vector<std::string> &steps) {
  auto tools = sharedToolsIn(toolsDirectory, sharedCache);
  if (!tools)
    return Error{tools.error()};
  auto made = srunSpec(partition,
                       {"--job-name=tilescope-check",
                        "--chdir=" + fs::absolute(directory).string(),
                        "--time=" + timeLimit(timeout, 1)},
                       gpu);
  if (!made)
    return Error{made.error()};
  ProcessSpec &spec = *made;
  spec.arguments.push_back((*tools / tool).string());
  spec.arguments.insert(spec.arguments.end(), arguments.begin(),
                        arguments.end());
  // srun's own start-up and the queue on top of the tool's run.
  spec.timeout = timeout + std::chrono::minutes(2);
  spec.cancel = cancel;
  steps.push_back(spec.shellCommand());
  ProcessResult ran = runProcess(spec);
  // srun says its own refusals ("srun: error: ...") before any task ran.
  if (!ran.succeeded() &&
      ran.standardError.find("srun: error: Unable to allocate") !=
          std::string::npos)
    return Error{"srun " + ran.describe() + ": " + trimmed(ran.standardError) +
                 " (partition " + partition + ")"};
  return ran;
}

Result<PlaceDevices> devicesOnSlurm(const std::string &partition,
                                    const fs::path &toolsDirectory,
                                    const fs::path &sharedCache,
                                    std::chrono::milliseconds timeout) {
  auto tools = sharedToolsIn(toolsDirectory, sharedCache);
  if (!tools)
    return Error{tools.error()};
  auto made =
      srunSpec(partition, {"--job-name=tilescope-devices", "--time=2:00"},
               /*gpu=*/true);
  if (!made)
    return Error{made.error()};
  ProcessSpec &spec = *made;
  spec.arguments.insert(
      spec.arguments.end(),
      {"/bin/sh", "-c", deviceListingCommand(shellQuote(tools->string()))});
  spec.timeout = timeout;
  const ProcessResult ran = runProcess(spec);
  if (!ran.succeeded())
    return Error{"srun " + ran.describe() + ": " +
                 trimmed(ran.standardError.empty() ? ran.standardOutput
                                                   : ran.standardError) +
                 " (partition " + partition + ")"};
  PlaceDevices found = readDeviceListing(ran.standardOutput);
  found.place = "slurm:" + partition +
                (found.place.empty() ? "" : " (node " + found.place + ")");
  found.steps = {spec.shellCommand()};
  return found;
}

} // namespace tilescope::jobs
