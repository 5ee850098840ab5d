// A sweep: one root op's config varied over a few fields, every valid
// candidate tried (compiled, its resources read, timed where a device is
// here) in parallel, ranked, and each landing in the history under the
// sweep's name, so an interrupted sweep resumes without redoing what
// finished.
//
// Candidates are the config model's: each is the document with the
// settings applied by the edit model, checked by the same rules the editor
// shows (core/config and core/layout, each mirroring IREE's code); one that
// breaks a rule IREE refuses is listed with its reason and never compiled.
#pragma once

#include "core/config/rules/Validation.h"
#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/run/RemoteRun.h"
#include "core/service/IreeConstraints.h"
#include "core/tools/IreeInstallation.h"
#include "core/tries/TimeComparison.h"
#include "core/tries/TryJob.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::sweep {

// One field varied: "workgroup[1]" over {"32", "64", "128"}, or a whole
// field ("mma_kind", "lane_basis") over attribute texts.
struct SweepAxis {
  std::string field;
  std::vector<std::string> values;
};

// "workgroup[1]=32,64,128" (values split on commas outside brackets).
Result<SweepAxis> parseSweepAxis(const std::string &text);

// One candidate given outright rather than by axes (a point of IREE's
// constraint space, SweepSpace.h): whole field values, and how far it is
// from the config as it stands.
struct SweepPoint {
  std::string name; // "workgroup=[64, 64, 0] subgroup=[2, 2, 0]"
  std::vector<std::pair<std::string, std::string>> settings;
  double distance = 0;
};

// The op's field as it stands, as the document read it ("workgroup", one
// entry of a list, "workgroup[1]", or a translation_info field with or
// without its "translation_info." prefix); none when the op has none.
std::optional<config::Attribute>
currentAttribute(const document::Document &document, edit::OpRef op,
                 const std::string &field);
// currentAttribute printed; empty when the op has none.
std::string currentValue(const document::Document &document, edit::OpRef op,
                         const std::string &field);

// "FILE D:O workgroup[1]=32,64": a sweep's name in the history when none is
// given; the same file, op and axes resume the same sweep.
std::string defaultSweepName(const document::Document &document, edit::OpRef op,
                             const std::vector<SweepAxis> &axes);

struct SweepCandidate {
  std::string name; // "workgroup[1]=64 reduction[2]=8": the history key
  std::vector<std::pair<std::string, std::string>> settings;
  bool valid = false;
  std::string whyNot; // the first rule error (edit::ruleVerdict, as `check`
                      // says it), or the edit model's refusal, or IREE's
                      // violated constraint
  // IREE's own verdict on it, when the sweep asked (checkCandidatesWithIree),
  // and who ran IREE's constraints: "tilescope" (the program IREE stated,
  // run as IREE's verifier runs it) or "iree-opt" (asked of IREE).
  std::string ireeVerdict;
  std::string ireeVerdictBy;
  std::vector<config::Problem> problems; // the rules' errors and warnings
  std::string text; // the document with the settings applied
  // The op's dispatch with the settings applied (what a thumbnail draws).
  std::optional<document::Dispatch> dispatch;
  // Filled as it runs (or from the history when resumed).
  std::optional<tries::TryRecord> record;
  bool resumed = false;
  // The cost model's prediction of its kernel time (CostModel.h): from the
  // config alone when planned (resources estimated), from its try once it
  // compiled (resources as compiled). Never a measurement.
  std::optional<double> predictedMicroseconds;
  std::string prediction; // the prediction's summary
  bool predictedFromCompile = false;
  // A GPU time of this same config that another try of the history holds
  // (same file, op and target: a bench, or results imported from a run
  // bundle), where the candidate's own try has none.
  std::optional<tries::TryRecord> measuredElsewhere;

  // Its measured time: its own try's, else the one found elsewhere; and
  // that time with its repetitions' spread.
  std::optional<double> measuredMicroseconds() const;
  std::optional<run::TimingStats> measuredTiming() const;
  // "measured", "predicted" or "" (neither): what its place in a ranking
  // stands on.
  std::string rankedBy() const;
};

