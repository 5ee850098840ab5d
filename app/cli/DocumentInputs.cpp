#include "app/cli/DocumentInputs.h"

#include "app/cli/Commands.h"
#include "app/common/IreeSettings.h"
#include "core/edit/OpLayoutInputs.h"
#include "core/edit/RootOpContext.h"
#include "core/process/Workspace.h"
#include "core/service/ReleaseOffer.h"

#include <memory>

namespace tilescope::cli {

const QCommandLineOption kJsonOption{"json", "Print JSON."};
const QCommandLineOption kIreeOption{
    "iree",
    "Use the IREE compiler library at PATH (libIREECompiler.so, its "
    "directory, or an unpacked wheel / IREE build).",
    "PATH"};
const QCommandLineOption kOpOption{
    "op",
    "The root op: DISPATCH:OP, where DISPATCH is an index or a dispatch name "
    "(a unique prefix will do) and OP an index into its root ops (default: "
    "the one IREE marks root_op, else 0). As listed by 'tilescope-cli "
    "dispatches'.",
    "DISPATCH:OP"};

workbench::Workbench workbenchOf(const QCommandLineParser &parser) {
  // optionNames() holds the options given: a command without --iree or
  // --workspace among its options is asked without a warning.
  const QStringList given = parser.optionNames();
  std::optional<QString> iree;
  if (given.contains(QStringLiteral("iree")))
    iree = parser.value(QStringLiteral("iree"));
  std::filesystem::path workspace = process::defaultWorkspace();
  if (given.contains(QStringLiteral("workspace")))
    workspace = parser.value(QStringLiteral("workspace")).toStdString();
  return app::makeWorkbench(iree, std::filesystem::absolute(workspace));
}

std::string opSpecOf(const QCommandLineParser &parser) {
  return parser.isSet(kOpOption) ? parser.value(kOpOption).toStdString() : "0";
}

// The file read and parsed by IREE in the worker process, with its text.
Result<document::Document> openDocument(const std::string &path,
                                        const workbench::Workbench &bench,
                                        int &exitCode) {
  auto text = document::readMlirFile(path);
  if (!text) {
    exitCode = kExitBadInput;
    return Error{text.error()};
  }
  auto worker = bench.worker();
  if (!worker) {
    exitCode = kExitIreeUnavailable;
    return Error{worker.error()};
  }
  auto document = worker->parseText(*text, path);
  if (!document) {
    exitCode = kExitBadInput;
    // A file from another release: offer the conversion the config model
    // knows, when IREE reads its result.
    if (auto offer =
            service::releaseOffer(*worker, *text, path, kPinnedRelease))
      return Error{document.error() + "\n" + offer->describe(path) +
                   " Accept with: tilescope-cli convert --file " + path +
                   " -o CONVERTED.mlir (or --in-place)"};
    return Error{document.error()};
  }
  document->path = path;
  document->text = std::move(*text);
  return document;
}

Result<OpenedOp> openRootOp(const std::string &path, const std::string &opSpec,
                            const workbench::Workbench &bench, int &exitCode) {
  auto document = openDocument(path, bench, exitCode);
  if (!document)
    return Error{document.error()};
  auto ref = edit::findOp(*document, opSpec);
  if (!ref) {
    exitCode = kExitUsage;
    return Error{path + ": --op " + opSpec + ": " + ref.error()};
  }
  return OpenedOp{std::move(*document), *ref};
}

Result<RootOpTexts> rootOpTexts(const std::string &path,
                                const std::string &opSpec,
                                const workbench::Workbench &bench,
                                int &exitCode) {
  auto opened = openRootOp(path, opSpec, bench, exitCode);
  if (!opened)
    return Error{opened.error()};
  const edit::RootOpContext context =
      edit::contextOf(opened->document, opened->ref);
  const document::RootOp &op = *context.op;
  const std::string where =
      path + ": " + op.name + " (line " + std::to_string(op.line) + ")";
  exitCode = kExitFailure;
  if (!context.loweringConfig)
    return Error{where + ": " + context.loweringConfigError};
  if (!op.space)
    return Error{where + ": IREE gives this op no indexing maps to draw on"};
  if (std::string why = edit::kindNotLaidOut(op); !why.empty())
    return Error{where + ": " + why};
  RootOpTexts texts;
  texts.config = context.loweringConfig->print();
  texts.iterationSpace = op.space->toString();
  for (size_t i = 0; i < op.space->operands.size(); ++i) {
    const config::OperandAccess &operand = op.space->operands[i];
    texts.types += (i ? "," : "") + operand.elementType;
    std::string map = "(";
    for (size_t d = 0; d < op.space->rank(); ++d)
      map += (d ? ", d" : "d") + std::to_string(d);
    map += ") -> (";
    for (size_t j = 0; j < operand.dims.size(); ++j)
      map += (j ? ", " : "") + (operand.dims[j] < 0
                                    ? std::string("0")
                                    : "d" + std::to_string(operand.dims[j]));
    texts.maps += (i ? ", " : "") + map + ")";
  }
  if (context.target)
    texts.target = context.dispatch->target;
  if (context.validation.translationInfo)
    texts.translationInfo = context.validation.translationInfo->print();
  // An op fused into the dispatch's root op runs on the root's tiles, as
  // the window draws it (the texts alone would give it its own grid).
  if (auto inputs = edit::opLayoutInputs(*context.dispatch, op)) {
    texts.fusedWorkgroupTile = inputs->options.fusedWorkgroupTile;
    if (inputs->decomposition) {
      auto layouts = edit::opLayoutsOf(*inputs);
      if (!layouts) {
        exitCode = kExitFailure;
        return Error{where + ": " + layouts.error()};
      }
      texts.attention = std::move(layouts->attention);
    }
  }
  if (op.onImplicitGemm)
    texts.implicitGemm = op.implicitGemm;
  exitCode = kExitOk;
  return texts;
}

void printProblems(const std::vector<config::Problem> &problems,
                   std::ostream &out, const std::string &indent) {
  for (const config::Problem &p : problems)
    out << indent << config::toString(p.severity) << ": " << p.field << ": "
        << p.message << "  [" << p.rule << "]\n";
}

void printDifferences(const edit::DocumentDifference &difference,
                      std::ostream &out) {
  auto shown = [](const std::string &value) {
    return value.empty() ? std::string("(unset)") : value;
  };
  for (const edit::OpDifference &op : difference.ops) {
    out << "@" << op.dispatch << (op.op.empty() ? "" : ": " + op.op) << "\n";
    for (const edit::FieldDifference &f : op.fields)
      out << "  " << f.field << ": " << shown(f.before) << " -> "
          << shown(f.after) << "\n";
  }
}

} // namespace tilescope::cli
