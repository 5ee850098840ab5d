#include "core/service/IreeConstraints.h"

#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/smt/SmtProgram.h"
#include "core/document/SplitInput.h"
#include "core/edit/AttributeLocator.h"
#include "core/process/Process.h"
#include "core/process/Workspace.h"
#include "core/service/CompileJob.h"
#include "core/service/ConstraintCrashes.h"
#include "core/service/IreeDefaults.h"
#include "core/service/PrintedConstraints.h"
#include "core/util/Brackets.h"
#include "core/util/Files.h"
#include "core/util/Hash.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace tilescope::service {
namespace {

constexpr const char *kViolated = "pipeline constraints violated";
constexpr const char *kTemplateRefused = "failed to extract SMT knob values";

const char *kInsertPipeline =
    "builtin.module(hal.executable(hal.executable.variant(builtin.module("
    "func.func(iree-codegen-insert-smt-constraints)))))";
const char *kInsertVerifyPipeline =
    "builtin.module(hal.executable(hal.executable.variant(builtin.module("
    "func.func(iree-codegen-insert-smt-constraints,iree-codegen-verify-smt-"
    "constraints)))))";
const char *kVerifyPipeline =
    "builtin.module(hal.executable(hal.executable.variant(builtin.module("
    "func.func(iree-codegen-verify-smt-constraints)))))";

// A root op of the document with a GPU lowering config, and the set its
// root_op attribute names (or the copy gives it).
struct ConfiguredOp {
  size_t dispatch = 0;
  size_t op = 0;
  long long set = 0;
  size_t offset = 0; // where its `lowering_config` key is, in the file
  bool needsRootOpAttribute = false;
  size_t rootOpKey = 0; // where its own `root_op` key is, when it has one
};

std::vector<ConfiguredOp>
configuredOps(const document::Document &document,
              const std::vector<document::TextPart> &parts) {
  std::vector<ConfiguredOp> ops;
  for (size_t d = 0; d < document.dispatches.size(); ++d) {
    const document::Dispatch &dispatch = document.dispatches[d];
    long long nextSet = 0;
    for (const document::RootOp &op : dispatch.rootOps)
      if (op.rootOpSet)
        nextSet = std::max(nextSet, *op.rootOpSet + 1);
    for (size_t o = 0; o < dispatch.rootOps.size(); ++o) {
      const document::RootOp &op = dispatch.rootOps[o];
      if (op.loweringConfig.empty() ||
          !config::isGpuLoweringConfigText(op.loweringConfig))
        continue;
      const size_t opOffset = edit::offsetOf(document.text, op.line, op.column);
      const document::TextPart &part =
          parts.at(static_cast<size_t>(std::max(dispatch.part, 0)));
      auto site =
          edit::locateAttribute(document.text, opOffset, "lowering_config",
                                {part.offset, part.length});
      if (!site)
        continue; // no lowering_config key at the op: IREE reads none
      ConfiguredOp c{d,
                     o,
                     op.rootOpSet.value_or(nextSet),
                     site->key.offset,
                     !op.rootOpSet.has_value(),
                     0};
      if (c.needsRootOpAttribute) {
        ++nextSet;
      } else {
        auto own = edit::locateAttribute(document.text, opOffset, "root_op",
                                         {part.offset, part.length});
        if (!own)
          continue;
        c.rootOpKey = own->key.offset;
      }
      ops.push_back(c);
    }
  }
  return ops;
}

// The configured op a diagnostic of the verify run is about: the root op on
// its line (constraints IREE inserted carry their root op's location), or,
// in a file that carried its constraints, the op whose set the
// constraints op on that line targets.
const ConfiguredOp *opOf(const document::Diagnostic &d,
                         const document::Document &document,
                         const std::vector<ConfiguredOp> &ops,
                         const std::vector<PrintedConstraints> &carried) {
  for (const ConfiguredOp &op : ops)
    if (document.dispatches[op.dispatch].rootOps[op.op].line == d.line)
      return &op;
  for (const PrintedConstraints &c : carried)
    if (c.line == d.line)
      for (const ConfiguredOp &op : ops)
        if (document.dispatches[op.dispatch].name == c.function &&
            op.set == c.set)
          return &op;
  return nullptr;
}

using OpSet = std::set<const ConfiguredOp *>;

// The part's text as IREE is given it: root_op attributes on the ops IREE
// is asked about (`asked`; all when unset) and none on the others, and the
// ops already judged hidden from the verifier (their lowering_config key
// renamed, so it reads no config for them and skips them). Every edit stays
// on its line.
std::string copyOfPart(const document::Document &document,
                       const document::TextPart &part,
                       const std::vector<ConfiguredOp> &ops,
                       const OpSet &hidden,
                       const std::optional<OpSet> &asked = std::nullopt) {
  std::vector<std::pair<size_t, std::string>> inserts;
  for (const ConfiguredOp &op : ops) {
    if (op.offset < part.offset || op.offset >= part.offset + part.length)
      continue;
    const bool isAsked = !asked || asked->count(&op);
    if (hidden.count(&op))
      inserts.push_back({op.offset, "tilescope_judged_"});
    if (op.needsRootOpAttribute && isAsked)
      inserts.push_back({op.offset, "root_op = #iree_codegen.root_op<set = " +
                                        std::to_string(op.set) + ">, "});
    if (!op.needsRootOpAttribute && !isAsked)
      inserts.push_back({op.rootOpKey, "tilescope_unasked_"});
  }
  // Back to front, so the offsets before each edit stay good.
  std::stable_sort(
      inserts.begin(), inserts.end(),
      [](const auto &a, const auto &b) { return a.first > b.first; });
  std::string text = std::string(part.in(document.text));
  for (const auto &[offset, inserted] : inserts)
    text.insert(offset - part.offset, inserted);
  return text;
}

struct PartRun {
  std::vector<document::Diagnostic> diagnostics; // whole-file lines
  std::vector<PrintedConstraints> constraints;
  bool carriesConstraints = false;
  // Ops IREE crashes on while stating their constraints: why, and the
  // command that reproduces it on a file asking about that op alone.
  std::map<const ConfiguredOp *, std::string> crashed;
};

using SpecMaker = std::function<process::ProcessSpec(
    const char *pipeline, const std::filesystem::path &input,
    const std::filesystem::path &output)>;

// What IREE was given for `op` when its constraints crashed it, as a key of
// KnownCrashes: the IREE, its dispatch's target, translation_info and root
// ops' configs (as IREE read them: an alias defined elsewhere counts), and
// the text from its dispatch to the next (its function, configs and all).
// An edit of that dispatch makes a new key; an edit elsewhere does not.
std::string crashKey(const std::filesystem::path &ireeOpt,
                     const document::Document &document,
                     const document::TextPart &part, const ConfiguredOp &op) {
  const document::Dispatch &dispatch = document.dispatches[op.dispatch];
  Fnv1a key;
  key.add(ireeOpt.string()).add("\n").add(dispatch.target).add("\n");
  key.add(dispatch.translationInfo).add("\n");
  for (const document::RootOp &root : dispatch.rootOps)
    key.add(root.loweringConfig).add("\n").add(root.compilationInfo).add("\n");
  // The next dispatch's line found first: each offset is a walk of the
  // text from its start.
  std::optional<int> nextLine;
  for (const document::Dispatch &other : document.dispatches)
    if (other.part == dispatch.part && other.line > dispatch.line &&
        (!nextLine || other.line < *nextLine))
      nextLine = other.line;
  const size_t partEnd = part.offset + part.length;
  size_t begin = edit::offsetOf(document.text, dispatch.line, 1);
  size_t end =
      nextLine ? std::min(partEnd, edit::offsetOf(document.text, *nextLine, 1))
               : partEnd;
  if (begin >= end || end > document.text.size())
    begin = part.offset, end = std::min(partEnd, document.text.size());
  key.add(std::string_view(document.text).substr(begin, end - begin));
  return key.hex() + ":" + std::to_string(op.op);
}

// The ops of `asked` an earlier check of the same executable found crashing
// IREE's constraint insertion, each with why.
std::map<const ConfiguredOp *, std::string>
knownCrashes(const std::filesystem::path &ireeOpt,
             const document::Document &document, const document::TextPart &part,
             const OpSet &asked) {
  std::map<const ConfiguredOp *, std::string> known;
  // Nothing crashed yet in this process (the common case): no key is made.
  if (KnownCrashes::shared().size() == 0)
    return known;
  for (const ConfiguredOp *op : asked)
    if (auto why =
            KnownCrashes::shared().find(crashKey(ireeOpt, document, part, *op)))
      known[op] = std::move(*why);
  return known;
}

// The ops of `asked` that crash IREE's constraint insertion on their own,
// found by asking about halves, each with IREE's crash in words and the
// command that reproduces it (its file kept in the workspace); remembered
// for the next check (KnownCrashes).
Result<std::map<const ConfiguredOp *, std::string>>
crashingOps(const std::filesystem::path &ireeOpt,
            const document::Document &document, const document::TextPart &part,
            const std::vector<ConfiguredOp> &ops, const OpSet &asked,
            const TemporaryDirectory &folder, const SpecMaker &spec) {
  std::vector<size_t> indices;
  for (const ConfiguredOp *op : asked)
    indices.push_back(static_cast<size_t>(op - ops.data()));
  int tries = 0;
  auto probe =
      [&](const std::vector<size_t> &group) -> CrashProbe::result_type {
    const std::filesystem::path file =
        folder.file("crash-probe-" + std::to_string(tries++) + ".mlir");
    OpSet probed;
    for (size_t index : group)
      probed.insert(&ops[index]);
    if (auto written = writeFileAtomically(
            file, copyOfPart(document, part, ops, {}, probed));
        !written)
      return Error{written.error()};
    const process::ProcessSpec one = spec(kInsertPipeline, file, "/dev/null");
    const process::ProcessResult result = runProcess(one);
    if (result.outcome != process::ProcessResult::Outcome::Signaled ||
        group.size() > 1) {
      std::filesystem::remove(file);
      return result.outcome == process::ProcessResult::Outcome::Signaled
                 ? std::optional<std::string>(result.describe())
                 : std::nullopt;
    }
    // The probe's folder goes with the job: its input is kept.
    auto kept = process::keepCrashReproducer(file);
    return std::optional<std::string>(
        "iree-opt " + result.describe() +
        " stating IREE's constraints for this op (IREE's bug); reproduce: " +
        (kept ? spec(kInsertPipeline, *kept, "/dev/null").shellCommand()
              : one.shellCommand() +
                    " (the input could not be kept: " + kept.error() + ")"));
  };
  auto found = isolateCrashes(indices, probe);
  if (!found)
    return Error{found.error()};
  std::map<const ConfiguredOp *, std::string> crashes;
  for (auto &[index, why] : *found) {
    KnownCrashes::shared().add(crashKey(ireeOpt, document, part, ops[index]),
                               why);
    crashes[&ops[index]] = std::move(why);
  }
  return crashes;
}

Result<PartRun>
runPart(const tools::IreeInstallation &iree, const document::Document &document,
        const document::TextPart &part, const std::vector<ConfiguredOp> &ops,
        const OpSet &askedOps, const TemporaryDirectory &folder, int index,
        std::chrono::milliseconds timeout, const std::atomic<bool> *cancel,
        std::vector<std::string> &commands) {
  auto tool = iree.tool(tools::kIreeOpt);
  if (!tool)
    return Error{tool.error()};
  const std::string name = "part" + std::to_string(index) + ".mlir";
  const std::filesystem::path input = folder.file(name);
  OpSet hidden, asked;
  for (const ConfiguredOp *op : askedOps)
    if (op->offset >= part.offset && op->offset < part.offset + part.length)
      asked.insert(op);
  if (auto written = writeFileAtomically(
          input, copyOfPart(document, part, ops, hidden, asked));
      !written)
    return Error{written.error()};

  // A file that already carries IREE's constraints (dumped with
  // --iree-codegen-emit-pipeline-constraints) is verified as it is.
  PartRun run;
  run.carriesConstraints =
      part.in(document.text).find(kConstraintsOp) != std::string_view::npos;
  auto spec = [&](const char *pipeline, const std::filesystem::path &from,
                  const std::filesystem::path &output) {
    process::ProcessSpec s;
    s.program = *tool;
    s.arguments = {"--mlir-print-op-on-diagnostic=false",
                   std::string("--pass-pipeline=") + pipeline, from.string(),
                   "-o", output.string()};
    s.timeout = timeout;
    s.cancel = cancel;
    return s;
  };
  if (run.carriesConstraints) {
    run.constraints = readConstraints(std::string(part.in(document.text)));
    for (PrintedConstraints &c : run.constraints)
      c.line += part.firstLine - 1;
  } else {
    // IREE's constraint generators crash on some ops (batch matmuls in
    // 3.13): those are left out, each with a reproducer, and the others
    // asked. Those an earlier check of the same executable found are left
    // out at once; others are found by halves when IREE crashes.
    auto leaveOut = [&](std::map<const ConfiguredOp *, std::string> crashes) {
      for (auto &[op, why] : crashes) {
        asked.erase(op);
        run.crashed[op] = std::move(why);
      }
      return writeFileAtomically(
          input, copyOfPart(document, part, ops, hidden, asked));
    };
    if (auto known = knownCrashes(*tool, document, part, asked); !known.empty())
      if (auto written = leaveOut(std::move(known)); !written)
        return Error{written.error()};
    const process::ProcessSpec insert =
        spec(kInsertPipeline, input, folder.file(name + ".constraints"));
    commands.push_back(insert.shellCommand());
    process::ProcessResult inserted = runProcess(insert);
    if (inserted.outcome == process::ProcessResult::Outcome::Signaled) {
      auto crashes =
          crashingOps(*tool, document, part, ops, asked, folder, spec);
      if (!crashes)
        return Error{crashes.error()};
      if (auto written = leaveOut(std::move(*crashes)); !written)
        return Error{written.error()};
      inserted = runProcess(insert);
    }
    if (!inserted.succeeded())
      return Error{"iree-opt " + inserted.describe() +
                   " stating the pipeline constraints\n  command: " +
                   insert.shellCommand() + "\n" +
                   inserted.standardError.substr(0, 4000)};
    auto output = readTextFile(folder.file(name + ".constraints"));
    if (!output)
      return Error{output.error()};
    run.constraints = readConstraints(*output);
  }

  // IREE's verifier stops at the first function whose constraints fail, so
  // the ops it judged are hidden and the rest checked again, until a run
  // passes or stops on nothing Tilescope can place.
  const std::vector<PrintedConstraints> carried =
      run.carriesConstraints ? run.constraints
                             : std::vector<PrintedConstraints>{};
  for (;;) {
    const process::ProcessSpec verify =
        spec(run.carriesConstraints ? kVerifyPipeline : kInsertVerifyPipeline,
             input, "/dev/null");
    if (commands.empty() || commands.back() != verify.shellCommand())
      commands.push_back(verify.shellCommand());
    const process::ProcessResult verified = runProcess(verify);
    if (verified.outcome != process::ProcessResult::Outcome::Exited)
      return Error{"iree-opt " + verified.describe() +
                   " checking the pipeline constraints\n  command: " +
                   verify.shellCommand()};
    std::vector<document::Diagnostic> diagnostics = parseToolDiagnostics(
        verified.standardError, name, document.path.string());
    if (!verified.succeeded() && diagnostics.empty())
      return Error{"iree-opt " + verified.describe() +
                   " checking the pipeline constraints, with no diagnostic\n"
                   "  command: " +
                   verify.shellCommand() + "\n" +
                   verified.standardError.substr(0, 4000)};
    bool judgedMore = false;
    for (document::Diagnostic &d : diagnostics) {
      if (d.line > 0)
        d.line += part.firstLine - 1;
      for (document::Diagnostic &note : d.notes)
        if (note.line > 0)
          note.line += part.firstLine - 1;
      if (d.severity == document::Severity::Error)
        if (const ConfiguredOp *op = opOf(d, document, ops, carried);
            op && hidden.insert(op).second)
          judgedMore = true;
      run.diagnostics.push_back(d);
    }
    if (verified.succeeded() || !judgedMore)
      break;
    if (auto written = writeFileAtomically(
            input, copyOfPart(document, part, ops, hidden, asked));
        !written)
      return Error{written.error()};
  }
  return run;
}

// Why IREE checks nothing for a pipeline it states no constraints for,
// naming those it does state them for.
std::string noConstraintsReason(const std::string &pipeline,
                                const std::vector<ConstraintSet> &sets) {
  std::string offered;
  for (const ConstraintSet &set : sets)
    offered += (offered.empty() ? "" : ", ") + set.pipeline;
  return "IREE states no constraints for " +
         (pipeline.empty() ? std::string("this pipeline") : pipeline) +
         " on this op" +
         (offered.empty() ? std::string(" (nor for any other pipeline)")
                          : " (it does for " + offered + ")");
}

// IREE's verifier skips a template the config does not fit, silently.
std::string skippedReason(const config::KnobMatch &knobs,
                          const ConstraintSet &chosen) {
  return knobs.describe() + ", so IREE skips its check of the " +
         std::to_string(chosen.assertions) + " constraints";
}

// An attention op's decomposition_config, the dictionary IREE's attention
// template describes; none for another op.
std::optional<config::Attribute> decompositionOf(const document::RootOp &root) {
  if (root.decompositionConfig.empty())
    return std::nullopt;
  const auto reading = document::decompositionReadingOf(root);
  const Result<config::Attribute> &attribute = reading->written();
  if (!attribute || !attribute->is(config::Attribute::Kind::Dictionary))
    return std::nullopt;
  return *attribute;
}

// The set's asserts on the knobs' values, as IREE's verifier evaluates
// them: the violated ones, and the outcome.
Result<bool> evaluateAsserts(OpConstraintVerdict &v, const ConstraintSet &set) {
  auto program = config::parseSmtProgram(set.body, set.dims);
  if (!program)
    return Error{program.error()};
  for (const config::SmtViolation &violation :
       config::violatedAsserts(*program, v.knobs.values))
    v.violations.push_back(
        {violation.message,
         config::fieldsOfMessage(violation.message, v.knobs.fields)});
  v.outcome = v.violations.empty() ? OpConstraintVerdict::Outcome::Holds
                                   : OpConstraintVerdict::Outcome::Violated;
  return true;
}

// Where IREE's verifier cannot read the config (attention), its stated
// asserts evaluated here, and said so.
Result<bool> evaluateHere(OpConstraintVerdict &v, const ConstraintSet &set) {
  if (auto evaluated = evaluateAsserts(v, set); !evaluated)
    return evaluated;
  v.evaluatedHere = true;
  v.reason = "evaluated by Tilescope: IREE states them over the "
             "decomposition_config, which its own verifier does not read "
             "(it refuses: 'failed to extract SMT knob values')";
  return true;
}

} // namespace

