// A whole program's reductions at IREE's split-reduction point (inside
// dispatch creation, before dispatch regions are formed), as plain data:
// every op IREE's split-reduction passes walk that has a reduction loop,
// with what the heuristic reads of it, its split and the source op it came
// from; the splits a person chooses; the dispatches a later phase formed.
// core/iree's ProgramReader reads them through the C API; core/service's
// split-k and the window's Split-k tab use them.
#pragma once

#include "core/config/rules/SplitReduction.h"
#include "core/document/Document.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::document {

// One reduction of the program: the `index`-th op with a reduction loop in
// `function`, in IR order (how an edit names it).
struct ProgramReduction {
  std::string function;
  int index = 0;
  std::string name; // "linalg.matmul"
  std::optional<SourceLocation> source;
  std::vector<std::string> operandTypes;
  config::ReductionFacts facts;
  // The iree_linalg_ext.split_reduction tiles it carries, if any.
  std::optional<std::vector<int64_t>> split;
};

// A split to write: nullopt removes the attribute (the op is not split).
struct SplitChoice {
  std::string function;
  int index = 0;
  std::optional<std::vector<int64_t>> sizes;
};

// A compute op inside a formed dispatch.
struct DispatchedOp {
  std::string name;
  std::optional<SourceLocation> source;
  std::optional<std::vector<int64_t>> split;
  // Its iteration bounds (empty when IREE's interfaces give none).
  std::vector<int64_t> bounds;
};

struct FormedDispatch {
  std::string executable; // flow.executable symbol
  std::string name;       // its export (the dispatch's name)
  std::vector<DispatchedOp> ops;
};

} // namespace tilescope::document
