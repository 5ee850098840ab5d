// What IREE decided for a dispatch, read from the IR its lowering pipeline
// printed (core/jobs/IreeLowering): parsed back by the loaded IREE and walked
// through the C API, not matched as text.
//
// - Anchors: every op whose operands or results IREE's
//   configure-tensor-layouts pass wrapped in iree_vector_ext.to_layout, with
//   the nested layout of each.
// - Foralls: every scf.forall with its bounds, steps and GPU mapping (the
//   thread and subgroup tiling of TileAndFuse).
// - Lane distributions: what each lane of a lane forall reads of the
//   function's arguments (LaneSlices.h).
#pragma once

#include "core/iree/Diagnostic.h"
#include "core/iree/LaneSlices.h"
#include "core/util/Result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::iree {

class CompilerLibrary;

struct AnchorLayout {
  std::string layout;         // #iree_vector_ext.nested_layout<...>
  std::vector<int64_t> shape; // of the anchored tensor
  std::string elementType;
  std::string sharedMemoryConversion; // the attribute, if the op carries one
};

struct AnchoredOp {
  std::string name;                                  // "linalg.generic"
  std::string loweringConfig;                        // as IREE printed it
  std::vector<std::optional<AnchorLayout>> operands; // per operand
  std::vector<std::optional<AnchorLayout>> results;  // per result
  // Iterator kinds, "parallel"/"reduction", when the op states them.
  std::vector<std::string> iteratorTypes;
};

struct ForallLoop {
  // Constant bounds and steps (-1 where IREE left a value that is not one).
  std::vector<int64_t> lowerBounds, upperBounds, steps;
  std::vector<std::string> mapping; // "#gpu.thread<linear_dim_1>", ...
  // Iterations per dimension: ceil((upper - lower) / step).
  std::vector<int64_t> tripCounts() const;
  bool mappedTo(const std::string &kind) const; // "thread", "warp", "lane"
  // linear_dim index per dimension (-1 when not a linear mapping).
  std::vector<int> linearDims() const;
};

struct LoweredFunction {
  std::string name;
  std::vector<AnchoredOp> anchoredOps;
  std::vector<ForallLoop> foralls; // pre-order
  // Every forall mapped to #iree_gpu.lane_id, what each lane reads.
  std::vector<LaneDistribution> laneDistributions;
};

namespace detail {
class Session;
}

// Reads functions as IREE printed them after a pass, with one IREE session
// kept for all of them.
class LoweredIrReader {
public:
  static Result<LoweredIrReader>
  create(std::shared_ptr<CompilerLibrary> library);
  ~LoweredIrReader();
  LoweredIrReader(LoweredIrReader &&) noexcept;
  LoweredIrReader &operator=(LoweredIrReader &&) noexcept;

  // An error says why the text could not be read.
  Result<LoweredFunction> read(const std::string &dumpText) const;

private:
  LoweredIrReader() = default;
  std::shared_ptr<CompilerLibrary> library;
  std::shared_ptr<detail::Session> session;
};

} // namespace tilescope::iree