Result<bool> markIreesOwnChoices(const tools::IreeInstallation &iree,
                                 DocumentWorker &worker,
                                 const document::Document &document,
                                 std::vector<OpConstraintVerdict> &ops,
                                 std::chrono::milliseconds timeout,
                                 const std::atomic<bool> *cancel) {
  const bool anyViolated =
      std::any_of(ops.begin(), ops.end(), [](const OpConstraintVerdict &op) {
        return op.outcome == OpConstraintVerdict::Outcome::Violated;
      });
  if (!anyViolated)
    return false;
  auto defaults = ireeDefaultConfigs(iree, worker, document, timeout, cancel);
  if (!defaults)
    return Error{defaults.error()};
  // IREE's choices by the dispatches' symbols: a print with locations
  // lists dispatches in its source's order.
  const auto chosen = document::dispatchesBySymbol(defaults->document);
  bool marked = false;
  for (OpConstraintVerdict &op : ops) {
    if (op.outcome != OpConstraintVerdict::Outcome::Violated ||
        op.dispatch >= document.dispatches.size())
      continue;
    const document::Dispatch &mine = document.dispatches[op.dispatch];
    const auto found = chosen.find(document::symbolOf(mine));
    if (found == chosen.end())
      continue;
    const document::Dispatch &theirs = *found->second;
    if (op.op >= mine.rootOps.size() || op.op >= theirs.rootOps.size() ||
        mine.translationInfo != theirs.translationInfo)
      continue;
    const document::RootOp &a = mine.rootOps[op.op];
    const document::RootOp &b = theirs.rootOps[op.op];
    if (a.name == b.name && a.loweringConfig == b.loweringConfig &&
        a.compilationInfo == b.compilationInfo &&
        a.decompositionConfig == b.decompositionConfig) {
      op.ireesOwnChoice = true;
      marked = true;
    }
  }
  return marked;
}

