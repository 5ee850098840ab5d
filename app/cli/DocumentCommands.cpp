// tilescope-cli show / set-config / diff: root ops of real IREE files, in
// context, edited through the core's edit model and read back by IREE.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/common/IreeSettings.h"
#include "core/config/syntax/Attribute.h"
#include "core/document/Document.h"
#include "core/edit/ConfigDiff.h"
#include "core/edit/EditableDocument.h"
#include "core/edit/RootOpContext.h"
#include "core/export/ConfigJson.h"
#include "core/export/DifferenceJson.h"
#include "core/export/DocumentJson.h"
#include "core/export/JsonText.h"
#include "core/iree/CompilerLibrary.h"
#include "core/session/Session.h"
#include "core/util/UnifiedDiff.h"

#include <QCommandLineParser>

#include <algorithm>
#include <iostream>
#include <memory>

using nlohmann::json;
using namespace tilescope;

namespace tilescope::cli {
namespace {

std::string list(const std::vector<int> &values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

std::string dimName(int dim) { return "d" + std::to_string(dim); }

json targetJson(const edit::RootOpContext &context) {
  if (context.target)
    return exporting::toJson(*context.target);
  json out = {{"none", context.targetNote}};
  if (context.dispatch && !context.dispatch->target.empty())
    out["attribute"] = context.dispatch->target;
  return out;
}

json problemsJson(const std::vector<config::Problem> &problems) {
  return exporting::toJson(problems);
}

json opJson(const document::Document &document, edit::OpRef ref,
            const edit::RootOpContext &context,
            const std::vector<config::Problem> &problems) {
  const document::Dispatch &dispatch = *context.dispatch;
  json fused = json::array();
  for (const document::FusedOp &op : dispatch.fusedOps)
    fused.push_back({{"name", op.name}, {"line", op.line}});
  json out = {{"file", document.path.string()},
              {"dispatch_index", ref.dispatch},
              {"op_index", ref.op},
              {"dispatch", exporting::toJson(dispatch)},
              {"root_op", exporting::toJson(*context.op)},
              {"target", targetJson(context)},
              {"problems", problemsJson(problems)}};
  out["dispatch"].erase("root_ops");
  if (!context.loweringConfigError.empty())
    out["lowering_config_note"] = context.loweringConfigError;
  return out;
}

void printOp(const edit::RootOpContext &context,
             const std::vector<config::Problem> &problems) {
  const document::Dispatch &dispatch = *context.dispatch;
  const document::RootOp &op = *context.op;
  std::cout << "@" << dispatch.name << ": " << op.name << " (line " << op.line
            << ")\n";
  std::cout << "  kind:        " << config::toString(op.kind);
  if (op.contraction)
    std::cout << " (batch " << list(op.contraction->batch) << ", m "
              << list(op.contraction->m) << ", n " << list(op.contraction->n)
              << ", k " << list(op.contraction->k)
              << (op.contraction->kB.empty()
                      ? std::string()
                      : ", k_b " + list(op.contraction->kB))
              << ")";
  std::cout << "\n";
  if (op.space) {
    std::cout << "  loops:      ";
    for (size_t d = 0; d < op.space->rank(); ++d)
      std::cout << " " << dimName(static_cast<int>(d)) << "="
                << (op.space->bounds[d] == config::kDynamicSize
                        ? std::string("?")
                        : std::to_string(op.space->bounds[d]))
                << (op.space->isReduction(d) ? " reduction" : " parallel")
                << (d + 1 < op.space->rank() ? "," : "");
    std::cout << "\n  operands:\n";
    // On IREE's IGEMM loops the operands are the contraction's, in IREE's
    // order: the im2col'd input and the collapsed filter, swapped where the
    // output channel comes first (NCHW); each shown with the convolution
    // operand it is made from.
    const bool igemm = op.implicitGemm && op.onImplicitGemm;
    const bool swapped = igemm && op.implicitGemm->outputChannelFirst;
    for (size_t i = 0; i < op.space->operands.size(); ++i) {
      const config::OperandAccess &operand = op.space->operands[i];
      const size_t from = swapped && i < 2 ? 1 - i : i;
      std::cout << "    " << (operand.isOutput ? "out " : "in  ") << i << "  "
                << (from < op.operandTypes.size() ? op.operandTypes[from]
                                                  : operand.elementType);
      if (igemm && !operand.isOutput)
        std::cout << (from == 0 ? " im2col'd input" : " filter");
      std::cout << "  (";
      for (size_t j = 0; j < operand.dims.size(); ++j)
        std::cout << (j ? ", " : "")
                  << (operand.dims[j] < 0 ? std::string("·")
                                          : dimName(operand.dims[j]));
      std::cout << ")\n";
    }
  } else {
    std::cout << "  loops:       IREE gives this op no indexing maps\n";
  }
  if (op.implicitGemm && op.onImplicitGemm) {
    const config::ImplicitGemm &igemm = *op.implicitGemm;
    std::cout << "  implicit GEMM: the loops above are IREE's IGEMM loops "
                 "(use_igemm_convolution); the convolution's own are "
              << igemm.convolution.toString() << "\n";
    for (size_t g = 0; g < igemm.gemm.rank(); ++g)
      if (igemm.convolutionLoopsOf(static_cast<int>(g)).size() > 1)
        std::cout << "    " << dimName(static_cast<int>(g)) << " = "
                  << igemm.describeLoop(static_cast<int>(g))
                  << " of the convolution's loops\n";
  }
  if (!dispatch.fusedOps.empty()) {
    std::cout << "  fused with:  ";
    for (size_t i = 0; i < dispatch.fusedOps.size(); ++i)
      std::cout << (i ? ", " : "") << dispatch.fusedOps[i].name << " (line "
                << dispatch.fusedOps[i].line << ")";
    std::cout << "\n";
  }
  if (!op.loweringConfig.empty())
    std::cout << "  lowering_config:  " << op.loweringConfig << "\n";
  if (!op.compilationInfo.empty())
    std::cout << "  compilation_info: " << op.compilationInfo << "\n";
  if (!op.decompositionConfig.empty())
    std::cout << "  decomposition_config: " << op.decompositionConfig << "\n";
  if (!dispatch.translationInfo.empty())
    std::cout << "  translation_info: " << dispatch.translationInfo << "\n";
  if (context.target) {
    const config::GpuTarget &t = *context.target;
    std::cout << "  target:      " << t.arch
              << (t.product.empty() ? "" : " (" + t.product + ")")
              << ": subgroup size";
    for (int64_t size : t.subgroupSizeChoices)
      std::cout << " " << size;
    std::cout << ", workgroup at most [" << t.maxWorkgroupSizes[0] << ", "
              << t.maxWorkgroupSizes[1] << ", " << t.maxWorkgroupSizes[2]
              << "] and " << t.maxThreadCountPerWorkgroup << " threads, "
              << t.maxWorkgroupMemoryBytes << " bytes of workgroup memory, "
              << t.mmaIntrinsics.size() << " MMA intrinsics\n";
  } else if (!context.targetNote.empty()) {
    std::cout << "  target:      " << context.targetNote << "\n";
  }
  if (!context.loweringConfigError.empty())
    std::cout << "  rules:       not run: " << context.loweringConfigError
              << "\n";
  else if (problems.empty())
    std::cout << "  problems:    none found\n";
  else {
    std::cout << "  problems:\n";
    printProblems(problems, std::cout);
  }
}

} // namespace

int show(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli show: one root op of an IREE file in context: its kind, "
      "loops and operands (read from IREE's IR), configs, the target's "
      "limits and the problems the rules find.");
  parser.addOptions({kOpOption, kJsonOption, kIreeOption});
  parser.addPositionalArgument("FILE", "An IREE MLIR file.");
  if (!parseCommandLine(parser, arguments, "show"))
    return kExitUsage;
  if (parser.positionalArguments().size() != 1) {
    std::cerr << "tilescope-cli show: expected one FILE\n";
    return kExitUsage;
  }
  const std::string path = parser.positionalArguments().front().toStdString();
  int code = kExitOk;
  auto opened = openRootOp(path, opSpecOf(parser), workbenchOf(parser), code);
  if (!opened) {
    std::cerr << "tilescope-cli show: " << opened.error() << "\n";
    return code;
  }
  const edit::RootOpContext context =
      edit::contextOf(opened->document, opened->ref);
  const edit::RuleVerdict verdict = edit::ruleVerdict(context);
  const auto &problems = verdict.problems;
  if (parser.isSet(kJsonOption))
    std::cout << exporting::jsonText(
                     opJson(opened->document, opened->ref, context, problems),
                     2)
              << "\n";
  else
    printOp(context, problems);
  return verdict.hasErrors() ? kExitFailure : kExitOk;
}

namespace {

// set-config's options.
struct SetConfigOptions {
  QCommandLineOption set{"set",
                         "FIELD=VALUE, VALUE as MLIR attribute text; "
                         "repeatable, applied in order.",
                         "FIELD=VALUE"};
  QCommandLineOption unset{"unset", "Remove FIELD; repeatable.", "FIELD"};
  QCommandLineOption output{
      {"o", "output"}, "Write the edited file to OUT.", "OUT"};
  QCommandLineOption inPlace{"in-place", "Replace FILE (atomically)."};
  QCommandLineOption diff{"diff",
                          "Print the unified diff instead of the edited file."};
  QCommandLineOption force{
      "force", "Write the edit even where the rules find an error in it "
               "(otherwise nothing is written and the exit code is 1)."};

