// IREE's own verdict on a document's configs: the SMT constraints IREE's
// GPU pipelines state for each root op (iree-codegen-insert-smt-constraints,
// one `iree_codegen.smt.constraints` op per pipeline the target offers),
// checked against the op's lowering config and its function's
// translation_info by IREE's own evaluator (iree-codegen-verify-smt-
// constraints), both in the pinned iree-opt in a child process, on a copy.
//
// The copy differs from the document only where IREE needs it to: a root op
// with a config and no `root_op = #iree_codegen.root_op<set = N>` gets one,
// written into the op's own attribute dictionary, so every line IREE reports
// is the document's line.
// Each violation comes back in IREE's words with the config fields it
// concerns; where IREE checks nothing (no constraints for the pipeline, a
// template the config does not fit, which IREE skips silently), the verdict
// says so rather than passing.
#pragma once

#include "core/config/rules/Validation.h"
#include "core/config/smt/ConstraintKnobs.h"
#include "core/document/Document.h"
#include "core/edit/EditableDocument.h"
#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::service {

// One `iree_codegen.smt.constraints` op IREE emitted for a root op.
struct ConstraintSet {
  std::string pipeline; // "TileAndFuse", "VectorDistribute"
  int assertions = 0;   // iree_codegen.smt.assert ops in its region
  std::string knobs;    // the knobs template, as IREE printed it
  // The template read, once, where the set is read (readConstraints); why
  // not where it does not parse.
  Result<config::Attribute> knobsTemplate = Error{"IREE printed no knobs"};
  std::string body; // its region, as IREE printed it (SmtProgram.h)
  // Its dims() operands' values; unknown where one is not a constant.
  std::vector<std::optional<int64_t>> dims;
};

struct ConstraintViolation {
  std::string message;             // IREE's, its values filled in
  std::vector<std::string> fields; // "workgroup[0]", "mma_kind", ...
};

struct OpConstraintVerdict {
  size_t dispatch = 0;
  size_t op = 0;
  enum class Outcome {
    Holds,         // IREE checked every assert of the pipeline: all hold
    Violated,      // IREE reports violations
    NotChecked,    // IREE has constraints but did not (or could not) check
    NoConstraints, // IREE states none for this op and pipeline
  };
  Outcome outcome = Outcome::NoConstraints;
  std::string pipeline;            // the function's translation_info
  std::vector<ConstraintSet> sets; // every pipeline IREE stated them for
  std::vector<ConstraintViolation> violations;
  config::KnobMatch knobs; // the config read through the template
  std::string reason;      // NotChecked / NoConstraints: why, IREE's words kept
  // Holds / Violated from IREE's stated asserts evaluated by Tilescope,
  // where IREE's verifier cannot read the config: attention's
  // decomposition_config (config::matchKnobs).
  bool evaluatedHere = false;
  // The op's lowering config and translation_info are the ones IREE chooses
  // itself for it (markIreesOwnChoices): IREE compiles them, so where its
  // stated constraints are violated the two parts of IREE disagree.
  bool ireesOwnChoice = false;
};
std::string toString(OpConstraintVerdict::Outcome outcome);
// The verdict in a line: "IREE's pipeline constraints: holds (44 for
// TileAndFuse)", with IREE's reason where it gave one.
std::string describe(const OpConstraintVerdict &verdict);

// The verdict as problems, marked as IREE's, to merge with the rules' own:
// an error per violation (on the first field it concerns), a warning that
// names the disagreement where the config is IREE's own choice
// (ireesOwnChoice), a note where IREE has constraints and did not check them.
std::vector<config::Problem> problemsOf(const OpConstraintVerdict &verdict);

// Whether an assert's message is the one where IREE disagrees with itself:
// its constraints pin an IGEMM convolution's prefetch_num_stages to 0
// (LLVMGPUConstraintGenerator, "currently pinned") while its own IGEMM
// config chooses 2 (setIGEMMConvolutionLoweringConfig) and compiles it.
bool isIgemmPrefetchPin(const std::string &message);

