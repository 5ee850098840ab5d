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
// config and the program compiles with it; `notes` gets what the proof met
// that is no op's doing (a compile that hung or ran past its time).
Result<json> proveSpec(service::DocumentWorker &worker,
                       const document::Document &document,
                       const std::vector<exporting::SpecOp> &ops,
                       const std::filesystem::path &program,
                       const std::filesystem::path &spec,
                       const workbench::Workbench &bench,
                       std::vector<std::string> &notes) {
  auto installation = bench.iree();
  if (!installation)
    return Error{installation.error()};
  tune::ProofLimits limits;
  limits.depth = tune::SpecProofDepth::Compiled;
  limits.keepTimedOutIn = std::filesystem::absolute(spec).parent_path();
  auto proofs = tune::proveSpec(*installation, worker, document, ops, program,
                                spec, limits);
  if (!proofs)
    return Error{proofs.error()};
  notes = proofs->notes;
  json results = json::array();
  for (const tune::SpecOpProof &proof : proofs->ops) {
    json entry = {{"op", proof.op},
                  {"dispatch", proof.dispatch},
                  {"applied", proof.applied}};
    if (!proof.inProgram) {
      entry["in_program"] = false;
      entry["why"] = proof.why;
      results.push_back(entry);
      continue;
    }
    entry["in_program"] = true;
    json fields = json::array();
    for (const edit::FieldDifference &d : proof.differences)
      fields.push_back(
          {{"field", d.field}, {"exported", d.before}, {"iree", d.after}});
    entry["differences"] = fields;
    if (!proof.compileError.empty())
      entry["compile_error"] = proof.compileError;
    results.push_back(entry);
  }
  return results;
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
  std::vector<exporting::SpecOp> ops;
  for (const QString &spec : parser.values(options.ops)) {
    auto ref = edit::findOp(*document, spec.toStdString());
    if (!ref)
      return usage(path + ": --op " + spec.toStdString() + ": " + ref.error());
    ops.push_back(
        {static_cast<int>(ref->dispatch), static_cast<int>(ref->op), {}});
  }
  // By default each dispatch's root op: a spec configures one op of a
  // dispatch (IREE refuses two).
  if (ops.empty())
    for (size_t d = 0; d < document->dispatches.size(); ++d) {
      const document::Dispatch &dispatch = document->dispatches[d];
      if (dispatch.rootOps.empty())
        continue;
      const size_t k = edit::rootOpIndex(dispatch);
      if (const auto &op = dispatch.rootOps[k];
          !op.loweringConfig.empty() || !op.compilationInfo.empty())
        ops.push_back({static_cast<int>(d), static_cast<int>(k), {}});
    }
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
  if (parser.isSet(options.program)) {
    std::vector<std::string> notes;
    auto proof = proveSpec(*worker, *document, ops,
                           parser.value(options.program).toStdString(), output,
                           bench, notes);
    if (!proof) {
      std::cerr << "tilescope-cli export-spec: configuring the program with "
                   "the spec failed: "
                << proof.error() << "\n";
      return kExitFailure;
    }
    out["proof"] = *proof;
    if (!notes.empty())
      out["proof_notes"] = notes;
    for (const json &entry : *proof)
      if (!entry["applied"].get<bool>())
        exit = kExitFailure;
  }
  if (parser.isSet(kJsonOption)) {
    std::cout << exporting::jsonText(out, 2) << "\n";
    return exit;
  }
  std::cout << "wrote " << output.string() << "\n";
  if (out.contains("proof"))
    for (const json &entry : out["proof"]) {
      std::cout << "  " << entry["op"].get<std::string>() << " @"
                << entry["dispatch"].get<std::string>() << ": "
                << (!entry.value("in_program", true)
                        ? "not in " +
                              parser.value(options.program).toStdString() +
                              " (give --program the program FILE came "
                              "from)"
                    : entry["applied"].get<bool>()
                        ? std::string("IREE chose the exported config")
                    : entry.contains("compile_error")
                        ? std::string("IREE chose the exported config, but "
                                      "the program does not compile with "
                                      "it in the spec: ") +
                              entry["compile_error"].get<std::string>()
                        : std::string("IREE's config differs"))
                << "\n";
      if (entry.contains("why"))
        std::cout << "    " << entry["why"].get<std::string>() << "\n";
      for (const json &d : entry.value("differences", json::array()))
        std::cout << "    " << d["field"].get<std::string>() << ": exported "
                  << d["exported"].get<std::string>() << ", IREE "
                  << d["iree"].get<std::string>() << "\n";
    }
  for (const json &note : out.value("proof_notes", json::array()))
    std::cout << "  note: " << note.get<std::string>() << "\n";
  return exit;
}

} // namespace tilescope::cli