  void addTo(QCommandLineParser &parser) const {
    parser.addOptions({kOpOption, set, unset, output, inPlace, diff, force,
                       kJsonOption, kIreeOption});
  }
};

// One --set FIELD=VALUE (a value) or --unset FIELD (none).
struct FieldChange {
  std::string field;
  std::optional<std::string> value;
};

// The changes in the order given on the command line (QCommandLineParser
// keeps --set and --unset apart); an Error is the usage message.
Result<std::vector<FieldChange>> changesOf(const QStringList &arguments) {
  std::vector<FieldChange> changes;
  for (int i = 1; i < arguments.size(); ++i) {
    const QString &argument = arguments[i];
    auto valueOf = [&](const QString &name) -> std::optional<QString> {
      if (argument == "--" + name && i + 1 < arguments.size())
        return arguments[++i];
      if (argument.startsWith("--" + name + "="))
        return argument.mid(name.size() + 3);
      return std::nullopt;
    };
    if (auto set = valueOf("set")) {
      const std::string text = set->toStdString();
      const size_t equals = text.find('=');
      if (equals == std::string::npos || equals == 0)
        return Error{"--set \"" + text + "\": expected FIELD=VALUE"};
      changes.push_back({text.substr(0, equals), text.substr(equals + 1)});
    } else if (auto unset = valueOf("unset")) {
      changes.push_back({unset->toStdString(), std::nullopt});
    }
  }
  return changes;
}

// What the changes did: each applied edit (as JSON), the fields that
// already held their value, or the first refusal (nothing applied after).
struct AppliedChanges {
  json applied = json::array();
  std::vector<std::string> unchanged;
  std::optional<std::pair<std::string, std::string>> refused; // field, why
};

AppliedChanges applyChanges(session::Session &session, edit::OpRef op,
                            const std::vector<FieldChange> &changes) {
  AppliedChanges out;
  const edit::EditableDocument &editable = session.model();
  for (const FieldChange &change : changes) {
    const session::SetOutcome applied =
        session.set(op, change.field, change.value);
    if (applied.unchanged) {
      out.unchanged.push_back(applied.refusal.substr(
          0, applied.refusal.find(": the edit changes nothing")));
      continue;
    }
    if (!applied) {
      out.refused = {change.field, applied.refusal};
      return out;
    }
    out.applied.push_back(
        {{"field", applied.edit->field.name()},
         {"old", applied.edit->oldValue},
         {"new", applied.edit->newValue},
         {"attribute", applied.edit->attributeKey},
         {"line", applied.edit->line},
         {"read_by_iree", applied.edit->readByIree},
         {"description", applied.edit->describe(editable.document())}});
  }
  return out;
}

// How the edited text went out: written where, held for the rules' errors,
// or refused by IREE's reading (`notReadBack`: why; nothing written).
struct SetConfigWrite {
  std::string writtenTo;
  bool held = false;
  std::string notReadBack;
};

// The rules judge the edit; IREE reads the edited text back before
// anything is written, and an error holds the write unless --force (the
// session's save policy). An Error: the file could not be written.
Result<SetConfigWrite> writeEdited(session::Session &session, edit::OpRef op,
                                   const std::string &path,
                                   const QCommandLineParser &parser,
                                   const SetConfigOptions &options,
                                   bool hasErrors) {
  SetConfigWrite out;
  const bool toFile =
      parser.isSet(options.inPlace) || parser.isSet(options.output);
  // In place with nothing changed, the file is already as asked: only read.
  if (!toFile ||
      (parser.isSet(options.inPlace) && !session.model().modified())) {
    if (auto agrees = session.readBack(); !agrees)
      out.notReadBack = agrees.error();
    else
      out.held = toFile && hasErrors && !parser.isSet(options.force);
    return out;
  }
  const std::string target = parser.isSet(options.inPlace)
                                 ? path
                                 : parser.value(options.output).toStdString();
  session::SavePolicy policy;
  policy.holdOnRuleErrors = !parser.isSet(options.force);
  policy.judged = {op};
  auto saved = session.save(target, policy);
  if (!saved)
    return Error{saved.error()};
  out.notReadBack = saved->notReadBack;
  out.held = !saved->heldFor.empty();
  if (saved->written)
    out.writtenTo = target;
  return out;
}

void printSetConfig(const edit::EditableDocument &editable,
                    const AppliedChanges &changes, const SetConfigWrite &wrote,
                    const std::vector<config::Problem> &problems, bool asDiff,
                    bool toFile) {
  if (asDiff)
    std::cout << editable.diff();
  else if (!toFile)
    std::cout << editable.text();
  for (const edit::Edit &e : editable.edits())
    std::cerr << "set " << e.describe(editable.document()) << "\n";
  for (const std::string &note : changes.unchanged)
    std::cerr << "unchanged: " << note << "\n";
  if (!wrote.writtenTo.empty())
    std::cerr << "wrote " << wrote.writtenTo << "\n";
  if (!problems.empty()) {
    std::cerr << "problems the rules find in the edited config:\n";
    printProblems(problems, std::cerr);
  }
  if (wrote.held)
    std::cerr << "nothing written: the rules find errors in the edit "
                 "(above); --force writes it anyway\n";
}

} // namespace

int setConfig(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli set-config: change fields of a root op's lowering "
      "config or translation_info in an IREE file. Each new attribute is "
      "read by the loaded IREE (what it refuses is refused, in its words); "
      "only those characters of the file change, and IREE reads the result "
      "back before it is written.\n\n"
      "Fields: any lowering-config key (workgroup, reduction, "
      "partial_reduction, thread, subgroup, lane_basis, subgroup_basis, "
      "mma_kind, promote_operands, padding, ...); translation_info's "
      "pipeline, workgroup_size, subgroup_size and pipeline options "
      "(prefetch_num_stages, no_reduce_shared_memory_bank_conflicts, "
      "use_igemm_convolution, reorder_workgroups_strategy); "
      "translation_info.KEY for its other entries; lowering_config or "
      "translation_info for the whole attribute.");
  const SetConfigOptions options;
  options.addTo(parser);
  parser.addPositionalArgument("FILE", "An IREE MLIR file.");
  if (!parseCommandLine(parser, arguments, "set-config"))
    return kExitUsage;
  const workbench::Workbench bench = workbenchOf(parser);
  auto usage = [](const std::string &message) {
    std::cerr << "tilescope-cli set-config: " << message << "\n";
    return kExitUsage;
  };
  if (parser.positionalArguments().size() != 1)
    return usage("expected one FILE");
  if (!parser.isSet(options.set) && !parser.isSet(options.unset))
    return usage("nothing to change: give --set FIELD=VALUE or --unset FIELD");
  if (parser.isSet(options.output) && parser.isSet(options.inPlace))
    return usage("--output and --in-place exclude each other");
  auto changes = changesOf(arguments);
  if (!changes)
    return usage(changes.error());

