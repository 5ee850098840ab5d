// The tune's fourth step, its first half: the winners as one tuning spec
// (one matcher per kind; of two kinds a matcher cannot tell apart, the one
// with the larger share), written and proven on the program (SpecProof.h:
// IREE configures it with the spec and compiles it; an op IREE does not
// take, or whose config breaks the compile, leaves the spec, which is
// written and proven again). Tune.cpp then runs the program with and
// without it.
#pragma once

#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"
#include "core/tries/TriedConfigs.h"
#include "core/tune/SpecProof.h"
#include "core/tune/Tune.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace tilescope::tune {

// `parts` joined with `separator`.
std::string joined(const std::vector<std::string> &parts,
                   const std::string &separator);

// How the tune proves a spec: through the program's compile, each
// iree-compile stopped at the request's timeout or cancel, a timed-out
// one's reproducer kept in `folder`.
ProofLimits proofLimits(const TuneRequest &request,
                        const std::filesystem::path &folder);

// A tuned op's configs with the winner's texts: what withConfigs puts back
// on a document.
tries::OpConfigs winnerConfigs(const DispatchTune &tuned);

// Writes the spec of `result`'s kept (or predicted) winners beside the
// tune's folder (or to request.specOutput) and proves it: result.spec,
// specFlag, specProof and each left-out dispatch's specNote. `step` is told
// what is being done.
void writeProvenSpec(const tools::IreeInstallation &iree,
                     service::DocumentWorker &worker,
                     const TuneRequest &request,
                     const document::Document &document,
                     const std::string &backend, TuneResult &result,
                     const std::function<void(const std::string &)> &step);

} // namespace tilescope::tune