struct SweepRequest {
  const document::Document *document = nullptr;
  edit::OpRef op;
  std::vector<SweepAxis> axes;
  // Candidates given outright; when set, they are the plan and axes are
  // only the sweep's description.
  std::vector<SweepPoint> points;
  // A field the rest of a candidate implies (Problem::implied: TileAndFuse's
  // workgroup_size from its tiles' subgroups) follows the axes: set for the
  // rules' neighbourhood, which Tilescope makes and must keep consistent;
  // axes a person names are judged as set-config would set them.
  bool followImplied = false;
  std::string name; // the sweep's name in the history
  // The name alone says what the candidates are (a tune's sweeps, named by
  // the dispatch's kind: op, loops, types, target): a try of this name from
  // another file (the same program under another name, a copied workspace)
  // is resumed too, and a time of the same config from one ranks it.
  bool resumeAcrossFiles = false;
  tries::TryStage upTo = tries::TryStage::Bench;
  std::optional<service::CompileTarget> target;
  std::filesystem::path workspace; // tries and the history
  int parallel = 0;                // 0: the cores here
  // Where the candidates are timed: here, a host over ssh (each try's
  // module travels as a bundle; compiling stays here), or a Slurm
  // partition: every candidate compiled here first, then their bundles as
  // one job array (SlurmRun.h), each landing in the history as its task
  // ends; run again, a task that finished or is still queued is waited
  // for, not submitted again.
  run::RunPlace place;
  // On a cluster, a partition (normally of CPU nodes) to compile on too:
  // the candidates' compiles go as a job array of their own there, and the
  // run array's task N waits for compile task N (SlurmCompileStage); the
  // compiler Tilescope uses must be on the filesystem the nodes share.
  // Empty: every candidate compiles here first.
  std::string compilePartition;
  int repetitions = 3;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)}; // per step
  const std::atomic<bool> *cancel = nullptr;
  // Check each valid candidate against IREE's pipeline constraints for the
  // op before it compiles (checkCandidatesWithIree).
  bool ireeConstraints = false;
  // IREE's constraints for the op, already stated (by ireeSweepSpace): the
  // check runs them instead of asking iree-opt again, when they were
  // stated for this document's text and op.
  std::shared_ptr<const service::StatedConstraints> stated;
  // With a worker, a root op of a whole program has its dispatch tried
  // alone (TryRequest::worker); each candidate gets its own copy.
  std::optional<service::DocumentWorker> worker;
  // Each candidate as it finishes, and first those resumed from the
  // history (from a worker thread, one at a time).
  std::function<void(const SweepCandidate &candidate, size_t done,
                     size_t total)>
      onCandidate;
  // On a cluster, the job array's state as it changes ("job 41: 12 queued,
  // 2 running, 50 of 64 done"), from the calling thread.
  std::function<void(const std::string &status)> onStatus;
  // On a cluster, a candidate's task went "queued", "compiling" (with a
  // compile partition) or "running" (from the calling thread); it ends
  // through onCandidate.
  std::function<void(const std::string &candidate, const std::string &phase)>
      onCandidatePhase;
};

// Every combination of the axes' values (or the points given), each
// applied and validated; none compiled. Fails on an axis that names no
// field of the op or a plan past 4096 candidates.
Result<std::vector<SweepCandidate>> planSweep(const SweepRequest &request);

struct SweepResult {
  std::vector<SweepCandidate> candidates; // ranked: fastest first, then
                                          // compiled, then failed, invalid
  size_t ran = 0, resumed = 0, invalid = 0;
  bool cancelled = false;
  // On a cluster: the job arrays submitted now, the candidates sent in
  // them, and those of an earlier run's arrays waited for instead.
  std::vector<std::string> slurmJobs;
  size_t submitted = 0, reattached = 0;
};

// Whether a candidate's try in the history is finished for a sweep's
// resume: anything but a run stopped before its end (cancelled, timed out,
// interrupted, its node gone), which a resume runs again.
bool finishedForResume(const std::string &outcome);

// SweepRequest::compilePartition from what a front end was given ("" for
// nothing): "slurm:PARTITION", for candidates timed (`upTo` Bench) on a
// Slurm partition (`runs`). The Error says which is not so; `runsNamed` is
// how the front end names the runs' place ("--on slurm:PARTITION").
Result<std::string> compilePartitionOf(const std::string &text,
                                       const run::RunPlace &runs,
                                       tries::TryStage upTo,
                                       const std::string &runsNamed);

// The ranking runSweep returns: measured fastest first (a time of the
// candidate's own try, or of the same config elsewhere in the history);
// then the rest by the cost model's predicted time; then compiled without a
// prediction (fewer registers first), failed, not run, invalid. Only the
// measured ones are ordered by what the GPU did; the others' order is
// predicted, and says so wherever it is shown.
bool rankedBefore(const SweepCandidate &a, const SweepCandidate &b);

// A measured candidate against the first of a ranking (also measured):
// whether the two differ beyond their noise. Unset when either has no time.
std::optional<tries::TimeVerdict> againstFirst(const SweepCandidate &first,
                                               const SweepCandidate &candidate);

// Fills each valid candidate's measuredElsewhere from the history: the
// newest timed try of the same file and op whose configs for the op equal
// the candidate's (and of its target, when the candidate compiled).
void findMeasuredElsewhere(const tries::History &history,
                           const document::Document &document, edit::OpRef op,
                           std::vector<SweepCandidate> &candidates);

// Plans and runs the sweep: valid candidates not already finished in the
// history under the sweep's name, `parallel` at a time.
Result<SweepResult> runSweep(const tools::IreeInstallation &iree,
                             const SweepRequest &request);

} // namespace tilescope::sweep