  const std::string path = parser.positionalArguments().front().toStdString();
  int code = kExitOk;
  auto document = openDocument(path, bench, code);
  if (!document) {
    std::cerr << "tilescope-cli set-config: " << document.error() << "\n";
    return code;
  }
  // No --op: the op every other command defaults to (--op's help).
  const std::string opSpec = opSpecOf(parser);
  auto ref = edit::findOp(*document, opSpec);
  if (!ref)
    return usage(path + ": --op " + opSpec + ": " + ref.error());
  // IREE reads each edited attribute, then the whole edited text, back:
  // the session the window and Python drive, wired by the workbench.
  auto session = bench.open(std::move(*document));
  const edit::EditableDocument &editable = session->model();
  const AppliedChanges applied = applyChanges(*session, *ref, *changes);
  if (applied.refused) {
    // Nothing is written: the file stays as it was.
    if (parser.isSet(kJsonOption))
      std::cout << exporting::jsonText(
                       {{"file", path},
                        {"op", opSpec},
                        {"refused",
                         {{"field", applied.refused->first},
                          {"message", applied.refused->second}}},
                        {"written", false}},
                       2)
                << "\n";
    else
      std::cerr << path << ": op " << opSpec << ": " << applied.refused->second
                << "\n(nothing written)\n";
    return kExitFailure;
  }

