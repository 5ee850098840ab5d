// tilescope-cli default-config and iree-layouts: IREE's own answers beside
// the file's and Tilescope's.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/common/IreeSettings.h"
#include "core/edit/ConfigDiff.h"
#include "core/edit/RootOpContext.h"
#include "core/export/DifferenceJson.h"
#include "core/export/DocumentJson.h"
#include "core/export/JsonText.h"
#include "core/service/IreeDefaults.h"
#include "core/service/IreeLayouts.h"

#include <QCommandLineParser>

#include <iostream>

using nlohmann::json;
using namespace tilescope;

namespace tilescope::cli {

int defaultConfig(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli default-config: what IREE would choose for each root op "
      "of an IREE file (its configs removed and chosen again by IREE's "
      "strategy selection for the variant's target, in the pinned iree-opt), "
      "and how the file's configs differ from it, field by field.");
  parser.addOptions({kOpOption, kJsonOption, kIreeOption});
  parser.addPositionalArgument("FILE", "An IREE file with executables.");
  if (!parseCommandLine(parser, arguments, "default-config"))
    return kExitUsage;
  if (parser.positionalArguments().size() != 1) {
    std::cerr << "tilescope-cli default-config: expected one FILE\n";
    return kExitUsage;
  }
  const std::string path = parser.positionalArguments().front().toStdString();
  const workbench::Workbench bench = workbenchOf(parser);
  int code = kExitOk;
  auto document = openDocument(path, bench, code);
  if (!document) {
    std::cerr << "tilescope-cli default-config: " << document.error() << "\n";
    return code;
  }
  std::optional<edit::OpRef> only;
  if (parser.isSet(kOpOption)) {
    auto ref = edit::findOp(*document, parser.value(kOpOption).toStdString());
    if (!ref) {
      std::cerr << "tilescope-cli default-config: " << path
                << ": --op: " << ref.error() << "\n";
      return kExitUsage;
    }
    only = *ref;
  }
  // The document was parsed, so IREE is there: what fails now is IREE's
  // choice itself.
  auto defaults = bench.defaults(*document);
  if (!defaults) {
    std::cerr << "tilescope-cli default-config: " << path << ": "
              << defaults.error() << "\n";
    return kExitFailure;
  }

  // Keep the one op asked about, in both documents.
  document::Document mine = *document, iree = defaults->document;
  if (only) {
    auto keep = [&](document::Document &d) {
      if (only->dispatch >= d.dispatches.size())
        return;
      document::Dispatch dispatch = d.dispatches[only->dispatch];
      if (only->op < dispatch.rootOps.size())
        dispatch.rootOps = {dispatch.rootOps[only->op]};
      d.dispatches = {dispatch};
    };
    keep(mine);
    keep(iree);
  }
  const edit::DocumentDifference difference =
      edit::documentDifferences(mine, iree, edit::LinesFrom::Before);

  if (parser.isSet(kJsonOption)) {
    json dispatches = json::array();
    for (const document::Dispatch &dispatch : iree.dispatches)
      dispatches.push_back(exporting::toJson(dispatch));
    std::cout << exporting::jsonText(
                     {{"file", path},
                      {"command", defaults->command},
                      {"iree_defaults", dispatches},
                      {"differences",
                       exporting::differencesJson(difference, "file", "iree")},
                      {"same", difference.empty()}},
                     2)
              << "\n";
    return kExitOk;
  }
  for (const document::Dispatch &dispatch : iree.dispatches) {
    std::cout << "@" << dispatch.name << "\n";
    if (!dispatch.translationInfo.empty())
      std::cout << "  IREE's translation_info: " << dispatch.translationInfo
                << "\n";
    for (const document::RootOp &op : dispatch.rootOps)
      std::cout << "  " << op.name << ": IREE's config: "
                << (op.loweringConfig.empty() ? op.compilationInfo
                                              : op.loweringConfig)
                << "\n";
  }
  if (difference.empty()) {
    std::cout << "\nthe file's configs are IREE's defaults\n";
    return kExitOk;
  }
  std::cout << "\nwhere the file differs from IREE's default (file -> IREE):\n";
  printDifferences(difference, std::cout);
  return kExitOk;
}

