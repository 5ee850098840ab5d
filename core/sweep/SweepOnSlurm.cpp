#include "core/sweep/SweepOnSlurm.h"

#include "core/run/SlurmRun.h"
#include "core/util/Hash.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace tilescope::sweep {
namespace {

// The sweep's folder name: its name and file, hashed.
std::string sweepKey(const SweepRequest &request) {
  return Fnv1a()
      .add(request.name + '\n' + fs::absolute(request.document->path).string())
      .hex();
}

// Bundles an earlier run queued for the sweep's candidates and recorded
// (the history's tries name the bundles they took their time from).
std::set<std::string> recordedBundles(const tries::History &history,
                                      const std::string &sweep) {
  std::set<std::string> recorded;
  tries::HistoryFilter filter;
  filter.sweep = sweep;
  if (auto earlier = history.list(filter))
    for (const tries::TryRecord &record : *earlier)
      if (record.bench && !record.bench->bundle.empty())
        recorded.insert(record.bench->bundle);
  return recorded;
}

// A candidate's bundle from an earlier run, and the try folder compiling
// its module when that compile went as a task too.
struct Earlier {
  std::string bundle, folder;
};

// The candidates file's lines ("NAME\tBUNDLE[\tFOLDER]"), by candidate.
std::map<std::string, Earlier> earlierBundles(const fs::path &candidatesFile) {
  std::map<std::string, Earlier> earlier;
  std::ifstream in(candidatesFile);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f;
    std::stringstream split(line);
    for (std::string field; std::getline(split, field, '\t');)
      f.push_back(field);
    if (f.size() == 2 || f.size() == 3)
      earlier[f[0]] = {f[1], f.size() == 3 ? f[2] : ""};
  }
  return earlier;
}

} // namespace

Result<run::SlurmArrayResult>
runDeferredOnSlurm(const SweepRequest &request, const tries::History &history,
                   std::vector<DeferredCandidate> &deferred,
                   const std::function<void(DeferredCandidate &)> &finished) {
  run::SlurmArrayRequest array;
  array.partition = request.place.partition;
  array.folder = request.workspace / "slurm" / ("sweep-" + sweepKey(request));
  array.sharedCache = request.workspace / "slurm";
  const fs::path candidatesFile = array.folder / "candidates.tsv";

  const std::set<std::string> recorded = recordedBundles(history, request.name);
  const std::map<std::string, Earlier> earlierBundle =
      earlierBundles(candidatesFile);
  const bool compileThere = deferred.front().result.pendingCompile;
  const std::string compiledOn = "slurm:" + request.compilePartition;
  if (compileThere) {
    run::SlurmCompileStage &stage = array.compile.emplace();
    stage.partition = request.compilePartition;
    stage.timeout = request.timeout;
  }
  std::string lines;
  for (DeferredCandidate &d : deferred) {
    run::PreparedBench &pending = *d.result.pendingRun;
    auto it = earlierBundle.find(d.candidate->name);
    // An earlier bundle of the same kind (its module compiled here, or by a
    // compile task) that was never recorded: waited for or sent again.
    if (it != earlierBundle.end() && !recorded.count(it->second.bundle) &&
        fs::exists(fs::path(it->second.bundle) / "run.sh") &&
        compileThere == !it->second.folder.empty()) {
      pending.bundle = it->second.bundle;
      if (compileThere) {
        // Its module comes from the earlier try folder: this one's compile
        // is that one, and the folder just made is not needed.
        const fs::path folder = it->second.folder;
        std::error_code removed;
        fs::remove_all(d.request.directory, removed);
        d.request.directory = folder;
        d.result.compiled.artifacts = service::compileArtifactsIn(folder);
        d.result.compiled.spec.workingDirectory = folder;
        d.result.record.directory = folder.string();
      }
    }
    pending.bundle = fs::absolute(pending.bundle);
    array.bundles.push_back(pending.bundle);
    lines += d.candidate->name + "\t" + pending.bundle.string();
    if (compileThere) {
      const fs::path folder = fs::absolute(d.request.directory);
      array.compile->folders.push_back(folder);
      lines += "\t" + folder.string();
    }
    lines += "\n";
  }
  std::error_code ec;
  fs::create_directories(array.folder, ec);
  std::ofstream(candidatesFile, std::ios::app) << lines;

  const tries::TryResult &first = deferred.front().result;
  array.run = first.pendingRun->run;
  array.run.onOutput = nullptr; // each task's output is its log
  array.gpu = run::driverOf(first.record.device) != "local-task";
  array.cancel = request.cancel;
  array.onStatus = request.onStatus;
  if (request.onCandidatePhase)
    array.onPhase = [&](size_t bundle, const std::string &phase) {
      request.onCandidatePhase(deferred[bundle].candidate->name, phase);
    };
  if (compileThere)
    array.compile->onCompiled = [&](size_t bundle,
                                    process::ProcessResult compiled,
                                    const run::SlurmTaskEnd *slurm) {
      DeferredCandidate &d = deferred[bundle];
      finishTryCompile(d.request, d.result, std::move(compiled));
      if (d.result.pendingRun)
        return true;
      tries::TryRecord &record = d.result.record;
      record.where.compiledOn = compiledOn;
      if (slurm) {
        // Slurm ended its task before it compiled this: said as a run's
        // task end is (and resumable the same way: cancelled, timed out,
        // its node down).
        record.outcome = slurm->outcome() == "run-failed" ? "compile-failed"
                                                          : slurm->outcome();
        record.summary = slurm->why;
        record.where.compileTask = tries::CompileTask{
            slurm->task, slurm->state, slurm->node, slurm->log.string()};
      }
      finished(d);
      return false;
    };
  array.onEnd = [&](const run::SlurmTaskEnd &end) {
    DeferredCandidate &d = deferred[end.index];
    run::BenchJobResult bench = benchResultOf(
        *d.result.pendingRun, end.submission, end.process(), end.why);
    bench.slurm = end;
    finishTryRun(d.request, d.result, std::move(bench));
    d.result.record.where.on = request.place.toString();
    if (compileThere)
      d.result.record.where.compiledOn = compiledOn;
    finished(d);
  };
  auto ran = runSlurmArray(array);
  if (!ran)
    return Error{"Slurm (partition " + request.place.partition +
                 "): " + ran.error()};
  return ran;
}

} // namespace tilescope::sweep
