#include "core/layout/Roofline.h"

#include "core/layout/AttentionLayouts.h"

namespace tilescope::layout {

Result<RooflineFloor> rooflineFloor(const config::IterationSpace &space,
                                    const config::GpuTarget &target,
                                    config::OpKind kind) {
  if (space.operands.empty())
    return Error{"the roofline needs the operands' element types and indexing "
                 "maps (e.g. --types f16,f16,f32)"};
  if (target.peakMemoryBytesPerSecond <= 0)
    return Error{"no peak bandwidth is known for " + target.arch};
  RooflineFloor floor;
  double points = 1;
  for (int64_t bound : space.bounds) {
    if (bound == config::kDynamicSize)
      return Error{"the roofline needs static bounds"};
    points *= static_cast<double>(bound);
  }
  for (const config::OperandAccess &operand : space.operands) {
    const int64_t bits = config::elementBits(operand.elementType);
    if (bits == 0)
      return Error{"unknown element type '" + operand.elementType + "'"};
    const double bytes = static_cast<double>(bits) / 8;
    double elements = 1;
    for (int dim : operand.dims)
      if (dim >= 0)
        elements *= static_cast<double>(space.bounds[static_cast<size_t>(dim)]);
    floor.bytes += elements * bytes;
  }
  const auto contraction = config::inferContraction(space);
  double peak = target.peakVectorF32OpsPerSecond;
  floor.computePeak = "f32 vector";
  bool memoryOnly = false;
  std::optional<AttentionDims> attention;
  if (kind == config::OpKind::Attention)
    if (auto dims = attentionDims(space))
      attention = *dims;
  if (contraction || attention) {
    floor.operations = 2 * points;
    if (attention) {
      auto extent = [&space](const std::vector<int> &loops) {
        double product = 1;
        for (int d : loops)
          product *= static_cast<double>(space.bounds[static_cast<size_t>(d)]);
        return product;
      };
      floor.operations = 2 * extent(attention->batch) * extent(attention->m) *
                         extent(attention->k2) *
                         (extent(attention->k1) + extent(attention->n));
    }
    std::string type = space.operands.front().elementType;
    if (type.rfind("f8", 0) == 0)
      type = "f8";
    if (auto it = target.peakMatrixOpsPerSecond.find(type);
        it != target.peakMatrixOpsPerSecond.end()) {
      peak = it->second;
      floor.computePeak = type + " matrix";
    } else if (config::elementBits(type) < 8) {
      // A sub-byte (MX) contraction with no confirmed matrix peak: the
      // vector peak would overstate its compute time, so the floor is the
      // memory floor alone (still a lower bound).
      memoryOnly = true;
      floor.computePeak = "none known for " + type + " matrix";
    }
  } else {
    floor.operations = points;
  }
  if (!memoryOnly && peak <= 0)
    return Error{"no peak throughput is known for " + target.arch};
  floor.memorySeconds = floor.bytes / target.peakMemoryBytesPerSecond;
  floor.computeSeconds = memoryOnly ? 0 : floor.operations / peak;
  floor.floorSeconds = std::max(floor.memorySeconds, floor.computeSeconds);
  floor.boundBy =
      floor.memorySeconds >= floor.computeSeconds ? "memory" : "compute";
  return floor;
}

} // namespace tilescope::layout
