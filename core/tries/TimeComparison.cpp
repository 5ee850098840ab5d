#include "core/tries/TimeComparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using nlohmann::json;

namespace tilescope::tries {
namespace {

// Standard error of a median of n repetitions with this spread.
double standardError(const run::TimingStats &t) {
  return t.repetitions > 1
             ? 1.25 * t.spread / std::sqrt(static_cast<double>(t.repetitions))
             : 0;
}

} // namespace

TimeVerdict compareTimes(const run::TimingStats &a, const run::TimingStats &b) {
  TimeVerdict v;
  v.a = a.median;
  v.b = b.median;
  v.speedup = b.median > 0 ? a.median / b.median : 0;
  const double ea = standardError(a), eb = standardError(b);
  v.noise = std::max(3 * std::sqrt(ea * ea + eb * eb),
                     0.01 * std::min(a.median, b.median));
  const double difference = a.median - b.median; // > 0: B faster
  v.withinNoise = std::abs(difference) <= v.noise;
  char text[160];
  if (v.withinNoise)
    std::snprintf(
        text, sizeof text, "within noise (B %.3g us %s; noise %.2g us)",
        std::abs(difference), difference >= 0 ? "faster" : "slower", v.noise);
  else
    std::snprintf(text, sizeof text,
                  "B is %.2fx A's speed (%.3g us %s; noise %.2g us)", v.speedup,
                  std::abs(difference), difference > 0 ? "faster" : "slower",
                  v.noise);
  v.text = text;
  return v;
}

std::optional<run::TimingStats> timingOf(const TryRecord &record) {
  if (!record.medianMicroseconds)
    return std::nullopt;
  if (record.bench && record.bench->timing.perDispatch)
    return record.bench->timing.perDispatch;
  run::TimingStats only;
  only.median = only.minimum = only.maximum = *record.medianMicroseconds;
  return only;
}

json toJson(const TimeVerdict &v) {
  return {{"a_us", v.a},
          {"b_us", v.b},
          {"speedup_b_over_a", v.speedup},
          {"noise_us", v.noise},
          {"within_noise", v.withinNoise},
          {"verdict", v.text}};
}

} // namespace tilescope::tries
