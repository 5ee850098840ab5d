// A sweep's neighbourhood from IREE's own pipeline constraints: the pinned
// iree-opt states the `iree_codegen.smt.constraints` of the root op's
// pipeline (service::ireeConstraintVerdict), Tilescope reads that program
// (config::SmtProgram) and lists every knob assignment that satisfies it
// (config::enumerateSmtSpace), holding the knobs of fields not varied at the
// config's values, and keeps the ones nearest the config as it stands.
//
// A knob an assert sets outright (`wg_size_x == total_threads`,
// `sg_size == preferred_subgroup_size`) follows the others even when its
// field is not varied: holding it would empty the space.
#pragma once

#include "core/config/smt/SmtSpace.h"
#include "core/config/syntax/Attribute.h"
#include "core/document/Document.h"
#include "core/sweep/Sweep.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace tilescope::sweep {

struct IreeSpaceRequest {
  const document::Document *document = nullptr;
  edit::OpRef op;
  // Fields whose knobs vary ("workgroup", "subgroup", "mma_kind",
  // "reduction[2]", "subgroup_size", ...); empty: every knob.
  std::vector<std::string> vary;
  size_t nearest = 64; // how many points to keep, nearest first; 0: all
  std::chrono::milliseconds timeout{std::chrono::minutes(2)};
  const std::atomic<bool> *cancel = nullptr;
};

struct IreeSpace {
  std::string pipeline; // the constraints listed: the op's pipeline's
  int assertions = 0;
  std::vector<std::string> knobs;  // the program's knobs
  std::vector<std::string> fields; // each knob's field, as problems name it
  std::vector<std::string> paths;  // each knob's path in IREE's template
  // each knob's other paths, where the template places it twice
  std::vector<std::vector<std::string>> alsoAt;
  // A one_of knob's options (its value is an index); else empty.
  std::vector<std::vector<config::Attribute>> options;
  std::vector<int64_t> current; // the config's value of each knob
  std::vector<std::string> varied, held, following; // knob names
  // IREE's asserts the listing leaves out, each with why: where IREE's
  // constraints disagree with the config IREE itself chooses and compiles
  // (an IGEMM's prefetch_num_stages), the knob stays at the config's value
  // unless named in `vary`.
  std::vector<std::string> relaxed;
  config::SmtSpace space;            // every satisfying assignment
  bool currentInSpace = false;       // the config itself satisfies them
  std::vector<SweepPoint> points;    // nearest first, the config left out
  double listMilliseconds = 0;       // reading and listing, IREE's run aside
  std::vector<std::string> commands; // the iree-opt runs, reproducible
  // What IREE stated, for a sweep that also checks each candidate against
  // the constraints (SweepRequest::stated).
  std::shared_ptr<const service::StatedConstraints> stated;
};

// Fails when IREE states no constraints for the op's pipeline, when the
// config does not fit IREE's knobs template (IREE would not check it), on
// a field to vary that has no knob, or when the space cannot be listed.
Result<IreeSpace> ireeSweepSpace(const tools::IreeInstallation &iree,
                                 const IreeSpaceRequest &request);

// "FILE D:O iree-space workgroup subgroup nearest=32": the history name of
// such a sweep, the same from the command line and the window (so either
// resumes the other's).
std::string spaceSweepName(const document::Document &document, edit::OpRef op,
                           const std::vector<std::string> &vary,
                           size_t nearest);

// "IREE's TileAndFuse constraints (44 asserts) allow 1369 knob assignments
// (listed in 7.4 ms, 9928 search nodes); the config is one of them".
std::string describe(const IreeSpace &space);

// The settings of one assignment, as whole field values ("workgroup" =
// "[64, 128, 0]", "mma_kind" = the option's text); exposed for tests.
Result<SweepPoint> pointOf(const document::Document &document, edit::OpRef op,
                           const IreeSpace &space,
                           const std::vector<int64_t> &values);

} // namespace tilescope::sweep
