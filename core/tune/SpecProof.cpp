#include "core/tune/SpecProof.h"

#include "core/document/SplitInput.h"
#include "core/run/CheckJob.h"
#include "core/service/CompileJob.h"
#include "core/service/ConfigureProgram.h"
#include "core/util/Files.h"

#include <map>
#include <sstream>

namespace tilescope::tune {

namespace {

// The op of `found` that is `op` of the configured file: the one at the same
// index when it runs the same loops, else the first of the same name on the
// same loops (a spec's config can leave a fused op without a config of its
// own, so the indices of root ops move).
const document::RootOp *sameOp(const document::Dispatch &found,
                               const document::RootOp &op, size_t index) {
  auto same = [&op](const document::RootOp &candidate) {
    return candidate.name == op.name &&
           (!op.space || !candidate.space ||
            op.space->toString() == candidate.space->toString());
  };
  if (index < found.rootOps.size() && same(found.rootOps[index]))
    return &found.rootOps[index];
  for (const document::RootOp &candidate : found.rootOps)
    if (same(candidate))
      return &candidate;
  return nullptr;
}

// iree-compile's first error on `program` with the spec `flag` (none when
// empty; the program names its device: no target flags); empty when it
// compiles.
std::string compileError(const tools::IreeInstallation &iree,
                         const std::filesystem::path &program,
                         const std::string &flag,
                         const std::filesystem::path &module) {
  auto compiler = iree.tool(tools::kIreeCompile);
  if (!compiler)
    return compiler.error();
  process::ProcessSpec spec;
  spec.program = *compiler;
  spec.arguments = {program.string(), "-o", module.string()};
  if (!flag.empty())
    spec.arguments.push_back(flag);
  spec.timeout = std::chrono::minutes(10);
  const process::ProcessResult ran = process::runProcess(spec);
  if (ran.succeeded())
    return {};
  for (const document::Diagnostic &diagnostic : service::parseToolDiagnostics(
           ran.standardError, program.string(), program.filename().string()))
    if (diagnostic.severity == document::Severity::Error)
      return diagnostic.message;
  return "iree-compile " + ran.describe();
}

// Why a dispatch can compile in a try and not from a spec.
std::string configuredElsewhere(const document::Dispatch &dispatch, size_t op) {
  const size_t others = otherConfiguredOps(dispatch, op);
  if (others == 0)
    return {};
  std::ostringstream why;
  why << "; IREE's config of @" << dispatch.name << " gives " << others
      << (others == 1 ? " other op" : " other ops")
      << " a lowering_config of its own, which a spec's config (for one "
         "root op) leaves out";
  return why.str();
}

} // namespace

size_t otherConfiguredOps(const document::Dispatch &dispatch, size_t op) {
  size_t others = 0;
  for (size_t i = 0; i < dispatch.rootOps.size(); ++i)
    if (i != op && !dispatch.rootOps[i].loweringConfig.empty() &&
        dispatch.rootOps[i].name != "linalg.fill")
      ++others;
  return others;
}

Result<bool> attachDags(service::DocumentWorker &worker,
                        const document::Document &document,
                        std::vector<exporting::SpecOp> &ops) {
  const std::string name =
      document.path.empty() ? "<configured>" : document.path.string();
  std::vector<document::TextPart> parts;
  if (document.partCount > 1)
    parts = document::splitInputFile(document.text, name).parts;
  std::map<int, std::vector<document::RootOpDag>> byPart;
  for (exporting::SpecOp &ref : ops) {
    if (ref.dispatch < 0 ||
        ref.dispatch >= static_cast<int>(document.dispatches.size()))
      continue;
    const document::Dispatch &dispatch =
        document.dispatches[static_cast<size_t>(ref.dispatch)];
    auto it = byPart.find(dispatch.part);
    if (it == byPart.end()) {
      const size_t part = static_cast<size_t>(dispatch.part);
      const std::string text = parts.empty() || part >= parts.size()
                                   ? document.text
                                   : std::string(parts[part].in(document.text));
      auto dags = worker.rootOpDags(text, name);
      if (!dags)
        return Error{dags.error()};
      it = byPart.emplace(dispatch.part, std::move(*dags)).first;
    }
    for (const document::RootOpDag &dag : it->second)
      if (dag.function == dispatch.name && dag.index == ref.op &&
          static_cast<size_t>(ref.op) < dispatch.rootOps.size() &&
          dag.name == dispatch.rootOps[static_cast<size_t>(ref.op)].name)
        ref.dag = dag.body;
  }
  return true;
}

Result<std::string> tuningSpecOf(service::DocumentWorker &worker,
                                 const document::Document &document,
                                 std::vector<exporting::SpecOp> ops) {
  if (auto attached = attachDags(worker, document, ops); !attached)
    return Error{attached.error()};
  return exporting::tuningSpec(document, ops);
}

std::string specFlag(const std::string &backend,
                     const std::filesystem::path &spec) {
  const std::string path = std::filesystem::absolute(spec).string();
  return backend == "cuda" ? "--iree-codegen-transform-dialect-library=" + path
                           : "--iree-codegen-tuning-spec-path=" + path;
}

Result<std::vector<SpecOpProof>>
proveSpec(const tools::IreeInstallation &iree, service::DocumentWorker &worker,
          const document::Document &document,
          const std::vector<exporting::SpecOp> &ops,
          const std::filesystem::path &program,
          const std::filesystem::path &spec, SpecProofDepth depth) {
  auto source = readTextFile(program);
  if (!source)
    return Error{source.error()};
  const std::optional<std::string> onDevice =
      run::programOnDevice(*source, document.text);
  if (!onDevice)
    return Error{"cannot put " + program.string() +
                 " on the file's device: the file names no device target, "
                 "or the program has a module of its own"};
  auto folder = TemporaryDirectory::create("tilescope-spec");
  if (!folder)
    return Error{folder.error()};
  const std::filesystem::path wrapped = folder->file("program.mlir");
  if (auto written = writeFileAtomically(wrapped, *onDevice); !written)
    return Error{written.error()};
  service::ConfigureRequest request;
  request.source = wrapped; // the device is in the program: no target flags
  request.output = folder->file("configured.mlir");
  const std::vector<std::string> backends = service::documentBackends(document);
  request.extraFlags = {
      specFlag(backends.empty() ? "" : backends.front(), spec)};
  auto configured = service::configureProgram(iree, worker, request);
  if (!configured)
    return Error{configured.error()};

  std::vector<SpecOpProof> proofs;
  for (const exporting::SpecOp &ref : ops) {
    const document::Dispatch &dispatch =
        document.dispatches.at(static_cast<size_t>(ref.dispatch));
    const document::RootOp &op =
        dispatch.rootOps.at(static_cast<size_t>(ref.op));
    SpecOpProof proof;
    proof.op = std::to_string(ref.dispatch) + ":" + std::to_string(ref.op);
    proof.dispatch = dispatch.name;
    const document::Dispatch *found = nullptr;
    for (const document::Dispatch &candidate : configured->document.dispatches)
      if (candidate.executable == dispatch.executable)
        found = &candidate;
    const document::RootOp *chosen =
        found ? sameOp(*found, op, static_cast<size_t>(ref.op)) : nullptr;
    if (!chosen) {
      proof.why = !found ? "the program has no dispatch @" + dispatch.executable
                         : "the program's @" + dispatch.executable +
                               " has no " + op.name + " on the loops " +
                               (op.space ? op.space->toString() : "?");
      proofs.push_back(std::move(proof));
      continue;
    }
    proof.inProgram = true;
    proof.differences = edit::loweringConfigDifferences(op, *chosen);
    if (op.compilationInfo.empty())
      for (auto &difference : edit::translationInfoDifferences(
               dispatch.translationInfo, found->translationInfo))
        proof.differences.push_back(std::move(difference));
    proof.applied = proof.differences.empty();
    proofs.push_back(std::move(proof));
  }
  if (depth == SpecProofDepth::Configured)
    return proofs;
  const std::string backend = backends.empty() ? "" : backends.front();
  const std::string whole = compileError(iree, wrapped, specFlag(backend, spec),
                                         folder->file("program.vmfb"));
  if (whole.empty())
    return proofs;
  // A program that does not compile without the spec either: not the
  // spec's doing (its own compile will say what).
  if (!compileError(iree, wrapped, "", folder->file("without.vmfb")).empty())
    return proofs;
  // Which ops break it: each applied op alone in a spec (matched as the
  // whole spec matched it: by its dag where it is no contraction).
  std::vector<exporting::SpecOp> alone = ops;
  if (auto attached = attachDags(worker, document, alone); !attached)
    return Error{attached.error()};
  bool blamed = false;
  for (size_t i = 0; i < ops.size(); ++i) {
    SpecOpProof &proof = proofs[i];
    if (!proof.applied)
      continue;
    auto text = exporting::tuningSpec(document, {alone[i]});
    if (!text)
      return Error{text.error()};
    const std::filesystem::path aloneSpec =
        folder->file("alone-" + std::to_string(i) + ".mlir");
    if (auto written = writeFileAtomically(aloneSpec, *text); !written)
      return Error{written.error()};
    std::string error =
        compileError(iree, wrapped, specFlag(backend, aloneSpec),
                     folder->file("alone-" + std::to_string(i) + ".vmfb"));
    if (error.empty())
      continue;
    const document::Dispatch &dispatch =
        document.dispatches.at(static_cast<size_t>(ops[i].dispatch));
    proof.applied = false;
    proof.compileError =
        error + configuredElsewhere(dispatch, static_cast<size_t>(ops[i].op));
    blamed = true;
  }
  // Each alone compiles, together they do not: every applied op is named.
  if (!blamed)
    for (SpecOpProof &proof : proofs)
      if (proof.applied) {
        proof.applied = false;
        proof.compileError =
            "with the whole spec (each op alone compiles): " + whole;
      }
  return proofs;
}

} // namespace tilescope::tune
