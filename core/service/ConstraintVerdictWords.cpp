// IREE's constraint verdict on an op in words (a line for the CLI and the
// window) and as problems merged with the rules' own (IreeConstraints.h).
#include "core/service/IreeConstraints.h"

namespace tilescope::service {

std::string toString(OpConstraintVerdict::Outcome outcome) {
  switch (outcome) {
  case OpConstraintVerdict::Outcome::Holds:
    return "holds";
  case OpConstraintVerdict::Outcome::Violated:
    return "violated";
  case OpConstraintVerdict::Outcome::NotChecked:
    return "not checked";
  case OpConstraintVerdict::Outcome::NoConstraints:
    return "no constraints";
  }
  return {};
}

std::string describe(const OpConstraintVerdict &verdict) {
  std::string line =
      "IREE's pipeline constraints: " + toString(verdict.outcome);
  // The op's set, once (a file may state the same pipeline's twice).
  for (const ConstraintSet &set : verdict.sets)
    if (set.pipeline == verdict.pipeline) {
      line +=
          " (" + std::to_string(set.assertions) + " for " + set.pipeline + ")";
      break;
    }
  if (!verdict.reason.empty())
    line += ": " + verdict.reason;
  return line;
}

bool isIgemmPrefetchPin(const std::string &message) {
  return message.rfind("prefetch_num_stages == 0 (use_igemm_convolution=true)",
                       0) == 0;
}

std::vector<config::Problem> problemsOf(const OpConstraintVerdict &verdict) {
  std::vector<config::Problem> problems;
  const std::string source =
      "IREE's " + verdict.pipeline +
      " pipeline constraints (iree-codegen-insert-smt-constraints), " +
      (verdict.evaluatedHere
           ? std::string("evaluated by Tilescope (IREE's verifier does not "
                         "read a decomposition_config)")
           : std::string("checked by iree-codegen-verify-smt-constraints"));
  for (const ConstraintViolation &violation : verdict.violations) {
    config::Problem p;
    p.severity = config::Problem::Severity::Error;
    p.field =
        violation.fields.empty() ? "lowering_config" : violation.fields.front();
    p.message = violation.message;
    if (violation.fields.size() > 1) {
      p.message += " (concerns";
      for (const std::string &field : violation.fields)
        p.message += " " + field;
      p.message += ")";
    }
    p.rule = "iree-pipeline-constraint";
    p.source = source;
    // IREE compiles it unless told to verify its constraints
    // (--iree-codegen-experimental-verify-pipeline-constraints).
    p.iree = config::Problem::IreeResponse::Compiles;
    p.origin = config::Problem::Origin::IreeConstraints;
    if (verdict.ireesOwnChoice) {
      p.severity = config::Problem::Severity::Warning;
      p.message = "IREE chooses this config itself and compiles it, but its "
                  "stated " +
                  verdict.pipeline + " constraints disagree: " + p.message;
      problems.push_back(std::move(p));
      continue;
    }
    // IREE disagrees with itself here; IREE's own config is no error, and
    // a sweep in IREE's space keeps the config's prefetching.
    if (isIgemmPrefetchPin(violation.message)) {
      p.severity = config::Problem::Severity::Warning;
      p.message += ": IREE's constraints pin it to 0 for an IGEMM "
                   "convolution, while IREE's own IGEMM config chooses 2 and "
                   "compiles it; a sweep in IREE's space keeps the config's";
    }
    problems.push_back(std::move(p));
  }
  if (verdict.outcome == OpConstraintVerdict::Outcome::NotChecked) {
    config::Problem p;
    p.severity = config::Problem::Severity::Note;
    p.field =
        verdict.knobs.field.empty() ? "lowering_config" : verdict.knobs.field;
    p.message =
        "IREE did not check its pipeline constraints: " + verdict.reason;
    p.rule = "iree-pipeline-constraint";
    p.source = source;
    p.iree = config::Problem::IreeResponse::Compiles;
    p.origin = config::Problem::Origin::IreeConstraints;
    problems.push_back(std::move(p));
  }
  return problems;
}

} // namespace tilescope::service
