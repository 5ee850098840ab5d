#include "core/layout/Basis.h"

#include "core/layout/Odometer.h"

#include <set>

namespace tilescope::layout {

Result<BasisMap> BasisMap::create(const config::Basis &basis) {
  if (basis.counts.empty())
    return Error{"a basis needs at least one count"};
  int64_t total = 1;
  for (int64_t count : basis.counts) {
    if (count <= 0)
      return Error{"basis counts must be positive"};
    if (total > (int64_t{1} << 40) / count)
      return Error{"basis counts multiply past 2^40"};
    total *= count;
  }
  std::set<int64_t> seen;
  for (int64_t axis : basis.mapping) {
    if (axis < 0 || axis >= static_cast<int64_t>(basis.counts.size()))
      return Error{"basis mapping names axis " + std::to_string(axis) +
                   "; counts has " + std::to_string(basis.counts.size())};
    if (!seen.insert(axis).second)
      return Error{"basis mapping uses axis " + std::to_string(axis) +
                   " twice: it is not a permutation"};
  }
  BasisMap map;
  map.value = basis;
  return map;
}

std::vector<int64_t> BasisMap::digits(int64_t id) const {
  std::vector<int64_t> result(value.counts.size());
  for (size_t k = value.counts.size(); k-- > 0;) {
    result[k] = id % value.counts[k];
    id /= value.counts[k];
  }
  return result;
}

std::vector<int64_t> BasisMap::coordinates(int64_t id) const {
  const std::vector<int64_t> d = digits(id);
  std::vector<int64_t> result(value.mapping.size());
  for (size_t i = 0; i < value.mapping.size(); ++i)
    result[i] = d[static_cast<size_t>(value.mapping[i])];
  return result;
}

std::vector<int64_t> BasisMap::sizes() const {
  std::vector<int64_t> result(value.mapping.size());
  for (size_t i = 0; i < value.mapping.size(); ++i)
    result[i] = value.counts[static_cast<size_t>(value.mapping[i])];
  return result;
}

std::vector<int64_t> BasisMap::strides() const {
  std::vector<int64_t> axisStride(value.counts.size(), 1);
  for (size_t k = value.counts.size(); k-- > 1;)
    axisStride[k - 1] = axisStride[k] * value.counts[k];
  std::vector<int64_t> result(value.mapping.size());
  for (size_t i = 0; i < value.mapping.size(); ++i)
    result[i] = axisStride[static_cast<size_t>(value.mapping[i])];
  return result;
}

std::vector<int64_t>
BasisMap::idsAt(const std::vector<int64_t> &coordinates) const {
  std::vector<int64_t> ids;
  if (coordinates.size() != value.mapping.size())
    return ids;
  // Axes no dimension takes can hold any digit: enumerate them.
  std::vector<int64_t> fixed(value.counts.size(), -1);
  for (size_t i = 0; i < value.mapping.size(); ++i) {
    const size_t axis = static_cast<size_t>(value.mapping[i]);
    if (coordinates[i] < 0 || coordinates[i] >= value.counts[axis])
      return ids;
    fixed[axis] = coordinates[i];
  }
  // Odometer over the axes no dimension takes.
  std::vector<int64_t> counter, limits;
  for (size_t k = 0; k < fixed.size(); ++k)
    if (fixed[k] < 0) {
      counter.push_back(0);
      limits.push_back(value.counts[k]);
    }
  do {
    int64_t id = 0;
    size_t next = 0;
    for (size_t k = 0; k < fixed.size(); ++k) {
      const int64_t digit = fixed[k] >= 0 ? fixed[k] : counter[next++];
      id = id * value.counts[k] + digit;
    }
    ids.push_back(id);
  } while (advanceOdometer(counter, limits));
  return ids;
}

} // namespace tilescope::layout
