#include "core/tune/SpecProof.h"

#include "core/document/SplitInput.h"
#include "core/run/CheckJob.h"
#include "core/service/CompileJob.h"
#include "core/service/ConfigureProgram.h"
#include "core/service/IreeCommands.h"
#include "core/util/Files.h"

#include <algorithm>
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

// One iree-compile of the proof: the program alone or with a spec.
struct ProofCompile {
  std::string error; // the first error; empty when it compiled
  bool cancelled = false;
};

// iree-compile on `program` with `spec` for `backend` (none when empty; the
// program names its device: no target flags), writing `module`.
Result<process::ProcessSpec> compileSpec(const tools::IreeInstallation &iree,
                                         const std::filesystem::path &program,
                                         const std::string &backend,
                                         const std::filesystem::path &spec,
                                         const std::filesystem::path &module) {
  service::CompileRequest request;
  request.input = program;
  request.output = module;
  request.inputCarriesTarget = true;
  if (!spec.empty())
    request.extraFlags = {specFlag(backend, spec)};
  return service::compileCommand(iree, request);
}

// Copies what reproduces a compile that hung or ran past its time (`ran`)
// into a new folder timed-out-N under `keep`: the program, the spec and
// command.sh. Returns the folder ("" when nothing could be kept).
std::filesystem::path keepTimedOut(const std::filesystem::path &keep,
                                   const tools::IreeInstallation &iree,
                                   const std::filesystem::path &program,
                                   const std::string &backend,
                                   const std::filesystem::path &spec,
                                   const process::ProcessResult &ran) {
  if (keep.empty())
    return {};
  std::error_code error;
  std::filesystem::path folder;
  for (int i = 0; i < 1000 && folder.empty(); ++i)
    if (std::filesystem::create_directories(
            keep / ("timed-out-" + std::to_string(i)), error))
      folder = keep / ("timed-out-" + std::to_string(i));
  if (folder.empty())
    return {};
  std::filesystem::copy_file(program, folder / program.filename(), error);
  if (!spec.empty())
    std::filesystem::copy_file(spec, folder / spec.filename(), error);
  const auto again = compileSpec(iree, folder / program.filename(), backend,
                                 spec.empty() ? spec : folder / spec.filename(),
                                 folder / "program.vmfb");
  if (!again)
    return {};
  const std::string script =
      "#!/bin/sh\n# Tilescope's spec proof ran this iree-compile; it " +
      (ran.stalledRuns > 0 ? std::string("hung (no CPU for a minute) once")
                           : ran.describe()) +
      ".\n" + again->shellCommand() + "\n";
  if (!writeFileAtomically(folder / "command.sh", script))
    return {};
  std::filesystem::permissions(folder / "command.sh",
                               std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add, error);
  return folder;
}

// The proof's compiles: each stopped at the limits' time or cancel (and,
// hung, run once more: stopHungCompiles); one that hung or ran past its
// time is kept (keepTimedOut) and said in `notes`.
class ProofCompiler {
public:
  ProofCompiler(const tools::IreeInstallation &iree, std::string backend,
                const ProofLimits &limits, std::vector<std::string> &notes)
      : iree_(iree), backend_(std::move(backend)), limits_(limits),
        notes_(notes) {}

  // iree-compile's first error on `program` with `spec` (none when
  // empty); empty when it compiles.
  ProofCompile operator()(const std::filesystem::path &program,
                          const std::filesystem::path &spec,
                          const std::filesystem::path &module) {
    ProofCompile compiled;
    auto run = compileSpec(iree_, program, backend_, spec, module);
    if (!run) {
      compiled.error = run.error();
      return compiled;
    }
    run->timeout = limits_.timeout;
    run->cancel = limits_.cancel;
    const process::ProcessResult ran = process::runProcess(*run);
    compiled.cancelled =
        ran.outcome == process::ProcessResult::Outcome::Cancelled;
    if (ran.outcome == process::ProcessResult::Outcome::TimedOut ||
        ran.stalledRuns > 0)
      note(ran, program, spec);
    if (ran.succeeded())
      return compiled;
    for (const document::Diagnostic &diagnostic : service::parseToolDiagnostics(
             ran.standardError, program.string(), program.filename().string()))
      if (diagnostic.severity == document::Severity::Error) {
        compiled.error = diagnostic.message;
        return compiled;
      }
    compiled.error = "iree-compile " + ran.describe();
    return compiled;
  }

private:
  // What hung or ran out of time, and where its reproducer is kept.
  void note(const process::ProcessResult &ran,
            const std::filesystem::path &program,
            const std::filesystem::path &spec) {
    const std::filesystem::path kept = keepTimedOut(
        limits_.keepTimedOutIn, iree_, program, backend_, spec, ran);
    std::string text =
        "iree-compile on " + program.filename().string() +
        (spec.empty() ? "" : " with " + spec.filename().string()) + " ";
    if (ran.stalledRuns > 0)
      text += "hung (it used no CPU for a minute) and was run once more: " +
              std::string(ran.succeeded() ? "it compiled" : ran.describe());
    else
      text += ran.describe();
    if (!kept.empty())
      text += " (to reproduce it: " + (kept / "command.sh").string() + ")";
    notes_.push_back(std::move(text));
  }

