// Split-k for a whole program (seed: rfc-split-k-via-encoding): which
// reductions IREE's split-reduction heuristic splits and by how much, the
// rule that decided, and the dispatches that result, for IREE's choice or
// for a person's.
//
// How, with the pinned iree-compile in child processes:
// 1. the program runs up to flow with IREE's heuristic on
//    (--iree-dispatch-creation-enable-split-reduction), and IREE prints the
//    whole module right after SetSplitReductionSizesPass: the split point,
//    every reduction as dispatch creation sees it (fusions done), IREE's
//    splits written on them. The flow output holds the dispatches formed;
// 2. a person's splits are written on the split point's ops through the C
//    API (core/iree/ProgramReductions) and iree-compile goes on from it
//    (--compile-from=global-optimization --compile-to=flow, the heuristic
//    off): FormSplitReductionDispatchesPass always honours the attribute, so
//    the written file carries every split, IREE's kept ones included.
//
// The split point and the flow module are IREE's own output; IREE reads
// them, and writes the splits, in the parse worker (DocumentWorker): no
// process that asks for split-k loads IREE's library itself.
#pragma once

#include "core/config/rules/SplitReduction.h"
#include "core/document/ProgramReductions.h"
#include "core/process/Process.h"
#include "core/service/DocumentWorker.h"
#include "core/service/IreeCommands.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::service {

struct SplitKRequest {
  std::filesystem::path source; // a program (or a global-optimization dump)
  // One part of a `// -----` file (0-based), compiled alone; unset: the
  // whole file. The part keeps the file's lines and columns, and IREE's
  // locations name `source`, as for a whole file.
  std::optional<int> part;
  CompileTarget target;
  config::SplitOptions options;
  // The phase `source` is already at ("input" for a program as written,
  // "global-optimization" for a dump IREE printed there).
  std::string compileFrom = "input";
  std::vector<std::string> extraFlags;
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  const std::atomic<bool> *cancel = nullptr;
  std::function<void(const std::string &step)> progress;
};

// One reduction, IREE's split beside Tilescope's reading of the rule.
struct SplitKReduction {
  document::ProgramReduction op;  // as IREE's pass left it (op.split: IREE's)
  config::SplitDecision decision; // which rule, with its numbers
  // Tilescope's rule gives IREE's sizes (false: the rule reading is wrong
  // for this op; IREE's sizes are the answer shown).
  bool agrees = true;
};

struct SplitKAnalysis {
  std::string splitPoint; // the module at the split point, IREE's splits on it
  std::vector<SplitKReduction> reductions;
  std::vector<document::FormedDispatch> dispatches; // with IREE's splits
  std::vector<std::string> commands; // each step, as a shell command
  // The file iree-compile read when it is not `source` (a part written out
  // alone): IREE's locations name it, Tilescope's answers name `source`.
  std::string compiledAs;
};

// iree-compile on `input` (request.source, or the part written out alone).
Result<process::ProcessSpec>
splitPointCommand(const tools::IreeInstallation &iree,
                  const SplitKRequest &request,
                  const std::filesystem::path &input,
                  const std::filesystem::path &flowOutput);

Result<SplitKAnalysis> analyzeSplitK(const tools::IreeInstallation &iree,
                                     DocumentWorker worker,
                                     const SplitKRequest &request);

struct SplitKApplied {
  // The split point with the chosen splits, printed by IREE with its
  // locations: `iree-compile FILE --compile-from=global-optimization` builds
  // the program with exactly these splits.
  std::string program;
  std::vector<document::FormedDispatch> dispatches;
  std::string command;
  // Splits that did not come out of dispatch formation as written (an op
  // IREE's preprocessing rewrote again): named, with what came out.
  std::vector<std::string> warnings;
};

// Applies `choices` (set or clear, by function and index) on top of IREE's
// splits and forms the dispatches.
Result<SplitKApplied>
applySplitK(const tools::IreeInstallation &iree, DocumentWorker worker,
            const SplitKRequest &request, const SplitKAnalysis &analysis,
            const std::vector<document::SplitChoice> &choices);

} // namespace tilescope::service
