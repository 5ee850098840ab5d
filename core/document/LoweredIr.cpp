#include "core/document/LoweredIr.h"

#include <regex>

namespace tilescope::document {

std::vector<int64_t> ForallLoop::tripCounts() const {
  std::vector<int64_t> trips;
  for (size_t i = 0; i < upperBounds.size(); ++i) {
    const int64_t lower = i < lowerBounds.size() ? lowerBounds[i] : 0;
    const int64_t step = i < steps.size() && steps[i] > 0 ? steps[i] : 1;
    trips.push_back((upperBounds[i] - lower + step - 1) / step);
  }
  return trips;
}

bool ForallLoop::mappedTo(const std::string &kind) const {
  if (mapping.empty())
    return false;
  const std::string prefix = "#gpu." + kind + "<";
  for (const std::string &m : mapping)
    if (m.rfind(prefix, 0) != 0)
      return false;
  return true;
}

std::vector<int> ForallLoop::linearDims() const {
  static const std::regex linear(R"(linear_dim_(\d+))");
  std::vector<int> dims;
  for (const std::string &m : mapping) {
    std::smatch match;
    dims.push_back(std::regex_search(m, match, linear) ? std::stoi(match[1])
                                                       : -1);
  }
  return dims;
}

} // namespace tilescope::document
