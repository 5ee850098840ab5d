// Tilescope's Slurm job arrays (runSlurmArray): the bundles not already
// done or under way submitted as one array (after a compile array, with a
// compile stage), an earlier run's tasks taken back, and every task waited
// for until it ends or the run is cancelled.
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

namespace fs = std::filesystem;

namespace tilescope::run {
namespace {

using slurm::addExtraOptions;
using slurm::compileStatus;
using slurm::compileTaskEnded;
using slurm::compileTaskScript;
using slurm::endedTasks;
using slurm::fields;
using slurm::liveTasks;
using slurm::sharedToolsIn;
using slurm::Slurm;
using slurm::taskScript;
using slurm::TaskState;
using slurm::timeLimit;
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
Result<std::string> submitArray(process::ProcessSpec &spec,
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
  const process::ProcessResult submitted = runProcess(spec);
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
      (void)std::system((process::shellQuote(scancel->string()) + " " +
                         process::shellQuote(job) + " >/dev/null 2>&1")
                            .c_str());
}

// One call of runSlurmArray: each bundle's task (and its compile task),
// whether it was taken from an earlier run, and how it ended.
class ArrayRun {
public:
  explicit ArrayRun(const SlurmArrayRequest &asked)
      : request(asked), compile(asked.compile ? &*asked.compile : nullptr),
        submissions(asked.folder / "submissions.tsv"),
        taskOf(asked.bundles.size()), compileTaskOf(asked.bundles.size()),
        compiled(asked.bundles.size(), compile == nullptr),
        ended(asked.bundles.size(), false),
        fromEarlier(asked.bundles.size(), false), phase(asked.bundles.size()) {
    result.ends.resize(asked.bundles.size());
  }

  // 1. What an earlier run of these bundles left: results there, or a task
  // still queued or running, is waited on again; the rest is to submit.
  Result<bool> reattach();
  // 2. The rest as one array: the tools shared, a task list, a script; with
  // a compile stage, a compile array first that the run array's task N
  // waits for (its task N).
  Result<bool> submit();
  // 3. Wait: a bundle is done when its results are there (a task of several
  // bundles finishes them one by one), or ended when its task left the
  // queue without them; stopped by the cancel flag (the tasks scancelled).
  Result<bool> wait();
  // Every bundle's end; one not ended was stopped here.
  SlurmArrayResult finish();

private:
  // Bundles per task and tasks for the bundles to submit, and the files'
  // stem (submit-N).
  struct Plan {
    std::string stem;
    size_t perTask = 1;
    size_t tasks = 1;
  };
  // How many tasks of each kind a poll found.
  struct Counts {
    size_t queued = 0, compiling = 0, running = 0, left = 0;
  };
  using Live = std::map<std::string, TaskState>;

  Plan plan() const;
  // The task list and the script every task runs (the compile array's task
  // list into `compileList`); the script's path.
  Result<fs::path> writeTasks(const Plan &plan, const fs::path &tools,
                              std::string &compileList) const;
  std::vector<std::string> options(const Plan &plan, const std::string &name,
                                   const std::string &partition,
                                   std::chrono::milliseconds each) const;
  // The compile array, its job id.
  Result<std::string> submitCompile(const Plan &plan,
                                    const std::string &compileList);
  // The submitted tasks, also into submissions.tsv for a later run.
  void recordSubmission(const Plan &plan, const std::string &job,
                        const std::string &compileJob);
  // One bundle at a poll: its compile taken, its results, its task.
  void poll(size_t i, const Live &live, Counts &counts);
  // A bundle's compile: false while its task is still there (counted), or
  // where the caller does not run it (ended).
  bool takeCompile(size_t i, const Live &live, Counts &counts);
  std::string status(const Counts &counts) const;
  // The live tasks, asked again while a controller does not answer.
  Result<Live> liveTasksNow(const std::vector<std::string> &jobList) const;

  fs::path logOf(const std::string &task) const {
    // sbatch --output=logs/%A_%a.log: "JOB_TASK.log".
    return request.folder / "logs" / (task + ".log");
  }
  // Task `task` (of bundle i) as Slurm said it ended.
  SlurmTaskEnd taskEnd(size_t i, const std::string &task,
                       const TaskState &state) const;
  // How a task that left the queue ended, as Slurm says (asked once a job
  // per poll).
  TaskState howEnded(const std::string &task);
  void end(size_t i, TaskState state);
  void tell(size_t i, const char *now);

