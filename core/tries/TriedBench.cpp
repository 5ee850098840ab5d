#include "core/tries/TriedBench.h"

#include "core/service/UntrustedFiles.h"
#include "core/tries/JobJson.h"

#include <algorithm>
#include <limits>

using nlohmann::json;

namespace tilescope::tries {
namespace {

std::optional<double> positive(const json &in, const char *key) {
  const auto value = service::numberField(in, key);
  return value && *value > 0 ? value : std::nullopt;
}

} // namespace

TriedBench notRun(const std::string &why) {
  TriedBench bench;
  bench.why = why;
  return bench;
}

TriedBench triedBenchOf(const run::ModuleTiming &timing) {
  TriedBench bench;
  bench.ran = true;
  bench.timing = timing;
  bench.timing.measurements.clear();
  return bench;
}

TriedBench triedBenchOf(const run::BenchJobResult &job) {
  TriedBench bench = triedBenchOf(job.timing);
  bench.process =
      RanProcess{job.spec.shellCommand(), outcomeOf(job.process),
                 job.process.describe(), job.process.elapsed.count() / 1000.0};
  bench.bundle = job.bundle.string();
  bench.summary = job.summary();
  if (!job.succeeded())
    bench.error = job.error;
  if (job.remote)
    bench.remote = RanRemote{"ssh:" + job.remote->host, job.remote->folder,
                             job.remote->toolsCopied, job.remote->steps};
  if (job.slurm)
    bench.slurm = RanSlurm{job.slurm->task,         job.slurm->state,
                           job.slurm->node,         job.slurm->exitCode,
                           job.slurm->log.string(), job.slurm->reattached};
  return bench;
}

json toJson(const TriedBench &bench) {
  if (!bench.ran)
    return {{"ran", false}, {"why", bench.why}};
  json out = toJson(bench.timing);
  out["ran"] = true;
  if (bench.process) {
    out["process"] = {{"command", bench.process->command},
                      {"outcome", bench.process->outcome},
                      {"status", bench.process->status},
                      {"seconds", bench.process->seconds}};
    out["command"] = bench.process->command;
  }
  if (!bench.bundle.empty())
    out["bundle"] = bench.bundle;
  if (!bench.summary.empty())
    out["summary"] = bench.summary;
  if (!bench.error.empty())
    out["error"] = bench.error;
  if (bench.remote)
    out["remote"] = {{"on", bench.remote->on},
                     {"folder", bench.remote->folder},
                     {"tools_copied", bench.remote->toolsCopied},
                     {"steps", bench.remote->steps}};
  if (bench.slurm)
    out["slurm"] = {
        {"task", bench.slurm->task}, {"state", bench.slurm->state},
        {"node", bench.slurm->node}, {"exit_code", bench.slurm->exitCode},
        {"log", bench.slurm->log},   {"reattached", bench.slurm->reattached}};
  if (bench.floorMicroseconds && bench.efficiency) {
    out["floor_us"] = *bench.floorMicroseconds;
    out["efficiency"] = *bench.efficiency;
    out["bound_by"] = bench.boundBy;
  }
  if (!bench.besideTilescope.empty())
    out["beside_tilescope"] = toJson(bench.besideTilescope);
  return out;
}

std::optional<TriedBench> triedBenchFromJson(const json &in) {
  if (!in.is_object())
    return std::nullopt;
  TriedBench bench;
  // A run written before "ran" was kept had a time or an error.
  bench.ran = in.contains("ran") ? service::flagField(in, "ran") : true;
  if (!bench.ran) {
    bench.why = service::stringField(in, "why");
    return bench;
  }
  bench.timing = run::moduleTimingFromJson(in);
  if (const json *process = service::objectField(in, "process"))
    bench.process = RanProcess{
        service::stringField(*process, "command"),
        service::stringField(*process, "outcome"),
        service::stringField(*process, "status"),
        std::max(0.0, service::numberField(*process, "seconds").value_or(0))};
  bench.bundle = service::stringField(in, "bundle");
  bench.summary = service::stringField(in, "summary");
  bench.error = service::stringField(in, "error");
  if (const json *remote = service::objectField(in, "remote"))
    bench.remote = RanRemote{service::stringField(*remote, "on"),
                             service::stringField(*remote, "folder"),
                             service::flagField(*remote, "tools_copied"),
                             service::stringsField(*remote, "steps")};
  if (const json *slurm = service::objectField(in, "slurm"))
    bench.slurm = RanSlurm{service::stringField(*slurm, "task"),
                           service::stringField(*slurm, "state"),
                           service::stringField(*slurm, "node"),
                           service::stringField(*slurm, "exit_code"),
                           service::stringField(*slurm, "log"),
                           service::flagField(*slurm, "reattached")};
  bench.floorMicroseconds = positive(in, "floor_us");
  bench.efficiency = positive(in, "efficiency");
  if (bench.floorMicroseconds && bench.efficiency)
    bench.boundBy = service::stringField(in, "bound_by");
  else
    bench.floorMicroseconds = bench.efficiency = std::nullopt;
  if (const auto rows = in.find("beside_tilescope"); rows != in.end())
    bench.besideTilescope = profileRowsFromJson(*rows);
  return bench;
}

bool BundleOrigin::sameResults(const BundleOrigin &other) const {
  return bundle == other.bundle && created == other.created &&
         module == other.module && finished == other.finished;
}

void addOrigin(const BundleOrigin &origin, json &details) {
  details["imported_from"] = {{"bundle", origin.bundle},
                              {"bundle_created", origin.created},
                              {"module", origin.module},
                              {"finished", origin.finished}};
  if (!origin.runOn.empty())
    details["run_on"] = origin.runOn;
  if (origin.compiledIn)
    details["compiled_in"] = *origin.compiledIn;
}

std::optional<BundleOrigin> bundleOriginFromJson(const json &details) {
  const json *from = service::objectField(details, "imported_from");
  if (!from)
    return std::nullopt;
  BundleOrigin origin;
  origin.bundle = service::stringField(*from, "bundle");
  origin.created = service::stringField(*from, "bundle_created");
  origin.module = service::stringField(*from, "module");
  origin.finished = service::stringField(*from, "finished");
  origin.runOn = service::stringField(details, "run_on");
  origin.compiledIn = service::integerField(
      details, "compiled_in", 1, std::numeric_limits<long long>::max());
  return origin;
}

} // namespace tilescope::tries
