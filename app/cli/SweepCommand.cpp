// tilescope-cli sweep: one root op's config varied over a few fields, every
// valid candidate compiled (its resources read, timed where a device is
// here) in parallel, ranked; resumable under its name.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/JobInputs.h"
#include "app/common/IreeSettings.h"
#include "core/edit/RootOpContext.h"
#include "core/export/ConfigJson.h"
#include "core/export/JsonText.h"
#include "core/jobs/Sweep.h"
#include "core/jobs/SweepSpace.h"
#include "core/jobs/SweepWorkflow.h"
#include "core/jobs/TryComparison.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <thread>

using nlohmann::json;

namespace tilescope::cli {
namespace {

json candidateJson(const jobs::SweepCandidate &c,
                   const jobs::SweepCandidate *first = nullptr) {
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
    if (auto verdict = jobs::againstFirst(*first, c))
      out["against_first"] = jobs::toJson(*verdict);
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
    if (c.record->details.contains("resources"))
      out["resources"] = c.record->details["resources"];
  }
  return out;
}

// "measured  28.93 us" or "predicted 31.20 us": what a candidate's place
// stands on, in a fixed-width column.
std::string timeColumn(const jobs::SweepCandidate &c) {
  char text[48] = "";
  if (auto measured = c.measuredMicroseconds())
    std::snprintf(text, sizeof text, "measured  %10.2f us", *measured);
  else if (c.predictedMicroseconds)
    std::snprintf(text, sizeof text, "predicted %10.2f us",
                  *c.predictedMicroseconds);
  else
    std::snprintf(text, sizeof text, "%23s", "");
  return text;
}

std::string line(const jobs::SweepCandidate &c,
                 const jobs::SweepCandidate *first = nullptr) {
  if (!c.valid)
    return "  invalid   " + c.name + ": " + c.whyNot;
  if (!c.record)
    return "  not run   " + c.name;
  std::string text =
      "  " + timeColumn(c) + "  " + c.record->outcome + "  " + c.name;
  if (const std::string brief = jobs::resourceBrief(*c.record); !brief.empty())
    text += "  [" + brief + "]";
  if (c.resumed)
    text += "  (from try " + std::to_string(c.record->id) + ")";
  if (c.measuredElsewhere)
    text += "  (time of try " + std::to_string(c.measuredElsewhere->id) +
            ", the same config)";
  if (first && first != &c)
    if (auto verdict = jobs::againstFirst(*first, c);
        verdict && verdict->withinNoise)
      text += "  (within noise of the first)";
  return text;
}

// How the ranking below was ordered, in words.
std::string rankingHeading(const std::vector<jobs::SweepCandidate> &ranked) {
  size_t measured = 0, predicted = 0;
  for (const jobs::SweepCandidate &c : ranked) {
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

json spaceJson(const jobs::IreeSpace &space) {
  return {{"pipeline", space.pipeline},
          {"assertions", space.assertions},
          {"knobs", space.knobs},
          {"fields", space.fields},
          {"current", space.current},
          {"varied", space.varied},
          {"held", space.held},
          {"following", space.following},
          {"size", space.space.points.size()},
          {"truncated", space.space.truncated},
          {"search_nodes", space.space.visited},
          {"list_ms", space.listMilliseconds},
          {"current_in_space", space.currentInSpace},
          {"commands", space.commands}};
}

std::string joined(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &n : names)
    text += (text.empty() ? "" : ", ") + n;
  return text.empty() ? "none" : text;
}

void printSpace(const jobs::IreeSpace &space) {
  std::cout << jobs::describe(space) << "\n  varied: " << joined(space.varied)
            << "\n  held at the config's values: " << joined(space.held)
            << "\n  following the others: " << joined(space.following)
            << "\n  kept: the " << space.points.size()
            << " nearest the config\n";
}

} // namespace

int sweep(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli sweep: vary fields of a root op's config, check each "
      "candidate with the rules the editor uses (one IREE refuses is listed "
      "with its reason and never compiled), compile the valid ones in "
      "parallel, read their resources and time them where a device is here, "
      "and rank them. Every candidate lands in the history under the sweep's "
      "name; running the same sweep again resumes it. With no --vary, the "
      "neighbourhood: where IREE states pipeline constraints the config fits, "
      "the knob assignments they allow nearest the config (as --iree-space); "
      "elsewhere each non-zero workgroup and reduction entry halved and "
      "doubled.");
  const QCommandLineOption varyOption(
      "vary",
      "FIELD=V1,V2,...: workgroup[1]=32,64,128 varies one entry of a list; "
      "mma_kind=A,B a whole field. Repeatable: every combination is tried. "
      "With --iree-space, just FIELD: a field whose knobs vary.",
      "FIELD=VALUES");
  const QCommandLineOption nameOption(
      "name",
      "The sweep's name in the history (default: from the file, op "
      "and fields); the same name resumes it.",
      "NAME");
  const QCommandLineOption jobsOption(
      "jobs", "Candidates at a time (default: the cores here).", "N");
  const QCommandLineOption planOption(
      "plan", "List the candidates and whether each is valid; run nothing.");
  const QCommandLineOption compileOnlyOption(
      "compile-only", "Compile and read resources; time nothing.");
  const QCommandLineOption constraintsOption(
      "iree-constraints",
      "Also check each valid candidate against the pipeline constraints "
      "IREE states for the op (the pinned iree-opt inserts and checks "
      "them); one they reject is invalid, named by IREE's assert with its "
      "values, and never compiled.");
  const QCommandLineOption spaceOption(
      "iree-space",
      "The candidates are the knob assignments that satisfy the pipeline "
      "constraints IREE states for the op (the pinned iree-opt states them, "
      "Tilescope lists every assignment), nearest the config first. Knobs "
      "of fields not named by --vary stay at the config's values (default: "
      "all vary); one an assert sets outright follows the others.");
  const QCommandLineOption noSpaceOption(
      "no-iree-space",
      "With no --vary: the rules' neighbours (each non-zero workgroup and "
      "reduction entry halved and doubled) even where IREE states "
      "constraints for the op.");
  const QCommandLineOption nearestOption(
      "nearest",
      "With --iree-space: how many candidates to keep, nearest the config "
      "first (default 32; 0: all, at most 4096).",
      "N");
  parser.addOptions({kOpOption, varyOption, nameOption, jobsOption, planOption,
                     compileOnlyOption, constraintsOption, spaceOption,
                     noSpaceOption, nearestOption, kTargetOption,
                     kWorkspaceOption, kTimeoutOption, kJsonOption,
                     kIreeOption});
  parser.addPositionalArgument("FILE", "An IREE MLIR file.");
  if (!parseCommandLine(parser, arguments, "sweep"))
    return kExitUsage;
  auto usage = [](const std::string &message) {
    return usageError("sweep", message);
  };
  auto inputs = jobArguments(parser);
  if (!inputs)
    return usage(inputs.error());
  const std::optional<jobs::CompileTarget> &target = inputs->target;
  const std::string &path = inputs->path;
  auto parallel = countOf(parser, jobsOption, 0, 1, 256);
  if (!parallel)
    return usage(parallel.error());
  const bool asJson = parser.isSet(kJsonOption);
  int code = kExitOk;
  auto document = openJobFile(parser, code);
  if (!document) {
    std::cerr << "tilescope-cli sweep: " << document.error() << "\n";
    return code;
  }
  auto op = edit::findOp(*document, opSpecOf(parser));
  if (!op)
    return usage(path + ": --op: " + op.error());

