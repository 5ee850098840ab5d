// IREE's own answer to "who holds what" for a dispatch, beside Tilescope's:
// the document as it stands (edits included) run through IREE's GPU
// lowering for its variant by the pinned iree-opt in a child process, the
// IR printed after the pass that decides it, read back by IREE in the
// worker process (core/iree/LoweredIr), and compared op by op, operand by
// operand, field by field with what core/layout derives for the same op.
//
//   VectorDistribute   every iree_vector_ext.to_layout IREE's
//                      configure-tensor-layouts pass puts on a configured
//                      op's operands, against edit::operandLayoutTexts
//   TileAndFuse        the scf.forall IREE's thread (or subgroup) tiling
//                      makes for the root op: its trip counts and
//                      #gpu.thread / #gpu.warp linear ids, against
//                      layout::ForallDistribution
#pragma once

#include "core/document/Document.h"
#include "core/service/DocumentWorker.h"
#include "core/tools/IreeInstallation.h"
#include "core/util/Result.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::service {

// One field of a nested layout, or of a forall, where the two differ.
struct LayoutFieldDifference {
  std::string field; // "thread_tile", "thread_strides", "trip counts", ...
  std::string ours, iree;
};

// The differences between two #iree_vector_ext.nested_layout texts, field
// by field in IREE's order; a text that does not read is one difference
// ("layout").
std::vector<LayoutFieldDifference>
compareNestedLayouts(const std::string &ours, const std::string &iree);

struct OperandLayoutAnswer {
  std::string operand; // "LHS", "RHS", "ACC", or "input 0", "output"
  std::string ours;    // nested_layout text; "" where Tilescope has none
  std::string iree;    // "" where IREE anchored no layout on it
  std::vector<LayoutFieldDifference> differences;
  bool agrees() const { return differences.empty(); }
};

struct ForallAnswer {
  std::string level; // "thread" or "subgroup"
  std::vector<int64_t> oursTrips, ireeTrips;
  std::vector<int> oursLinearDims, ireeLinearDims;
  std::vector<LayoutFieldDifference> differences;
};

struct OpLayoutAnswer {
  size_t rootOp = 0; // index into the dispatch's root ops
  std::string opName;
  std::vector<OperandLayoutAnswer> operands; // VectorDistribute
  std::optional<ForallAnswer> forall;        // TileAndFuse
  // Why there is nothing to compare (Tilescope derives no layout, IREE set
  // none on it); empty when compared.
  std::string problem;
  bool agrees() const;
};

struct IreeLayoutAnswer {
  std::string dispatch, pipeline;
  std::vector<OpLayoutAnswer> ops;
  // The shell command that reproduces IREE's run, and the file it names:
  // the document's own when that holds the text IREE was given, else the
  // copy of the edited text kept at IreeLayoutRequest::inputCopy.
  std::string command;
  std::string input;
  bool inputIsTheDocument = true;
  bool agrees() const;
};

struct IreeLayoutRequest {
  size_t dispatch = 0;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  const std::atomic<bool> *cancel = nullptr;
  // Where to keep the text IREE was given when the document's file does
  // not hold it (edits not saved), so the command shown reproduces what
  // is shown. Empty: the command names the document's file regardless.
  std::filesystem::path inputCopy;
};

// An Error says why IREE's answer cannot be had: a CPU target, a pipeline
// that sets no layouts, IREE refusing or crashing on the config (its own
// words, and the command that reproduces it).
Result<IreeLayoutAnswer> ireeLayouts(const tools::IreeInstallation &iree,
                                     DocumentWorker &worker,
                                     const document::Document &document,
                                     const IreeLayoutRequest &request);

} // namespace tilescope::service
