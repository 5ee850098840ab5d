#include "core/layout/AttentionLayouts.h"

#include "core/util/Numbers.h"

#include <algorithm>
#include <set>

namespace tilescope::layout {
namespace {

using Loops = std::set<int>;

Loops loopsOf(const config::OperandAccess &operand) {
  Loops loops;
  for (int d : operand.dims)
    if (d >= 0)
      loops.insert(d);
  return loops;
}

Loops intersect(const Loops &a, const Loops &b) {
  Loops out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(),
                        std::inserter(out, out.end()));
  return out;
}

Loops minus(const Loops &a, const Loops &b) {
  Loops out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(),
                      std::inserter(out, out.end()));
  return out;
}

std::vector<int> sorted(const Loops &loops) {
  return {loops.begin(), loops.end()};
}

// One decomposed contraction: the attention loops its three operands use,
// in the attention's order, renumbered (compressUnusedDims); the loops the
// accumulator does not index are reduced (computeMatmul).
Result<AttentionContraction>
contraction(const std::string &name, const std::vector<int64_t> &tile,
            const std::vector<config::OperandAccess> &operands,
            const config::LoweringConfig &config) {
  Loops used;
  for (const config::OperandAccess &operand : operands) {
    const Loops l = loopsOf(operand);
    used.insert(l.begin(), l.end());
  }
  AttentionContraction result;
  result.name = name;
  result.config = config;
  result.loops = sorted(used);
  const Loops accumulated = loopsOf(operands[2]);
  for (int loop : result.loops) {
    result.space.bounds.push_back(tile[static_cast<size_t>(loop)]);
    result.space.kinds.push_back(accumulated.count(loop)
                                     ? config::LoopKind::Parallel
                                     : config::LoopKind::Reduction);
  }
  for (const config::OperandAccess &operand : operands) {
    config::OperandAccess renumbered = operand;
    for (int &d : renumbered.dims) {
      if (d < 0)
        continue;
      d = static_cast<int>(
          std::find(result.loops.begin(), result.loops.end(), d) -
          result.loops.begin());
    }
    result.space.operands.push_back(std::move(renumbered));
  }
  // IREE's SIMT attention config (setAttentionReductionConfig, where no
  // intrinsic fits) gives the contractions bases and thread tiles instead.
  auto layouts = config.mmaKind()
                     ? deriveContractionLayouts(config, result.space)
                     : deriveSimtContractionLayouts(config, result.space);
  if (!layouts)
    return Error{name + ": " + layouts.error()};
  result.layouts = std::move(*layouts);
  return result;
}

// Per vector dimension of an operand of a decomposed contraction: the
// attention loop it is and its role there, "d3 (K2)".
std::vector<std::string> attentionAxes(const AttentionContraction &part,
                                       const config::OperandAccess &operand,
                                       const AttentionDims &dims) {
  std::vector<std::string> names;
  for (int d : operand.dims) {
    if (d < 0 || static_cast<size_t>(d) >= part.loops.size()) {
      names.push_back("unit");
      continue;
    }
    const int loop = part.loops[static_cast<size_t>(d)];
    const auto in = [loop](const std::vector<int> &set) {
      return std::find(set.begin(), set.end(), loop) != set.end();
    };
    names.push_back("d" + std::to_string(loop) +
                    (in(dims.m)    ? " (M)"
                     : in(dims.k1) ? " (K1)"
                     : in(dims.k2) ? " (K2)"
                     : in(dims.n)  ? " (N)"
                                   : " (batch)"));
  }
  return names;
}

// The operand dimension of `layout` (over `operand`'s dims) that is loop
// `loop` of the contraction, or -1.
int operandDimension(const config::OperandAccess &operand, int loop) {
  for (size_t i = 0; i < operand.dims.size(); ++i)
    if (operand.dims[i] == loop)
      return static_cast<int>(i);
  return -1;
}

