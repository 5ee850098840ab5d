#include "core/config/rules/SplitReduction.h"

#include "core/util/Numbers.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace tilescope::config {
namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return ceilDivide(a, b); }

// The smallest divisor of `x` that is at least `lowerBound`, searched up to
// 2^15 (IREE's trial-division limit).
std::optional<int64_t> smallestFactorAtLeast(int64_t x, int64_t lowerBound) {
  constexpr int64_t kMaxIterations = int64_t{1} << 15;
  const int64_t upper = std::min(x, kMaxIterations);
  for (int64_t i = std::max<int64_t>(lowerBound, 1); i <= upper; ++i)
    if (x % i == 0)
      return i;
  return std::nullopt;
}

int64_t productOf(const std::vector<int64_t> &bounds,
                  const std::vector<int> &dims) {
  int64_t product = 1;
  for (int dim : dims)
    if (dim >= 0 && static_cast<size_t>(dim) < bounds.size())
      product *= bounds[static_cast<size_t>(dim)];
  return product;
}

bool anyDynamic(const std::vector<int64_t> &sizes) {
  return std::any_of(sizes.begin(), sizes.end(),
                     [](int64_t s) { return s == kDynamicSize; });
}

// One rule's answer: sizes, or why it did not split.
struct RuleAnswer {
  std::optional<std::vector<int64_t>> sizes;
  std::string reason;
};

RuleAnswer skip(std::string reason) {
  return {std::nullopt, std::move(reason)};
}

RuleAnswer outerReduction(const ReductionFacts &facts,
                          const SplitOptions &options) {
  const IterationSpace &space = facts.space;
  if (space.kinds.empty() || space.kinds.front() != LoopKind::Reduction)
    return skip("the first loop is not a reduction");
  const std::vector<int64_t> sizes = reductionBounds(space);
  if (anyDynamic(sizes))
    return skip("a reduction loop is dynamic");
  int64_t total = 1;
  for (int64_t size : sizes)
    total *= size;
  if (total < options.targetSize)
    return skip("reduction work " + std::to_string(total) + " < target " +
                std::to_string(options.targetSize));
  const int64_t root =
      static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(total))));
  const int64_t scaled =
      std::min(options.targetSize, std::max<int64_t>(4, root));
  std::vector<int64_t> tiles(sizes.size());
  int64_t covered = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    const int64_t wanted = ceilDiv(scaled, covered);
    tiles[i] = smallestFactorAtLeast(sizes[i], wanted).value_or(sizes[i]);
    covered *= tiles[i];
  }
  return {tiles, "reduction work " + std::to_string(total) + ", target min(" +
                     std::to_string(options.targetSize) +
                     ", max(4, ceil(sqrt(" + std::to_string(total) +
                     ")))) = " + std::to_string(scaled) +
                     ", tiles chosen inner to outer as the smallest divisors "
                     "reaching it"};
}

int64_t convolutionLimit(int64_t output, int64_t reduction, int64_t startTile,
                         bool low) {
  if (output < 32 * 32)
    return 2048;
  if (output < 128 * 128)
    return 128;
  if (output < 256 * 256) {
    if (reduction < 50000)
      return low ? 8 : 16;
    if (reduction < 200000)
      return low ? 16 : 32;
    if (reduction < 300000)
      return low ? 16 : 64;
    return 64;
  }
  if (output < 512 * 512) {
    if (reduction >= 800000)
      return 64;
    if (low && reduction >= 200000)
      return 32;
    return 16;
  }
  if (output >= 1024 * 1024 && reduction >= 200000)
    return 16;
  return std::min<int64_t>(8, startTile);
}