Result<ConstraintVerdict> judgedConstraintVerdict(
    const tools::IreeInstallation &iree, DocumentWorker &worker,
    const document::Document &document, std::chrono::milliseconds timeout,
    const std::atomic<bool> *cancel, const std::optional<edit::OpRef> &only) {
  auto verdict = ireeConstraintVerdict(iree, document, timeout, cancel, only);
  if (verdict)
    (void)markIreesOwnChoices(iree, worker, document, verdict->ops, timeout,
                              cancel);
  return verdict;
}

Result<std::optional<OpConstraintVerdict>>
ireeVerdictOn(const tools::IreeInstallation &iree, DocumentWorker &worker,
              const document::Document &document, edit::OpRef op,
              std::vector<std::string> *commands,
              std::chrono::milliseconds timeout,
              const std::atomic<bool> *cancel) {
  auto verdict =
      judgedConstraintVerdict(iree, worker, document, timeout, cancel, op);
  if (!verdict)
    return Error{verdict.error()};
  if (commands)
    *commands = verdict->commands;
  for (OpConstraintVerdict &v : verdict->ops)
    if (v.dispatch == op.dispatch && v.op == op.op)
      return std::optional<OpConstraintVerdict>(std::move(v));
  return std::optional<OpConstraintVerdict>();
}

