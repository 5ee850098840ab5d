// What each lane reads when IREE distributes an op to the lanes of a
// subgroup (iree-gpu-distribute-inner-tiled-to-lanes): an scf.forall over
// #iree_gpu.lane_id whose body takes a tensor.extract_slice of each operand.
// The slice offsets are evaluated for every lane id through the index ops
// IREE emits (affine.delinearize_index / linearize_index, index hints,
// arith), and each slice is traced back to the function argument it reads
// (through the forall's shared outputs and tensor.expand_shape), so what a
// lane holds is stated in the argument's own coordinates: the reference the
// MMA fragment layouts are checked against, scaled intrinsics included
// (IREE's C API reports no layout for those).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::iree {

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

} // namespace tilescope::iree
