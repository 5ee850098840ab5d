// The knob assignments that satisfy IREE's pipeline constraints for a root
// op: the search space IREE's tuner explores, listed by Tilescope.
//
// Knobs are the config's tunable values; an smt.declare_fun value
// (sg_m_cnt, sg_n_cnt) is existential, as an SMT solver reads it: a knob
// assignment is in the space when some values of the free ones make every
// assert hold. An assert whose condition stays unknown once everything is
// assigned (a division by zero, a lookup key the table lacks) is skipped,
// as IREE's own verifier skips it.
//
// The search assigns one variable at a time, always the one with the fewest
// candidate values, and stops a branch at the first assert that fails.
// Each variable's candidates come from the asserts that only it leaves
// open: `x == e` (one value), `e % (c * x) == 0` (the divisors of e),
// `c * x <= e` and the like (a range). A knob those never bound (no assert
// gives it a finite set once the others are known) cannot be listed: the
// search refuses, naming it, rather than guess a range.
//
// Pure: works on the parsed program (SmtProgram.h).
#pragma once

#include "core/config/smt/SmtProgram.h"
#include "core/util/Result.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilescope::config {

struct SmtSpaceOptions {
  // Knobs held at a value (the fields not varied); the others range freely.
  std::map<std::string, int64_t> pinned;
  // Stop after this many assignments (the result says it stopped).
  size_t limit = 1'000'000;
  // The widest range of values tried for a variable bounded only by
  // comparisons (wider is refused as unbounded).
  int64_t widestRange = 1 << 16;
  // Stop after this many search nodes (the result says it stopped): a
  // pathological program costs seconds, not hours. The examples' spaces
  // take about 10,000.
  uint64_t maxVisited = 2'000'000;
};

struct SmtSpace {
  std::vector<std::string> knobs;           // the program's knobs, in order
  std::vector<std::vector<int64_t>> points; // each: one value per knob
  bool truncated = false; // stopped at the limit or the node budget
  uint64_t visited = 0;   // search nodes, for the record
};

// Fails when a knob cannot be bounded (named, with what it still depends
// on), when a pinned name is not a knob of the program, or the program has
// more than 64 variables.
Result<SmtSpace> enumerateSmtSpace(const SmtProgram &program,
                                   const SmtSpaceOptions &options = {});

} // namespace tilescope::config
