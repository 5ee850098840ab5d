// lane_basis / subgroup_basis = [[counts], [mapping]]: which iteration
// coordinates each thread (or subgroup) takes, exactly as IREE computes it
// (LLVMGPUConfigureTensorLayouts.cpp, distributeTilingSizes): iteration
// dimension i takes basis digit mapping[i], the digits being the row-major
// delinearization of the id over counts. Counts longer than the rank leave
// axes no dimension takes: those ids replicate.
#pragma once

#include "core/config/configs/LoweringConfig.h"
#include "core/util/Result.h"

#include <cstdint>
#include <vector>

namespace tilescope::layout {

class BasisMap {
public:
  static Result<BasisMap> create(const config::Basis &basis);

  const config::Basis &basis() const { return value; }
  int64_t idCount() const { return value.product(); }
  size_t rank() const { return value.mapping.size(); }

  // id -> digits (row-major over counts, last fastest).
  std::vector<int64_t> digits(int64_t id) const;
  // id -> iteration coordinates: coordinate[i] = digits[mapping[i]].
  std::vector<int64_t> coordinates(int64_t id) const;
  // Iteration coordinates -> every id that lands there (several when counts
  // has axes no dimension takes).
  std::vector<int64_t> idsAt(const std::vector<int64_t> &coordinates) const;
  // Per iteration dimension: how many ids span it (counts[mapping[i]]) and
  // the id stride along it (row-major stride of axis mapping[i]).
  std::vector<int64_t> sizes() const;
  std::vector<int64_t> strides() const;

private:
  config::Basis value;
};

} // namespace tilescope::layout
