// IREE's own verdict on a sweep's candidates: each valid candidate checked
// against the pipeline constraints IREE states for the sweep's root op
// (service::ireeConstraintVerdict: the pinned iree-opt inserts its
// `iree_codegen.smt.constraints` for the op). A candidate they reject never
// compiles, and says which of IREE's asserts it breaks, in IREE's words with
// the values filled in.
#pragma once

#include "core/document/Document.h"
#include "core/sweep/Sweep.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <vector>

namespace tilescope::sweep {

// The document a candidate stands for: the sweep's document with the
// candidate's text, and its op's dispatch as the edit model left it.
document::Document candidateDocument(const SweepRequest &request,
                                     const SweepCandidate &candidate);

// Checks each valid candidate. IREE states the op's constraints once (one
// iree-opt run, none when request.stated holds them for this document and
// op) and Tilescope runs them on every candidate as IREE's
// verifier does (evaluateConstraints; ireeVerdictBy "tilescope"); where
// that cannot be done, each candidate is asked of iree-opt,
// `request.parallel` at a time ("iree-opt"). One IREE's
// constraints reject becomes invalid: its whyNot is IREE's first violated
// assert on the field it concerns ("workgroup[0]: dim_0 must be divisible
// by wg_0 (1024 % 48 == 0) [iree-constraints]") and its problems gain
// IREE's. Every candidate asked about gets ireeVerdict: "holds",
// "violated", or "not checked" / "no constraints" with IREE's reason.
// Fails only when there is no iree-opt to ask.
Result<bool> checkCandidatesWithIree(const tools::IreeInstallation &iree,
                                     const SweepRequest &request,
                                     std::vector<SweepCandidate> &candidates);

} // namespace tilescope::sweep
