#include "core/sweep/SweepConstraints.h"

#include "core/service/IreeConstraints.h"
#include "core/util/Parallel.h"

#include <algorithm>

namespace tilescope::sweep {
namespace {

std::string firstLine(const std::string &text) {
  return text.substr(0, text.find('\n'));
}

// A verdict written into the candidate: one IREE's constraints reject
// becomes invalid, named by the first assert it breaks.
void apply(const service::OpConstraintVerdict &op, SweepCandidate &candidate,
           const char *by) {
  candidate.ireeVerdict =
      toString(op.outcome) + (op.reason.empty() ? "" : ": " + op.reason);
  candidate.ireeVerdictBy = by;
  if (op.outcome != service::OpConstraintVerdict::Outcome::Violated)
    return;
  std::vector<config::Problem> problems = problemsOf(op);
  // Only IREE's disagreement with itself (an IGEMM's prefetching, which
  // its own config chooses and compiles): a warning, still valid.
  const bool onlyWarnings =
      !op.violations.empty() && !config::hasErrors(problems);
  for (config::Problem &problem : problems)
    candidate.problems.push_back(std::move(problem));
  if (onlyWarnings)
    return;
  candidate.valid = false;
  if (op.violations.empty()) {
    candidate.whyNot = "IREE's pipeline constraints are violated "
                       "[iree-constraints]";
  } else {
    const service::ConstraintViolation &first = op.violations.front();
    candidate.whyNot =
        (first.fields.empty() ? std::string() : first.fields.front() + ": ") +
        first.message + " [iree-constraints]";
  }
}

// IREE's verdict on one candidate, asked of the pinned iree-opt.
void check(const tools::IreeInstallation &iree, const SweepRequest &request,
           SweepCandidate &candidate) {
  const document::Document document = candidateDocument(request, candidate);
  auto verdict = service::ireeConstraintVerdict(iree, document, request.timeout,
                                                request.cancel, request.op);
  if (!verdict) {
    candidate.ireeVerdict = "not checked: " + firstLine(verdict.error());
    candidate.ireeVerdictBy = "iree-opt";
    return;
  }
  if (verdict->ops.empty()) {
    candidate.ireeVerdict =
        "not checked: the op has no GPU lowering config IREE checks";
    return;
  }
  apply(verdict->ops.front(), candidate, "iree-opt");
}

} // namespace

document::Document candidateDocument(const SweepRequest &request,
                                     const SweepCandidate &candidate) {
  document::Document document = *request.document;
  document.text = candidate.text;
  if (candidate.dispatch)
    document.dispatches[request.op.dispatch] = *candidate.dispatch;
  return document;
}

Result<bool> checkCandidatesWithIree(const tools::IreeInstallation &iree,
                                     const SweepRequest &request,
                                     std::vector<SweepCandidate> &candidates) {
  if (auto tool = iree.tool("iree-opt"); !tool)
    return Error{tool.error()};
  std::vector<SweepCandidate *> queue;
  for (SweepCandidate &candidate : candidates)
    if (candidate.valid)
      queue.push_back(&candidate);
  // IREE states the op's constraints once; Tilescope runs them on each
  // candidate as IREE's verifier would (the candidates change the config,
  // never the problem). Where a program cannot be read, each candidate is
  // asked of IREE.
  auto stated =
      request.stated && request.stated->statedFor(*request.document, request.op)
          ? Result<service::ConstraintVerdict>(request.stated->verdict)
          : service::ireeConstraintVerdict(iree, *request.document,
                                           request.timeout, request.cancel,
                                           request.op);
  if (stated && stated->ops.size() == 1) {
    std::vector<SweepCandidate *> unread;
    for (SweepCandidate *candidate : queue) {
      auto verdict = service::evaluateConstraints(
          stated->ops.front().sets,
          candidate->dispatch
              ? *candidate->dispatch
              : request.document->dispatches[request.op.dispatch],
          request.op.op);
      if (verdict)
        apply(*verdict, *candidate, "tilescope");
      else
        unread.push_back(candidate);
    }
    queue = std::move(unread);
  }
  // Each candidate is written by the one thread that checks it.
  parallelFor(
      queue.size(), request.parallel,
      [&](size_t i) { check(iree, request, *queue[i]); }, request.cancel);
  return true;
}

} // namespace tilescope::sweep
