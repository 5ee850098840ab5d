#include "core/sweep/SweepJson.h"

#include "core/export/ConfigJson.h"
#include "core/tries/JobJson.h"
#include "core/tries/TryComparison.h"

#include <algorithm>

using nlohmann::json;

namespace tilescope::sweep {

namespace {
const char *const kPlanPredictionBasis =
    "estimated resources: registers and shared memory estimated before any "
    "compile, the weaker order (docs/cost-model.md); --compile-only ranks "
    "by each compiled kernel's own";
} // namespace

json toJson(const SweepCandidate &c, const SweepCandidate *first) {
  json out = {{"candidate", c.name}, {"valid", c.valid}};
  json settings = json::object();
  for (const auto &[field, value] : c.settings)
    settings[field] = value;
  out["settings"] = settings;
  if (!c.ireeVerdict.empty()) {
    out["iree_verdict"] = c.ireeVerdict;
    out["iree_verdict_by"] = c.ireeVerdictBy;
  }
  if (!c.problems.empty())
    out["problems"] = exporting::toJson(c.problems);
  if (!c.valid) {
    out["why_not"] = c.whyNot;
    return out;
  }
  if (c.predictedMicroseconds) {
    out["predicted_us"] = *c.predictedMicroseconds;
    out["prediction"] = c.prediction;
    out["prediction_resources"] =
        c.predictedFromCompile ? "compiled" : "estimated";
  }
  if (auto measured = c.measuredMicroseconds())
    out["measured_us"] = *measured;
  if (c.measuredElsewhere)
    out["measured_in_try"] = c.measuredElsewhere->id;
  if (first && first != &c)
    if (auto verdict = againstFirst(*first, c))
      out["against_first"] = toJson(*verdict);
  out["ranked_by"] = c.rankedBy();
  if (c.record) {
    out["try"] = c.record->id;
    out["outcome"] = c.record->outcome;
    out["summary"] = c.record->summary;
    out["resumed"] = c.resumed;
    out["median_us"] = c.record->medianMicroseconds
                           ? json(*c.record->medianMicroseconds)
                           : json(nullptr);
    out["directory"] = c.record->directory;
    if (c.record->resources)
      out["resources"] = tries::toJson(*c.record->resources);
  }
  return out;
}

json toJson(const IreeSpace &space) {
  return {{"pipeline", space.pipeline},
          {"assertions", space.assertions},
          {"knobs", space.knobs},
          {"fields", space.fields},
          {"current", space.current},
          {"varied", space.varied},
          {"held", space.held},
          {"following", space.following},
          {"relaxed", space.relaxed},
          {"size", space.space.points.size()},
          {"truncated", space.space.truncated},
          {"search_nodes", space.space.visited},
          {"list_ms", space.listMilliseconds},
          {"current_in_space", space.currentInSpace},
          {"commands", space.commands}};
}

void describeSource(const PreparedSweep &prepared, json &out) {
  out["neighbourhood"] = prepared.neighbourhood;
  if (prepared.source.space)
    out["iree_space"] = toJson(*prepared.source.space);
  if (!prepared.source.whyNotIree.empty())
    out["why_not_iree"] = prepared.source.whyNotIree;
}

json planJson(const std::string &name, const std::vector<SweepCandidate> &plan,
              const PreparedSweep &prepared) {
  size_t valid = 0;
  json list = json::array();
  for (const SweepCandidate &c : plan) {
    valid += c.valid ? 1 : 0;
    list.push_back(toJson(c));
  }
  json out = {{"sweep", name},
              {"candidates", list},
              {"valid", valid},
              {"total", plan.size()}};
  // A plan compiles nothing: its predictions rest on estimated registers
  // and shared memory, the weaker of the model's two orders.
  if (std::any_of(plan.begin(), plan.end(), [](const SweepCandidate &c) {
        return c.predictedMicroseconds.has_value();
      }))
    out["predicted_from"] = kPlanPredictionBasis;
  describeSource(prepared, out);
  return out;
}

json resultJson(const std::string &name, const SweepResult &swept,
                const PreparedSweep &prepared) {
  json list = json::array();
  const SweepCandidate *first =
      swept.candidates.empty() ? nullptr : &swept.candidates.front();
  for (const SweepCandidate &c : swept.candidates)
    list.push_back(toJson(c, first));
  json out = {{"sweep", name},
              {"ran", swept.ran},
              {"resumed", swept.resumed},
              {"invalid", swept.invalid},
              {"cancelled", swept.cancelled},
              {"ranking", rankingHeading(swept.candidates)},
              {"candidates", list}};
  if (!swept.slurmJobs.empty() || swept.reattached > 0)
    out["slurm"] = {{"jobs", swept.slurmJobs},
                    {"submitted", swept.submitted},
                    {"reattached", swept.reattached}};
  describeSource(prepared, out);
  return out;
}

std::string rankingHeading(const std::vector<SweepCandidate> &ranked) {
  size_t measured = 0, predicted = 0;
  for (const SweepCandidate &c : ranked) {
    const std::string by = c.rankedBy();
    measured += by == "measured";
    predicted += by == "predicted";
  }
  if (measured == 0 && predicted == 0)
    return "nothing measured or predicted (the cost model covers GPU "
           "targets): in the order tried, fewer registers first";
  if (predicted == 0)
    return "ranked by measured time";
  if (measured == 0)
    return "ranked by predicted time (nothing timed: the cost model's order, "
           "not the GPU's; docs/cost-model.md)";
  return std::to_string(measured) +
         " measured first, then the rest by predicted time";
}

bool everyValidFinished(const SweepResult &swept) {
  for (const SweepCandidate &c : swept.candidates)
    if (c.valid && (!c.record || (c.record->outcome != "ok" &&
                                  c.record->outcome != "cannot-run-here")))
      return false;
  return true;
}

} // namespace tilescope::sweep