  const SlurmArrayRequest &request;
  const SlurmCompileStage *compile;
  const fs::path submissions;
  Slurm slurm;
  SlurmArrayResult result;
  std::vector<std::string> taskOf;        // "JOB_TASK"
  std::vector<std::string> compileTaskOf; // with a compile stage
  std::vector<bool> compiled;             // its compile's end taken
  std::vector<bool> ended;
  std::vector<bool> fromEarlier;
  std::vector<std::string> phase; // as last told
  std::set<std::string> jobs;     // every array waited on
  std::vector<size_t> toSubmit;
  std::vector<size_t> waiting;
  // This poll's answers of sacct / scontrol, by job.
  std::map<std::string, Live> endedByJob;
};

SlurmTaskEnd ArrayRun::taskEnd(size_t i, const std::string &task,
                               const TaskState &state) const {
  SlurmTaskEnd e;
  e.index = i;
  e.task = task;
  e.state = state.state;
  e.node = state.node;
  e.exitCode = state.exitCode;
  e.log = task.empty() ? fs::path() : logOf(task);
  return e;
}

void ArrayRun::end(size_t i, TaskState state) {
  SlurmTaskEnd &e = result.ends[i];
  e = taskEnd(i, taskOf[i], state);
  e.reattached = fromEarlier[i];
  if (!e.reattached)
    e.submission = result.submission;
  if (e.node.empty() || e.node == "(null)")
    e.node = nodeFromLog(e.log, request.bundles[i]);
  e.timed = hasResults(request.bundles[i]);
  if (!e.timed)
    e.why = describeEnd(e);
  ended[i] = true;
  if (request.onEnd)
    request.onEnd(e);
}

void ArrayRun::tell(size_t i, const char *now) {
  if (phase[i] != now && request.onPhase)
    request.onPhase(i, now);
  phase[i] = now;
}

TaskState ArrayRun::howEnded(const std::string &task) {
  if (task.empty())
    return TaskState{};
  const std::string job = task.substr(0, task.find('_'));
  auto known = endedByJob.find(job);
  if (known == endedByJob.end())
    known = endedByJob.emplace(job, endedTasks(slurm, job)).first;
  const auto how = known->second.find(task);
  return how != known->second.end() ? how->second : TaskState{};
}

Result<bool> ArrayRun::reattach() {
  const auto earlier = earlierSubmissions(submissions);
  std::set<std::string> earlierJobs;
  for (const fs::path &bundle : request.bundles)
    if (auto it = earlier.find(fs::absolute(bundle).string());
        it != earlier.end()) {
      earlierJobs.insert(it->second.job);
      if (compile && !it->second.compileJob.empty())
        earlierJobs.insert(it->second.compileJob);
    }
  Live earlierLive;
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
  return true;
}

ArrayRun::Plan ArrayRun::plan() const {
  Plan p;
  size_t number = 1;
  while (
      fs::exists(request.folder / ("submit-" + std::to_string(number) + ".sh")))
    ++number;
  p.stem = "submit-" + std::to_string(number);
  size_t maximumTasks = std::max<size_t>(1, request.maximumTasks);
  if (const char *limit = std::getenv(kArrayLimitVariable))
    if (auto given = parseInt64(limit); given && *given > 0)
      maximumTasks = static_cast<size_t>(*given);
  p.perTask = (toSubmit.size() + maximumTasks - 1) / maximumTasks;
  p.tasks = (toSubmit.size() + p.perTask - 1) / p.perTask;
  return p;
}

Result<fs::path> ArrayRun::writeTasks(const Plan &p, const fs::path &tools,
                                      std::string &compileList) const {
  std::error_code ec;
  std::string list;
  for (size_t n = 0; n < toSubmit.size(); ++n) {
    const size_t i = toSubmit[n];
    const std::string task = std::to_string(n / p.perTask);
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
  const fs::path tasksFile = fs::absolute(request.folder / (p.stem + ".tsv"));
  BundleRunOptions run = request.run;
  run.tools = tools;
  std::map<std::string, std::string> environment =
      runBundleCommand(request.bundles.front(), run).environment;
  environment.erase("TILESCOPE_RESULTS");
  const fs::path script = fs::absolute(request.folder / (p.stem + ".sh"));
  if (auto written = writeFileAtomically(tasksFile, list); !written)
    return Error{written.error()};
  if (auto written =
          writeFileAtomically(script, taskScript(tasksFile, environment));
      !written)
    return Error{written.error()};
  return script;
}

std::vector<std::string>
ArrayRun::options(const Plan &p, const std::string &name,
                  const std::string &partition,
                  std::chrono::milliseconds each) const {
  return {"--parsable",
          "--job-name=" + name,
          "--partition=" + partition,
          "--array=0-" + std::to_string(p.tasks - 1),
          "--ntasks=1",
          "--no-requeue",
          "--output=" + fs::absolute(request.folder / "logs").string() +
              "/%A_%a.log",
          "--time=" + timeLimit(each, p.perTask)};
}

Result<std::string> ArrayRun::submitCompile(const Plan &p,
                                            const std::string &compileList) {
  const fs::path compileTasks =
      fs::absolute(request.folder / (p.stem + "-compile.tsv"));
  const fs::path compileScript =
      fs::absolute(request.folder / (p.stem + "-compile.sh"));
  if (auto written = writeFileAtomically(compileTasks, compileList); !written)
    return Error{written.error()};
  if (auto written = writeFileAtomically(
          compileScript, compileTaskScript(compileTasks, compile->timeout));
      !written)
    return Error{written.error()};
  std::vector<std::string> compileOptions =
      options(p, "tilescope-compile", compile->partition, compile->timeout);
  addExtraCompileOptions(compileOptions);
  auto sent = submitArray(result.compileSubmission, compileOptions,
                          compile->partition, compileScript);
  if (!sent)
    return Error{"the compile array: " + sent.error()};
  return *sent;
}

void ArrayRun::recordSubmission(const Plan &p, const std::string &job,
                                const std::string &compileJob) {
  std::string record;
  for (size_t n = 0; n < toSubmit.size(); ++n) {
    const size_t i = toSubmit[n];
    const std::string task = std::to_string(n / p.perTask);
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

Result<bool> ArrayRun::submit() {
  if (toSubmit.empty())
    return true;
  auto tools = sharedToolsIn(request.run.tools, request.sharedCache.empty()
                                                    ? request.folder
                                                    : request.sharedCache);
  if (!tools)
    return Error{tools.error()};
  const Plan p = plan();
  std::string compileList;
  auto script = writeTasks(p, *tools, compileList);
  if (!script)
    return Error{script.error()};
  std::string compileJob;
  std::vector<std::string> runOptions =
      options(p, "tilescope", request.partition, request.run.timeout);
  if (compile) {
    auto sent = submitCompile(p, compileList);
    if (!sent)
      return Error{sent.error()};
    compileJob = *sent;
    runOptions.push_back("--dependency=aftercorr:" + compileJob);
    runOptions.push_back("--kill-on-invalid-dep=yes");
  }
  if (request.gpu)
    runOptions.push_back("--gres=gpu:1");
  addExtraOptions(runOptions);
  auto sent =
      submitArray(result.submission, runOptions, request.partition, *script);
  if (!sent) {
    if (!compileJob.empty())
      cancelJobs({compileJob});
    return Error{sent.error()};
  }
  recordSubmission(p, *sent, compileJob);
  return true;
}

bool ArrayRun::takeCompile(size_t i, const Live &live, Counts &counts) {
  // Its status written, or its task still there, or gone without one.
  std::optional<process::ProcessResult> done =
      compileStatus(compile->folders[i]);
  const auto task = live.find(compileTaskOf[i]);
  if (!done && task != live.end()) {
    ++counts.left;
    const bool pending = task->second.state == "PENDING";
    (pending ? counts.queued : counts.compiling)++;
    tell(i, pending ? "queued" : "compiling");
    return false;
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
  const bool toRun =
      compile->onCompiled
          ? compile->onCompiled(i, std::move(*done), gone ? &*gone : nullptr)
          : succeeded;
  if (toRun)
    return true;
  // Its run task skips it; the caller has said how it ended.
  ended[i] = true;
  result.ends[i].index = i;
  result.ends[i].task = taskOf[i];
  result.ends[i].why = "not compiled, so not run";
  return false;
}

void ArrayRun::poll(size_t i, const Live &live, Counts &counts) {
  if (ended[i] || (!compiled[i] && !takeCompile(i, live, counts)))
    return;
  const auto state = live.find(taskOf[i]);
  if (hasResults(request.bundles[i])) {
    // The bundle ran to its end: COMPLETED, though its task may still be
    // finishing (or running the task's next bundles) in squeue.
    TaskState done{"COMPLETED", "", "", "0:0"};
    if (state != live.end())
      done.node = state->second.node;
    end(i, done);
    return;
  }
  if (state != live.end()) {
    ++counts.left;
    const bool pending = state->second.state == "PENDING";
    (pending ? counts.queued : counts.running)++;
    tell(i, pending ? "queued" : "running");
    return;
  }
  // Gone without results: how Slurm says it ended.
  end(i, howEnded(taskOf[i]));
}

std::string ArrayRun::status(const Counts &counts) const {
  std::string text;
  for (const std::string &job : jobs)
    text += (text.empty() ? "job " : ",") + job;
  const size_t done =
      static_cast<size_t>(std::count(ended.begin(), ended.end(), true));
  return text + ": " + std::to_string(counts.queued) + " queued, " +
         (compile ? std::to_string(counts.compiling) + " compiling, " : "") +
         std::to_string(counts.running) + " running, " + std::to_string(done) +
         " of " + std::to_string(request.bundles.size()) + " done";
}

Result<ArrayRun::Live>
ArrayRun::liveTasksNow(const std::vector<std::string> &jobList) const {
  // A controller that does not answer for a while (restarting, busy) is
  // asked again; the tasks go on meanwhile.
  auto live = liveTasks(slurm, jobList);
  for (int retry = 0;
       !live && retry < 5 && !process::stopRequested(request.cancel); ++retry) {
    std::this_thread::sleep_for(std::chrono::seconds(2) * (retry + 1));
    live = liveTasks(slurm, jobList);
  }
  if (!live)
    return Error{live.error() + " (the tasks go on; run the same sweep "
                                "again to take their results)"};
  return live;
}

Result<bool> ArrayRun::wait() {
  std::string lastStatus;
  const std::vector<std::string> jobList(jobs.begin(), jobs.end());
  std::sort(waiting.begin(), waiting.end());
  for (;;) {
    if (process::stopRequested(request.cancel)) {
      cancelJobs(jobList);
      result.cancelled = true;
      return true;
    }
    auto live = liveTasksNow(jobList);
    if (!live)
      return Error{live.error()};
    Counts counts;
    endedByJob.clear();
    for (size_t i : waiting)
      poll(i, *live, counts);
    const std::string now = status(counts);
    if (now != lastStatus && request.onStatus)
      request.onStatus(now);
    lastStatus = now;
    if (counts.left == 0)
      return true;
    for (auto slept = std::chrono::milliseconds(0);
         slept < request.poll && !process::stopRequested(request.cancel);
         slept += std::chrono::milliseconds(100))
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

SlurmArrayResult ArrayRun::finish() {
  for (size_t i = 0; i < request.bundles.size(); ++i)
    if (!ended[i]) {
      result.ends[i].index = i;
      result.ends[i].task = taskOf[i];
      result.ends[i].why = "stopped here before Slurm task " + taskOf[i] +
                           " ended; it was cancelled (scancel)";
    }
  return std::move(result);
}

} // namespace

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

process::ProcessResult SlurmTaskEnd::process() const {
  process::ProcessResult result;
  result.outcome = state == "TIMEOUT"
                       ? process::ProcessResult::Outcome::TimedOut
                   : state == "CANCELLED" || state.empty()
                       ? process::ProcessResult::Outcome::Cancelled
                       : process::ProcessResult::Outcome::Exited;
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
  std::error_code ec;
  fs::create_directories(request.folder / "logs", ec);
  if (ec)
    return Error{"cannot create " + (request.folder / "logs").string() + ": " +
                 ec.message()};
  if (request.compile &&
      request.compile->folders.size() != request.bundles.size())
    return Error{"a compile stage needs one try folder per bundle"};
  ArrayRun array(request);
  for (auto step : {&ArrayRun::reattach, &ArrayRun::submit, &ArrayRun::wait})
    if (auto done = (array.*step)(); !done)
      return Error{done.error()};
  return array.finish();
}

} // namespace tilescope::run
