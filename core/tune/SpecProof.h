// The proof that a tuning spec does what it says: the program is configured
// by the pinned iree-compile with the spec (--iree-codegen-tuning-spec-path)
// on the configured file's own device, and each op the spec names has its
// config looked for, field by field, in what IREE chose. `export-spec
// --program` and `tune` both prove their specs this way.
#pragma once

#include "core/document/Document.h"
#include "core/edit/ConfigDiff.h"
#include "core/export/TuningSpec.h"
#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace tilescope::tune {

struct SpecOpProof {
  std::string op;       // "DISPATCH:OP" in the configured file
  std::string dispatch; // its name
  // The program configured with the spec has that dispatch, its op on the
  // same loops; otherwise the file does not come from this program.
  bool inProgram = false;
  bool applied = false; // IREE chose the op's config as the spec gives it
  std::string why;      // where not in the program
  std::vector<edit::FieldDifference> differences; // exported vs IREE's
  // IREE applied the config, yet the program does not compile with the op
  // in the spec (the op alone in a spec fails too): iree-compile's first
  // error, and why a spec can differ from the try that compiled. Such an
  // op is not `applied`.
  std::string compileError;
};

// The ops of `dispatch` other than `op` to which IREE's config gives a
// lowering_config of their own (fills aside): what a spec, which configures
// one op of a dispatch, leaves out.
size_t otherConfiguredOps(const document::Dispatch &dispatch, size_t op);

// The iree-compile flag that makes IREE apply a tuning spec to a backend's
// dispatches: --iree-codegen-tuning-spec-path, except for cuda, whose
// configuration pipeline in IREE 3.13 leaves that flag's path out of its
// MaterializeTuningSpecs pass (seen in its --mlir-print-ir-after dump:
// tuning-spec-path empty); there the spec is given as the transform library
// MaterializeUserConfigs applies (its @__kernel_config entry point),
// --iree-codegen-transform-dialect-library.
std::string specFlag(const std::string &backend,
                     const std::filesystem::path &spec);

// Gives each op of `ops` its dag (SpecOp::dag): the configured text's root
// ops printed by IREE in the worker as tuning-spec matcher bodies, each
// file part on its own. An op IREE printed no dag for keeps none (a
// contraction needs none; tuningSpec names any other); an Error when IREE
// cannot read the text.
Result<bool> attachDags(service::DocumentWorker &worker,
                        const document::Document &document,
                        std::vector<exporting::SpecOp> &ops);

// The spec of `ops` as export-spec, the window and Python write it: each
// op's dag attached (attachDags), then exporting::tuningSpec.
Result<std::string> tuningSpecOf(service::DocumentWorker &worker,
                                 const document::Document &document,
                                 std::vector<exporting::SpecOp> ops);

// How far a proof goes: IREE's configuration only, or on through the whole
// compile. A spec can be applied and still break the program: a spec's
// compilation_info reaches its root op alone, while IREE's own config of
// some dispatches (a reduction with a consumer fused after it, on
// VectorDistribute) gives the fused ops lowering_configs too, and without
// them the dispatch fails to distribute. A try compiled the dispatch with
// IREE's configs of those ops still in place, so only the program's compile
// with the spec tells.
enum class SpecProofDepth { Configured, Compiled };

// How far a proof goes, how long each of its iree-compile runs may take
// (configuring the program gets at least ten minutes, as the tune's own
// configure does), and what stops them.
struct ProofLimits {
  SpecProofDepth depth = SpecProofDepth::Configured;
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  const std::atomic<bool> *cancel = nullptr;
  // A compile that hung or ran past `timeout` leaves what reproduces it in
  // a folder timed-out-N here (the program, the spec and command.sh), for
  // a report to IREE; nothing is kept when empty.
  std::filesystem::path keepTimedOutIn;
};

struct SpecProof {
  std::vector<SpecOpProof> ops; // one per op asked for, in order
  // What the proof met that is no op's doing: a compile that hung (and was
  // run once more) or ran past its time, and where its reproducer is kept.
  std::vector<std::string> notes;
};

// Configures `program` (the source the configured `document` came from)
// with `spec` for the document's own device, and proves each op of `ops`;
// with SpecProofDepth::Compiled the program is then compiled with the spec
// and, when that fails, each applied op alone in a spec, to name the ops
// that break it (SpecOpProof::compileError); a program that does not
// compile without the spec either (one that runs out of time, say) blames
// no op. Each compile is stopped as hung after a minute without work and run
// once more (service::stopHungCompiles: IREE 3.13 can deadlock loading a
// spec, docs/iree-3.13.md). An Error when the program cannot be put on the
// device or configured, or the proof was cancelled.
Result<SpecProof> proveSpec(const tools::IreeInstallation &iree,
                            service::DocumentWorker &worker,
                            const document::Document &document,
                            const std::vector<exporting::SpecOp> &ops,
                            const std::filesystem::path &program,
                            const std::filesystem::path &spec,
                            const ProofLimits &limits = {});

} // namespace tilescope::tune
