#include "core/sweep/SweepOnSlurm.h"

#include "core/run/SlurmRun.h"
#include "core/util/Hash.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace tilescope::jobs {
namespace {

// The sweep's folder name: its name and file, hashed.
std::string sweepKey(const SweepRequest &request) {
  return Fnv1a()
      .add(request.name + '\n' + fs::absolute(request.document->path).string())
      .hex();
}

} // namespace

Result<SlurmArrayResult>
runDeferredOnSlurm(const SweepRequest &request, const History &history,
                   std::vector<DeferredCandidate> &deferred,
                   const std::function<void(DeferredCandidate &)> &finished) {
  SlurmArrayRequest array;
  array.partition = request.place.partition;
  array.folder = request.workspace / "slurm" / ("sweep-" + sweepKey(request));
  array.sharedCache = request.workspace / "slurm";
  const fs::path candidatesFile = array.folder / "candidates.tsv";

  // Bundles an earlier run queued for these candidates and never recorded
  // (the history's tries name the bundles they took their time from).
  std::set<std::string> recorded;
  HistoryFilter filter;
  filter.sweep = request.name;
  if (auto earlier = history.list(filter))
    for (const TryRecord &record : *earlier)
      if (auto bench = record.details.find("bench");
          bench != record.details.end() && bench->contains("bundle"))
        recorded.insert(bench->value("bundle", ""));
  std::map<std::string, std::string> earlierBundle;
  {
    std::ifstream in(candidatesFile);
    for (std::string line; std::getline(in, line);)
      if (const size_t tab = line.rfind('\t'); tab != std::string::npos)
        earlierBundle[line.substr(0, tab)] = line.substr(tab + 1);
  }
  std::string lines;
  for (DeferredCandidate &d : deferred) {
    PreparedBench &pending = *d.result.pendingRun;
    auto it = earlierBundle.find(d.candidate->name);
    if (it != earlierBundle.end() && !recorded.count(it->second) &&
        fs::exists(fs::path(it->second) / "run.sh"))
      pending.bundle = it->second;
    pending.bundle = fs::absolute(pending.bundle);
    array.bundles.push_back(pending.bundle);
    lines += d.candidate->name + "\t" + pending.bundle.string() + "\n";
  }
  std::error_code ec;
  fs::create_directories(array.folder, ec);
  std::ofstream(candidatesFile, std::ios::app) << lines;

  const TryResult &first = deferred.front().result;
  array.run = first.pendingRun->run;
  array.run.onOutput = nullptr; // each task's output is its log
  array.gpu = driverOf(first.record.device) != "local-task";
  array.cancel = request.cancel;
  array.onStatus = request.onStatus;
  if (request.onCandidatePhase)
    array.onPhase = [&](size_t bundle, const std::string &phase) {
      request.onCandidatePhase(deferred[bundle].candidate->name, phase);
    };
  array.onEnd = [&](const SlurmTaskEnd &end) {
    DeferredCandidate &d = deferred[end.index];
    BenchJobResult bench = benchResultOf(*d.result.pendingRun, end.submission,
                                         end.process(), end.why);
    bench.slurm = end;
    finishTryRun(d.request, d.result, std::move(bench));
    d.result.record.details["on"] = request.place.toString();
    finished(d);
  };
  auto ran = runSlurmArray(array);
  if (!ran)
    return Error{"Slurm (partition " + request.place.partition +
                 "): " + ran.error()};
  return ran;
}

} // namespace tilescope::jobs