  const tools::IreeInstallation &iree_;
  std::string backend_;
  const ProofLimits &limits_;
  std::vector<std::string> &notes_;
};

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

// Whether IREE, configuring the program with the spec (`configured`),
// gave `ref`'s op of `document` the config the spec carries.
SpecOpProof opProof(const document::Document &document,
                    const document::Document &configured,
                    const exporting::SpecOp &ref) {
  const document::Dispatch &dispatch =
      document.dispatches.at(static_cast<size_t>(ref.dispatch));
  const document::RootOp &op = dispatch.rootOps.at(static_cast<size_t>(ref.op));
  SpecOpProof proof;
  proof.op = std::to_string(ref.dispatch) + ":" + std::to_string(ref.op);
  proof.dispatch = dispatch.name;
  const document::Dispatch *found = nullptr;
  for (const document::Dispatch &candidate : configured.dispatches)
    if (candidate.executable == dispatch.executable)
      found = &candidate;
  const document::RootOp *chosen =
      found ? sameOp(*found, op, static_cast<size_t>(ref.op)) : nullptr;
  if (!chosen) {
    proof.why = !found ? "the program has no dispatch @" + dispatch.executable
                       : "the program's @" + dispatch.executable + " has no " +
                             op.name + " on the loops " +
                             (op.space ? op.space->toString() : "?");
    return proof;
  }
  proof.inProgram = true;
  proof.differences = edit::loweringConfigDifferences(op, *chosen);
  if (op.compilationInfo.empty())
    for (auto &difference : edit::translationInfoDifferences(dispatch, *found))
      proof.differences.push_back(std::move(difference));
  proof.applied = proof.differences.empty();
  return proof;
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

Result<SpecProof> proveSpec(const tools::IreeInstallation &iree,
                            service::DocumentWorker &worker,
                            const document::Document &document,
                            const std::vector<exporting::SpecOp> &ops,
                            const std::filesystem::path &program,
                            const std::filesystem::path &spec,
                            const ProofLimits &limits) {
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
  const std::vector<std::string> backends = service::documentBackends(document);
  const std::string backend = backends.empty() ? "" : backends.front();
  service::ConfigureRequest request;
  request.source = wrapped; // the device is in the program: no target flags
  request.output = folder->file("configured.mlir");
  request.extraFlags = {specFlag(backend, spec)};
  // As long as the tune's own configure of the program may take.
  request.timeout = std::max(
      limits.timeout, std::chrono::milliseconds(std::chrono::minutes(10)));
  request.cancel = limits.cancel;
  auto configured = service::configureProgram(iree, worker, request);
  if (!configured)
    return Error{configured.error()};

  SpecProof proof;
  for (const exporting::SpecOp &ref : ops)
    proof.ops.push_back(opProof(document, configured->document, ref));
  if (limits.depth == SpecProofDepth::Configured)
    return proof;
  ProofCompiler compile(iree, backend, limits, proof.notes);
  const ProofCompile whole =
      compile(wrapped, spec, folder->file("program.vmfb"));
  if (whole.cancelled)
    return Error{"the spec's proof was cancelled"};
  if (whole.error.empty())
    return proof;
  // A program that does not compile without the spec either: not the
  // spec's doing (its own compile will say what).
  const ProofCompile without =
      compile(wrapped, {}, folder->file("without.vmfb"));
  if (without.cancelled)
    return Error{"the spec's proof was cancelled"};
  if (!without.error.empty())
    return proof;
  // Which ops break it: each applied op alone in a spec (matched as the
  // whole spec matched it: by its dag where it is no contraction).
  std::vector<exporting::SpecOp> alone = ops;
  if (auto attached = attachDags(worker, document, alone); !attached)
    return Error{attached.error()};
  bool blamed = false;
  for (size_t i = 0; i < ops.size(); ++i) {
    SpecOpProof &op = proof.ops[i];
    if (!op.applied)
      continue;
    auto text = exporting::tuningSpec(document, {alone[i]});
    if (!text)
      return Error{text.error()};
    const std::filesystem::path aloneSpec =
        folder->file("alone-" + std::to_string(i) + ".mlir");
    if (auto written = writeFileAtomically(aloneSpec, *text); !written)
      return Error{written.error()};
    const ProofCompile compiled =
        compile(wrapped, aloneSpec,
                folder->file("alone-" + std::to_string(i) + ".vmfb"));
    if (compiled.cancelled)
      return Error{"the spec's proof was cancelled"};
    if (compiled.error.empty())
      continue;
    const document::Dispatch &dispatch =
        document.dispatches.at(static_cast<size_t>(ops[i].dispatch));
    op.applied = false;
    op.compileError =
        compiled.error +
        configuredElsewhere(dispatch, static_cast<size_t>(ops[i].op));
    blamed = true;
  }
  // Each alone compiles, together they do not: every applied op is named.
  if (!blamed)
    for (SpecOpProof &op : proof.ops)
      if (op.applied) {
        op.applied = false;
        op.compileError =
            "with the whole spec (each op alone compiles): " + whole.error;
      }
  return proof;
}

} // namespace tilescope::tune