namespace {

// What iree-opt said over the document's parts: the constraints it printed
// (those carried by a constraints op apart), its diagnostics, and the ops
// whose check crashed it, with why.
struct Collected {
  std::vector<PrintedConstraints> constraints, carried;
  std::vector<document::Diagnostic> diagnostics;
  std::map<const ConfiguredOp *, std::string> crashed;
};

// One configured op's verdict from what was collected.
Result<OpConstraintVerdict> opVerdict(const document::Document &document,
                                      const std::vector<ConfiguredOp> &ops,
                                      const ConfiguredOp &op,
                                      const Collected &collected) {
  const document::Dispatch &dispatch = document.dispatches[op.dispatch];
  const document::RootOp &root = dispatch.rootOps[op.op];
  OpConstraintVerdict v;
  v.dispatch = op.dispatch;
  v.op = op.op;
  const auto reading = document::translationReadingOf(dispatch);
  const Result<config::TranslationInfo> &translation = reading->model();
  if (translation)
    v.pipeline = translation->pipelineName();
  const ConstraintSet *chosen = nullptr;
  for (const PrintedConstraints &c : collected.constraints)
    if (c.function == dispatch.name && c.set == op.set) {
      v.sets.push_back(c.content);
    }
  for (const ConstraintSet &set : v.sets)
    if (set.pipeline == v.pipeline)
      chosen = &set;

  // IREE's diagnostics about this op.
  std::optional<document::Diagnostic> refused, violated, other;
  for (const document::Diagnostic &d : collected.diagnostics) {
    if (d.severity != document::Severity::Error ||
        opOf(d, document, ops, collected.carried) != &op)
      continue;
    if (d.message.find(kViolated) != std::string::npos)
      violated = d;
    else if (d.message.find(kTemplateRefused) != std::string::npos)
      refused = d;
    else
      other = d;
  }
  const auto decomposition = decompositionOf(root);
  if (chosen) {
    const Result<config::Attribute> &knobs = chosen->knobsTemplate;
    const auto loweringRead = document::loweringReadingOf(root);
    const Result<config::Attribute> &lowering = loweringRead->written();
    if (knobs && lowering && translation)
      v.knobs = config::matchKnobs(*knobs, *lowering, *translation,
                                   decomposition ? &*decomposition : nullptr);
  }

  if (auto crash = collected.crashed.find(&op);
      crash != collected.crashed.end()) {
    v.outcome = OpConstraintVerdict::Outcome::NotChecked;
    v.reason = crash->second;
  } else if (violated) {
    v.outcome = OpConstraintVerdict::Outcome::Violated;
    for (const document::Diagnostic &note : violated->notes)
      v.violations.push_back({note.message, config::fieldsOfMessage(
                                                note.message, v.knobs.fields)});
  } else if (refused && !other && chosen && decomposition &&
             v.knobs.outcome == config::KnobMatch::Outcome::Matched) {
    // IREE's verifier looks for the template's decomposition_config in
    // the lowering config, where IREE never puts it.
    if (auto evaluated = evaluateHere(v, *chosen); !evaluated)
      return Error{evaluated.error()};
  } else if (refused || other) {
    v.outcome = OpConstraintVerdict::Outcome::NotChecked;
    v.reason = "IREE: " + (refused ? refused->message : other->message);
    if (refused && v.knobs.outcome != config::KnobMatch::Outcome::Matched)
      v.reason += " (" + v.knobs.describe() + ")";
  } else if (!chosen) {
    v.outcome = OpConstraintVerdict::Outcome::NoConstraints;
    v.reason = noConstraintsReason(v.pipeline, v.sets);
  } else if (v.knobs.outcome != config::KnobMatch::Outcome::Matched) {
    v.outcome = OpConstraintVerdict::Outcome::NotChecked;
    v.reason = skippedReason(v.knobs, *chosen);
  } else {
    v.outcome = OpConstraintVerdict::Outcome::Holds;
  }
  return v;
}

} // namespace