// How the online softmax reduces a row of S (max, then sum) over K2 on S's
// accumulator layout: within a thread, across lanes, across subgroups.
std::string softmaxNote(const AttentionContraction &qk,
                        const AttentionDims &dims, bool partialK2) {
  const config::OperandAccess &s = qk.space.operands[2];
  const config::NestedLayoutAttr &acc = qk.layouts.acc;
  int64_t own = 1, lanes = 1, subgroups = 1, extent = 1;
  for (int k2 : dims.k2) {
    const int loop = static_cast<int>(
        std::find(qk.loops.begin(), qk.loops.end(), k2) - qk.loops.begin());
    const int d = operandDimension(s, loop);
    if (d < 0 || static_cast<size_t>(d) >= acc.subgroupTile.size())
      continue;
    const size_t i = static_cast<size_t>(d);
    own *= acc.batchTile[i] * acc.outerTile[i] * acc.elementTile[i];
    lanes *= acc.threadTile[i];
    subgroups *= acc.subgroupTile[i];
    extent *= qk.space.bounds[static_cast<size_t>(loop)];
  }
  if (partialK2)
    return "K2 is tiled by partial_reduction: " +
           (extent == 1
                ? std::string("the one K2 position")
                : "each of the " + std::to_string(extent) + " K2 positions") +
           " of a step keeps its own running max, sum and row of O "
           "(IREE's tileToPartialReduction puts K2 first in the three "
           "accumulators), updated each step without a reduction across "
           "lanes; after the loop IREE merges them over K2 (max, then the "
           "rescaled sums and rows)" +
           (lanes * subgroups > 1
                ? " across " + std::to_string(lanes) + " lane" +
                      (lanes == 1 ? "" : "s") +
                      (subgroups > 1
                           ? " and " + std::to_string(subgroups) + " subgroups"
                           : std::string())
                : std::string(", all in one thread"));
  std::string text = "online softmax: each row of S's " +
                     std::to_string(extent) +
                     " K2 scores is reduced (max, then sum) in S's "
                     "accumulator layout: " +
                     std::to_string(own) + " per thread, then across " +
                     std::to_string(lanes) + " lane" + (lanes == 1 ? "" : "s") +
                     " by shuffles";
  text += subgroups > 1 ? ", then across " + std::to_string(subgroups) +
                              " subgroups through shared memory"
                        : "; no two subgroups share a row";
  return text;
}

} // namespace

std::string layoutSource(const AttentionContraction &part) {
  return part.layouts.intrinsic.empty() ? std::string("SIMT")
                                        : part.layouts.intrinsic;
}

Result<AttentionDims> attentionDims(const config::IterationSpace &space) {
  std::vector<const config::OperandAccess *> inputs, outputs;
  for (const config::OperandAccess &operand : space.operands)
    (operand.isOutput ? outputs : inputs).push_back(&operand);
  if (inputs.size() < 3 || outputs.empty())
    return Error{"attention needs its Q, K and V operands and an output"};
  const Loops q = loopsOf(*inputs[0]), k = loopsOf(*inputs[1]),
              v = loopsOf(*inputs[2]), o = loopsOf(*outputs[0]);
  Loops b = intersect(q, v);
  const Loops b2 = intersect(k, o);
  b.insert(b2.begin(), b2.end());
  const Loops k1 = minus(intersect(q, k), b);
  const Loops k2 = minus(minus(k, b), k1);
  const Loops m = minus(minus(q, b), k1);
  const Loops n = minus(minus(v, b), k2);
  AttentionDims dims{sorted(b), sorted(m), sorted(k1), sorted(k2), sorted(n)};
  // M may be empty: a decode step's single query row is a unit loop IREE
  // folds away before configuring.
  if (dims.k1.empty() || dims.k2.empty() || dims.n.empty())
    return Error{"the op's Q, K, V and output maps do not read as "
                 "attention's (batch, M, K1, K2, N)"};
  return dims;
}