int64_t matmulLimit(int64_t output, int64_t reduction, int64_t startTile,
                    bool low) {
  const double k = static_cast<double>(reduction);
  if (output <= 16 * 16 || k > 1e7)
    return 2048;
  if (output <= 64 * 64)
    return 128;
  if (output <= 128 * 128) {
    if (k > 1e6)
      return 128;
    if (reduction < 50000)
      return low ? 8 : 64;
    return 64;
  }
  if (k > 1e6)
    return low ? 8 : 128;
  if (output <= 256 * 256) {
    if (reduction < 150000)
      return low ? 8 : 32;
    return 32;
  }
  if (output <= 512 * 512)
    return 16;
  if (output <= 900 * 900 && reduction >= 100000)
    return 16;
  return std::min<int64_t>(8, startTile);
}

// Spends a parallelism budget over the reduction loops in `order`: each loop
// takes the smallest divisor tile that keeps its chunk count within what is
// left; the first loop actually split ends the walk (the loops inside it stay
// whole, their data would not be contiguous).
std::optional<std::vector<int64_t>>
spendLimit(std::vector<int64_t> sizes, int64_t limit,
           const std::vector<size_t> &order) {
  for (size_t i : order) {
    const auto tile = smallestFactorAtLeast(sizes[i], ceilDiv(sizes[i], limit));
    if (!tile)
      return std::nullopt;
    limit /= sizes[i] / *tile;
    sizes[i] = *tile;
    if (*tile > 1)
      break;
  }
  return sizes;
}

