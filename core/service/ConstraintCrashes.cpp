#include "core/service/ConstraintCrashes.h"

#include <algorithm>

namespace tilescope::service {

Result<std::map<size_t, std::string>>
isolateCrashes(const std::vector<size_t> &asked, const CrashProbe &probe) {
  std::map<size_t, std::string> crashes;
  std::vector<std::vector<size_t>> groups;
  if (!asked.empty())
    groups.push_back(asked);
  while (!groups.empty()) {
    std::vector<size_t> group = std::move(groups.back());
    groups.pop_back();
    auto crashed = probe(group);
    if (!crashed)
      return Error{crashed.error()};
    if (!*crashed)
      continue;
    if (group.size() == 1) {
      crashes[group.front()] = std::move(**crashed);
      continue;
    }
    const auto middle = group.begin() + static_cast<long>(group.size() / 2);
    groups.emplace_back(group.begin(), middle);
    groups.emplace_back(middle, group.end());
  }
  return crashes;
}

KnownCrashes &KnownCrashes::shared() {
  static KnownCrashes crashes;
  return crashes;
}

std::optional<std::string> KnownCrashes::find(const std::string &key) const {
  const std::lock_guard<std::mutex> lock(mutex);
  const auto it = known.find(key);
  if (it == known.end())
    return std::nullopt;
  ++found;
  return it->second.first;
}

void KnownCrashes::add(const std::string &key, const std::string &why) {
  const std::lock_guard<std::mutex> lock(mutex);
  known[key] = {why, ++added};
  if (known.size() <= kMostKept)
    return;
  const auto oldest = std::min_element(
      known.begin(), known.end(), [](const auto &a, const auto &b) {
        return a.second.second < b.second.second;
      });
  known.erase(oldest);
}

size_t KnownCrashes::recalled() const {
  const std::lock_guard<std::mutex> lock(mutex);
  return found;
}

size_t KnownCrashes::size() const {
  const std::lock_guard<std::mutex> lock(mutex);
  return known.size();
}

} // namespace tilescope::service
