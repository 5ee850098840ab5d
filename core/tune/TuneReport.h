// A tune's result as people and scripts read it: the table `tilescope-cli
// tune` prints (per dispatch its share, IREE's default, the winner, the
// speedup; for the program the end-to-end times) and its JSON, which the
// Python package returns and the tune's folder keeps as tune.json.
#pragma once

#include "core/tune/Tune.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tilescope::tune {

nlohmann::json toJson(const TuneResult &result);
std::string tuneReport(const TuneResult &result);

// The program's end-to-end verdict (IREE's default as A, the tuned as B) in
// words: "faster", "slower" or "within noise", and the sentence the report
// prints. A tuned program measured slower end to end says so plainly, and
// that its spec should not be used as it is, however fast each winner ran
// alone.
std::string endToEndOutcome(const tries::TimeVerdict &verdict);
std::string endToEndSentence(const tries::TimeVerdict &verdict);

// Whether the program compiled with IREE's configs but not with the spec:
// each winner compiled in its dispatch alone, yet IREE, given the spec for
// the whole program, fails on one of them (a VectorDistribute reduction
// whose fused consumer keeps IREE's default config in the dispatch alone).
// Such a spec must not be used as it is.
bool specBreaksCompile(const TuneResult &result);

// One dispatch's row of the report's table, cell by cell: what the command
// line prints and the window's Tune panel shows.
struct TuneRow {
  std::string dispatch;                // "3"
  std::string op;                      // "linalg.matmul 64x32x128:ppr"
  std::string share;                   // "85.6%", "59.1%~" (predicted), "-"
  std::string defaultTime, winnerTime; // "1.6 ms", "~13.3 us (predicted)"
  std::string speedup;                 // "1.16x" where kept, "-"
  std::string outcome;
  std::string winner; // the winning candidate's name
  std::string why;    // the verdict or the reason, the check, the spec note
};
TuneRow tuneRow(const DispatchTune &tuned);

} // namespace tilescope::tune
