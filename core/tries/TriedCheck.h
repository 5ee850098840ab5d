// A checked run as its record keeps it (the history's details "program" and
// "check", what `verify --json` prints): the program it compiled twice, each
// step's command, and each output's comparison with the CPU reference. The
// job's own result (run::CheckResult: the tensors' types, the inputs' flags)
// is what it is made from; this is what stays of it.
#pragma once

#include "core/run/CheckJob.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::tries {

struct CheckedOutput {
  int index = 0;
  std::string type; // "4x8xf32"
  bool passed = false;
  long long mismatches = 0;
  double maxAbsoluteError = 0, maxRelativeError = 0;
  run::Tolerance tolerance;
  std::vector<run::Mismatch> firstMismatches;
};

struct TriedCheck {
  std::string directory, backend, device, function;
  std::vector<std::string> commands; // every step, as shell commands
  std::vector<CheckedOutput> outputs;
  std::string summary;
  double seconds = 0;
  std::optional<bool> passed; // unset: no verdict
  // Where there is no verdict: the step that failed and why.
  std::string failedStep, error;
};

// What stays of a checked run's result.
TriedCheck triedCheckOf(const run::CheckResult &check);

nlohmann::json toJson(const TriedCheck &check);
// The inverse, for what the history keeps: each field only with its type;
// nullopt for what is not an object.
std::optional<TriedCheck> triedCheckFromJson(const nlohmann::json &check);

} // namespace tilescope::tries
