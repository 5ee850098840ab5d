#include "core/tries/JobJson.h"

#include "core/export/DocumentJson.h"
#include "core/service/UntrustedFiles.h"
#include "core/tries/TriedCheck.h"

#include <utility>

namespace tilescope::tries {
namespace {

using nlohmann::json;

template <typename T> json optional(const std::optional<T> &value) {
  return value ? json(*value) : json(nullptr);
}

} // namespace

std::string outcomeOf(const process::ProcessResult &process) {
  switch (process.outcome) {
  case process::ProcessResult::Outcome::Exited:
    return process.exitCode == 0 ? "ok" : "failed";
  case process::ProcessResult::Outcome::Signaled:
    return "crashed";
  case process::ProcessResult::Outcome::TimedOut:
    return "timed-out";
  case process::ProcessResult::Outcome::Cancelled:
    return "cancelled";
  case process::ProcessResult::Outcome::FailedToStart:
    return "failed-to-start";
  }
  return "failed";
}

std::string outcomeOf(const service::CompileJobResult &compiled) {
  if (compiled.succeeded())
    return "ok";
  switch (compiled.process.outcome) {
  case process::ProcessResult::Outcome::Signaled:
    return "compiler-crashed";
  case process::ProcessResult::Outcome::TimedOut:
    return "timed-out";
  case process::ProcessResult::Outcome::Cancelled:
    return "cancelled";
  default:
    return "compile-failed";
  }
}

std::string outcomeOf(const run::BenchJobResult &bench) {
  if (bench.succeeded())
    return "ok";
  if (bench.slurm && !bench.slurm->outcome().empty())
    return bench.slurm->outcome();
  switch (bench.process.outcome) {
  case process::ProcessResult::Outcome::TimedOut:
    return "timed-out";
  case process::ProcessResult::Outcome::Cancelled:
    return "cancelled";
  default:
    return "run-failed";
  }
}

std::string outcomeOf(const run::CheckResult &check) {
  if (check.compiledOnly)
    return "cannot-run-here";
  if (!check.hasVerdict())
    return check.failedStep.find("compile") != std::string::npos
               ? "compile-failed"
               : "run-failed";
  return check.passed() ? "ok" : "check-failed";
}

json toJson(const isa::KernelResources &k) {
  json out = {{"kernel", k.kernel},
              {"backend", k.backend},
              {"arch", k.arch},
              {"read_from", k.readFrom.string()},
              {"scratch_bytes", k.scratchBytes},
              {"shared_memory_bytes", k.sharedMemoryBytes},
              {"workgroup_size", k.workgroupSize},
              {"subgroup_size", k.subgroupSize},
              {"spills", k.spills()}};
  if (k.backend == "rocm") {
    out["vgprs"] = optional(k.vgprs);
    out["agprs"] = optional(k.agprs);
    out["sgprs"] = optional(k.sgprs);
    out["vgpr_spills"] = optional(k.vgprSpills);
    out["sgpr_spills"] = optional(k.sgprSpills);
  } else {
    out["registers"] = optional(k.registers);
    out["spill_store_bytes"] = optional(k.spillStoreBytes);
    out["spill_load_bytes"] = optional(k.spillLoadBytes);
  }
  if (k.occupancy) {
    json limits = json::object();
    for (const layout::OccupancyLimit &limit : k.occupancy->limits)
      limits[limit.resource] = limit.active;
    out["occupancy"] = {{"active", k.occupancy->active},
                        {"maximum", k.occupancy->maximum},
                        {"unit", k.occupancy->unit},
                        {"limited_by", k.occupancy->limitedBy},
                        {"limits", limits}};
  } else {
    out["occupancy"] = nullptr;
    out["occupancy_note"] = k.occupancyNote;
  }
  return out;
}

isa::KernelResources kernelResourcesFromJson(const json &in) {
  // Read from the history and from bundles made elsewhere: each field is
  // used only with its type and in its range (UntrustedFiles.h).
  isa::KernelResources k;
  if (!in.is_object())
    return k;
  constexpr long long kMostBytes = 1ll << 40, kMostCount = 1 << 20;
  auto count = [&in](const char *key, std::optional<int> &field) {
    if (auto value = service::integerField(in, key, 0, kMostCount))
      field = static_cast<int>(*value);
  };
  k.kernel = service::stringField(in, "kernel");
  k.backend = service::stringField(in, "backend");
  k.arch = service::stringField(in, "arch");
  k.readFrom = service::stringField(in, "read_from");
  k.scratchBytes =
      service::integerField(in, "scratch_bytes", 0, kMostBytes).value_or(0);
  k.sharedMemoryBytes =
      service::integerField(in, "shared_memory_bytes", 0, kMostBytes)
          .value_or(0);
  k.workgroupSize = static_cast<int>(
      service::integerField(in, "workgroup_size", 0, kMostCount).value_or(0));
  k.subgroupSize = static_cast<int>(
      service::integerField(in, "subgroup_size", 0, kMostCount).value_or(0));
  count("vgprs", k.vgprs);
  count("agprs", k.agprs);
  count("sgprs", k.sgprs);
  count("vgpr_spills", k.vgprSpills);
  count("sgpr_spills", k.sgprSpills);
  count("registers", k.registers);
  k.spillStoreBytes =
      service::integerField(in, "spill_store_bytes", 0, kMostBytes);
  k.spillLoadBytes =
      service::integerField(in, "spill_load_bytes", 0, kMostBytes);
  k.occupancyNote = service::stringField(in, "occupancy_note");
  const json occupancy = in.value("occupancy", json());
  if (occupancy.is_object()) {
    layout::Occupancy o;
    o.active = static_cast<int>(
        service::integerField(occupancy, "active", 0, kMostCount).value_or(0));
    o.maximum = static_cast<int>(
        service::integerField(occupancy, "maximum", 0, kMostCount).value_or(0));
    o.unit = service::stringField(occupancy, "unit");
    o.limitedBy = service::stringField(occupancy, "limited_by");
    if (occupancy.contains("limits") && occupancy["limits"].is_object())
      for (const auto &[resource, active] : occupancy["limits"].items())
        if (active.is_number_integer() &&
            std::in_range<int>(active.get<long long>()))
          o.limits.push_back({resource, active.get<int>()});
    k.occupancy = o;
  }
  return k;
}

service::ResourceReport resourceReportFromJson(const json &in) {
  service::ResourceReport report;
  if (!in.is_object())
    return report;
  if (const auto kernels = in.find("kernels");
      kernels != in.end() && kernels->is_array())
    for (const json &kernel : *kernels)
      if (kernel.is_object())
        report.kernels.push_back(kernelResourcesFromJson(kernel));
  report.commands = service::stringsField(in, "commands");
  report.notes = service::stringsField(in, "notes");
  return report;
}

std::optional<layout::CostPrediction> costPredictionFromJson(const json &in) {
  // numberField's numbers are finite.
  const auto us = service::numberField(in, "us");
  if (!us || *us <= 0)
    return std::nullopt;
  constexpr long long kMostCount = 1ll << 40;
  auto count = [&in](const char *key) {
    return service::integerField(in, key, 0, kMostCount).value_or(0);
  };
  auto number = [&in](const char *key) {
    const auto value = service::numberField(in, key);
    return value && *value >= 0 ? *value : 0.0;
  };
  layout::CostPrediction p;
  p.microseconds = *us;
  p.model = service::stringField(in, "model");
  p.boundBy = service::stringField(in, "bound_by");
  p.workgroups = count("workgroups");
  p.residentPerCu = count("resident_per_unit");
  p.rounds = count("rounds");
  p.steps = count("steps");
  p.globalBytes = number("global_bytes");
  p.floorMicroseconds = number("floor_us");
  p.resourcesEstimated = service::stringField(in, "resources") != "compiled";
  if (const auto terms = in.find("terms");
      terms != in.end() && terms->is_array())
    for (const json &term : *terms)
      if (term.is_object())
        p.terms.push_back({service::stringField(term, "name"),
                           service::numberField(term, "us").value_or(0),
                           service::stringField(term, "detail")});
  p.notes = service::stringsField(in, "notes");
  return p;
}

json toJson(const service::ResourceReport &report) {
  json kernels = json::array();
  for (const isa::KernelResources &kernel : report.kernels)
    kernels.push_back(toJson(kernel));
  return {{"kernels", kernels},
          {"commands", report.commands},
          {"notes", report.notes}};
}

json toJson(const run::CheckResult &check) {
  return toJson(triedCheckOf(check));
}

namespace {

json sourceJson(const std::optional<document::SourceLocation> &source) {
  return source ? exporting::toJson(*source) : json(nullptr);
}

json splitJson(const std::optional<std::vector<int64_t>> &split) {
  return split ? json(*split) : json(nullptr);
}

} // namespace

json toJson(const document::FormedDispatch &dispatch) {
  json ops = json::array();
  for (const document::DispatchedOp &op : dispatch.ops)
    ops.push_back(json{{"op", op.name},
                       {"source", sourceJson(op.source)},
                       {"bounds", op.bounds},
                       {"split", splitJson(op.split)}});
  return json{{"executable", dispatch.executable},
              {"name", dispatch.name},
              {"ops", ops}};
}

json toJson(const service::SplitKAnalysis &analysis) {
  json reductions = json::array();
  for (const service::SplitKReduction &reduction : analysis.reductions) {
    const document::ProgramReduction &op = reduction.op;
    const std::vector<int64_t> bounds = config::reductionBounds(op.facts.space);
    json entry{{"op", op.function + ":" + std::to_string(op.index)},
               {"name", op.name},
               {"source", sourceJson(op.source)},
               {"iteration_space", op.facts.space.toString()},
               {"reduction_bounds", bounds},
               {"iree_split", splitJson(op.split)},
               {"rule", config::toString(reduction.decision.rule)},
               {"reasons", reduction.decision.reasons},
               {"tilescope_agrees", reduction.agrees}};
    if (op.split)
      entry["chunks"] = config::splitCounts(bounds, *op.split);
    if (!reduction.agrees)
      entry["tilescope_split"] = reduction.decision.sizes;
    reductions.push_back(std::move(entry));
  }
  json dispatches = json::array();
  for (const document::FormedDispatch &dispatch : analysis.dispatches)
    dispatches.push_back(toJson(dispatch));
  return json{{"reductions", reductions},
              {"dispatches", dispatches},
              {"commands", analysis.commands}};
}

json toJson(const service::SplitKApplied &applied) {
  json dispatches = json::array();
  for (const document::FormedDispatch &dispatch : applied.dispatches)
    dispatches.push_back(toJson(dispatch));
  return json{{"dispatches", dispatches},
              {"command", applied.command},
              {"warnings", applied.warnings}};
}

} // namespace tilescope::tries
