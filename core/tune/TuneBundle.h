// A tune carried to the GPU as a run bundle and continued from what it
// measured there (`tilescope-cli tune --bundle DIR`, then `--import DIR`):
//   - the bundle holds every compiled try of the tune's sweeps (IREE's
//     default and the candidates of each kind of dispatch; run.sh times
//     them, as `tilescope-cli bundle` writes it) and the program compiled
//     with IREE's configs and with the tune's spec, with the checked run's
//     inputs (programs.sh runs each once for its outputs and times it end
//     to end);
//   - importing puts the dispatches' times into the history (the tune then
//     decides on measured times, as it would on a device here) and reads
//     the programs' outputs and times back: the tuned program's outputs
//     against IREE's default's, both end to end.
// The programs part says which spec its tuned program was built with: when
// the measured winners make another spec, its end-to-end time is not the
// new spec's, and the report says so (bundle again to time it).
#pragma once

#include "core/tools/IreeInstallation.h"
#include "core/tune/Tune.h"
#include "core/util/Result.h"

#include <filesystem>
#include <string>

namespace tilescope::tune {

// Writes `result`'s bundle into `directory` (made; an existing bundle there
// is an error): its sweeps' compiled tries from the workspace's history,
// and both programs where the tune prepared them (its compile-only checked
// runs with their inputs), programs.sh timing each `repetitions` times.
// Returns the bundle's folder.
Result<std::filesystem::path>
writeTuneBundle(const tools::IreeInstallation &iree, const TuneResult &result,
                const std::filesystem::path &workspace,
                const std::filesystem::path &directory, int repetitions);

// What the bundle's programs.sh left in `bundle`, put into `result`: each
// program's end-to-end time, the tuned program's outputs against the
// default's, the verdict of the two times. Notes (a program that did not
// run, a spec other than the bundle's) go into result.notes.
void readTuneBundle(const std::filesystem::path &bundle, TuneResult &result);

// The sweeps a tune's bundle carries: per kind of dispatch, IREE's default
// and its candidates.
std::vector<std::string> tuneSweepNames(const TuneResult &result);

} // namespace tilescope::tune