struct ConstraintVerdict {
  // Root ops with a GPU lowering_config (the one asked about, with `only`).
  std::vector<OpConstraintVerdict> ops;
  std::vector<std::string> commands; // shell commands that reproduce it
};

// An ireeConstraintVerdict on one root op, with what it was asked about:
// reused for that text and op only.
struct StatedConstraints {
  std::string text; // the document's text IREE was given
  edit::OpRef op;
  ConstraintVerdict verdict;
  bool statedFor(const document::Document &document, edit::OpRef asked) const {
    return asked == op && document.text == text;
  }
};

// Fails only when IREE cannot be run or refuses the document itself (the
// text does not parse, a pass crashes); per-op outcomes are in the result.
// `only`: IREE is asked about that root op alone (the others get no root_op
// attribute on the copy), not every op of the file.
Result<ConstraintVerdict> ireeConstraintVerdict(
    const tools::IreeInstallation &iree, const document::Document &document,
    std::chrono::milliseconds timeout = std::chrono::minutes(2),
    const std::atomic<bool> *cancel = nullptr,
    const std::optional<edit::OpRef> &only = std::nullopt);

// The verdict every front end shows: ireeConstraintVerdict, then, where an
// op is violated, markIreesOwnChoices through `worker` (IREE's own choice is
// a warning; a failure to ask IREE what it chooses leaves the verdict as it
// is). The window's Problems.
Result<ConstraintVerdict> judgedConstraintVerdict(
    const tools::IreeInstallation &iree, DocumentWorker &worker,
    const document::Document &document,
    std::chrono::milliseconds timeout = std::chrono::minutes(2),
    const std::atomic<bool> *cancel = nullptr,
    const std::optional<edit::OpRef> &only = std::nullopt);

// IREE's verdict on one root op: judgedConstraintVerdict asked about `op`
// alone, and that op's verdict (unset where IREE gave none: the op has no
// GPU config); `commands`, when given, gets the shell commands that
// reproduce it. What `check FILE --op` and the Python package's
// check(iree_constraints=True) add to the rules' problems (problemsOf).
Result<std::optional<OpConstraintVerdict>>
ireeVerdictOn(const tools::IreeInstallation &iree, DocumentWorker &worker,
              const document::Document &document, edit::OpRef op,
              std::vector<std::string> *commands = nullptr,
              std::chrono::milliseconds timeout = std::chrono::minutes(2),
              const std::atomic<bool> *cancel = nullptr);

// Sets `ireesOwnChoice` on each violated op whose lowering config and
// translation_info are what IREE chooses for it itself (ireeDefaultConfigs on
// `document`, run only when an op is violated): IREE compiles its own choice
// without checking its constraints, so such a violation is IREE's stated
// constraints disagreeing with IREE's strategy, never the user's error.
// Fails when IREE cannot choose (the verdicts are left as they are).
Result<bool>
markIreesOwnChoices(const tools::IreeInstallation &iree, DocumentWorker &worker,
                    const document::Document &document,
                    std::vector<OpConstraintVerdict> &ops,
                    std::chrono::milliseconds timeout = std::chrono::minutes(2),
                    const std::atomic<bool> *cancel = nullptr);

// The verdict IREE's verifier gives the root op `op` of `dispatch`, worked
// out by Tilescope from the constraints IREE stated for that op (`sets`,
// from an ireeConstraintVerdict on the same problem): the pipeline's
// template matched as IREE matches it (config::matchKnobs), its asserts run
// as IREE's evaluator runs them (config::SmtProgram). What a sweep asks of
// every candidate without a compiler run each. Fails when a program cannot
// be read (an op IREE's evaluator has and Tilescope's lacks): ask IREE.
Result<OpConstraintVerdict>
evaluateConstraints(const std::vector<ConstraintSet> &sets,
                    const document::Dispatch &dispatch, size_t op);

} // namespace tilescope::service
