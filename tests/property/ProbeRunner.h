// Runs many probe functions through IREE in as few iree-opt processes as it
// can: a batch that crashes or hangs IREE is split in halves until every
// function that does not crash has its answer and every one that does is
// named.
#pragma once

#include "core/devices/ProbeModule.h"
#include "core/service/IreeLowering.h"
#include "core/tools/IreeInstallation.h"

#include <map>
#include <string>
#include <vector>

namespace tilescope::property {

struct ProbeOutcome {
  // Why no probe function could be written for the case (an element type
  // conversion the probe body has no op for): IREE never saw it.
  std::string notWritten;
  std::string crash; // "killed by signal 8 (...)" when IREE died on it
  std::vector<service::ProbeDiagnostic> diagnostics;
  std::vector<service::IrDump> dumps;
  bool failed() const {
    if (!crash.empty())
      return true;
    for (const auto &d : diagnostics)
      if (d.severity == "error")
        return true;
    return false;
  }
  const service::IrDump *dump(const std::string &pass,
                              const std::string &key = "",
                              const std::string &value = "") const {
    for (const service::IrDump &d : dumps)
      if (d.pass == pass && (key.empty() || d.option(key) == value))
        return &d;
    return nullptr;
  }
};

inline void runProbesInto(const tools::IreeInstallation &installation,
                          const service::LoweringProbeRequest &base,
                          const std::vector<devices::ProbeOp> &probes,
                          std::map<std::string, ProbeOutcome> &outcomes) {
  if (probes.empty())
    return;
  service::LoweringProbeRequest request = base;
  // A case whose probe cannot be written is set aside, not allowed to take
  // its batch down with it.
  std::vector<devices::ProbeOp> writable;
  for (const devices::ProbeOp &probe : probes) {
    if (auto one = devices::probeFunctionText(probe); !one)
      outcomes[probe.function].notWritten = one.error();
    else
      writable.push_back(probe);
  }
  if (writable.size() != probes.size()) {
    runProbesInto(installation, base, writable, outcomes);
    return;
  }
  auto text = devices::probeModuleText(probes);
  if (!text) {
    for (const devices::ProbeOp &probe : probes)
      outcomes[probe.function].crash =
          "cannot write the probe: " + text.error();
    return;
  }
  request.moduleText = *text;
  request.timeout =
      std::chrono::seconds(60 + 3 * static_cast<int>(probes.size()));
  auto result = service::runLoweringProbe(installation, request);
  if (!result) {
    for (const devices::ProbeOp &probe : probes)
      outcomes[probe.function].crash =
          "iree-opt did not run: " + result.error();
    return;
  }
  const auto outcome = result->process.outcome;
  if (outcome == process::ProcessResult::Outcome::Signaled ||
      outcome == process::ProcessResult::Outcome::TimedOut) {
    if (probes.size() == 1) {
      outcomes[probes.front().function].crash = result->process.describe();
      return;
    }
    const auto middle = probes.begin() + static_cast<long>(probes.size() / 2);
    runProbesInto(installation, base, {probes.begin(), middle}, outcomes);
    runProbesInto(installation, base, {middle, probes.end()}, outcomes);
    return;
  }
  for (const devices::ProbeOp &probe : probes) {
    ProbeOutcome &o = outcomes[probe.function];
    o.diagnostics = result->diagnostics[probe.function];
    for (const service::IrDump &d : result->dumps)
      if (d.function == probe.function)
        o.dumps.push_back(d);
  }
}

// All probes through IREE, at most `batchSize` functions per process.
inline std::map<std::string, ProbeOutcome>
runProbes(const tools::IreeInstallation &installation,
          const service::LoweringProbeRequest &base,
          const std::vector<devices::ProbeOp> &probes, size_t batchSize = 200) {
  std::map<std::string, ProbeOutcome> outcomes;
  for (size_t start = 0; start < probes.size(); start += batchSize)
    runProbesInto(installation, base,
                  {probes.begin() + static_cast<long>(start),
                   probes.begin() + static_cast<long>(std::min(
                                        start + batchSize, probes.size()))},
                  outcomes);
  return outcomes;
}

} // namespace tilescope::property
