// A whole program compiled and run by a checked run (run::checkProgram),
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
#include <filesystem>
#include <string>
#include <vector>

namespace tilescope::tune {

// One call of the run's function (its tested module, on its device, with
// its inputs), `repetitions` times, each repetition as long as
// iree-benchmark-module's minimum time asks: here, or where the check ran
// (`place`: the module and its inputs go there as the checked run's did).
// An Error says why not (the check did not run, the tool failed, it printed
// no time, the place could not be reached).
Result<run::TimingStats> timeCheckedModule(const tools::IreeInstallation &iree,
                                           const run::CheckResult &ran,
                                           int repetitions,
                                           std::chrono::milliseconds timeout,
                                           const std::atomic<bool> *cancel,
                                           const run::RunPlace &place = {});

// The input files (in its directory) a checked run's --input=TYPE=@FILE
// flags name: what travels with its tested module.
std::vector<std::string> inputFilesOf(const run::CheckResult &check);

struct OutputAgreement {
  bool agree = false;
  std::string text; // "3 outputs agree (max abs error 0, max rel error 0)"
};

// The tested outputs of `b` against those of `a` (the same function on the
// same inputs), element by element with the element type's tolerance.
Result<OutputAgreement> compareOutputs(const run::CheckResult &a,
                                       const run::CheckResult &b);

// The same for outputs in files (raw little-endian tensors of `types`, as
// iree-run-module's --output=@FILE writes them): b[i] against a[i] within
// tolerances[i]. A file
// is read only when it is a regular file of exactly its tensor's size (it
// may come back from another machine) and no link leads out of `within`
// (a bundle's root; by default each file's own folder).
Result<OutputAgreement>
compareOutputFiles(const std::vector<run::TensorType> &types,
                   const std::vector<run::Tolerance> &tolerances,
                   const std::vector<std::filesystem::path> &a,
                   const std::vector<std::filesystem::path> &b,
                   const std::filesystem::path &within = {});

} // namespace tilescope::tune