RuleAnswer convolution(const ReductionFacts &facts,
                       const SplitOptions &options) {
  if (!facts.isLinalgOp || !facts.convolution)
    return skip("not a convolution");
  const ConvolutionDims &conv = *facts.convolution;
  if (conv.outputChannel.empty() || conv.batch.empty() ||
      conv.filterLoop.empty())
    return skip("no batch, output-channel or filter loop");
  if (!facts.staticOperandShapes)
    return skip("an operand shape is dynamic");
  const std::vector<int64_t> &bounds = facts.space.bounds;
  const std::vector<int64_t> sizes = reductionBounds(facts.space);
  if (anyDynamic(sizes))
    return skip("a reduction loop is dynamic");
  const int64_t channels = productOf(bounds, conv.outputChannel);
  const int64_t batch = productOf(bounds, conv.batch);
  const int64_t image = productOf(bounds, conv.outputImage);
  const int64_t depth = productOf(bounds, conv.depth);
  const bool batchFirst = std::find(conv.batch.begin(), conv.batch.end(),
                                    facts.outputFirstLoop) != conv.batch.end();
  const int64_t parallel = channels * (batchFirst ? image : batch);
  const std::string parallelText = "parallel size (output channels x " +
                                   std::string(batchFirst ? "image" : "batch") +
                                   ") = " + std::to_string(parallel);
  if (parallel >= 640000)
    return skip(parallelText + " >= 640000");
  int64_t reduction = 1;
  for (int64_t size : sizes)
    reduction *= size;
  const auto ratio =
      static_cast<int64_t>(static_cast<double>(reduction) /
                           std::sqrt(static_cast<double>(parallel)));
  if (ratio <= 64 && reduction < 8192)
    return skip("reduction " + std::to_string(reduction) +
                " < 8192 and reduction/sqrt(parallel) = " +
                std::to_string(ratio) + " <= 64");
  const int64_t output = channels * batch * image * depth;
  if (output >= 2 * 1024 * 1024 && reduction < 50000)
    return skip("output " + std::to_string(output) +
                " >= 2*1024*1024 with reduction " + std::to_string(reduction) +
                " < 50000");
  const int64_t limit = convolutionLimit(
      output, reduction, batchFirst ? sizes.back() : sizes.front(),
      options.lowParallelism);
  std::vector<size_t> order(sizes.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = batchFirst ? order.size() - 1 - i : i;
  auto tiles = spendLimit(sizes, limit, order);
  if (!tiles)
    return skip("no divisor tile fits the limit of " + std::to_string(limit));
  return {tiles, parallelText + ", output " + std::to_string(output) +
                     ", reduction " + std::to_string(reduction) + ": at most " +
                     std::to_string(limit) + " chunks, taken " +
                     (batchFirst ? "inner" : "outer") + " loop first"};
}

RuleAnswer matmulLike(const ReductionFacts &facts,
                      const SplitOptions &options) {
  if (!facts.isLinalgOp || !facts.contraction)
    return skip("not a contraction (two inputs, one init)");
  const IterationSpace &space = facts.space;
  const auto parallelLoops =
      std::count(space.kinds.begin(), space.kinds.end(), LoopKind::Parallel);
  if (parallelLoops < 2)
    return skip("fewer than two parallel loops");
  if (anyDynamic(space.bounds))
    return skip("a loop is dynamic");
  const ContractionDims &dims = *facts.contraction;
  const int64_t b = productOf(space.bounds, dims.batch);
  const int64_t m = productOf(space.bounds, dims.m);
  const int64_t n = productOf(space.bounds, dims.n);
  const int64_t k = productOf(space.bounds, dims.k);
  const int64_t output = m * n * b;
  const auto ratio = static_cast<int64_t>(
      static_cast<double>(k) / std::sqrt(static_cast<double>(m * n)) /
      static_cast<double>(b));
  const std::string shape =
      "M=" + std::to_string(m) + " N=" + std::to_string(n) +
      " K=" + std::to_string(k) + (b > 1 ? " B=" + std::to_string(b) : "");
  if (output > 2048 * 4096)
    return skip(shape + ": output " + std::to_string(output) + " > 2048*4096");
  if (k < 18000 && ratio < 48)
    return skip(shape + ": K < 18000 and K/sqrt(M*N)/B = " +
                std::to_string(ratio) + " < 48");
  if (output >= 1024 * 1024 && output < 1500 * 1024 && k < 200000)
    return skip(shape + ": output " + std::to_string(output) +
                " in [1024*1024, 1500*1024) with K < 200000");
  const std::vector<int64_t> sizes = reductionBounds(space);
  const int64_t limit =
      matmulLimit(output, k, sizes.front(), options.lowParallelism);
  std::vector<size_t> order(sizes.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto tiles = spendLimit(sizes, limit, order);
  if (!tiles)
    return skip("no divisor tile fits the limit of " + std::to_string(limit));
  return {tiles, shape + ", output " + std::to_string(output) + ": at most " +
                     std::to_string(limit) + " chunks"};
}

RuleAnswer argCompare(const ReductionFacts &facts,
                      const SplitOptions &options) {
  if (!facts.argCompareDimension)
    return skip("not an arg_compare");
  const size_t dim = static_cast<size_t>(*facts.argCompareDimension);
  if (dim >= facts.space.bounds.size() ||
      facts.space.bounds[dim] == kDynamicSize)
    return skip("the reduced dimension is dynamic");
  const int64_t size = facts.space.bounds[dim];
  if (size < options.targetSize)
    return skip("reduction " + std::to_string(size) + " < target " +
                std::to_string(options.targetSize));
  const int64_t tile =
      smallestFactorAtLeast(size, options.targetSize).value_or(size);
  return {std::vector<int64_t>{tile}, "reduction " + std::to_string(size) +
                                          ": the smallest divisor >= target " +
                                          std::to_string(options.targetSize)};
}

} // namespace

const char *toString(SplitRule rule) {
  switch (rule) {
  case SplitRule::None:
    return "none";
  case SplitRule::OuterReduction:
    return "outer-reduction";
  case SplitRule::Convolution:
    return "convolution";
  case SplitRule::MatmulLike:
    return "matmul-like";
  case SplitRule::ArgCompare:
    return "arg_compare";
  }
  return "none";
}

std::vector<int64_t> reductionBounds(const IterationSpace &space) {
  std::vector<int64_t> bounds;
  for (size_t i = 0; i < space.bounds.size(); ++i)
    if (space.isReduction(i))
      bounds.push_back(space.bounds[i]);
  return bounds;
}

std::vector<int64_t> splitCounts(const std::vector<int64_t> &bounds,
                                 const std::vector<int64_t> &sizes) {
  std::vector<int64_t> counts;
  for (size_t i = 0; i < bounds.size() && i < sizes.size(); ++i)
    counts.push_back(
        sizes[i] <= 0 || bounds[i] <= 0 ? 1 : ceilDiv(bounds[i], sizes[i]));
  return counts;
}

SplitDecision decideSplitReduction(const ReductionFacts &facts,
                                   const SplitOptions &options) {
  SplitDecision decision;
  if (options.targetSize <= 0) {
    decision.reasons.push_back("the target size is 0: the pass does nothing");
    return decision;
  }
  if (reductionBounds(facts.space).empty()) {
    decision.reasons.push_back("no reduction loop");
    return decision;
  }
  const std::pair<SplitRule,
                  RuleAnswer (*)(const ReductionFacts &, const SplitOptions &)>
      rules[] = {{SplitRule::OuterReduction, outerReduction},
                 {SplitRule::Convolution, convolution},
                 {SplitRule::MatmulLike, matmulLike},
                 {SplitRule::ArgCompare, argCompare}};
  for (const auto &[rule, ask] : rules) {
    RuleAnswer answer = ask(facts, options);
    decision.reasons.push_back(std::string(toString(rule)) + ": " +
                               answer.reason);
    if (answer.sizes) {
      decision.rule = rule;
      decision.sizes = std::move(*answer.sizes);
      return decision;
    }
  }
  return decision;
}

std::string splitReductionAttributeText(const std::vector<int64_t> &sizes) {
  std::string text = "[";
  for (size_t i = 0; i < sizes.size(); ++i)
    text += (i ? ", " : "") + std::to_string(sizes[i]) + " : index";
  return text + "]";
}

Result<ParsedSplit> parseSplitSizes(std::string_view text,
                                    const std::vector<int64_t> &bounds) {
  std::string cleaned;
  for (char c : text)
    cleaned += (c == '[' || c == ']' || c == ',') ? ' ' : c;
  // IREE's own spelling carries ": index" after each tile.
  for (size_t at; (at = cleaned.find(": index")) != std::string::npos;)
    cleaned.replace(at, 7, " ");
  std::istringstream in(cleaned);
  ParsedSplit parsed;
  std::string word;
  while (in >> word) {
    size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(word, &used);
    } catch (const std::exception &) {
      used = 0;
    }
    if (used != word.size())
      return Error{"split '" + std::string(text) + "': '" + word +
                   "' is not a tile size"};
    parsed.sizes.push_back(value);
  }
  if (parsed.sizes.size() != bounds.size())
    return Error{"split '" + std::string(text) + "' has " +
                 std::to_string(parsed.sizes.size()) +
                 " tile size(s); the op has " + std::to_string(bounds.size()) +
                 " reduction loop(s) (" + join(bounds, "x") + ")"};
  for (size_t i = 0; i < bounds.size(); ++i) {
    const int64_t tile = parsed.sizes[i];
    if (tile < 0)
      return Error{"split tile " + std::to_string(tile) +
                   " of reduction loop " + std::to_string(i) + " is negative"};
    if (bounds[i] != kDynamicSize && tile > bounds[i])
      return Error{"split tile " + std::to_string(tile) +
                   " of reduction loop " + std::to_string(i) +
                   " is larger than the loop (" + std::to_string(bounds[i]) +
                   ")"};
    if (tile > 0 && bounds[i] != kDynamicSize && bounds[i] % tile != 0)
      parsed.warnings.push_back(
          "tile " + std::to_string(tile) + " does not divide reduction loop " +
          std::to_string(i) + " (" + std::to_string(bounds[i]) +
          "): the last chunk is partial");
  }
  if (std::all_of(parsed.sizes.begin(), parsed.sizes.end(),
                  [](int64_t t) { return t == 0; }))
    return Error{"split '" + std::string(text) +
                 "' tiles no loop (all 0): clear the split instead"};
  return parsed;
}

} // namespace tilescope::config
