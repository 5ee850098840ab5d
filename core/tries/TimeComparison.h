// Whether two measured times differ by more than their noise. A ratio of
// two medians alone calls 20.1 us "faster" than 20.3 us; the repetitions'
// spread says whether that is the kernel or the machine. `compare`, the
// window's try comparison and sweep rankings say it this way.
#pragma once

#include "core/run/RunBundle.h"
#include "core/tries/History.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace tilescope::tries {

struct TimeVerdict {
  double a = 0, b = 0; // the medians, us
  double speedup = 0;  // a / b: how many times A's speed B runs at
  // The smallest difference the two measurements can tell apart: three
  // standard errors of the difference of the medians (1.25 sigma / sqrt(n)
  // each), and never under 1 % of the faster (runs of the same kernel on
  // another day differ by that much).
  double noise = 0;
  bool withinNoise = false;
  // "B is 1.24x A's speed (4.1 us faster; noise 0.3 us)" or "within noise
  // (B 0.1 us faster; noise 0.3 us)".
  std::string text;
};
TimeVerdict compareTimes(const run::TimingStats &a, const run::TimingStats &b);

// A try's per-dispatch timing as the history keeps it (its bench details;
// a row from before spreads were kept gets its median alone).
std::optional<run::TimingStats> timingOf(const TryRecord &record);

nlohmann::json toJson(const TimeVerdict &verdict);

} // namespace tilescope::tries