  jobs::SweepRequest request;
  request.document = &*document;
  request.op = *op;
  // With no --vary, the neighbourhood is IREE's where IREE states
  // constraints the config fits, the rules' elsewhere (and with
  // --no-iree-space).
  const bool explicitSpace = parser.isSet(spaceOption);
  const bool implicitSpace = !explicitSpace &&
                             parser.values(varyOption).isEmpty() &&
                             !parser.isSet(noSpaceOption);
  std::string name = parser.value(nameOption).toStdString();
  auto nearest = countOf(parser, nearestOption, 32, 0, 4096);
  if (!nearest)
    return usage(nearest.error());
  // With --iree-space, --vary names the fields whose knobs vary; without,
  // each is an axis.
  if (!explicitSpace)
    for (const QString &text : parser.values(varyOption)) {
      auto axis = jobs::parseSweepAxis(text.toStdString());
      if (!axis)
        return usage("--vary " + axis.error());
      request.axes.push_back(*axis);
    }
  std::optional<jobs::IreeSpaceRequest> asked;
  if (explicitSpace || implicitSpace) {
    asked.emplace();
    asked->document = &*document;
    asked->op = *op;
    asked->nearest = static_cast<size_t>(*nearest);
    asked->timeout = timeoutOf(parser);
    for (const QString &text : parser.values(varyOption))
      asked->vary.push_back(text.toStdString());
  }
  auto installation = app::locateIree(ireePath(parser));
  if (explicitSpace && !installation) {
    std::cerr << "tilescope-cli sweep: " << installation.error() << "\n";
    return kExitIreeUnavailable;
  }
  Result<jobs::SweepSource> source = Error{""};
  {
    TerminalProgress progress(!asJson && asked.has_value());
    if (asked)
      progress.step("asking IREE for the op's pipeline constraints");
    source = jobs::chooseSweepSource(installation ? &*installation : nullptr,
                                     request, asked, explicitSpace);
    progress.done();
  }
  if (!source) {
    std::cerr << "tilescope-cli sweep: " << path << " op " << op->dispatch
              << ":" << op->op << ": " << source.error() << "\n";
    return kExitFailure;
  }
  const std::optional<jobs::IreeSpace> &space = source->space;
  const std::string &rulesBecause = source->whyNotIree;
  if (!space && request.axes.empty())
    request.axes = jobs::neighbourAxes(*document, *op);
  if (name.empty())
    name = space ? jobs::spaceSweepName(*document, *op, asked->vary,
                                        asked->nearest)
                 : jobs::defaultSweepName(*document, *op, request.axes);
  request.name = name;
  // Where the candidates came from, in the output.
  auto describeSource = [&](json &out) {
    out["neighbourhood"] = space ? "iree-constraints"
                           : parser.values(varyOption).isEmpty() ? "rules"
                                                                 : "axes";
    if (space)
      out["iree_space"] = spaceJson(*space);
    if (!rulesBecause.empty())
      out["why_not_iree"] = rulesBecause;
  };
  auto printSource = [&] {
    if (space)
      printSpace(*space);
    else if (!rulesBecause.empty())
      std::cout << "the rules' neighbours (IREE's constraints do not give "
                   "them: "
                << rulesBecause << ")\n";
  };
  request.upTo = parser.isSet(compileOnlyOption) ? jobs::TryStage::Resources
                                                 : jobs::TryStage::Bench;
  request.target = target;
  request.workspace = workspaceOf(parser);
  request.parallel = *parallel;
  request.timeout = timeoutOf(parser);
  request.ireeConstraints = parser.isSet(constraintsOption);