namespace {

// Whether two layouts of one tile give every element the same subgroup,
// lane and element slot: the same subgroup, thread and element tiles and
// strides, and per dimension the same batch x outer (batch 8 x outer 1 and
// batch 4 x outer 2 walk the same elements in the same order).
bool sameLanes(const config::NestedLayoutAttr &a,
               const config::NestedLayoutAttr &b) {
  if (a.rank() != b.rank() || a.subgroupTile != b.subgroupTile ||
      a.subgroupStrides != b.subgroupStrides || a.threadTile != b.threadTile ||
      a.threadStrides != b.threadStrides || a.elementTile != b.elementTile)
    return false;
  for (size_t d = 0; d < a.rank(); ++d)
    if (a.batchTile[d] * a.outerTile[d] != b.batchTile[d] * b.outerTile[d])
      return false;
  return true;
}

} // namespace

namespace {

// Whether P moves between the contractions: S's accumulator layout and
// P.V's LHS are over the same (batch, M, K2); the note says how they differ.
void notePLayout(AttentionLayouts &result) {
  const config::NestedLayoutAttr &sAcc = result.qk.layouts.acc;
  const config::NestedLayoutAttr &pLhs = result.pv.layouts.lhs;
  result.pChangesLayout = !sameLanes(sAcc, pLhs);
  if (!result.pChangesLayout && sAcc.print() != pLhs.print())
    result.notes.push_back(
        "P keeps S's elements in the same lanes as P.V's LHS; only their "
        "grouping in registers differs (S's accumulator: batch " +
        bracketedList(sAcc.batchTile) + ", outer " +
        bracketedList(sAcc.outerTile) + "; P.V's LHS: batch " +
        bracketedList(pLhs.batchTile) + ", outer " +
        bracketedList(pLhs.outerTile) +
        "): each lane holds the same elements of S and P");
  else if (result.pChangesLayout)
    result.notes.push_back(
        "P changes layout between the contractions: S's accumulator "
        "layout has batch " +
        bracketedList(result.qk.layouts.acc.batchTile) + ", outer " +
        bracketedList(result.qk.layouts.acc.outerTile) + ", element " +
        bracketedList(result.qk.layouts.acc.elementTile) +
        "; P.V's LHS has batch " +
        bracketedList(result.pv.layouts.lhs.batchTile) + ", outer " +
        bracketedList(result.pv.layouts.lhs.outerTile) + ", element " +
        bracketedList(result.pv.layouts.lhs.elementTile) +
        " (IREE's to_layout between them)");
  else
    result.notes.push_back("P keeps S's accumulator layout as P.V's LHS: no "
                           "data moves between the contractions");
}

} // namespace

