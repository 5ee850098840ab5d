#include "core/tune/TuneSpec.h"

#include "core/export/TuningSpec.h"
#include "core/sweep/SweepWorkflow.h"
#include "core/tries/ConfigsPutBack.h"
#include "core/tune/SpecProof.h"
#include "core/util/Files.h"

#include <algorithm>
#include <map>

namespace fs = std::filesystem;
using nlohmann::json;

namespace tilescope::tune {

std::string joined(const std::vector<std::string> &parts,
                   const std::string &separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i)
    out += (i ? separator : "") + parts[i];
  return out;
}

ProofLimits proofLimits(const TuneRequest &request,
                        const std::filesystem::path &folder) {
  ProofLimits limits;
  limits.depth = SpecProofDepth::Compiled;
  limits.timeout = request.timeout;
  limits.cancel = request.cancel;
  limits.keepTimedOutIn = folder;
  return limits;
}

tries::OpConfigs winnerConfigs(const DispatchTune &tuned) {
  tries::OpConfigs configs;
  configs.dispatchIndex = tuned.dispatch;
  configs.opIndex = tuned.op;
  configs.dispatch = tuned.name;
  configs.opName = tuned.opName;
  configs.translationInfo = tuned.translationInfo;
  configs.loweringConfig = tuned.loweringConfig;
  configs.compilationInfo = tuned.compilationInfo;
  return configs;
}

namespace {

// The ops the spec gives their winners, each tuned op's configs entry in
// `configs`. A spec's matcher knows the root op (types, maps, sizes), not
// the ops fused with it: of two kinds that differ only there, the one with
// the larger share has its winner in the spec.
std::vector<exporting::SpecOp> specOps(service::DocumentWorker &worker,
                                       const document::Document &document,
                                       TuneResult &result,
                                       tries::TriedConfigs &configs) {
  std::vector<size_t> byShare;
  for (const DispatchTune &tuned : result.dispatches)
    byShare.push_back(tuned.dispatch);
  std::stable_sort(byShare.begin(), byShare.end(), [&](size_t a, size_t b) {
    return result.dispatches[a].share > result.dispatches[b].share;
  });
  // Every tuned op's dag, for the ops IREE's contraction matcher cannot
  // describe (reductions, convolutions, attention).
  std::vector<exporting::SpecOp> withDags;
  for (const DispatchTune &tuned : result.dispatches)
    withDags.push_back(
        {static_cast<int>(tuned.dispatch), static_cast<int>(tuned.op), {}});
  if (auto attached = attachDags(worker, document, withDags); !attached)
    result.notes.push_back("no op but contractions can be in the spec: " +
                           attached.error());
  std::vector<exporting::SpecOp> ops;
  std::map<std::string, size_t> matched; // root op signature -> dispatch
  for (const size_t d : byShare) {
    DispatchTune &tuned = result.dispatches[d];
    if (!tuned.kept && !tuned.predictedOnly)
      continue;
    const document::RootOp &root = document.dispatches[d].rootOps[tuned.op];
    const std::string signature =
        root.name + " " + tuned.loops + " " + joined(root.operandTypes, ",");
    if (auto [first, isNew] = matched.emplace(signature, d);
        !isNew && result.dispatches[first->second].winner != tuned.winner) {
      tuned.specNote = "its root op is dispatch " +
                       std::to_string(first->second) +
                       "'s to a spec's matcher (types, maps and sizes), and "
                       "that one's winner, with the larger share, is in it";
      continue;
    }
    configs.push_back(winnerConfigs(tuned));
    if (tuned.sameAs || matched[signature] != d)
      continue; // the kind's (or the same root op's) matcher finds it
    const exporting::SpecOp op{static_cast<int>(tuned.dispatch),
                               static_cast<int>(tuned.op), withDags[d].dag};
    // An op with neither a contraction's matcher nor a dag (TuningSpec.h).
    if (auto alone =
            exporting::tuningSpec(tries::withConfigs(configs, document), {op});
        !alone) {
      tuned.specNote = alone.error();
      continue;
    }
    ops.push_back(op);
  }
  return ops;
}

// The spec of `ops` written where the request asks (else beside the
// tune's folder); result.spec empty where none could be.
void writeSpec(const TuneRequest &request,
               const document::Document &tunedDocument,
               const std::vector<exporting::SpecOp> &ops, TuneResult &result) {
  if (ops.empty())
    return;
  auto spec = exporting::tuningSpec(tunedDocument, ops);
  result.spec = request.specOutput.empty()
                    ? result.folder / (request.source.stem().string() + "." +
                                       result.target + ".spec.mlir")
                    : fs::absolute(request.specOutput);
  if (!spec) {
    result.notes.push_back("no spec: " + spec.error());
    result.spec.clear();
  } else if (auto written = writeFileAtomically(result.spec, *spec); !written) {
    result.notes.push_back("no spec: " + written.error());
    result.spec.clear();
  }
}

// One proof of the spec: the program configured and compiled with it, each
// op's outcome in result.specProof. The ops IREE applied when some were not
// (in the first round, those left out say why), else nothing: the proof
// stands, or could not be made.
std::optional<std::vector<exporting::SpecOp>>
proveOnce(const tools::IreeInstallation &iree, service::DocumentWorker &worker,
          const TuneRequest &request, const document::Document &tunedDocument,
          const std::vector<exporting::SpecOp> &ops, const std::string &backend,
          int round, TuneResult &result,
          const std::function<void(const std::string &)> &step) {
  result.specFlag = specFlag(backend, result.spec);
  result.targetFlags = request.target ? request.target->compileFlags
                                      : std::vector<std::string>{};
  result.specProof.clear();
  step("proving the spec: configuring and compiling the program "
       "with it");
  auto proofs = proveSpec(iree, worker, tunedDocument, ops, request.source,
                          result.spec, proofLimits(request, result.folder));
  if (!proofs) {
    result.notes.push_back("the spec could not be proven: " + proofs.error());
    return std::nullopt;
  }
  for (const std::string &note : proofs->notes)
    result.notes.push_back("proving the spec: " + note);
  std::vector<exporting::SpecOp> applied;
  for (size_t i = 0; i < proofs->ops.size(); ++i) {
    const SpecOpProof &proof = proofs->ops[i];
    std::string why = proof.why;
    if (!proof.compileError.empty()) {
      why = "the program does not compile with it in the spec: " +
            proof.compileError;
    } else if (proof.inProgram && !proof.applied) {
      why = "IREE's config differs:";
      for (const edit::FieldDifference &d : proof.differences)
        why += " " + d.field + " (spec " + d.before + ", IREE " + d.after + ")";
    }
    result.specProof.emplace_back(proof.op, why);
    if (proof.applied) {
      applied.push_back(ops[i]);
    } else if (round == 0) {
      DispatchTune &left =
          result.dispatches[static_cast<size_t>(ops[i].dispatch)];
      left.specNote =
          proof.compileError.empty()
              ? "IREE did not apply it from the spec (" + why + "): left out"
              : why + ": left out";
    }
  }
  if (applied.size() == ops.size())
    return std::nullopt;
  return applied;
}

} // namespace

