// Two tries of the history side by side: how their configs differ field by
// field, each kernel's resources in both, and their times. What
// `tilescope-cli compare` prints, the window's comparison shows, and the run
// panel uses for "what changed since the previous try".
#pragma once

#include "core/document/Document.h"
#include "core/edit/ConfigDiff.h"
#include "core/tries/History.h"
#include "core/tries/TimeComparison.h"
#include "core/util/Result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tilescope::tries {

// One resource of a kernel in both tries (null where a try lacks it).
struct ResourcePair {
  std::string key; // "vgprs", "shared_memory_bytes", "occupancy", ...
  std::optional<long long> a, b; // unset where that try's kernel has none
  bool changed() const { return a != b; }
};
struct KernelComparison {
  std::string kernel;
  std::vector<ResourcePair> resources;
};

// One class of instruction in a region of a kernel in both tries' assembly
// (core/isa): "loop" (one pass of the first loop's body), "prologue",
// "epilogue".
struct InstructionCountPair {
  std::string region, instructionClass;
  size_t a = 0, b = 0;
};
struct KernelInstructions {
  std::string kernel;
  std::vector<InstructionCountPair> counts;
};

struct TryComparison {
  edit::DocumentDifference configs;      // a's configs before, b's after
  std::vector<KernelComparison> kernels; // kernels both tries read
  // The instructions of kernels both tries' folders hold assembly of;
  // filled by compareInstructions, for the views that show them.
  std::vector<KernelInstructions> instructions;
  std::optional<double> aMicroseconds, bMicroseconds;
  // Both times against their noise, where both were timed.
  std::optional<TimeVerdict> times;
  // How many times a's time b's speed is (a / b), where both were timed.
  std::optional<double> speedup() const;
};

// Configs, resources and times, from the records alone.
TryComparison compareTries(const TryRecord &a, const TryRecord &b);
// The kernels' instructions, read from both try folders' assembly (none
// where either holds none): for `compare` and the window's comparison,
// not for every try's "since the previous one".
std::vector<KernelInstructions> compareInstructions(const TryRecord &a,
                                                    const TryRecord &b);
// {"a", "b" (the rows, without details), "configs", "resources", "times"}:
// `tilescope-cli compare --json`.
nlohmann::json toJson(const TryComparison &comparison, const TryRecord &a,
                      const TryRecord &b);

// The first kernel a try read resources for; null when it read none.
const isa::KernelResources *firstKernel(const TryRecord &record);
// That kernel's registers per thread (VGPRs on AMD, registers on NVIDIA)
// and its active waves or blocks, where the try read them.
std::optional<long long> registersOf(const TryRecord &record);
std::optional<long long> activeOccupancyOf(const TryRecord &record);

// "132 VGPRs, shared 50688 B, 1 of 8 waves": a try's first kernel's
// resources in a line; "" when it read none.
std::string resourceBrief(const TryRecord &record);

// The latest try before `record` of the same file and op that read
// resources: what "changed since the previous try" compares against.
std::optional<TryRecord> previousWithResources(const History &history,
                                               const TryRecord &record);

} // namespace tilescope::tries
