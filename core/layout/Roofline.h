// The time no config can beat: the bytes a root op must move and the
// operations it must do, over the target's peak bandwidth and throughput.
#pragma once

#include "core/config/configs/GpuTarget.h"
#include "core/config/configs/IterationSpace.h"
#include "core/util/Result.h"

#include <string>

namespace tilescope::layout {

struct RooflineFloor {
  double bytes = 0; // every operand read once, the result written once
  double operations =
      0; // 2 per multiply-add for contractions, 1 per point otherwise
  double memorySeconds = 0;
  double computeSeconds = 0;
  double floorSeconds = 0;
  std::string boundBy;     // "memory" or "compute"
  std::string computePeak; // which peak was used: "f16 matrix", "f32 vector"
  double arithmeticIntensity() const {
    return bytes > 0 ? operations / bytes : 0;
  }
};

// `kind` Attention: 2 * B * M * K2 * (K1 + N) operations (Q.K^T and P.V)
// at Q's matrix peak, where the loops' product would count K1 x N as one
// space.
Result<RooflineFloor>
rooflineFloor(const config::IterationSpace &space,
              const config::GpuTarget &target,
              config::OpKind kind = config::OpKind::Other);

} // namespace tilescope::layout
