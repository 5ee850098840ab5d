// tilescope-cli export-spec: the root ops' configs as a tuning spec IREE
// consumes, and with --program the proof that it does: the program is
// configured by the pinned iree-compile with the spec, and each exported op's
// config is looked for, field by field, in what IREE chose.
#include "app/cli/Commands.h"
#include "app/cli/DocumentInputs.h"
#include "app/common/IreeSettings.h"
#include "core/edit/RootOpContext.h"
#include "core/export/JsonText.h"
#include "core/export/TuningSpec.h"
#include "core/tune/SpecProof.h"
#include "core/util/Files.h"

#include <QCommandLineParser>

#include <iostream>

using nlohmann::json;

namespace tilescope::cli {
namespace {

// Configures and compiles `program` for the dispatch file's own device with
// the spec and says, per exported op, whether IREE gave it the exported
// config and the program compiles with it, and what the proof met that is
// no op's doing (a compile that hung or ran past its time).
Result<tune::SpecProof> proveSpec(service::DocumentWorker &worker,
                                  const document::Document &document,
                                  const std::vector<exporting::SpecOp> &ops,
                                  const std::filesystem::path &program,
                                  const std::filesystem::path &spec,
                                  const workbench::Workbench &bench) {
  auto installation = bench.iree();
  if (!installation)
    return Error{installation.error()};
  tune::ProofLimits limits;
  limits.depth = tune::SpecProofDepth::Compiled;
  limits.keepTimedOutIn = std::filesystem::absolute(spec).parent_path();
  return tune::proveSpec(*installation, worker, document, ops, program, spec,
                         limits);
}

json proofJson(const tune::SpecOpProof &proof) {
  json entry = {{"op", proof.op},
                {"dispatch", proof.dispatch},
                {"applied", proof.applied},
                {"in_program", proof.inProgram}};
  if (!proof.inProgram) {
    entry["why"] = proof.why;
    return entry;
  }
  json fields = json::array();
  for (const edit::FieldDifference &d : proof.differences)
    fields.push_back(
        {{"field", d.field}, {"exported", d.before}, {"iree", d.after}});
  entry["differences"] = fields;
  if (!proof.compileError.empty())
    entry["compile_error"] = proof.compileError;
  return entry;
}

// Each op's proof in words; `program` is what --program named.
void printProof(const tune::SpecProof &proof, const std::string &program) {
  for (const tune::SpecOpProof &op : proof.ops) {
    std::cout << "  " << op.op << " @" << op.dispatch << ": "
              << (!op.inProgram ? "not in " + program +
                                      " (give --program the program FILE "
                                      "came from)"
                  : op.applied ? std::string("IREE chose the exported config")
                  : !op.compileError.empty()
                      ? "IREE chose the exported config, but the program "
                        "does not compile with it in the spec: " +
                            op.compileError
                      : std::string("IREE's config differs"))
              << "\n";
    if (!op.inProgram)
      std::cout << "    " << op.why << "\n";
    for (const edit::FieldDifference &d : op.differences)
      std::cout << "    " << d.field << ": exported " << d.before << ", IREE "
                << d.after << "\n";
  }
  for (const std::string &note : proof.notes)
    std::cout << "  note: " << note << "\n";
}

} // namespace

// exportSpec's options.
struct ExportSpecOptions {
  QCommandLineOption ops{
      "op",
      "A root op to export, DISPATCH:OP; repeatable, one per dispatch "
      "(default: each dispatch's root op with a config).",
      "DISPATCH:OP"};
  QCommandLineOption output{{"o", "output"}, "Write the spec to OUT.", "OUT"};
  QCommandLineOption program{
      "program", "Prove the spec on the program the file came from.", "SOURCE"};

