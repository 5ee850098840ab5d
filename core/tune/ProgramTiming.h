// A whole program compiled and run by a checked run (jobs::checkProgram),
// timed end to end with IREE's iree-benchmark-module on the same inputs, and
// two such runs' outputs compared: what `tune` says of a tuned program
// against IREE's default.
#pragma once

#include "core/run/CheckJob.h"
#include "core/run/RunBundle.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <string>

namespace tilescope::tune {

// One call of the run's function (its tested module, on its device, with
// its inputs), `repetitions` times, each repetition as long as
// iree-benchmark-module's minimum time asks. An Error says why not (the
// check did not run, the tool failed, it printed no time).
Result<jobs::TimingStats> timeCheckedModule(const tools::IreeInstallation &iree,
                                            const jobs::CheckResult &ran,
                                            int repetitions,
                                            std::chrono::milliseconds timeout,
                                            const std::atomic<bool> *cancel);

struct OutputAgreement {
  bool agree = false;
  std::string text; // "3 outputs agree (max abs error 0, max rel error 0)"
};

// The tested outputs of `b` against those of `a` (the same function on the
// same inputs), element by element with the element type's tolerance.
Result<OutputAgreement> compareOutputs(const jobs::CheckResult &a,
                                       const jobs::CheckResult &b);

} // namespace tilescope::tune
