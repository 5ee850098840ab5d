// The loop nest of a root op: bounds, parallel/reduction kinds, operand
// element types and indexing maps. What a lowering config is checked against.
#pragma once

#include "core/util/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::config {

inline constexpr int64_t kDynamicSize = -1;

enum class LoopKind { Parallel, Reduction };

// An operand's view of the loop nest: operand dimension i is loop dimension
// dims[i] (a projected permutation), or a constant (-1).
struct OperandAccess {
  std::string elementType; // "f16", "f32", ... (may be empty)
  std::vector<int> dims;
  bool isOutput = false;
  // Its type's shape where read from one (fromLinalgOp); empty otherwise.
  std::vector<int64_t> shape = {};
};

struct IterationSpace {
  std::vector<int64_t> bounds; // kDynamicSize for `?`
  std::vector<LoopKind> kinds;
  std::vector<OperandAccess> operands; // may be empty

  size_t rank() const { return bounds.size(); }
  bool isReduction(size_t dim) const {
    return dim < kinds.size() && kinds[dim] == LoopKind::Reduction;
  }

  // "4x6656x16384:ppr" (kinds optional, default parallel), "?x128:pr".
  static Result<IterationSpace> parse(std::string_view text);
  // From a linalg op as IREE printed it: indexing_maps and iterator_types
  // attribute text, operand and result types. linalg.matmul and
  // linalg.batch_matmul printed without maps get their default maps.
  static Result<IterationSpace>
  fromLinalgOp(const std::string &indexingMaps,
               const std::string &iteratorTypes,
               const std::vector<std::string> &operandTypes,
               const std::string &opName = "");

  std::string toString() const; // "4x6656x16384:ppr"
};

// Indexing maps as a person or IREE writes them: "affine_map<(d0, d1) ->
// (d1, 0)>" or the bare "(d0, d1) -> (d1, 0)", any number, in any list.
struct IndexingMap {
  std::string text;
  int inputs = 0;
  std::vector<int> dims;                // loop dim per result; -1 for 0
  std::vector<std::string> unsupported; // results not a dim or 0
};
std::vector<IndexingMap> parseIndexingMaps(const std::string &text);

// Operands from indexing maps and element types (one per map, output
// last), refusing maps that are not projected permutations of the space.
Result<std::vector<OperandAccess>>
operandsFromMaps(const std::string &text, const std::vector<std::string> &types,
                 size_t rank);

// Operands from types alone, for the two patterns Tilescope states (a
// (batch) matmul and a reduction); anything else is refused, naming --maps.
Result<std::vector<OperandAccess>>
operandsFromPattern(const IterationSpace &space,
                    const std::vector<std::string> &types);

// Contraction dimensions, when the indexing maps make one: M and N are the
// parallel dims of LHS+OUT and RHS+OUT, K the reduction dims of LHS+RHS.
// A scaled contraction (LHS, RHS, LHS scales, RHS scales, ACC) splits its
// reduction dims as IREE's inferScaledContractionDims does: `kB` the ones
// inside a scale block (the scales do not index them), `k` the rest.
struct ContractionDims {
  std::vector<int> batch, m, n, k;
  std::vector<int> kB = {};
};
std::optional<ContractionDims> inferContraction(const IterationSpace &space);

// Convolution dimensions as linalg's inferConvolutionDims finds them.
struct ConvolutionDims {
  std::vector<int> batch, outputImage, outputChannel, filterLoop, inputChannel,
      depth;
};

// What a root op computes, as Tilescope tells kinds apart: IREE's own
// interfaces decide contraction, convolution and attention; the op's name
// the linalg_ext kinds; its loops the rest.
enum class OpKind {
  Contraction,
  ScaledContraction, // IREE's isaScaledContractionOpInterface
  Convolution,
  Pooling, // matches the convolution interface, reads no filter values
  Attention,
  Reduction,
  Elementwise,
  ArgCompare,
  Scan,
  Pack,
  Unpack,
  Other,
};
const char *toString(OpKind kind); // "contraction", "arg_compare", ...
std::optional<OpKind> opKindFromString(std::string_view text);
// The kind an op's name and loops give, for ops IREE's interfaces do not
// classify (contraction, convolution and attention come from IREE).
OpKind opKindFromNameAndLoops(std::string_view opName,
                              const IterationSpace *space);

// Bytes of one element of a builtin type ("f16" -> 2), 0 when unknown.
int64_t elementBytes(std::string_view type);
// Bits per element: elementBytes x 8, and the sub-byte floats of scaled
// (MX) contractions, f4E2M1FN (4) and f6E2M3FN / f6E3M2FN (6); 0 if unknown.
int64_t elementBits(std::string_view type);

} // namespace tilescope::config