Result<ConstraintVerdict> ireeConstraintVerdict(
    const tools::IreeInstallation &iree, const document::Document &document,
    std::chrono::milliseconds timeout, const std::atomic<bool> *cancel,
    const std::optional<edit::OpRef> &only) {
  std::vector<document::TextPart> parts;
  if (document.partCount > 1)
    parts =
        document::splitInputFile(document.text, document.path.string()).parts;
  if (parts.empty())
    parts.push_back({0, document.text.size(), 1, 1});
  const std::vector<ConfiguredOp> ops = configuredOps(document, parts);
  OpSet asked;
  for (const ConfiguredOp &op : ops)
    if (!only || (only->dispatch == op.dispatch && only->op == op.op))
      asked.insert(&op);

  ConstraintVerdict verdict;
  auto folder = TemporaryDirectory::create("tilescope-constraints");
  if (!folder)
    return Error{folder.error()};
  Collected collected;
  for (size_t p = 0; p < parts.size(); ++p) {
    const bool used = std::any_of(asked.begin(), asked.end(), [&](auto *op) {
      return static_cast<size_t>(
                 std::max(document.dispatches[op->dispatch].part, 0)) == p;
    });
    if (!used)
      continue;
    auto run = runPart(iree, document, parts[p], ops, asked, *folder,
                       static_cast<int>(p), timeout, cancel, verdict.commands);
    if (!run) {
      folder->keep();
      return Error{run.error()};
    }
    for (const PrintedConstraints &c : run->constraints)
      (run->carriesConstraints ? collected.carried : collected.constraints)
          .push_back(c);
    for (const auto &[op, why] : run->crashed)
      collected.crashed[op] = why;
    if (!run->crashed.empty())
      folder->keep(); // the reproducers
    collected.diagnostics.insert(collected.diagnostics.end(),
                                 run->diagnostics.begin(),
                                 run->diagnostics.end());
  }
  for (const PrintedConstraints &c : collected.carried)
    collected.constraints.push_back(c);
  // An error IREE gives about no root op (the file itself, a pass failing)
  // leaves every verdict unknown.
  for (const document::Diagnostic &d : collected.diagnostics)
    if (d.severity == document::Severity::Error &&
        !opOf(d, document, ops, collected.carried)) {
      folder->keep();
      return Error{"iree-opt refused the document while checking the "
                   "pipeline constraints: " +
                   d.toString() + "\n  command: " + verdict.commands.back()};
    }

  for (const ConfiguredOp &op : ops) {
    if (!asked.count(&op))
      continue;
    auto v = opVerdict(document, ops, op, collected);
    if (!v)
      return Error{v.error()};
    verdict.ops.push_back(std::move(*v));
  }
  return verdict;
}

