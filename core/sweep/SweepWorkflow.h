// A sweep's plan, the one workflow `tilescope-cli sweep` and the window's
// Sweep panel both run: where the candidates come from (IREE's constraint
// space for the op, else the axes), each candidate applied and judged by the
// rules (edit::ruleVerdict, in planSweep), and IREE's verdict on each when
// asked.
#pragma once

#include "core/sweep/Sweep.h"
#include "core/sweep/SweepSpace.h"
#include "core/tools/IreeInstallation.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::sweep {

// Where a sweep's candidates come from.
struct SweepSource {
  // IREE's constraints gave them (its points are in the request).
  std::optional<IreeSpace> space;
  // IREE's space was asked for but gives none (no constraints stated for
  // the op's pipeline, the config outside them, no iree-opt): why. The
  // request's axes are the candidates instead.
  std::string whyNotIree;
};

// How a client asks for a sweep's candidates: the CLI's --vary,
// --iree-space, --no-iree-space, --nearest and --name, the Python package's
// sweep() arguments, the Sweep panel's boxes.
struct SweepChoice {
  // FIELD=V1,V2,... axes (already parsed into the request's axes); with
  // ireeSpace, the FIELDs whose knobs vary.
  std::vector<std::string> vary;
  bool ireeSpace = false;   // IREE's constraint space, an Error without it
  bool noIreeSpace = false; // never IREE's space (the rules' neighbours)
  // IREE's constraint space where it gives one (`vary`: the fields whose
  // knobs vary), else the request's axes as they stand, or the rules'
  // neighbours where it has none (the Sweep panel's box).
  bool ireeSpaceIfAny = false;
  size_t nearest = 32; // IREE's space: the points kept, nearest first
  std::string name;    // the sweep's name; "": from file, op and axes
  std::chrono::milliseconds timeout{std::chrono::minutes(2)};
};

struct PreparedSweep {
  SweepSource source;
  // "iree-constraints", "rules" (no --vary: the rules' neighbours) or
  // "axes" (the axes given).
  std::string neighbourhood;
};

// The choice every front end makes: with no axes (and not noIreeSpace),
// or with ireeSpace or ireeSpaceIfAny, IREE's space for the op
// (ireeSweepSpace: its points and stated constraints go into the request;
// where it gives none, ireeSpace makes that an Error, else `whyNotIree`
// says why); where it gives none, the axes, or the rules'
// neighbours (neighbourAxes) when none were given. Sets the request's
// points or axes and its name.
Result<PreparedSweep> prepareSweep(const tools::IreeInstallation *iree,
                                   SweepRequest &request,
                                   const SweepChoice &choice);

// Each FIELD=V1,V2 text as an axis (parseSweepAxis); the Error names the
// text.
Result<std::vector<SweepAxis>>
parseSweepAxes(const std::vector<std::string> &texts);

struct SweepPlanned {
  std::vector<SweepCandidate> candidates; // planSweep's, IREE's verdicts in
  // IREE was asked (request.ireeConstraints) and could not be: why.
  std::string ireeProblem;
};

// planSweep, then IREE's verdict on each valid candidate when the request
// asks for it (checkCandidatesWithIree).
Result<SweepPlanned> planSweepWithVerdicts(const tools::IreeInstallation *iree,
                                           const SweepRequest &request);

} // namespace tilescope::sweep