namespace {

json toJson(const std::vector<service::LayoutFieldDifference> &differences) {
  json out = json::array();
  for (const service::LayoutFieldDifference &difference : differences)
    out.push_back({{"field", difference.field},
                   {"tilescope", difference.ours},
                   {"iree", difference.iree}});
  return out;
}

json toJson(const service::IreeLayoutAnswer &answer) {
  json ops = json::array();
  for (const service::OpLayoutAnswer &op : answer.ops) {
    json entry = {
        {"op", op.rootOp}, {"name", op.opName}, {"agrees", op.agrees()}};
    if (!op.problem.empty())
      entry["problem"] = op.problem;
    json operands = json::array();
    for (const service::OperandLayoutAnswer &operand : op.operands)
      operands.push_back({{"operand", operand.operand},
                          {"tilescope", operand.ours},
                          {"iree", operand.iree},
                          {"differences", toJson(operand.differences)}});
    if (!op.operands.empty())
      entry["operands"] = operands;
    if (op.forall)
      entry["forall"] = {{"level", op.forall->level},
                         {"tilescope",
                          {{"trip_counts", op.forall->oursTrips},
                           {"linear_ids", op.forall->oursLinearDims}}},
                         {"iree",
                          {{"trip_counts", op.forall->ireeTrips},
                           {"linear_ids", op.forall->ireeLinearDims}}},
                         {"differences", toJson(op.forall->differences)}};
    ops.push_back(entry);
  }
  return {{"dispatch", answer.dispatch},
          {"pipeline", answer.pipeline},
          {"agrees", answer.agrees()},
          {"command", answer.command},
          {"ops", ops}};
}

void printAnswer(const service::IreeLayoutAnswer &answer, std::ostream &out) {
  out << "@" << answer.dispatch << " (" << answer.pipeline << "): "
      << (answer.agrees() ? "IREE's layouts and Tilescope's agree"
                          : "IREE and Tilescope differ")
      << "\n";
  for (const service::OpLayoutAnswer &op : answer.ops) {
    out << "  op " << op.rootOp << " " << op.opName << ": ";
    if (!op.problem.empty()) {
      out << "not compared: " << op.problem << "\n";
      continue;
    }
    out << (op.agrees() ? "agrees" : "DIFFERS") << "\n";
    for (const service::OperandLayoutAnswer &operand : op.operands) {
      out << "    " << operand.operand << ": "
          << (operand.iree.empty() ? "(no layout)" : operand.iree) << "\n";
      for (const service::LayoutFieldDifference &d : operand.differences)
        out << "      " << d.field << ": Tilescope " << d.ours << ", IREE "
            << d.iree << "\n";
    }
    if (op.forall) {
      out << "    " << op.forall->level << " forall: trip counts ";
      for (int64_t trips : op.forall->ireeTrips)
        out << trips << " ";
      out << "on linear ids ";
      for (int id : op.forall->ireeLinearDims)
        out << id << " ";
      out << "\n";
      for (const service::LayoutFieldDifference &d : op.forall->differences)
        out << "      " << d.field << ": Tilescope " << d.ours << ", IREE "
            << d.iree << "\n";
    }
  }
  out << "IREE's run: " << answer.command << "\n";
}

} // namespace

int ireeLayouts(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli iree-layouts: IREE's own layouts for a dispatch beside "
      "Tilescope's. The file as it stands goes through IREE's GPU lowering "
      "for its variant (the pinned iree-opt), and what IREE decided is read "
      "back: under VectorDistribute every iree_vector_ext.to_layout its "
      "configure-tensor-layouts pass sets on a configured op's operands, "
      "under TileAndFuse the thread or subgroup forall of the root op. Each "
      "is compared field by field with what Tilescope draws. Exit 0 when "
      "they agree, 1 when they differ.");
  parser.addOptions({kOpOption, kJsonOption, kIreeOption});
  parser.addPositionalArgument("FILE", "An IREE file with GPU executables.");
  if (!parseCommandLine(parser, arguments, "iree-layouts"))
    return kExitUsage;
  if (parser.positionalArguments().size() != 1) {
    std::cerr << "tilescope-cli iree-layouts: expected one FILE\n";
    return kExitUsage;
  }
  const std::string path = parser.positionalArguments().front().toStdString();
  const workbench::Workbench bench = workbenchOf(parser);
  int code = kExitOk;
  auto opened = openRootOp(path, opSpecOf(parser), bench, code);
  if (!opened) {
    std::cerr << "tilescope-cli iree-layouts: " << opened.error() << "\n";
    return code;
  }
  auto installation = bench.iree();
  auto worker = bench.worker();
  if (!installation || !worker) {
    std::cerr << "tilescope-cli iree-layouts: "
              << (installation ? worker.error() : installation.error()) << "\n";
    return kExitIreeUnavailable;
  }
  service::IreeLayoutRequest request;
  request.dispatch = opened->ref.dispatch;
  auto answer =
      service::ireeLayouts(*installation, *worker, opened->document, request);
  if (!answer) {
    std::cerr << "tilescope-cli iree-layouts: " << path << ": "
              << answer.error() << "\n";
    return kExitFailure;
  }
  // With --op, the one op asked about.
  if (parser.isSet(kOpOption))
    std::erase_if(answer->ops, [&](const service::OpLayoutAnswer &op) {
      return op.rootOp != opened->ref.op;
    });
  if (parser.isSet(kJsonOption))
    std::cout << exporting::jsonText(toJson(*answer), 2) << "\n";
  else
    printAnswer(*answer, std::cout);
  return answer->agrees() ? kExitOk : kExitFailure;
}

} // namespace tilescope::cli
