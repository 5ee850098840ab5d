#include "core/tune/TuneSteps.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

namespace tilescope::tune {

void shareTimes(std::vector<DispatchTune> &dispatches, bool measuredHere) {
  // Times taken elsewhere (a run bundle's, imported into the history)
  // count as measured where every default has one.
  bool measured = measuredHere;
  if (!measured) {
    measured =
        std::any_of(dispatches.begin(), dispatches.end(),
                    [](const DispatchTune &t) { return !t.kind.empty(); });
    for (const DispatchTune &tuned : dispatches)
      if (!tuned.kind.empty() && !tuned.defaultTime)
        measured = false;
  }
  auto timeOf = [measured](const DispatchTune &tuned) -> std::optional<double> {
    if (measured)
      return tuned.defaultTime
                 ? std::optional<double>(tuned.defaultTime->median)
                 : std::nullopt;
    return tuned.defaultPredicted;
  };
  double total = 0;
  for (const DispatchTune &tuned : dispatches)
    total += timeOf(tuned).value_or(0);
  for (DispatchTune &tuned : dispatches)
    if (auto t = timeOf(tuned); t && total > 0) {
      tuned.share = *t / total;
      tuned.shareFrom = measured ? "measured" : "predicted";
    }
}

std::string describeImport(const std::vector<tries::ImportedModule> &modules,
                           const std::filesystem::path &from) {
  size_t timed = 0, before = 0, failed = 0;
  for (const tries::ImportedModule &m : modules)
    (m.alreadyImported                ? before
     : m.imported && m.timing.timed() ? timed
                                      : failed) += 1;
  return std::to_string(modules.size()) + " modules from " + from.string() +
         ": " + std::to_string(timed) + " timed now, " +
         std::to_string(before) + " imported before, " +
         std::to_string(failed) + " without a time";
}

void shareDefaults(std::vector<DispatchTune> &dispatches) {
  for (DispatchTune &tuned : dispatches)
    if (tuned.sameAs) {
      const DispatchTune &first = dispatches[*tuned.sameAs];
      tuned.defaultTime = first.defaultTime;
      tuned.defaultPredicted = first.defaultPredicted;
    }
}

std::vector<size_t> sweepOrder(const std::vector<DispatchTune> &dispatches) {
  std::map<std::string, double> kindShare;
  for (const DispatchTune &tuned : dispatches)
    if (!tuned.kind.empty())
      kindShare[tuned.kind] += tuned.share;
  std::vector<size_t> order;
  for (size_t d = 0; d < dispatches.size(); ++d) {
    const DispatchTune &tuned = dispatches[d];
    if (!tuned.kind.empty() && !tuned.sameAs && tuned.outcome.empty())
      order.push_back(d);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return kindShare[dispatches[a].kind] > kindShare[dispatches[b].kind];
  });
  return order;
}

const sweep::SweepCandidate *winnerOf(
    const std::vector<sweep::SweepCandidate> &candidates, bool byMeasure,
    const std::function<bool(const sweep::SweepCandidate &)> &changesNothing) {
  for (const sweep::SweepCandidate &c : candidates) {
    if (!c.valid || changesNothing(c))
      continue;
    if (byMeasure ? c.measuredTiming().has_value()
                  : c.predictedMicroseconds.has_value())
      return &c;
  }
  return nullptr;
}

void decideOnPrediction(DispatchTune &tuned) {
  const double gain = tuned.defaultPredicted && tuned.winnerPredicted &&
                              *tuned.winnerPredicted > 0
                          ? *tuned.defaultPredicted / *tuned.winnerPredicted
                          : 0;
  tuned.predictedOnly = gain > kPredictedMargin;
  tuned.outcome =
      tuned.predictedOnly ? "predicted faster (not measured: no device here)"
      : gain > 1 ? "kept IREE's: predicted gain within the cost model's error"
                 : "kept IREE's: no candidate is predicted faster";
  char text[200];
  std::snprintf(text, sizeof text,
                "predicted %.4g us against IREE's default %.4g us (%.3gx; "
                "the cost model's margin is %.3gx)",
                tuned.winnerPredicted.value_or(0),
                tuned.defaultPredicted.value_or(0), gain, kPredictedMargin);
  tuned.why = text;
}

void takeKindsTuning(std::vector<DispatchTune> &dispatches,
                     const std::function<void(const DispatchTune &)> &tell) {
  for (DispatchTune &tuned : dispatches)
    if (tuned.sameAs) {
      const DispatchTune &first = dispatches[*tuned.sameAs];
      const std::string name = tuned.name;
      const size_t dispatch = tuned.dispatch, op = tuned.op;
      const std::optional<size_t> sameAs = tuned.sameAs;
      const double share = tuned.share;
      tuned = first;
      tuned.name = name;
      tuned.dispatch = dispatch;
      tuned.op = op;
      tuned.sameAs = sameAs;
      tuned.share = share;
      tuned.outcome = "as dispatch " + std::to_string(first.dispatch) + ": " +
                      first.outcome;
      if (tell)
        tell(tuned);
    }
}

} // namespace tilescope::tune
