// A sweep as JSON and in words, the one form `tilescope-cli sweep --json`
// prints and the Python package's sweep() returns: each candidate, where
// the candidates came from, and how the ranking was ordered.
#pragma once

#include "core/sweep/Sweep.h"
#include "core/sweep/SweepSpace.h"
#include "core/sweep/SweepWorkflow.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tilescope::sweep {

// {"candidate", "valid", "settings", "problems", "why_not" | "predicted_us",
// "measured_us", "ranked_by", "try", "outcome", ...}; `first`, the ranking's
// first, adds "against_first" (whether the two differ beyond their noise).
nlohmann::json toJson(const SweepCandidate &candidate,
                      const SweepCandidate *first = nullptr);

// IREE's constraint space as the sweep used it.
nlohmann::json toJson(const IreeSpace &space);

// {"neighbourhood": "iree-constraints" | "rules" | "axes", "iree_space",
// "why_not_iree"} added to `out`.
void describeSource(const PreparedSweep &prepared, nlohmann::json &out);

// A plan (sweep --plan): {"sweep", "candidates", "valid", "total", ...}.
nlohmann::json planJson(const std::string &name,
                        const std::vector<SweepCandidate> &plan,
                        const PreparedSweep &prepared);

// A sweep run: {"sweep", "ran", "resumed", "invalid", "ranking",
// "candidates", ...}, the candidates ranked.
nlohmann::json resultJson(const std::string &name, const SweepResult &swept,
                          const PreparedSweep &prepared);

// How a ranking was ordered, in words ("ranked by measured time", "ranked
// by predicted time (nothing timed: ...)", ...).
std::string rankingHeading(const std::vector<SweepCandidate> &ranked);

// Whether a run sweep's every valid candidate finished (ok, or compiled
// where nothing can time it): the CLI's exit status.
bool everyValidFinished(const SweepResult &swept);

} // namespace tilescope::sweep
