// tilescope-cli tune: a whole program tuned end to end (core/tune): its
// dispatches swept in order of their share of its time, the winners kept
// when measured faster and checked, one tuning spec, and the program with it
// against IREE's default, compared and timed.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/cli/JobInputs.h"
#include "app/common/IreeSettings.h"
#include "core/export/JsonText.h"
#include "core/service/ConfigureProgram.h"
#include "core/tune/TuneReport.h"
#include "core/util/Files.h"

#include <QCommandLineParser>

#include <cstdio>
#include <iostream>

namespace tilescope::cli {

// tune's options.
struct TuneOptions {
  QCommandLineOption output{
      {"o", "output"},
      "Write the spec to OUT (default: in the tune's folder, "
      "WORKSPACE/tune/NAME.TARGET/).",
      "OUT"};
  QCommandLineOption budget{
      "budget", "Minutes after which no new dispatch is swept (default 30).",
      "MINUTES"};
  QCommandLineOption candidates{
      "candidates",
      "Candidates per dispatch, nearest IREE's config first "
      "(default 8).",
      "N"};
  QCommandLineOption repetitions{
      "repetitions", "Repetitions of each timed run (default 5).", "N"};
  QCommandLineOption bundle{
      "bundle",
      "Time nothing here: compile every dispatch's default and candidates "
      "and both programs, and write a run bundle into DIR for the GPU "
      "machine (DIR/run.sh, then DIR/programs.sh there).",
      "DIR"};
  QCommandLineOption import{
      "import",
      "Continue from a bundle that ran on the GPU machine: its times go "
      "into the history, the tune decides on them, and the programs' "
      "outputs and times end to end are read back.",
      "DIR"};

  void addTo(QCommandLineParser &parser) const {
    parser.addOptions({kTargetOption, output, budget, candidates, repetitions,
                       bundle, import, kOnOption, kWorkspaceOption,
                       kTimeoutOption, kJsonOption, kIreeOption});
  }
};

int tune(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli tune: tune a whole program. It is configured by the "
      "pinned iree-compile, each dispatch's root op timed alone with IREE's "
      "config (its share of the program's time; predicted where the "
      "target's device is not here), then in order of share, while the "
      "budget lasts, each kind of dispatch is swept once (IREE's constraint "
      "space nearest its config, else the rules' neighbours). A winner is "
      "kept only when measured faster than IREE's default beyond noise and "
      "the program with it passes a checked run. The winners make one "
      "tuning spec (--iree-codegen-tuning-spec-path), proven on the "
      "program; the program with and without it runs on the same inputs, "
      "outputs compared, both timed end to end. With --on, every timed and "
      "checked run goes there (a GPU host over ssh, a Slurm partition); "
      "compiling stays here. With --bundle it all goes into a run bundle "
      "for a GPU machine, and --import continues from what it measured. "
      "Every try lands in the history: run again, a "
      "tune resumes.");
  const TuneOptions options;
  options.addTo(parser);
  parser.addPositionalArgument(
      "PROGRAM", "An MLIR program (linalg, torch or ONNX-imported).");
  if (!parseCommandLine(parser, arguments, "tune"))
    return kExitUsage;
  const workbench::Workbench bench = workbenchOf(parser);
  auto usage = [](const std::string &message) {
    return usageError("tune", message);
  };
  if (parser.positionalArguments().size() != 1)
    return usage("expected one PROGRAM");
  // The options as given; the workbench's choice checks their ranges, the
  // target, the place and the program, as it does for the window and Python.
  workbench::TuneChoice choice;
  choice.program = parser.positionalArguments().front().toStdString();
  choice.target = parser.value(kTargetOption).toStdString();
  auto budget = integerOf(parser, options.budget, 30);
  auto candidates = integerOf(parser, options.candidates, choice.candidates);
  auto repetitions = integerOf(parser, options.repetitions, choice.repetitions);
  for (const Result<long long> *given : {&budget, &candidates, &repetitions})
    if (!*given)
      return usage(given->error());
  choice.budgetMinutes = static_cast<double>(*budget);
  choice.candidates = *candidates;
  choice.repetitions = *repetitions;
  choice.timeoutSeconds = timeoutSecondsOf(parser);
  choice.on = parser.value(kOnOption).toStdString();
  choice.bundle = parser.value(options.bundle).toStdString();
  choice.importFrom = parser.value(options.import).toStdString();
  choice.spec = parser.value(options.output).toStdString();
  auto made = bench.tuneRequest(choice);
  if (!made)
    return refused("tune", made.refusal());
  tune::TuneRequest &request = *made;
  const std::filesystem::path &source = choice.program;
  const bool asJson = parser.isSet(kJsonOption);
  TerminalProgress progress(!asJson, /*linesElsewhere=*/true);
  request.onProgress = [&progress](const tune::TuneProgress &p) {
    std::string line = p.step;
    if (p.total > 0)
      line +=
          " [" + std::to_string(p.done) + "/" + std::to_string(p.total) + "]";
    if (p.secondsLeft) {
      char left[48];
      std::snprintf(left, sizeof left, ", ~%.0f s left", *p.secondsLeft);
      line += left;
    }
    progress.step(line);
  };
  auto tuned = bench.tune(request);
  progress.done();
  if (!tuned) {
    workbench::Refusal why = tuned.refusal();
    why.message = source.string() + ": " + why.message;
    return refused("tune", why);
  }
  if (asJson)
    std::cout << exporting::jsonText(tune::toJson(*tuned), 2) << "\n";
  else
    std::cout << tune::tuneReport(*tuned);
  // A spec whose program no longer computes what IREE's default does, or
  // that IREE does not apply, is a failure.
  bool failed = tuned->outputsAgree.has_value() && !*tuned->outputsAgree;
  // Outputs the tune set out to compare and could not (one missing, short,
  // a FIFO, a link out of the bundle) leave the spec unproven
  // (docs/tuning.md: exit 1).
  failed =
      failed || (!tuned->outputsAgree && !tuned->outputsComparison.empty());
  for (const auto &[op, why] : tuned->specProof)
    failed = failed || !why.empty();
  // A winner whose checked run never ran was compared with nothing.
  for (const tune::DispatchTune &dispatch : tuned->dispatches)
    failed = failed || dispatch.checkDidNotRun;
  failed = failed || (!request.bundle.empty() && tuned->bundle.empty()) ||
           tune::specBreaksCompile(*tuned);
  if (tuned->tunedRun && tuned->tunedRun->check.hasVerdict() &&
      !tuned->tunedRun->check.passed())
    failed = true;
  return failed || tuned->cancelled ? kExitFailure : kExitOk;
}

} // namespace tilescope::cli
