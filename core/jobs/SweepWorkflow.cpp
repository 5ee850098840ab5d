#include "core/jobs/SweepWorkflow.h"

#include "core/jobs/SweepConstraints.h"

namespace tilescope::jobs {

Result<SweepSource>
chooseSweepSource(const tools::IreeInstallation *iree, SweepRequest &request,
                  const std::optional<IreeSpaceRequest> &asked, bool required) {
  SweepSource source;
  request.points.clear();
  if (asked) {
    Result<IreeSpace> listed =
        iree ? ireeSweepSpace(*iree, *asked)
             : Result<IreeSpace>(Error{"IREE's constraints need the pinned "
                                       "iree-opt, which was not found"});
    if (listed && listed->points.empty())
      listed = Error{describe(*listed) +
                     ": none differs from the config, nothing to try"};
    if (listed) {
      request.points = listed->points;
      request.stated = listed->stated; // a check asks IREE no more
      source.space = std::move(*listed);
      return source;
    }
    if (required)
      return Error{listed.error()};
    source.whyNotIree = listed.error();
  }
  return source;
}

Result<SweepPlanned> planSweepWithVerdicts(const tools::IreeInstallation *iree,
                                           const SweepRequest &request) {
  auto candidates = planSweep(request);
  if (!candidates)
    return Error{candidates.error()};
  SweepPlanned planned{std::move(*candidates), {}};
  if (request.ireeConstraints) {
    if (!iree)
      planned.ireeProblem = "IREE was not asked: no iree-opt";
    else if (auto checked =
                 checkCandidatesWithIree(*iree, request, planned.candidates);
             !checked)
      planned.ireeProblem = "IREE was not asked: " + checked.error();
  }
  return planned;
}

} // namespace tilescope::jobs