  void addTo(QCommandLineParser &parser) const {
    parser.addOptions({ops, output, program, kJsonOption, kIreeOption});
  }
};

namespace {

// The ops --op names, or by default each dispatch's root op with a config:
// a spec configures one op of a dispatch (IREE refuses two).
Result<std::vector<exporting::SpecOp>>
opsOf(const QCommandLineParser &parser, const ExportSpecOptions &options,
      const document::Document &document) {
  std::vector<exporting::SpecOp> ops;
  for (const QString &spec : parser.values(options.ops)) {
    auto ref = edit::findOp(document, spec.toStdString());
    if (!ref)
      return Error{"--op " + spec.toStdString() + ": " + ref.error()};
    ops.push_back(
        {static_cast<int>(ref->dispatch), static_cast<int>(ref->op), {}});
  }
  if (!ops.empty())
    return ops;
  for (size_t d = 0; d < document.dispatches.size(); ++d) {
    const document::Dispatch &dispatch = document.dispatches[d];
    if (dispatch.rootOps.empty())
      continue;
    const size_t k = edit::rootOpIndex(dispatch);
    if (const auto &op = dispatch.rootOps[k];
        !op.loweringConfig.empty() || !op.compilationInfo.empty())
      ops.push_back({static_cast<int>(d), static_cast<int>(k), {}});
  }
  return ops;
}

} // namespace

int exportSpec(const QStringList &arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "tilescope-cli export-spec: a tuning spec (transform dialect, "
      "--iree-codegen-tuning-spec-path) that gives each chosen root op the "
      "config the file holds, edits included; one matcher per op: a "
      "contraction by its element types, indexing maps and sizes, as IREE's "
      "default specs match, any other op (reductions, convolutions, "
      "attention with its qk/pv configs) by its whole body as IREE prints "
      "it. With --program, the program is configured "
      "by the pinned iree-compile with the spec and each op's config is "
      "looked for in IREE's choice.");
  const ExportSpecOptions options;
  options.addTo(parser);
  parser.addPositionalArgument("FILE", "An IREE MLIR file with configs.");
  if (!parseCommandLine(parser, arguments, "export-spec"))
    return kExitUsage;
  const workbench::Workbench bench = workbenchOf(parser);
  auto usage = [](const std::string &message) {
    std::cerr << "tilescope-cli export-spec: " << message << "\n";
    return kExitUsage;
  };
  if (parser.positionalArguments().size() != 1)
    return usage("expected one FILE");
  if (parser.isSet(options.program) && !parser.isSet(options.output))
    return usage("--program needs the spec in a file: give -o OUT");
  const std::string path = parser.positionalArguments().front().toStdString();
  int code = kExitOk;
  auto document = openDocument(path, bench, code);
  if (!document) {
    std::cerr << "tilescope-cli export-spec: " << document.error() << "\n";
    return code;
  }
  auto chosen = opsOf(parser, options, *document);
  if (!chosen)
    return usage(path + ": " + chosen.error());
  const std::vector<exporting::SpecOp> &ops = *chosen;
  if (ops.empty()) {
    std::cerr << "tilescope-cli export-spec: " << path
              << " has no root op with a config to export\n";
    return kExitFailure;
  }
  // Ops that are not contractions are matched by their bodies, printed by
  // IREE in the worker.
  auto worker = bench.worker();
  if (!worker) {
    std::cerr << "tilescope-cli export-spec: " << worker.error() << "\n";
    return kExitFailure;
  }
  auto spec = tune::tuningSpecOf(*worker, *document, ops);
  if (!spec) {
    std::cerr << "tilescope-cli export-spec: " << path << ": " << spec.error()
              << "\n";
    return kExitFailure;
  }
  if (!parser.isSet(options.output)) {
    std::cout << *spec;
    return kExitOk;
  }
  const std::filesystem::path output =
      parser.value(options.output).toStdString();
  if (auto written = writeFileAtomically(output, *spec); !written) {
    std::cerr << "tilescope-cli export-spec: " << written.error() << "\n";
    return kExitBadInput;
  }
  json out = {{"file", path}, {"spec", output.string()}};
  int exit = kExitOk;
  std::optional<tune::SpecProof> proof;
  if (parser.isSet(options.program)) {
    auto proven =
        proveSpec(*worker, *document, ops,
                  parser.value(options.program).toStdString(), output, bench);
    if (!proven) {
      std::cerr << "tilescope-cli export-spec: configuring the program with "
                   "the spec failed: "
                << proven.error() << "\n";
      return kExitFailure;
    }
    proof = std::move(*proven);
    out["proof"] = json::array();
    for (const tune::SpecOpProof &op : proof->ops) {
      out["proof"].push_back(proofJson(op));
      if (!op.applied)
        exit = kExitFailure;
    }
    if (!proof->notes.empty())
      out["proof_notes"] = proof->notes;
  }
  if (parser.isSet(kJsonOption)) {
    std::cout << exporting::jsonText(out, 2) << "\n";
    return exit;
  }
  std::cout << "wrote " << output.string() << "\n";
  if (proof)
    printProof(*proof, parser.value(options.program).toStdString());
  return exit;
}

} // namespace tilescope::cli
