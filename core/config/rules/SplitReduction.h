// Split-k: how IREE's split-reduction heuristic would split a reduction
// before dispatch formation, and the `iree_linalg_ext.split_reduction`
// attribute that carries the split.
//
// IREE's SetSplitReductionSizesPass (DispatchCreation) tries four rules in a
// fixed order on every op with a reduction loop: outer reduction,
// convolution, matmul-like, arg_compare. The first that answers writes
// `iree_linalg_ext.split_reduction = [T0, T1, ...]`, one tile size per
// reduction loop (outer to inner): each chunk of T elements is reduced in its
// own workgroup and a second dispatch adds the partial results. This file is
// Tilescope's statement of those rules, so a person sees which one decided
// and why, with the numbers it compared; property_split_reduction holds it to
// the pinned IREE's own pass on generated programs.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/util/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::config {

// Loop dimensions of a convolution, as linalg::inferConvolutionDims names them.

// What the heuristic reads of one op.
struct ReductionFacts {
  std::string opName;   // "linalg.matmul", "iree_linalg_ext.arg_compare"
  IterationSpace space; // bounds (kDynamicSize where dynamic) and loop kinds
  bool isLinalgOp = false;
  // linalg::inferContractionDims of a linalg op (any op with two inputs and
  // one init, named contraction or not).
  std::optional<ContractionDims> contraction;
  // When IREE's isaConvolutionOpInterface holds and the dims are inferred.
  std::optional<ConvolutionDims> convolution;
  // The loop the output's first dimension reads (a batch-first conv layout
  // has a batch loop there); -1 when not a loop.
  int outputFirstLoop = -1;
  // Every operand shape static (the convolution rule needs it).
  bool staticOperandShapes = true;
  // iree_linalg_ext.arg_compare: the dimension it reduces.
  std::optional<int> argCompareDimension;
};

enum class SplitRule {
  None,           // no rule answered: not split
  OuterReduction, // the first loop is a reduction
  Convolution,
  MatmulLike,
  ArgCompare,
};
const char *toString(SplitRule rule); // "outer-reduction", "matmul-like", ...

struct SplitOptions {
  int64_t targetSize = 1024;   // split-reduction-target-size
  bool lowParallelism = false; // the RDNA-class parameter set
};

struct SplitDecision {
  SplitRule rule = SplitRule::None;
  // One tile size per reduction loop, outer to inner; empty when not split.
  std::vector<int64_t> sizes;
  // Each rule's verdict in the order IREE asks them, with the numbers it
  // compared: "matmul-like: M*N*B = 1024 <= 16*16 ... limit 2048".
  std::vector<std::string> reasons;
  bool split() const { return !sizes.empty(); }
  // The attribute's tiles as the pass would write them; nullopt: none.
  std::optional<std::vector<int64_t>> attributeTiles() const {
    return split() ? std::optional<std::vector<int64_t>>(sizes) : std::nullopt;
  }
};

// What IREE's SetSplitReductionSizesPass writes on an op that does not carry
// the attribute yet (an op that does keeps its own; the caller knows that).
SplitDecision decideSplitReduction(const ReductionFacts &facts,
                                   const SplitOptions &options = {});

// The bounds of the reduction loops, outer to inner.
std::vector<int64_t> reductionBounds(const IterationSpace &space);
// Chunks per reduction loop: ceil(bound / tile) (1 for a tile of 0, which
// leaves the loop whole).
std::vector<int64_t> splitCounts(const std::vector<int64_t> &bounds,
                                 const std::vector<int64_t> &sizes);

// "[320 : index]", as IREE prints the attribute's value.
std::string splitReductionAttributeText(const std::vector<int64_t> &sizes);

// A split a person types: "320", "[320]", "[1, 64]" or IREE's own
// "[320 : index]", one tile per reduction loop. Refused with the reason: a
// count that is not the op's number of reduction loops, a negative tile, a
// tile larger than its loop. A tile that does not divide its loop is taken
// (IREE pads the last chunk) and named in `warnings`.
struct ParsedSplit {
  std::vector<int64_t> sizes;
  std::vector<std::string> warnings;
};
Result<ParsedSplit> parseSplitSizes(std::string_view text,
                                    const std::vector<int64_t> &bounds);

} // namespace tilescope::config
