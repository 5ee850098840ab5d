// A sweep's candidates timed on a Slurm cluster (Sweep.h, SlurmRun.h): each
// compiled here with its run deferred, then all their bundles as one job
// array, each candidate's try finished and recorded as its task ends.
#pragma once

#include "core/document/Document.h"
#include "core/sweep/Sweep.h"
#include "core/tries/History.h"
#include "core/tries/TryJob.h"
#include "core/util/Result.h"

#include <functional>
#include <memory>
#include <vector>

namespace tilescope::sweep {

// A candidate compiled with its run deferred (TryRequest::deferRun): the
// document and request the try was made with, and its result so far.
struct DeferredCandidate {
  SweepCandidate *candidate = nullptr;
  std::unique_ptr<const document::Document> document;
  tries::TryRequest request; // its document: `document`
  tries::TryResult result;   // pendingRun set
};

// Sends the deferred candidates' bundles to the sweep's partition as one
// array (in WORKSPACE/slurm/sweep-KEY/, the key from the sweep's name and
// file) and waits; `finished` gets each candidate as its try is finished
// (finishTryRun), from this thread. A candidate that an earlier run of the
// same sweep queued and never recorded keeps its earlier bundle, so a task
// that finished or is still queued is waited for rather than sent again.
// An Error when the array could not be sent (nothing is recorded then).
Result<run::SlurmArrayResult>
runDeferredOnSlurm(const SweepRequest &request, const tries::History &history,
                   std::vector<DeferredCandidate> &deferred,
                   const std::function<void(DeferredCandidate &)> &finished);

} // namespace tilescope::sweep
