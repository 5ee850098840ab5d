// What IREE decided for a dispatch, as its lowering pipeline printed it
// (plain data; core/iree's LoweredIrReader reads it from the IR through the
// C API, core/service asks the worker for it, core/export writes it as JSON).
//
// - Anchors: every op whose operands or results IREE's
//   configure-tensor-layouts pass wrapped in iree_vector_ext.to_layout, with
//   the nested layout of each.
// - Foralls: every scf.forall with its bounds, steps and GPU mapping (the
//   thread and subgroup tiling of TileAndFuse).
// - Lane distributions: what each lane of a lane forall reads of the
//   function's arguments (iree-gpu-distribute-inner-tiled-to-lanes: an
//   scf.forall over #iree_gpu.lane_id whose body takes a
//   tensor.extract_slice of each operand, traced back to the function
//   argument it reads), so what a lane holds is stated in the argument's
//   own coordinates: the reference the MMA fragment layouts are checked
//   against, scaled intrinsics included (IREE's C API reports no layout for
//   those).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::document {

struct LaneSlice {
  int argument = -1; // the function argument the slice reads
  std::vector<int64_t> argumentShape;
  // [lane] -> the argument coordinates that lane's slice covers, row-major
  // within the slice.
  std::vector<std::vector<std::vector<int64_t>>> elementsByLane;
};

struct LaneDistribution {
  int64_t lanes = 0;
  std::vector<LaneSlice> slices; // in the order the body takes them
  // What could not be evaluated (an index op Tilescope does not know), or
  // empty.
  std::string error;
};

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

} // namespace tilescope::document
