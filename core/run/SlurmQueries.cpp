#include "core/run/SlurmQueries.h"

#include "core/run/RemoteRun.h"
#include "core/util/Numbers.h"

#include <sstream>

namespace tilescope::run::slurm {

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

Result<process::ProcessResult> Slurm::run(const std::string &program,
                                          std::vector<std::string> arguments,
                                          bool mustSucceed) const {
  auto path = programOnPath(program);
  if (!path)
    return Error{"no " + program +
                 " on PATH: Slurm's client commands are needed to run on "
                 "a cluster (Debian: slurm-client)"};
  process::ProcessSpec spec;
  spec.program = *path;
  spec.arguments = std::move(arguments);
  spec.timeout = std::chrono::minutes(2);
  process::ProcessResult result = runProcess(spec);
  if (mustSucceed && !result.succeeded())
    return Error{program + " " + result.describe() + ": " +
                 trimmed(result.standardError.empty() ? result.standardOutput
                                                      : result.standardError)};
  return result;
}

// Splits "a|b|c" (squeue and sacct's parsable form).
std::vector<std::string> fields(const std::string &line, char separator) {
  std::vector<std::string> out;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, separator);)
    out.push_back(field);
  return out;
}

// The live tasks of `jobs`: queued, running, completing.
Result<std::map<std::string, TaskState>>
liveTasks(const Slurm &slurm, const std::vector<std::string> &jobs) {
  std::string list;
  for (const std::string &job : jobs)
    list += (list.empty() ? "" : ",") + job;
  // squeue refuses a list naming a job it no longer knows: each alone.
  const auto oneByOne = [&]() -> Result<std::map<std::string, TaskState>> {
    std::map<std::string, TaskState> live;
    for (const std::string &job : jobs) {
      auto some = liveTasks(slurm, {job});
      if (!some)
        return Error{some.error()};
      live.insert(some->begin(), some->end());
    }
    return live;
  };
  auto listed = slurm.run(
      "squeue",
      {"--noheader", "--array", "--jobs=" + list, "--format=%i|%T|%r|%N"},
      false);
  if (!listed)
    return Error{listed.error()};
  std::map<std::string, TaskState> live;
  // squeue says "Invalid job id specified" once every job has left the
  // queue and been purged: nothing is live.
  if (!listed->succeeded()) {
    if (listed->standardError.find("Invalid job id") != std::string::npos)
      return jobs.size() > 1 ? oneByOne()
                             : Result<std::map<std::string, TaskState>>(live);
    return Error{"squeue " + listed->describe() + ": " +
                 trimmed(listed->standardError)};
  }
  std::stringstream lines(listed->standardOutput);
  for (std::string line; std::getline(lines, line);) {
    auto f = fields(line, '|');
    if (f.size() >= 2)
      live[f[0]] = {f[1], f.size() > 2 ? f[2] : "", f.size() > 3 ? f[3] : "",
                    ""};
  }
  return live;
}

// How tasks that left the queue ended: sacct where accounting is on, else
// scontrol (which keeps ended jobs for MinJobAge, 5 minutes by default).
std::map<std::string, TaskState> endedTasks(const Slurm &slurm,
                                            const std::string &job) {
  std::map<std::string, TaskState> ended;
  if (auto accounted =
          slurm.run("sacct",
                    {"--noheader", "--parsable2", "--allocations",
                     "--jobs=" + job, "--format=JobID,State,ExitCode,NodeList"},
                    false);
      accounted && accounted->succeeded()) {
    std::stringstream lines(accounted->standardOutput);
    for (std::string line; std::getline(lines, line);) {
      auto f = fields(line, '|');
      if (f.size() >= 4) {
        // "CANCELLED by 0" -> CANCELLED
        std::string state = f[1].substr(0, f[1].find(' '));
        ended[f[0]] = {state, "", f[3], f[2]};
      }
    }
    if (!ended.empty())
      return ended;
  }
  auto shown = slurm.run("scontrol", {"--oneliner", "show", "job", job}, false);
  if (!shown || !shown->succeeded())
    return ended;
  std::stringstream lines(shown->standardOutput);
  for (std::string line; std::getline(lines, line);) {
    std::map<std::string, std::string> words;
    std::stringstream split(line);
    for (std::string word; split >> word;)
      if (const size_t eq = word.find('='); eq != std::string::npos)
        words.emplace(word.substr(0, eq), word.substr(eq + 1));
    const std::string tasks = words["ArrayTaskId"];
    if (tasks.empty())
      continue;
    TaskState state{words["JobState"], words["Reason"], words["NodeList"],
                    words["ExitCode"]};
    // A pending range ("4-7%2", "4,6") stands for each of its tasks.
    std::stringstream ranges(tasks.substr(0, tasks.find('%')));
    for (std::string range; std::getline(ranges, range, ',');) {
      const size_t dash = range.find('-');
      auto first = parseInt64(range.substr(0, dash));
      auto last = dash == std::string::npos
                      ? first
                      : parseInt64(range.substr(dash + 1));
      // A range is a job array's tasks: at most Slurm's MaxArraySize
      // (4,000,001), not a loop to 2^63 from a file's numbers.
      if (first && last && *first >= 0 && *last >= *first &&
          *last - *first <= 4000000)
        for (long long t = *first; t <= *last; ++t)
          ended[words["ArrayJobId"] + "_" + std::to_string(t)] = state;
    }
  }
  return ended;
}

} // namespace tilescope::run::slurm