void writeProvenSpec(const tools::IreeInstallation &iree,
                     service::DocumentWorker &worker,
                     const TuneRequest &request,
                     const document::Document &document,
                     const std::string &backend, TuneResult &result,
                     const std::function<void(const std::string &)> &step) {
  tries::TriedConfigs configs;
  std::vector<exporting::SpecOp> ops =
      specOps(worker, document, result, configs);
  const document::Document tunedDocument =
      tries::withConfigs(configs, document);
  writeSpec(request, tunedDocument, ops, result);
  // Proven; an op IREE does not give its config (its matcher does not take
  // the op: IREE's contraction matcher and a convolution's loops), or one
  // whose config breaks the program's compile from a spec, leaves the spec,
  // which is written and proven again without it.
  for (int round = 0; round < 2 && !result.spec.empty(); ++round) {
    auto applied = proveOnce(iree, worker, request, tunedDocument, ops, backend,
                             round, result, step);
    if (!applied || round == 1)
      break;
    ops = std::move(*applied);
    auto spec = ops.empty() ? Result<std::string>(Error{"no op left"})
                            : exporting::tuningSpec(tunedDocument, ops);
    if (!spec || !writeFileAtomically(result.spec, *spec)) {
      result.notes.push_back(
          "no spec: IREE applied none of the winners from it");
      std::error_code ignored;
      fs::remove(result.spec, ignored);
      result.spec.clear();
      result.specFlag.clear();
      result.specProof.clear();
    }
  }
}

} // namespace tilescope::tune