  const edit::RuleVerdict verdict =
      edit::ruleVerdict(edit::contextOf(editable.document(), *ref));
  const auto &problems = verdict.problems;
  auto wrote =
      writeEdited(*session, *ref, path, parser, options, verdict.hasErrors());
  if (!wrote) {
    std::cerr << "tilescope-cli set-config: " << wrote.error() << "\n";
    return kExitBadInput;
  }
  if (!wrote->notReadBack.empty()) {
    std::cerr << path << ": op " << opSpec
              << ": IREE does not read the edited file back as edited; "
                 "nothing written:\n"
              << wrote->notReadBack << "\n";
    return kExitFailure;
  }
  const bool toFile =
      parser.isSet(options.inPlace) || parser.isSet(options.output);
  if (parser.isSet(kJsonOption)) {
    json out = {{"file", path},
                {"op", opSpec},
                {"edits", applied.applied},
                {"written", wrote->writtenTo.empty() ? json(nullptr)
                                                     : json(wrote->writtenTo)},
                {"unchanged", applied.unchanged},
                {"held_for_errors", wrote->held},
                {"problems", problemsJson(problems)},
                {"diff", editable.diff()}};
    // The edited text stands in for the file only where no file was asked
    // for: a held edit prints none.
    if (!toFile && !parser.isSet(options.diff))
      out["text"] = editable.text();
    std::cout << exporting::jsonText(out, 2) << "\n";
  } else {
    printSetConfig(editable, applied, *wrote, problems,
                   parser.isSet(options.diff), toFile);
  }
  return verdict.hasErrors() ? kExitFailure : kExitOk;
}

