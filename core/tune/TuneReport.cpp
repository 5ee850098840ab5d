#include "core/tune/TuneReport.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

using nlohmann::json;

namespace tilescope::tune {

namespace {

json timingJson(const std::optional<run::TimingStats> &stats) {
  return stats ? run::toJson(*stats) : json(nullptr);
}

template <typename T> json optionalJson(const std::optional<T> &value) {
  return value ? json(*value) : json(nullptr);
}

json runJson(const std::optional<ProgramRun> &run) {
  if (!run)
    return nullptr;
  json out = {{"what", run->what},
              {"folder", run->check.directory.string()},
              {"device", run->check.device},
              {"function", run->check.function},
              {"check", run->check.hasVerdict() ? run->check.summary() : ""},
              {"check_passed", run->check.hasVerdict()
                                   ? json(run->check.passed())
                                   : json(nullptr)},
              {"time", timingJson(run->time)},
              // Every step of the checked run as a shell command (an ssh
              // or srun step where it ran elsewhere).
              {"commands", run->check.commands}};
  if (!run->error.empty())
    out["error"] = run->error;
  return out;
}

std::string microseconds(double us) {
  char text[32];
  if (us >= 10000)
    std::snprintf(text, sizeof text, "%.2f ms", us / 1000);
  else
    std::snprintf(text, sizeof text, "%.1f us", us);
  return text;
}

std::string timeText(const std::optional<run::TimingStats> &measured,
                     const std::optional<double> &predicted) {
  if (measured)
    return microseconds(measured->median);
  if (predicted)
    return "~" + microseconds(*predicted) + " (predicted)";
  return "-";
}

} // namespace

TuneRow tuneRow(const DispatchTune &d) {
  TuneRow row;
  row.dispatch = std::to_string(d.dispatch);
  row.op = d.opName.empty() ? d.name : d.opName + " " + d.loops;
  row.share = "-";
  if (!d.shareFrom.empty()) {
    char share[16];
    std::snprintf(share, sizeof share, "%.1f%%%s", d.share * 100,
                  d.shareFrom == "predicted" ? "~" : "");
    row.share = share;
  }
  row.defaultTime = timeText(d.defaultTime, d.defaultPredicted);
  row.winnerTime =
      d.winner.empty() ? "-" : timeText(d.winnerTime, d.winnerPredicted);
  row.speedup = "-";
  if (d.verdict && d.kept) {
    char speedup[16];
    std::snprintf(speedup, sizeof speedup, "%.2fx", d.verdict->speedup);
    row.speedup = speedup;
  }
  row.outcome = d.outcome;
  row.winner = d.winner;
  if (!d.sameAs) {
    row.why = d.why;
    if (!d.check.empty())
      row.why += (row.why.empty() ? "" : "; ") + d.check;
  }
  if (!d.specNote.empty())
    row.why +=
        (row.why.empty() ? "" : "; ") + ("not in the spec: " + d.specNote);
  return row;
}

json toJson(const TuneResult &result) {
  json dispatches = json::array();
  for (const DispatchTune &d : result.dispatches) {
    json entry = {
        {"dispatch", d.dispatch},
        {"op", std::to_string(d.dispatch) + ":" + std::to_string(d.op)},
        {"name", d.name},
        {"op_name", d.opName},
        {"loops", d.loops},
        {"kind", d.kind},
        {"same_as", optionalJson(d.sameAs)},
        {"share", d.share},
        {"share_from", d.shareFrom},
        {"default_time", timingJson(d.defaultTime)},
        {"default_predicted_us", optionalJson(d.defaultPredicted)},
        {"outcome", d.outcome},
        {"why", d.why},
        {"sweep", d.sweep},
        {"neighbourhood", d.neighbourhood},
        {"candidates", d.candidates},
        {"valid", d.valid},
        {"winner", d.winner},
        {"winner_time", timingJson(d.winnerTime)},
        {"winner_predicted_us", optionalJson(d.winnerPredicted)},
        {"verdict", d.verdict ? tries::toJson(*d.verdict) : json(nullptr)},
        {"check", d.check},
        {"kept", d.kept},
        {"predicted_only", d.predictedOnly}};
    if (d.kept || d.predictedOnly) {
      entry["lowering_config"] = d.loweringConfig;
      entry["compilation_info"] = d.compilationInfo;
      entry["translation_info"] = d.translationInfo;
    }
    if (!d.specNote.empty())
      entry["not_in_spec"] = d.specNote;
    dispatches.push_back(entry);
  }
  json proof = json::array();
  for (const auto &[op, why] : result.specProof)
    proof.push_back({{"op", op}, {"applied", why.empty()}, {"why", why}});
  return {{"folder", result.folder.string()},
          {"configured", result.configured.string()},
          {"spec",
           result.spec.empty() ? json(nullptr) : json(result.spec.string())},
          {"spec_flag", result.specFlag},
          {"target_flags", result.targetFlags},
          {"target", result.target},
          {"device", result.device},
          {"on", result.on.empty() ? json(nullptr) : json(result.on)},
          {"bundle", result.bundle.empty() ? json(nullptr)
                                           : json(result.bundle.string())},
          {"imported",
           result.imported.empty() ? json(nullptr) : json(result.imported)},
          {"measured", result.measured},
          {"not_measured_because", result.notMeasuredBecause},
          {"dispatches", dispatches},
          {"spec_proof", proof},
          {"default_program", runJson(result.defaultRun)},
          {"tuned_program", runJson(result.tunedRun)},
          {"outputs_agree", optionalJson(result.outputsAgree)},
          {"spec_breaks_compile", specBreaksCompile(result)},
          {"outputs_comparison", result.outputsComparison},
          {"end_to_end",
           result.endToEnd ? tries::toJson(*result.endToEnd) : json(nullptr)},
          {"end_to_end_outcome", result.endToEnd
                                     ? json(endToEndOutcome(*result.endToEnd))
                                     : json(nullptr)},
          {"wall_seconds", result.wallSeconds},
          {"tries", result.tries},
          {"resumed", result.resumed},
          {"budget_spent", result.budgetSpent},
          {"cancelled", result.cancelled},
          {"notes", result.notes}};
}

std::string endToEndOutcome(const tries::TimeVerdict &verdict) {
  return verdict.withinNoise     ? "within noise"
         : verdict.b < verdict.a ? "faster"
                                 : "slower";
}

std::string endToEndSentence(const tries::TimeVerdict &verdict) {
  const double difference = std::abs(verdict.a - verdict.b);
  char text[400];
  if (verdict.withinNoise)
    std::snprintf(text, sizeof text,
                  "end to end: the tuned program and IREE's default run "
                  "within noise of each other (tuned %.3g us a call %s; "
                  "noise %.2g us)",
                  difference, verdict.b <= verdict.a ? "faster" : "slower",
                  verdict.noise);
  else if (verdict.b < verdict.a)
    std::snprintf(text, sizeof text,
                  "end to end: the tuned program runs %.2fx as fast as IREE's "
                  "default (%.3g us a call faster; noise %.2g us)",
                  verdict.speedup, difference, verdict.noise);
  else
    std::snprintf(text, sizeof text,
                  "end to end: the tuned program is SLOWER than IREE's "
                  "default, %.2fx its speed (%.3g us a call slower; noise "
                  "%.2g us), though each winner was faster alone: do not use "
                  "this spec as it is",
                  verdict.speedup, difference, verdict.noise);
  return text;
}

bool specBreaksCompile(const TuneResult &result) {
  return result.tunedRun && result.tunedRun->check.failedStep == "compile" &&
         result.defaultRun && result.defaultRun->check.failedStep != "compile";
}

std::string tuneReport(const TuneResult &result) {
  std::ostringstream out;
  out << "tune of " << result.configured.filename().string() << " for "
      << result.target << ": "
      << (result.measured
              ? "measured on " + result.device +
                    (result.on.empty() ? "" : " (" + result.on + ")")
          : !result.imported.empty()
              ? "measured elsewhere (" + result.notMeasuredBecause + ")"
              : "compiled and predicted only (" + result.notMeasuredBecause +
                    ")")
      << "\n";
  if (!result.imported.empty())
    out << "imported: " << result.imported << "\n";
  out << "\n";
  out << "  dispatch  op                              share    IREE default"
         "          winner                speedup  outcome\n";
  for (const DispatchTune &d : result.dispatches) {
    const TuneRow row = tuneRow(d);
    char line[320];
    std::snprintf(
        line, sizeof line, "  %-8s  %-30s  %-7s  %-20s  %-20s  %-7s  ",
        row.dispatch.c_str(), row.op.substr(0, 30).c_str(), row.share.c_str(),
        row.defaultTime.c_str(), row.winnerTime.c_str(), row.speedup.c_str());
    out << line << row.outcome << "\n";
    // A candidate is the winner only where it goes into the spec.
    if (!row.winner.empty() && !d.sameAs)
      out << "            "
          << (d.kept || d.predictedOnly ? "winner: " : "fastest candidate: ")
          << row.winner << "\n";
    if (!d.why.empty() && !d.sameAs)
      out << "            " << d.why << "\n";
    if (!d.check.empty() && !d.sameAs)
      out << "            " << d.check << "\n";
    if (!d.specNote.empty())
      out << "            not in the spec: " << d.specNote << "\n";
  }
  out << "\n";
  if (result.spec.empty())
    out << "no spec: no dispatch was "
        << (result.measured || !result.imported.empty()
                ? "measured faster than IREE's default" +
                      std::string(result.measured ? " and checked" : "")
                : "predicted faster")
        << "\n";
  else {
    // The target flags it was proven with: the same spec may not compile
    // for another (a CPU spec proven for the host's CPU, on generic x86-64).
    std::string flags;
    for (const std::string &flag : result.targetFlags)
      flags += flag + " ";
    out << "spec: " << result.spec.string() << "\n  use with: iree-compile "
        << flags << "... " << result.specFlag << "\n";
  }
  for (const auto &[op, why] : result.specProof)
    out << "  " << op << ": "
        << (why.empty() ? "IREE gives it the winner's config" : why) << "\n";
  auto printRun = [&out, &result](const std::optional<ProgramRun> &run) {
    if (!run)
      return;
    out << "program, " << run->what << ": "
        << (run->time
                ? microseconds(run->time->median) + " a call (" +
                      std::to_string(run->time->repetitions) + " repetitions)"
            : run->check.compiledOnly &&
                    run->check.notRunBecause == result.notMeasuredBecause
                ? "compiled (not run: " + result.notMeasuredBecause + ")"
                : run->error)
        << "\n";
    if (run->check.hasVerdict())
      out << "  " << run->check.summary() << "\n";
  };
  printRun(result.defaultRun);
  printRun(result.tunedRun);
  if (specBreaksCompile(result))
    out << "THE PROGRAM DOES NOT COMPILE WITH THIS SPEC (it does with IREE's "
           "configs): do not use the spec as it is\n";
  if (!result.outputsComparison.empty())
    out << "tuned against default: " << result.outputsComparison << "\n";
  if (result.endToEnd)
    out << endToEndSentence(*result.endToEnd) << "\n";
  char wall[160];
  std::snprintf(wall, sizeof wall,
                "\n%.0f s wall, %zu tries run, %zu from the history%s%s\n",
                result.wallSeconds, result.tries, result.resumed,
                result.budgetSpent ? "; the budget was spent" : "",
                result.cancelled ? "; cancelled" : "");
  out << wall;
  if (!result.bundle.empty()) {
    // programs.sh only where the programs were prepared (the default's
    // checked run found the function and made its inputs).
    const bool programs =
        std::filesystem::exists(result.bundle / "programs.sh");
    out << "run bundle: " << result.bundle.string()
        << "\n  on the GPU machine: " << (result.bundle / "run.sh").string()
        << (programs ? " && " + (result.bundle / "programs.sh").string()
                     : std::string(" (no programs.sh: the programs end to "
                                   "end were not prepared, see the notes)"))
        << "\n  back here: the same tune command with --import "
        << result.bundle.string() << "\n";
  }
  for (const std::string &note : result.notes)
    out << "note: " << note << "\n";
  return out.str();
}

} // namespace tilescope::tune
