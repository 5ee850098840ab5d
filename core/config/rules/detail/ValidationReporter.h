// Private to core/config/: what every validation rule shares. A Reporter
// holds the config being checked, its context and the problems found; each
// rule adds to it by name, and the rule table (Validation.cpp) supplies the
// IREE code the rule mirrors and what IREE 3.13 does with such a config.
#pragma once

#include "core/config/rules/Validation.h"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::config::detail {

class Reporter {
public:
  Reporter(const LoweringConfig &config, const ValidationContext &context)
      : config(config), context(context) {}

  const LoweringConfig &config;
  const ValidationContext &context;
  std::vector<Problem> problems;

  // Adds a problem of rule `rule`: its severity follows what IREE does with
  // such a config (an error where IREE refuses, asserts or builds something
  // that cannot be right; a warning where it compiles).
  // The problem added, for a rule that says more of it (Problem::implied).
  Problem &add(std::string field, std::string message, const std::string &rule);
  bool hasError(const std::string &fieldPrefix) const;
  bool fired(const std::string &rule) const {
    for (const Problem &problem : problems)
      if (problem.rule == rule)
        return true;
    return false;
  }

  const IterationSpace *space() const {
    return context.iterationSpace ? &*context.iterationSpace : nullptr;
  }
  std::string pipeline() const {
    return context.translationInfo ? context.translationInfo->pipelineName()
                                   : std::string();
  }
  // The subgroup size the config runs with: translation_info's, else the
  // target's only choice.
  std::optional<int64_t> subgroupSize() const;
};

// Contractions with mma_kind (ContractionValidation.cpp).
void checkContraction(Reporter &r);

} // namespace tilescope::config::detail
