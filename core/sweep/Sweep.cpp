#include "core/sweep/Sweep.h"
#include "core/sweep/Neighbours.h"
#include "core/sweep/SweepConstraints.h"
#include "core/sweep/SweepOnSlurm.h"

#include "core/config/syntax/Attribute.h"
#include "core/edit/ConfigDiff.h"
#include "core/edit/RootOpContext.h"
#include "core/process/Workspace.h"
#include "core/tries/JobJson.h"
#include "core/tries/TryComparison.h"
#include "core/util/Numbers.h"
#include "core/util/Parallel.h"

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>

namespace tilescope::sweep {
namespace {

constexpr size_t kMaximumCandidates = 4096;

// "workgroup[1]" -> {"workgroup", 1}; "mma_kind" -> {"mma_kind", nullopt}.
std::pair<std::string, std::optional<size_t>>
splitIndex(const std::string &field) {
  const size_t open = field.find('[');
  if (open == std::string::npos || field.back() != ']')
    return {field, std::nullopt};
  auto index = parseInt64(field.substr(open + 1, field.size() - open - 2));
  if (!index || *index < 0)
    return {field, std::nullopt};
  return {field.substr(0, open), static_cast<size_t>(*index)};
}

// The settings as (field, whole value) pairs: entries of one list field
// gathered into its new list.
Result<std::vector<std::pair<std::string, std::string>>> wholeSettings(
    const document::Document &document, edit::OpRef op,
    const std::vector<std::pair<std::string, std::string>> &settings) {
  std::vector<std::pair<std::string, std::string>> whole;
  std::map<std::string, std::vector<int64_t>> lists;
  std::vector<std::string> order;
  for (const auto &[field, value] : settings) {
    auto [name, index] = splitIndex(field);
    if (!index) {
      whole.emplace_back(field, value);
      continue;
    }
    if (!lists.count(name)) {
      const auto current = currentAttribute(document, op, name);
      auto numbers = current ? current->asInt64Array() : std::nullopt;
      if (!numbers)
        return Error{field + ": the op's " + name +
                     " is not a list of integers (" +
                     (current ? config::printAttribute(*current)
                              : std::string("it has none")) +
                     ")"};
      lists[name] = *numbers;
      order.push_back(name);
    }
    auto number = parseInt64(value);
    if (!number)
      return Error{field + "=" + value + ": expected an integer"};
    std::vector<int64_t> &list = lists[name];
    if (*index >= list.size())
      return Error{field + ": " + name + " has " + std::to_string(list.size()) +
                   " entries"};
    list[*index] = *number;
  }
  for (const std::string &name : order)
    whole.emplace_back(name, config::printAttribute(
                                 config::Attribute::integerArray(lists[name])));
  return whole;
}

// Splits on commas outside brackets and angle brackets.
std::vector<std::string> splitValues(const std::string &text) {
  std::vector<std::string> values;
  std::string current;
  int depth = 0;
  for (char c : text) {
    if (c == '[' || c == '<' || c == '(' || c == '{')
      ++depth;
    else if (c == ']' || c == '>' || c == ')' || c == '}')
      --depth;
    if (c == ',' && depth == 0) {
      values.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  values.push_back(current);
  for (std::string &value : values) {
    const size_t begin = value.find_first_not_of(' ');
    const size_t end = value.find_last_not_of(' ');
    value =
        begin == std::string::npos ? "" : value.substr(begin, end - begin + 1);
  }
  return values;
}

int rank(const SweepCandidate &c) {
  if (!c.valid)
    return 5;
  if (c.measuredMicroseconds())
    return 0;
  if (!c.record)
    return 4;
  const bool ran =
      c.record->outcome == "ok" || c.record->outcome == "cannot-run-here";
  if (!ran)
    return 3;
  return c.predictedMicroseconds ? 1 : 2;
}

// A try's prediction (made with the compiled kernel's resources) onto the
// candidate.
void takePrediction(SweepCandidate &candidate,
                    const layout::CostPrediction &predicted) {
  candidate.predictedMicroseconds = predicted.microseconds;
  candidate.prediction = predicted.summary();
  candidate.predictedFromCompile = !predicted.resourcesEstimated;
}

// A candidate taken from the history predicted by the cost model as it is
// now, from the compiled kernel's resources the try recorded: the
// prediction the try stored is the model's of its day. Where the model
// cannot predict it again, the stored one stays.
void predictAgain(SweepCandidate &candidate, const SweepRequest &request,
                  const tries::TryRecord &record) {
  if (record.prediction)
    takePrediction(candidate, *record.prediction);
  if (!candidate.dispatch || !request.document)
    return;
  document::Document document = *request.document;
  document.dispatches[request.op.dispatch] = *candidate.dispatch;
  const std::optional<layout::CompiledKernel> compiled =
      record.resources ? compiledKernelOf(*record.resources) : std::nullopt;
  const edit::RootOpContext context = edit::contextOf(document, request.op);
  auto predicted = layout::predictOpTime(edit::costInputsOf(context), compiled);
  if (!predicted)
    return;
  candidate.predictedMicroseconds = predicted->microseconds;
  candidate.prediction = predicted->summary();
  candidate.predictedFromCompile = compiled.has_value();
}

} // namespace

std::optional<config::Attribute>
currentAttribute(const document::Document &document, edit::OpRef op,
                 const std::string &field) {
  // One entry of an integer list field: "workgroup[1]", the number alone
  // (IREE may print the list's entries typed, `1 : i64`; the sweep's
  // values are bare numbers).
  if (auto [name, index] = splitIndex(field); index) {
    auto list = currentAttribute(document, op, name);
    auto numbers = list ? list->asInt64Array() : std::nullopt;
    if (!numbers || *index >= numbers->size())
      return std::nullopt;
    return config::Attribute::integer((*numbers)[*index]);
  }
  const document::Dispatch &dispatch = document.dispatches[op.dispatch];
  const document::RootOp &rootOp = dispatch.rootOps[op.op];
  for (const std::string &name : {field, "translation_info." + field})
    if (auto entry = edit::opField(dispatch, rootOp, name))
      return std::move(entry->value);
  // A CPU lowering config (the window edits it whole): its parameters.
  const auto lowering = document::loweringReadingOf(rootOp);
  if (const auto &written = lowering->written();
      written && written->isDialect("iree_cpu", "lowering_config"))
    for (const config::Parameter &parameter : written->parameters)
      if (parameter.name == field)
        return parameter.get();
  return std::nullopt;
}

std::string currentValue(const document::Document &document, edit::OpRef op,
                         const std::string &field) {
  // An entry of a list: the number alone (currentAttribute's integer).
  if (splitIndex(field).second) {
    auto value = currentAttribute(document, op, field);
    return value ? value->text : std::string();
  }
  const document::Dispatch &dispatch = document.dispatches[op.dispatch];
  for (const std::string &name : {field, "translation_info." + field})
    if (auto entry = edit::opField(dispatch, dispatch.rootOps[op.op], name))
      return entry->text;
  // A CPU lowering config's parameter.
  auto value = currentAttribute(document, op, field);
  return value ? config::printAttribute(*value) : std::string();
}

std::optional<double> SweepCandidate::measuredMicroseconds() const {
  if (record && record->medianMicroseconds)
    return record->medianMicroseconds;
  if (measuredElsewhere)
    return measuredElsewhere->medianMicroseconds;
  return std::nullopt;
}

std::optional<run::TimingStats> SweepCandidate::measuredTiming() const {
  if (record && record->medianMicroseconds)
    return timingOf(*record);
  if (measuredElsewhere)
    return timingOf(*measuredElsewhere);
  return std::nullopt;
}

std::optional<tries::TimeVerdict>
againstFirst(const SweepCandidate &first, const SweepCandidate &candidate) {
  auto a = first.measuredTiming(), b = candidate.measuredTiming();
  if (!a || !b)
    return std::nullopt;
  return tries::compareTimes(*a, *b);
}

std::string SweepCandidate::rankedBy() const {
  if (measuredMicroseconds())
    return "measured";
  return predictedMicroseconds ? "predicted" : "";
}

bool rankedBefore(const SweepCandidate &a, const SweepCandidate &b) {
  const int ra = rank(a), rb = rank(b);
  if (ra != rb)
    return ra < rb;
  if (ra == 0)
    return *a.measuredMicroseconds() < *b.measuredMicroseconds();
  if (ra == 1)
    return *a.predictedMicroseconds < *b.predictedMicroseconds;
  if (ra == 2) {
    // No prediction (a CPU target, an op the model does not cover): fewer
    // registers first, unknown ones last.
    constexpr long long kUnknown = std::numeric_limits<long long>::max();
    return registersOf(*a.record).value_or(kUnknown) <
           registersOf(*b.record).value_or(kUnknown);
  }
  return false;
}

void findMeasuredElsewhere(const tries::History &history,
                           const SweepRequest &request,
                           std::vector<SweepCandidate> &candidates) {
  const edit::OpRef op = request.op;
  tries::HistoryFilter filter;
  if (request.resumeAcrossFiles) {
    filter.sweep = request.name;
  } else {
    filter.document = request.document->path.string();
    filter.op = std::to_string(op.dispatch) + ":" + std::to_string(op.op);
  }
  auto tries = history.list(filter); // newest first
  if (!tries)
    return;
  for (SweepCandidate &candidate : candidates) {
    if (!candidate.valid || !candidate.dispatch ||
        (candidate.record && candidate.record->medianMicroseconds))
      continue;
    const document::RootOp &root = candidate.dispatch->rootOps[op.op];
    const std::string &config = root.compilationInfo.empty()
                                    ? root.loweringConfig
                                    : root.compilationInfo;
    for (const tries::TryRecord &other : *tries) {
      if (!other.medianMicroseconds ||
          (candidate.record && !candidate.record->target.empty() &&
           other.target != candidate.record->target) ||
          !tries::holdsConfigs(other.configs, op.op, config,
                               candidate.dispatch->translationInfo))
        continue;
      candidate.measuredElsewhere = other;
      break;
    }
  }
}

Result<SweepAxis> parseSweepAxis(const std::string &text) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 >= text.size())
    return Error{"\"" + text +
                 "\": expected FIELD=V1,V2,... "
                 "(e.g. workgroup[1]=32,64,128)"};
  SweepAxis axis;
  axis.field = text.substr(0, equals);
  axis.values = splitValues(text.substr(equals + 1));
  for (const std::string &value : axis.values)
    if (value.empty())
      return Error{"\"" + text + "\": an empty value"};
  return axis;
}

std::string defaultSweepName(const document::Document &document, edit::OpRef op,
                             const std::vector<SweepAxis> &axes) {
  std::string name = document.path.filename().string() + " " +
                     std::to_string(op.dispatch) + ":" + std::to_string(op.op);
  for (const SweepAxis &axis : axes) {
    name += " " + axis.field + "=";
    for (size_t i = 0; i < axis.values.size(); ++i)
      name += (i ? "," : "") + axis.values[i];
  }
  return name;
}

namespace {

// A field's name without "translation_info.", as settings name it.
std::string settingName(const std::string &field) {
  const std::string prefix = "translation_info.";
  return field.rfind(prefix, 0) == 0 ? field.substr(prefix.size()) : field;
}

// Sets each field the verdict finds implied by the rest of the config
// (Problem::implied) and the settings do not name; each is added to the
// settings.
void followImplied(edit::EditableDocument &editable, edit::OpRef op,
                   const edit::RuleVerdict &verdict,
                   std::vector<std::pair<std::string, std::string>> &settings) {
  for (const config::Problem &problem : verdict.problems) {
    if (problem.implied.empty())
      continue;
    const std::string field = settingName(problem.field);
    const bool named =
        std::any_of(settings.begin(), settings.end(), [&](const auto &setting) {
          const std::string set = settingName(setting.first);
          return set == field || set.rfind(field + "[", 0) == 0;
        });
    if (named)
      continue;
    auto prepared = editable.prepare(op, field, problem.implied);
    if (!prepared || prepared->changesNothing() ||
        !editable.apply(std::move(*prepared)))
      continue;
    settings.emplace_back(field, problem.implied);
  }
}

// A candidate from its settings: applied by the edit model, checked by the
// rules the editor shows.
SweepCandidate makeCandidate(const SweepRequest &request,
                             SweepCandidate candidate) {
  const document::Document &document = *request.document;
  auto whole = wholeSettings(document, request.op, candidate.settings);
  if (!whole) {
    candidate.whyNot = whole.error();
    return candidate;
  }
  edit::EditableDocument editable(document);
  std::string refused;
  // An edit that changes nothing is the original value: not a refusal.
  for (const auto &[field, value] : *whole) {
    auto prepared = editable.prepare(request.op, field, value);
    if (prepared && prepared->changesNothing())
      continue;
    auto applied = prepared ? editable.apply(std::move(*prepared))
                            : Result<bool>(Error{prepared.error()});
    if (!applied && refused.empty())
      refused = field + "=" + value + ": " + applied.error();
  }
  if (!refused.empty()) {
    candidate.whyNot = refused;
    return candidate;
  }
  // A field the candidate does not set but its tiles imply (TileAndFuse's
  // workgroup_size follows the subgroups a workgroup tile holds) follows
  // them, so that halving a tile does not leave every candidate wrong.
  if (request.followImplied)
    followImplied(
        editable, request.op,
        edit::ruleVerdict(edit::contextOf(editable.document(), request.op)),
        candidate.settings);
  // The verdict `check` gives: an error, whether IREE refuses the config
  // or builds a kernel that cannot be right, is not compiled.
  const edit::RootOpContext context =
      edit::contextOf(editable.document(), request.op);
  edit::RuleVerdict verdict = edit::ruleVerdict(context);
  candidate.valid = !verdict.hasErrors();
  candidate.whyNot = verdict.whyNot();
  candidate.problems = std::move(verdict.problems);
  candidate.text = editable.text();
  candidate.dispatch = editable.document().dispatches[request.op.dispatch];
  if (candidate.valid)
    if (auto predicted = layout::predictOpTime(edit::costInputsOf(context))) {
      candidate.predictedMicroseconds = predicted->microseconds;
      candidate.prediction = predicted->summary();
    }
  return candidate;
}

} // namespace

Result<std::vector<SweepCandidate>> planSweep(const SweepRequest &request) {
  if (!request.document)
    return Error{"no document to sweep"};
  const document::Document &document = *request.document;
  if (request.op.dispatch >= document.dispatches.size() ||
      request.op.op >= document.dispatches[request.op.dispatch].rootOps.size())
    return Error{"the sweep's root op is not in the document"};
  // Given outright, or every combination of the axes (the last turning
  // fastest), each bounded before any is made.
  std::vector<SweepPoint> combined;
  if (request.points.empty()) {
    if (request.axes.empty())
      return Error{"nothing to vary: give at least one field and its values"};
    size_t total = 1;
    for (const SweepAxis &axis : request.axes) {
      if (axis.values.empty())
        return Error{axis.field + ": no values"};
      total *= axis.values.size();
      if (total > kMaximumCandidates)
        return Error{"the sweep would make more than " +
                     std::to_string(kMaximumCandidates) +
                     " candidates: vary fewer fields or values"};
    }
    combined = axisPoints(document, request.op, request.axes);
  } else if (request.points.size() > kMaximumCandidates) {
    return Error{"the sweep would make more than " +
                 std::to_string(kMaximumCandidates) + " candidates"};
  }
  std::vector<SweepCandidate> candidates;
  for (const SweepPoint &point :
       request.points.empty() ? combined : request.points) {
    SweepCandidate candidate;
    candidate.name = point.name;
    candidate.settings = point.settings;
    candidates.push_back(makeCandidate(request, std::move(candidate)));
  }
  return candidates;
}

Result<std::string> compilePartitionOf(const std::string &text,
                                       const run::RunPlace &runs,
                                       tries::TryStage upTo,
                                       const std::string &runsNamed) {
  if (text.empty())
    return std::string();
  auto place = run::parseRunPlace(text);
  if (!place || place->kind != run::RunPlace::Kind::Slurm)
    return Error{"takes slurm:PARTITION, not \"" + text + "\""};
  if (runs.kind != run::RunPlace::Kind::Slurm)
    return Error{"goes with " + runsNamed +
                 " (compiling elsewhere is for a cluster's runs)"};
  if (upTo != tries::TryStage::Bench)
    return Error{"needs the candidates timed: the compile array feeds the "
                 "run array"};
  return place->partition;
}

bool finishedForResume(const std::string &outcome) {
  return outcome != "cancelled" && outcome != "timed-out" &&
         outcome != "interrupted" && outcome != "node-failed" &&
         outcome != "queued";
}

namespace {

// The candidates already finished under the sweep's name (in this file
// unless resumed across files), taken from the history.
void resumeFromHistory(tries::History &history, const SweepRequest &request,
                       SweepResult &result) {
  tries::HistoryFilter filter;
  filter.sweep = request.name;
  if (!request.resumeAcrossFiles)
    filter.document = request.document->path.string();
  auto earlier = history.list(filter);
  if (!earlier)
    return;
  for (SweepCandidate &candidate : result.candidates)
    for (const tries::TryRecord &record : *earlier)
      if (candidate.valid && record.candidate == candidate.name &&
          record.kind == toString(request.upTo) &&
          finishedForResume(record.outcome)) {
        candidate.record = record;
        candidate.resumed = true;
        predictAgain(candidate, request, record);
        ++result.resumed;
        break;
      }
}

// One candidate's try: its document, in its own folder; on a cluster its
// run (and, with a compile partition, its compile) deferred to the arrays.
tries::TryRequest candidateTry(const SweepRequest &request,
                               const document::Document &document,
                               service::DocumentWorker *worker,
                               const std::filesystem::path &folder,
                               bool onCluster) {
  tries::TryRequest tryRequest;
  tryRequest.document = &document;
  tryRequest.op = std::pair{request.op.dispatch, request.op.op};
  tryRequest.worker = worker;
  tryRequest.upTo = request.upTo;
  tryRequest.target = request.target;
  tryRequest.directory = folder;
  tryRequest.repetitions = request.repetitions;
  tryRequest.timeout = request.timeout;
  tryRequest.cancel = request.cancel;
  tryRequest.place = request.place;
  tryRequest.deferRun = onCluster;
  tryRequest.deferCompile = onCluster && !request.compilePartition.empty() &&
                            request.upTo == tries::TryStage::Bench;
  return tryRequest;
}

} // namespace

Result<SweepResult> runSweep(const tools::IreeInstallation &iree,
                             const SweepRequest &request) {
  auto planned = planSweep(request);
  if (!planned)
    return Error{planned.error()};
  SweepResult result;
  result.candidates = std::move(*planned);
  if (request.ireeConstraints)
    if (auto checked =
            checkCandidatesWithIree(iree, request, result.candidates);
        !checked)
      return Error{checked.error()};
  const std::string opName =
      std::to_string(request.op.dispatch) + ":" + std::to_string(request.op.op);

  // Resume: a candidate already finished under this sweep's name is taken
  // from the history, not run again.
  auto history = tries::History::open(tries::historyFile(request.workspace));
  if (!history)
    return Error{history.error()};
  resumeFromHistory(*history, request, result);

  std::vector<SweepCandidate *> queue;
  for (SweepCandidate &candidate : result.candidates) {
    if (!candidate.valid)
      ++result.invalid;
    else if (!candidate.resumed)
      queue.push_back(&candidate);
  }
  const size_t total = result.candidates.size();
  size_t done = result.invalid;
  if (request.onCandidate)
    for (const SweepCandidate &candidate : result.candidates)
      if (candidate.resumed)
        request.onCandidate(candidate, ++done, total);
  done = total - queue.size();
  size_t ran = 0;
  std::mutex mutex; // guards the counts, the history and the callback
  // On a cluster, the compiled candidates waiting for their task.
  const bool onCluster = request.place.kind == run::RunPlace::Kind::Slurm;
  std::vector<DeferredCandidate> deferred;
  const auto finish = [&](SweepCandidate &candidate, tries::TryRecord record) {
    record.op = opName;
    record.sweep = request.name;
    record.candidate = candidate.name;
    if (auto id = history->add(record))
      record.id = *id;
    if (record.prediction)
      takePrediction(candidate, *record.prediction);
    candidate.record = std::move(record);
    ++done;
    ++ran;
    if (request.onCandidate)
      request.onCandidate(candidate, done, total);
  };
  auto tryCandidate = [&](size_t i) {
    SweepCandidate &candidate = *queue[i];
    if (process::stopRequested(request.cancel))
      return; // stopped or interrupted: the rest stay to resume
    // The candidate's document: its text and its configs as the edit
    // model left them (the history records these configs).
    auto document = std::make_unique<const document::Document>(
        candidateDocument(request, candidate));
    tries::TryRecord record;
    auto folder = process::newTryDirectory(request.workspace);
    Result<tries::TryResult> tried = Error{folder ? "" : folder.error()};
    if (folder) {
      std::optional<service::DocumentWorker> worker = request.worker;
      tries::TryRequest tryRequest = candidateTry(
          request, *document, worker ? &*worker : nullptr, *folder, onCluster);
      tried = runTry(iree, tryRequest);
      if (tried && (tried->pendingRun || tried->pendingCompile)) {
        tryRequest.worker = nullptr;
        std::lock_guard lock(mutex);
        deferred.push_back(
            {&candidate, std::move(document), tryRequest, std::move(*tried)});
        return;
      }
    }
    if (tried) {
      record = tried->record;
    } else {
      record.kind = toString(request.upTo);
      record.document = request.document->path.string();
      record.outcome = "compile-failed";
      record.summary = tried.error();
    }
    std::lock_guard lock(mutex);
    finish(candidate, std::move(record));
  };
  parallelFor(queue.size(), request.parallel, tryCandidate, request.cancel);
  if (!deferred.empty() && !process::stopRequested(request.cancel)) {
    auto sent = runDeferredOnSlurm(
        request, *history, deferred,
        [&](DeferredCandidate &d) { finish(*d.candidate, d.result.record); });
    if (!sent)
      return Error{sent.error()};
    result.slurmJobs = sent->jobs;
    result.submitted = sent->submitted;
    result.reattached = sent->reattached;
  }
  result.ran = ran;
  result.cancelled = process::stopRequested(request.cancel);

  // Measured beats predicted: a time of the same config elsewhere in the
  // history ranks a candidate that has none of its own.
  findMeasuredElsewhere(*history, request, result.candidates);
  std::stable_sort(result.candidates.begin(), result.candidates.end(),
                   rankedBefore);
  return result;
}

} // namespace tilescope::sweep
