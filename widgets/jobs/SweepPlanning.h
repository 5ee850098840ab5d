// A sweep panel's plan, made off the GUI thread: the candidates (from the
// axes, or from the space IREE's constraints allow), each validated by the
// rules, IREE's verdict on each when asked, and the first thumbnails.
// Everything here is the workbench's (core/sweep's); the panel only shows
// it.
#pragma once

#include "core/sweep/Sweep.h"
#include "core/sweep/SweepSpace.h"
#include "core/workbench/Workbench.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::widgets {

inline constexpr QSize kSweepThumbnail(96, 64);

// A candidate's layout, small: the first panel of the op's picture, one
// pixel block per cell in its owner's colour, no text.
QImage sweepThumbnail(const sweep::SweepCandidate &candidate, edit::OpRef op);

// The fields a sweep can vary for an op: each entry of an integer-list
// field ("workgroup[1]") and each other field whole ("mma_kind"), with the
// values a new axis starts from (sweep::fieldAxes, joined by commas).
std::vector<std::pair<QString, QString>>
sweepFieldChoices(const document::Document &document, edit::OpRef op);

struct SweepPlan {
  std::string error;
  std::vector<sweep::SweepCandidate> candidates;
  std::vector<QImage> thumbnails; // by candidate; null: not drawn
  // From IREE's constraints: the points planned (what a run tries) and the
  // space in a line.
  std::vector<sweep::SweepPoint> points;
  std::string space;
  // What IREE stated for the plan's document and op (the run checks its
  // candidates with it rather than asking again).
  std::shared_ptr<const service::StatedConstraints> stated;
  // Asking IREE failed (no iree-opt): the plan stands on the rules.
  std::string ireeProblem;
  // IREE's constraints gave no neighbourhood (none stated for the op, the
  // config outside them, no iree-opt): why; the plan is the axes'.
  std::string whyNotIree;
};

// The plan of `request` (the panel's axes) as every front end plans one,
// through the workbench: `how` says where the candidates come from
// (Workbench::prepareSweep: IREE's space with `how.vary` and `how.nearest`
// where it gives one, else the axes, or the rules' neighbours where there
// are none), then each applied, judged and, where the request asks, given
// IREE's verdict (Workbench::planSweep, kept when IREE cannot answer);
// `op`'s thumbnails drawn.
SweepPlan planForPanel(const workbench::Workbench &bench,
                       sweep::SweepRequest request,
                       const workbench::SweepJobChoice &how, edit::OpRef op);

} // namespace tilescope::widgets
