// The decisions of a tune that need no compiler (tuneProgram's steps 2 to 4
// between their runs): the shares of the program's time, the order the
// kinds are swept in, the winner of a dispatch's candidates and what a
// winner known only by the cost model earns, and a kind's tuning taken by
// every dispatch of that kind. Each is a function of what the runs found,
// so each is tested alone (tests/core/tune/tst_tune_steps.cpp).
#pragma once

#include "core/sweep/Sweep.h"
#include "core/tries/BundleTries.h"
#include "core/tune/Tune.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

namespace tilescope::tune {

// The cost model's first pick was within this of the fastest kernel on
// every GPU set measured (the worst: 1.12x, an SDXL convolution;
// docs/cost-model.md): a predicted gain below it is not one.
constexpr double kPredictedMargin = 1.12;

// Each dispatch's share of the program's time: of the measured defaults
// where every dispatch of a kind has one (here, or a bundle's imported),
// else of the predictions. `measuredHere`: the defaults were timed here.
void shareTimes(std::vector<DispatchTune> &dispatches, bool measuredHere);

// A run bundle's modules as the tune imported them, in a line: how many
// were stored with a time now, imported before, and without a time (a
// failed run, a garbage .done: stored as failed, never counted timed).
std::string describeImport(const std::vector<tries::ImportedModule> &modules,
                           const std::filesystem::path &from);

// A kind's first dispatch's default taken by the others of its kind.
void shareDefaults(std::vector<DispatchTune> &dispatches);

// The dispatches to sweep (each kind's first, not already decided), the
// kind with the greatest share of the program first.
std::vector<size_t> sweepOrder(const std::vector<DispatchTune> &dispatches);

// The candidate that wins: the first valid one (they come nearest first)
// that changes the config and has a time (`byMeasure`) or a prediction.
// `changesNothing` says whether a candidate leaves the config as it was.
const sweep::SweepCandidate *winnerOf(
    const std::vector<sweep::SweepCandidate> &candidates, bool byMeasure,
    const std::function<bool(const sweep::SweepCandidate &)> &changesNothing);

// A winner known only by the cost model: carried into the spec for a
// device to confirm where its predicted gain beats the model's margin;
// the outcome and why, in words.
void decideOnPrediction(DispatchTune &tuned);

// Every dispatch of a kind tuned already takes its first's tuning, its own
// name, place and share kept; `tell` hears each.
void takeKindsTuning(std::vector<DispatchTune> &dispatches,
                     const std::function<void(const DispatchTune &)> &tell);

} // namespace tilescope::tune