Result<AttentionLayouts>
deriveAttentionLayouts(const config::LoweringConfig &outer,
                       const config::IterationSpace &space,
                       const config::DecompositionConfig &decomposition) {
  if (!decomposition.qk || !decomposition.pv)
    return Error{"the decomposition_config has no qk_attrs and pv_attrs "
                 "lowering configs: IREE lays the two contractions out from "
                 "them"};
  auto dims = attentionDims(space);
  if (!dims)
    return Error{dims.error()};
  const size_t rank = space.rank();
  for (int64_t bound : space.bounds)
    if (bound == config::kDynamicSize)
      return Error{"attention with dynamic loops: the tiles IREE lays out "
                   "have no size to draw"};
  auto padded = [rank](const std::optional<std::vector<int64_t>> &sizes) {
    std::vector<int64_t> out = sizes.value_or(std::vector<int64_t>{});
    out.resize(rank, 0);
    return out;
  };
  const auto workgroup =
      padded(outer.tileSizes(config::TilingLevel::Workgroup));
  const auto reduction =
      padded(outer.tileSizes(config::TilingLevel::Reduction));
  const auto partial =
      padded(outer.tileSizes(config::TilingLevel::PartialReduction));
  AttentionLayouts result;
  result.dims = *dims;
  result.tile.resize(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t size = space.bounds[d];
    const int64_t t = workgroup[d] > 0   ? workgroup[d]
                      : reduction[d] > 0 ? reduction[d]
                      : partial[d] > 0   ? partial[d]
                                         : size;
    result.tile[d] = std::min(t, size);
  }
  for (int k2 : dims->k2)
    result.k2Steps = saturatingMultiply(
        result.k2Steps, ceilDiv(space.bounds[static_cast<size_t>(k2)],
                                result.tile[static_cast<size_t>(k2)]));

  std::vector<const config::OperandAccess *> inputs, outputs;
  for (const config::OperandAccess &operand : space.operands)
    (operand.isOutput ? outputs : inputs).push_back(&operand);
  const config::OperandAccess &q = *inputs[0], &k = *inputs[1], &v = *inputs[2],
                              &o = *outputs[0];
  // K2 tiled by partial_reduction (IREE's SIMT attention config): the
  // accumulators keep K2, first (getPartialResultMap), so P.V reduces
  // nothing and O's layout has K2's dimensions before its own.
  bool partialK2 = false;
  for (int k2 : dims->k2)
    partialK2 = partialK2 || (partial[static_cast<size_t>(k2)] > 0 &&
                              reduction[static_cast<size_t>(k2)] <= 0);
  // S and P: (batch, M, K2) in that order (AttentionOpDetail::getSMap); S
  // in the accumulator's element type, P in V's (IREE truncates it). Under
  // partial reduction IREE decomposes the tiled op, whose output map has
  // K2: its AttentionOpDetail reads K2 as a batch loop (K & O), so S is
  // (batch and K2 in loop order, M).
  config::OperandAccess s;
  std::vector<int> sBatch = dims->batch;
  if (partialK2) {
    sBatch.insert(sBatch.end(), dims->k2.begin(), dims->k2.end());
    std::sort(sBatch.begin(), sBatch.end());
  }
  s.dims = sBatch;
  s.dims.insert(s.dims.end(), dims->m.begin(), dims->m.end());
  if (!partialK2)
    s.dims.insert(s.dims.end(), dims->k2.begin(), dims->k2.end());
  s.elementType = o.elementType;
  s.isOutput = true;
  config::OperandAccess p = s;
  p.isOutput = false;
  p.elementType = v.elementType;

  auto qk = contraction("Q.K^T", result.tile, {q, k, s}, *decomposition.qk);
  if (!qk)
    return Error{"qk_attrs: " + qk.error()};
  config::OperandAccess oAcc = o;
  if (partialK2)
    oAcc.dims.insert(oAcc.dims.begin(), dims->k2.begin(), dims->k2.end());
  auto pv = contraction("P.V", result.tile, {p, v, oAcc}, *decomposition.pv);
  if (!pv)
    return Error{"pv_attrs: " + pv.error()};
  result.qk = std::move(*qk);
  result.qk.lhs = "Q";
  result.qk.rhs = "K";
  result.qk.acc = "S";
  result.pv = std::move(*pv);
  result.pv.lhs = "P";
  result.pv.rhs = "V";
  result.pv.acc = "O";

  result.partialK2 = partialK2;
  for (AttentionContraction *part : {&result.qk, &result.pv}) {
    if (!part->layouts.intrinsic.empty())
      continue;
    part->layouts.lhsAxes =
        attentionAxes(*part, part->space.operands[0], *dims);
    part->layouts.rhsAxes =
        attentionAxes(*part, part->space.operands[1], *dims);
    part->layouts.accAxes =
        attentionAxes(*part, part->space.operands[2], *dims);
  }
  result.notes.push_back(softmaxNote(result.qk, *dims, partialK2));
  notePLayout(result);
  return result;
}

} // namespace tilescope::layout
