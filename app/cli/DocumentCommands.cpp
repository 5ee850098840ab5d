// tilescope-cli show / set-config / diff: root ops of real IREE files, in
// context, edited through the core's edit model and read back by IREE.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/common/IreeSettings.h"
#include "core/config/Attribute.h"
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
  const QCommandLineOption setOption(
      "set",
      "FIELD=VALUE, VALUE as MLIR attribute text; repeatable, applied "
      "in order.",
      "FIELD=VALUE");
  const QCommandLineOption unsetOption("unset", "Remove FIELD; repeatable.",
                                       "FIELD");
  const QCommandLineOption outputOption({"o", "output"},
                                        "Write the edited file to OUT.", "OUT");
  const QCommandLineOption inPlaceOption("in-place",
                                         "Replace FILE (atomically).");
  const QCommandLineOption diffOption(
      "diff", "Print the unified diff instead of the edited file.");
  const QCommandLineOption forceOption(
      "force", "Write the edit even where the rules find an error in it "
               "(otherwise nothing is written and the exit code is 1).");
  parser.addOptions({kOpOption, setOption, unsetOption, outputOption,
                     inPlaceOption, diffOption, forceOption, kJsonOption,
                     kIreeOption});
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
  if (!parser.isSet(setOption) && !parser.isSet(unsetOption))
    return usage("nothing to change: give --set FIELD=VALUE or --unset FIELD");
  if (parser.isSet(outputOption) && parser.isSet(inPlaceOption))
    return usage("--output and --in-place exclude each other");

  // The changes in the order given on the command line.
  struct Change {
    std::string field;
    std::optional<std::string> value;
  };
  std::vector<Change> changes;
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
        return usage("--set \"" + text + "\": expected FIELD=VALUE");
      changes.push_back({text.substr(0, equals), text.substr(equals + 1)});
    } else if (auto unset = valueOf("unset")) {
      changes.push_back({unset->toStdString(), std::nullopt});
    }
  }

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
  auto reader = ireeAttributeReader(bench);
  if (!reader) {
    std::cerr << "tilescope-cli set-config: " << reader.error() << "\n";
    return kExitIreeUnavailable;
  }

  // IREE reads each edited attribute, then the whole edited text, back
  // (the session the window and Python drive).
  auto worker = bench.worker();
  if (!worker) {
    std::cerr << "tilescope-cli set-config: " << worker.error() << "\n";
    return kExitIreeUnavailable;
  }
  session::SessionServices services;
  services.printAttribute = *reader;
  services.parseText = [&worker](const std::string &text,
                                 const std::string &name) {
    return worker->parseText(text, name);
  };
  session::Session session(std::move(services));
  session.open(std::move(*document));
  const edit::EditableDocument &editable = session.model();
  json appliedJson = json::array();
  std::vector<std::string> unchanged; // a value the field already holds
  for (const Change &change : changes) {
    const session::SetOutcome applied =
        session.set(*ref, change.field, change.value);
    if (applied.unchanged) {
      unchanged.push_back(applied.refusal.substr(
          0, applied.refusal.find(": the edit changes nothing")));
      continue;
    }
    if (!applied) {
      // Nothing is written: the file stays as it was.
      if (parser.isSet(kJsonOption))
        std::cout << exporting::jsonText({{"file", path},
                                          {"op", opSpec},
                                          {"refused",
                                           {{"field", change.field},
                                            {"message", applied.refusal}}},
                                          {"written", false}},
                                         2)
                  << "\n";
      else
        std::cerr << path << ": op " << opSpec << ": " << applied.refusal
                  << "\n(nothing written)\n";
      return kExitFailure;
    }
    appliedJson.push_back(
        {{"field", applied.edit->field.name()},
         {"old", applied.edit->oldValue},
         {"new", applied.edit->newValue},
         {"attribute", applied.edit->attributeKey},
         {"line", applied.edit->line},
         {"read_by_iree", applied.edit->readByIree},
         {"description", applied.edit->describe(editable.document())}});
  }

  // The rules judge the edit; IREE reads the edited text back before
  // anything is written, and an error holds the write unless --force
  // (the session's save policy).
  const edit::RootOpContext context =
      edit::contextOf(editable.document(), *ref);
  const edit::RuleVerdict verdict = edit::ruleVerdict(context);
  const auto &problems = verdict.problems;
  const bool toFile = parser.isSet(inPlaceOption) || parser.isSet(outputOption);
  auto notReadBack = [&](const std::string &why) {
    std::cerr << path << ": op " << opSpec
              << ": IREE does not read the edited file back as edited; "
                 "nothing written:\n"
              << why << "\n";
    return kExitFailure;
  };
  bool held = false;
  std::string writtenTo;
  // In place with nothing changed, the file is already as asked: only read.
  if (!toFile || (parser.isSet(inPlaceOption) && !editable.modified())) {
    if (auto agrees = session.readBack(); !agrees)
      return notReadBack(agrees.error());
    held = toFile && verdict.hasErrors() && !parser.isSet(forceOption);
  } else {
    const std::string target = parser.isSet(inPlaceOption)
                                   ? path
                                   : parser.value(outputOption).toStdString();
    session::SavePolicy policy;
    policy.holdOnRuleErrors = !parser.isSet(forceOption);
    policy.judged = {*ref};
    auto saved = session.save(target, policy);
    if (!saved) {
      std::cerr << "tilescope-cli set-config: " << saved.error() << "\n";
      return kExitBadInput;
    }
    if (!saved->notReadBack.empty())
      return notReadBack(saved->notReadBack);
    held = !saved->heldFor.empty();
    if (saved->written)
      writtenTo = target;
  }
  if (parser.isSet(kJsonOption)) {
    json out = {
        {"file", path},
        {"op", opSpec},
        {"edits", appliedJson},
        {"written", writtenTo.empty() ? json(nullptr) : json(writtenTo)},
        {"unchanged", unchanged},
        {"held_for_errors", held},
        {"problems", problemsJson(problems)},
        {"diff", editable.diff()}};
    // The edited text stands in for the file only where no file was asked
    // for: a held edit prints none.
    if (!toFile && !parser.isSet(diffOption))
      out["text"] = editable.text();
    std::cout << exporting::jsonText(out, 2) << "\n";
  } else {
    if (parser.isSet(diffOption))
      std::cout << editable.diff();
    else if (!toFile)
      std::cout << editable.text();
    for (const edit::Edit &e : editable.edits())
      std::cerr << "set " << e.describe(editable.document()) << "\n";
    for (const std::string &note : unchanged)
      std::cerr << "unchanged: " << note << "\n";
    if (!writtenTo.empty())
      std::cerr << "wrote " << writtenTo << "\n";
    if (!problems.empty()) {
      std::cerr << "problems the rules find in the edited config:\n";
      printProblems(problems, std::cerr);
    }
    if (held)
      std::cerr << "nothing written: the rules find errors in the edit "
                   "(above); --force writes it anyway\n";
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