int diff(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli diff: how the configs of two versions of an IREE file "
      "differ, field by field per root op (dispatches matched by name); "
      "--text adds the unified diff of the files.");
  const QCommandLineOption textOption("text",
                                      "Also print the unified text diff.");
  parser.addOptions({textOption, kJsonOption, kIreeOption});
  parser.addPositionalArgument("BEFORE", "An IREE MLIR file.");
  parser.addPositionalArgument("AFTER", "The same file, edited.");
  if (!parseCommandLine(parser, arguments, "diff"))
    return kExitUsage;
  const workbench::Workbench bench = workbenchOf(parser);
  if (parser.positionalArguments().size() != 2) {
    std::cerr << "tilescope-cli diff: expected BEFORE and AFTER\n";
    return kExitUsage;
  }
  const std::string beforePath = parser.positionalArguments()[0].toStdString();
  const std::string afterPath = parser.positionalArguments()[1].toStdString();
  int code = kExitOk;
  auto before = openDocument(beforePath, bench, code);
  if (!before) {
    std::cerr << "tilescope-cli diff: " << before.error() << "\n";
    return code;
  }
  auto after = openDocument(afterPath, bench, code);
  if (!after) {
    std::cerr << "tilescope-cli diff: " << after.error() << "\n";
    return code;
  }
  const edit::DocumentDifference difference =
      edit::documentDifferences(*before, *after);
  const std::string text =
      parser.isSet(textOption)
          ? unifiedDiff(before->text, after->text, beforePath, afterPath)
          : std::string();
  if (parser.isSet(kJsonOption)) {
    json out = {
        {"before", beforePath},
        {"after", afterPath},
        {"ops", exporting::differencesJson(difference, "before", "after")},
        {"only_before", difference.onlyBefore},
        {"only_after", difference.onlyAfter}};
    if (parser.isSet(textOption))
      out["text"] = text;
    std::cout << exporting::jsonText(out, 2) << "\n";
  } else {
    if (difference.empty())
      std::cout << "the configs are the same\n";
    printDifferences(difference, std::cout);
    for (const std::string &name : difference.onlyBefore)
      std::cout << "only in " << beforePath << ": @" << name << "\n";
    for (const std::string &name : difference.onlyAfter)
      std::cout << "only in " << afterPath << ": @" << name << "\n";
    std::cout << text;
  }
  return difference.empty() ? kExitOk : kExitFailure;
}

} // namespace tilescope::cli