Result<OpConstraintVerdict>
evaluateConstraints(const std::vector<ConstraintSet> &sets,
                    const document::Dispatch &dispatch, size_t op) {
  OpConstraintVerdict v;
  v.op = op;
  v.sets = sets;
  const document::RootOp &root = dispatch.rootOps.at(op);
  const auto reading = document::translationReadingOf(dispatch);
  const Result<config::TranslationInfo> &translation = reading->model();
  if (!translation)
    return Error{"translation_info: " + translation.error()};
  v.pipeline = translation->pipelineName();
  const ConstraintSet *chosen = nullptr;
  for (const ConstraintSet &set : sets)
    if (set.pipeline == v.pipeline)
      chosen = &set;
  if (!chosen) {
    v.outcome = OpConstraintVerdict::Outcome::NoConstraints;
    v.reason = noConstraintsReason(v.pipeline, sets);
    return v;
  }
  const Result<config::Attribute> &knobs = chosen->knobsTemplate;
  if (!knobs)
    return Error{"IREE's knobs template: " + knobs.error()};
  const auto loweringRead = document::loweringReadingOf(root);
  const Result<config::Attribute> &lowering = loweringRead->written();
  if (!lowering)
    return Error{"lowering_config: " + lowering.error()};
  const auto decomposition = decompositionOf(root);
  v.knobs = config::matchKnobs(*knobs, *lowering, *translation,
                               decomposition ? &*decomposition : nullptr);
  if (v.knobs.outcome == config::KnobMatch::Outcome::Missing) {
    v.outcome = OpConstraintVerdict::Outcome::NotChecked;
    v.reason = std::string("IREE: ") + kTemplateRefused + " (" +
               v.knobs.describe() + ")";
    return v;
  }
  if (v.knobs.outcome == config::KnobMatch::Outcome::Mismatch) {
    v.outcome = OpConstraintVerdict::Outcome::NotChecked;
    v.reason = skippedReason(v.knobs, *chosen);
    return v;
  }
  if (auto evaluated = evaluateAsserts(v, *chosen); !evaluated)
    return Error{evaluated.error()};
  v.evaluatedHere = decomposition.has_value();
  return v;
}

} // namespace tilescope::service