  if (parser.isSet(planOption)) {
    if (request.ireeConstraints && !installation) {
      std::cerr << "tilescope-cli sweep: " << installation.error() << "\n";
      return kExitIreeUnavailable;
    }
    Result<jobs::SweepPlanned> planned = Error{""};
    {
      TerminalProgress progress(!asJson && request.ireeConstraints);
      progress.step("asking IREE about each candidate");
      planned = jobs::planSweepWithVerdicts(
          installation ? &*installation : nullptr, request);
      progress.done();
    }
    if (!planned)
      return usage(planned.error());
    if (!planned->ireeProblem.empty()) {
      std::cerr << "tilescope-cli sweep: " << planned->ireeProblem << "\n";
      return kExitIreeUnavailable;
    }
    const std::vector<jobs::SweepCandidate> *plan = &planned->candidates;
    size_t valid = 0;
    json list = json::array();
    for (const jobs::SweepCandidate &c : *plan) {
      valid += c.valid ? 1 : 0;
      list.push_back(candidateJson(c));
    }
    if (asJson) {
      json out = {{"sweep", name},
                  {"candidates", list},
                  {"valid", valid},
                  {"total", plan->size()}};
      describeSource(out);
      std::cout << exporting::jsonText(out, 2) << "\n";
      return kExitOk;
    }
    printSource();
    std::cout << "sweep \"" << name << "\": " << valid << " valid of "
              << plan->size() << " candidates\n";
    for (const jobs::SweepCandidate &c : *plan) {
      std::cout << (c.valid ? "  valid     " + timeColumn(c) + "  " + c.name
                            : line(c))
                << "\n";
      // The warnings `check` prints for the same edit.
      if (c.valid) {
        std::vector<config::Problem> warnings;
        std::copy_if(c.problems.begin(), c.problems.end(),
                     std::back_inserter(warnings), [](const auto &p) {
                       return p.severity == config::Problem::Severity::Warning;
                     });
        printProblems(warnings, std::cout, std::string(14, ' '));
      }
    }
    return kExitOk;
  }

  if (!installation) {
    std::cerr << "tilescope-cli sweep: " << installation.error() << "\n";
    return kExitIreeUnavailable;
  }
  // An op of a whole program: each candidate's dispatch is tried alone.
  auto worker = app::documentWorker(ireePath(parser));
  if (!worker) {
    std::cerr << "tilescope-cli sweep: " << worker.error() << "\n";
    return kExitIreeUnavailable;
  }
  request.worker = std::move(*worker);
  TerminalProgress progress(!asJson);
  progress.step("sweeping " + name);
  request.onCandidate = [&progress, &name](const jobs::SweepCandidate &c,
                                           size_t done, size_t total) {
    progress.step("sweep " + name + ": " + std::to_string(done) + " of " +
                  std::to_string(total) + ", last " + c.name);
  };
  auto swept = jobs::runSweep(*installation, request);
  progress.done();
  if (!swept)
    return usage(swept.error());
  if (asJson) {
    json list = json::array();
    const jobs::SweepCandidate *first =
        swept->candidates.empty() ? nullptr : &swept->candidates.front();
    for (const jobs::SweepCandidate &c : swept->candidates)
      list.push_back(candidateJson(c, first));
    json out = {{"sweep", name},
                {"ran", swept->ran},
                {"resumed", swept->resumed},
                {"invalid", swept->invalid},
                {"ranking", rankingHeading(swept->candidates)},
                {"candidates", list}};
    describeSource(out);
    std::cout << exporting::jsonText(out, 2) << "\n";
  } else {
    printSource();
    std::cout << "sweep \"" << name << "\": " << swept->ran << " run, "
              << swept->resumed << " from the history, " << swept->invalid
              << " invalid; " << rankingHeading(swept->candidates) << ":\n";
    for (const jobs::SweepCandidate &c : swept->candidates)
      std::cout << line(c, &swept->candidates.front()) << "\n";
  }
  for (const jobs::SweepCandidate &c : swept->candidates)
    if (c.valid && (!c.record || (c.record->outcome != "ok" &&
                                  c.record->outcome != "cannot-run-here")))
      return kExitFailure;
  return kExitOk;
}

} // namespace tilescope::cli
