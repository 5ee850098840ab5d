#include "core/sweep/SweepWorkflow.h"

#include "core/edit/RootOpContext.h"
#include "core/sweep/Neighbours.h"
#include "core/sweep/SweepConstraints.h"

namespace tilescope::sweep {

namespace {

// Fills `request` with its candidates' source. With `asked`, IREE's space
// for the op (ireeSweepSpace): its points and stated constraints go into
// the request; where it gives none, `required` makes that an Error, else
// the axes stand and whyNotIree says why. `iree` null: not found.
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

} // namespace

Result<PreparedSweep> prepareSweep(const tools::IreeInstallation *iree,
                                   SweepRequest &request,
                                   const SweepChoice &choice) {
  const bool implicitSpace =
      !choice.ireeSpace && choice.vary.empty() && !choice.noIreeSpace;
  std::optional<IreeSpaceRequest> asked;
  if (choice.ireeSpace || choice.ireeSpaceIfAny || implicitSpace) {
    asked.emplace();
    asked->document = request.document;
    asked->op = request.op;
    asked->nearest = choice.nearest;
    asked->timeout = choice.timeout;
    asked->cancel = request.cancel;
    asked->vary = choice.vary;
  }
  auto source = chooseSweepSource(iree, request, asked, choice.ireeSpace);
  if (!source)
    return Error{source.error()};
  PreparedSweep prepared{std::move(*source), {}};
  const std::optional<IreeSpace> &space = prepared.source.space;
  std::string pointsAre = " cpu-tile-neighbours";
  const bool fromRules = !space && request.axes.empty();
  if (fromRules) {
    request.axes = neighbourAxes(*request.document, request.op);
    // An attention's subgroups on the query rows beside its tiles: every
    // combination of the tiles' neighbours, then those.
    if (auto subgroups = attentionSubgroupPoints(*request.document, request.op);
        !subgroups.empty()) {
      request.points = axisPoints(*request.document, request.op, request.axes);
      request.points.insert(request.points.end(), subgroups.begin(),
                            subgroups.end());
      request.axes.clear();
      pointsAre = " attention-neighbours";
    } else if (auto spread =
                   reductionSpreadPoints(*request.document, request.op);
               !spread.empty()) {
      // A reduction-style config: its tiles' neighbours, each with its
      // threads' steps and subgroups as they are, halved and doubled.
      request.points = crossPoints(
          axisPoints(*request.document, request.op, request.axes), spread);
      request.axes.clear();
      pointsAre = " reduction-neighbours";
    }
    // A CPU config's tiles, one entry at a time.
    if (request.axes.empty() && request.points.empty())
      request.points = neighbourPoints(*request.document, request.op);
    // An op fused into the root op runs on the root's tiles: it has none of
    // its own to halve or double.
    if (request.axes.empty() && request.points.empty())
      return Error{
          "the op has no workgroup or reduction tile to halve or double" +
          std::string(edit::rootOpIndex(
                          request.document->dispatches[request.op.dispatch]) ==
                              request.op.op
                          ? ""
                          : " (it is not the dispatch's root op: it runs on "
                            "the root op's tiles; sweep that one)") +
          (prepared.source.whyNotIree.empty()
               ? std::string()
               : "; IREE's constraints give none either: " +
                     prepared.source.whyNotIree) +
          ": vary its fields with --vary FIELD=V1,V2"};
  }
  prepared.neighbourhood = space       ? "iree-constraints"
                           : fromRules ? "rules"
                                       : "axes";
  request.followImplied = prepared.neighbourhood == "rules";
  request.name =
      !choice.name.empty() ? choice.name
      : space ? spaceSweepName(*request.document, request.op, asked->vary,
                               asked->nearest)
      : !request.points.empty()
          ? defaultSweepName(*request.document, request.op, {}) + pointsAre
          : defaultSweepName(*request.document, request.op, request.axes);
  return prepared;
}

Result<std::vector<SweepAxis>>
parseSweepAxes(const std::vector<std::string> &texts) {
  std::vector<SweepAxis> axes;
  for (const std::string &text : texts) {
    auto axis = parseSweepAxis(text);
    if (!axis)
      return Error{axis.error()};
    axes.push_back(std::move(*axis));
  }
  return axes;
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

} // namespace tilescope::sweep
