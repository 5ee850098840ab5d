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
#include "core/sweep/Sweep.h"
#include "core/sweep/SweepJson.h"
#include "core/sweep/SweepSpace.h"
#include "core/sweep/SweepWorkflow.h"
#include "core/tries/TryComparison.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <thread>

using nlohmann::json;

namespace tilescope::cli {
namespace {

// "measured  28.93 us" or "predicted 31.20 us": what a candidate's place
// stands on, in a fixed-width column.
std::string timeColumn(const sweep::SweepCandidate &c) {
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

std::string line(const sweep::SweepCandidate &c,
                 const sweep::SweepCandidate *first = nullptr) {
  if (!c.valid)
    return "  invalid   " + c.name + ": " + c.whyNot;
  if (!c.record)
    return "  not run   " + c.name;
  std::string text =
      "  " + timeColumn(c) + "  " + c.record->outcome + "  " + c.name;
  if (const std::string brief = tries::resourceBrief(*c.record); !brief.empty())
    text += "  [" + brief + "]";
  if (c.resumed)
    text += "  (from try " + std::to_string(c.record->id) + ")";
  if (c.measuredElsewhere)
    text += "  (time of try " + std::to_string(c.measuredElsewhere->id) +
            ", the same config)";
  if (first && first != &c)
    if (auto verdict = sweep::againstFirst(*first, c);
        verdict && verdict->withinNoise)
      text += "  (within noise of the first)";
  return text;
}

std::string joined(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &n : names)
    text += (text.empty() ? "" : ", ") + n;
  return text.empty() ? "none" : text;
}

void printSpace(const sweep::IreeSpace &space) {
  std::cout << sweep::describe(space) << "\n  varied: " << joined(space.varied)
            << "\n  held at the config's values: " << joined(space.held)
            << "\n  following the others: " << joined(space.following);
  for (const std::string &relaxed : space.relaxed)
    std::cout << "\n  " << relaxed;
  std::cout << "\n  kept: the " << space.points.size()
            << " nearest the config\n";
}

// Where the candidates came from: IREE's space, or why the rules'
// neighbours stand in for it.
void printSource(const sweep::PreparedSweep &prepared) {
  if (prepared.source.space)
    printSpace(*prepared.source.space);
  else if (!prepared.source.whyNotIree.empty())
    std::cout << "the rules' neighbours (IREE's constraints do not give "
                 "them: "
              << prepared.source.whyNotIree << ")\n";
}

// --plan: each candidate applied and judged, nothing compiled.
int planAndPrint(const workbench::Workbench &bench,
                 const sweep::SweepRequest &request,
                 const sweep::PreparedSweep &prepared, bool asJson) {
  std::optional<workbench::Checked<sweep::SweepPlanned>> planned;
  {
    TerminalProgress progress(!asJson && request.ireeConstraints);
    progress.step("asking IREE about each candidate");
    planned = bench.planSweep(request);
    progress.done();
  }
  if (!*planned)
    return refused("sweep", planned->refusal());
  const std::vector<sweep::SweepCandidate> &plan = (*planned)->candidates;
  const json out = sweep::planJson(request.name, plan, prepared);
  if (asJson) {
    std::cout << exporting::jsonText(out, 2) << "\n";
    return kExitOk;
  }
  printSource(prepared);
  std::cout << "sweep \"" << request.name
            << "\": " << out["valid"].get<size_t>() << " valid of "
            << plan.size() << " candidates\n";
  if (out.contains("predicted_from"))
    std::cout << "  predicted from " << out["predicted_from"].get<std::string>()
              << "\n";
  for (const sweep::SweepCandidate &c : plan) {
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

// The sweep run: every valid candidate compiled (and timed), ranked.
int runAndPrint(const workbench::Workbench &bench, sweep::SweepRequest request,
                const sweep::PreparedSweep &prepared, bool asJson) {
  const std::string name = request.name;
  TerminalProgress progress(!asJson);
  progress.step("sweeping " + name);
  request.onCandidate = [&progress, &name](const sweep::SweepCandidate &c,
                                           size_t done, size_t total) {
    progress.step("sweep " + name + ": " + std::to_string(done) + " of " +
                  std::to_string(total) + ", last " + c.name);
  };
  request.onStatus = [&progress](const std::string &status) {
    progress.step("Slurm " + status);
  };
  auto swept = bench.runSweep(request);
  progress.done();
  if (!swept)
    return refused("sweep", swept.refusal());
  if (asJson) {
    std::cout << exporting::jsonText(sweep::resultJson(name, *swept, prepared),
                                     2)
              << "\n";
    return sweep::everyValidFinished(*swept) ? kExitOk : kExitFailure;
  }
  printSource(prepared);
  std::cout << "sweep \"" << name << "\": " << swept->ran << " run, "
            << swept->resumed << " from the history, " << swept->invalid
            << " invalid; " << sweep::rankingHeading(swept->candidates)
            << ":\n";
  if (!swept->slurmJobs.empty() || swept->reattached > 0) {
    std::cout << "on " << request.place.toString()
              << (request.compilePartition.empty()
                      ? ""
                      : ", compiled on slurm:" + request.compilePartition)
              << ": ";
    for (const std::string &job : swept->slurmJobs)
      std::cout << "job " << job << " ";
    std::cout << "(" << swept->submitted << " sent now, " << swept->reattached
              << " from an earlier run's tasks)\n";
  }
  for (const sweep::SweepCandidate &c : swept->candidates)
    std::cout << line(c, &swept->candidates.front()) << "\n";
  return sweep::everyValidFinished(*swept) ? kExitOk : kExitFailure;
}

} // namespace

// sweep's options.
struct SweepOptions {
  QCommandLineOption vary{
      "vary",
      "FIELD=V1,V2,...: workgroup[1]=32,64,128 varies one entry of a list; "
      "mma_kind=A,B a whole field. Repeatable: every combination is tried. "
      "With --iree-space, just FIELD: a field whose knobs vary.",
      "FIELD=VALUES"};
  QCommandLineOption name{
      "name",
      "The sweep's name in the history (default: from the file, op "
      "and fields); the same name resumes it.",
      "NAME"};
  QCommandLineOption jobs{
      "jobs", "Candidates at a time (default: the cores here).", "N"};
  QCommandLineOption plan{
      "plan", "List the candidates and whether each is valid; run nothing."};
  QCommandLineOption compileOnly{"compile-only",
                                 "Compile and read resources; time nothing."};
  QCommandLineOption constraints{
      "iree-constraints",
      "Also check each valid candidate against the pipeline constraints "
      "IREE states for the op (the pinned iree-opt inserts and checks "
      "them); one they reject is invalid, named by IREE's assert with its "
      "values, and never compiled."};
  QCommandLineOption space{
      "iree-space",
      "The candidates are the knob assignments that satisfy the pipeline "
      "constraints IREE states for the op (the pinned iree-opt states them, "
      "Tilescope lists every assignment), nearest the config first. Knobs "
      "of fields not named by --vary stay at the config's values (default: "
      "all vary); one an assert sets outright follows the others."};
  QCommandLineOption noSpace{
      "no-iree-space",
      "With no --vary: the rules' neighbours (each non-zero workgroup and "
      "reduction entry halved and doubled) even where IREE states "
      "constraints for the op."};
  QCommandLineOption nearest{
      "nearest",
      "With --iree-space: how many candidates to keep, nearest the config "
      "first (default 32; 0: all, at most 4096).",
      "N"};
  QCommandLineOption repetitions{
      "repetitions", "Benchmark repetitions of each candidate (default 3).",
      "N"};
  QCommandLineOption compileOn{
      "compile-on",
      "With --on slurm:PARTITION: compile the candidates there too, as a job "
      "array of their own on this partition (CPU nodes; the compiler on the "
      "shared filesystem), each run task waiting for its compile task.",
      "slurm:PARTITION"};

  void addTo(QCommandLineParser &parser) const {
    parser.addOptions({compileOn, kOpOption, vary, name, jobs, plan,
                       compileOnly, constraints, space, noSpace, nearest,
                       kTargetOption, kOnOption, repetitions, kWorkspaceOption,
                       kTimeoutOption, kJsonOption, kIreeOption});
  }
};

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
  const SweepOptions options;
  options.addTo(parser);
  parser.addPositionalArgument("FILE", "An IREE MLIR file.");
  if (!parseCommandLine(parser, arguments, "sweep"))
    return kExitUsage;
  const workbench::Workbench bench = workbenchOf(parser);
  auto usage = [](const std::string &message) {
    return usageError("sweep", message);
  };
  auto inputs = jobArguments(parser);
  if (!inputs)
    return usage(inputs.error());
  const std::string &path = inputs->path;
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

  // The options as given; the workbench's choice checks them, as it does
  // Python's arguments.
  workbench::SweepJobChoice choice;
  choice.op = *op;
  for (const QString &text : parser.values(options.vary))
    choice.vary.push_back(text.toStdString());
  choice.ireeSpace = parser.isSet(options.space);
  choice.noIreeSpace = parser.isSet(options.noSpace);
  choice.name = parser.value(options.name).toStdString();
  choice.stage = parser.isSet(options.compileOnly) ? "resources" : "bench";
  auto nearest = integerOf(parser, options.nearest, choice.nearest);
  auto parallel = integerOf(parser, options.jobs, choice.parallel);
  auto repetitions = integerOf(parser, options.repetitions, choice.repetitions);
  for (const Result<long long> *given : {&nearest, &parallel, &repetitions})
    if (!*given)
      return usage(given->error());
  choice.nearest = *nearest;
  choice.parallel = *parallel;
  choice.repetitions = *repetitions;
  choice.timeoutSeconds = timeoutSecondsOf(parser);
  choice.ireeConstraints = parser.isSet(options.constraints);
  choice.on = parser.value(kOnOption).toStdString();
  choice.compileOn = parser.value(options.compileOn).toStdString();
  auto made = bench.sweepRequest(*document, choice);
  if (!made)
    return refused("sweep", made.refusal());
  sweep::SweepRequest &request = *made;
  request.target = inputs->target;

  // With no --vary, the neighbourhood is IREE's where IREE states
  // constraints the config fits, the rules' elsewhere (and with
  // --no-iree-space).
  const bool asksIree =
      choice.ireeSpace || (choice.vary.empty() && !choice.noIreeSpace);
  std::optional<workbench::Checked<sweep::PreparedSweep>> prepared;
  {
    TerminalProgress progress(!asJson && asksIree);
    if (asksIree)
      progress.step("asking IREE for the op's pipeline constraints");
    prepared = bench.prepareSweep(request, choice);
    progress.done();
  }
  if (!*prepared) {
    workbench::Refusal why = prepared->refusal();
    if (why.kind == workbench::Refusal::Kind::Choice) {
      std::cerr << "tilescope-cli sweep: " << path << " op " << op->dispatch
                << ":" << op->op << ": " << why.message << "\n";
      return kExitFailure;
    }
    return refused("sweep", why);
  }
  if (parser.isSet(options.plan))
    return planAndPrint(bench, request, **prepared, asJson);
  return runAndPrint(bench, std::move(request), **prepared, asJson);
}

} // namespace tilescope::cli
