#include "core/config/configs/ImplicitGemm.h"

#include <algorithm>
#include <limits>

namespace tilescope::config {

std::optional<int> ImplicitGemm::gemmLoopOf(int convolutionLoop) const {
  for (const auto &[conv, gemmLoop] : convolutionToGemm)
    if (conv == convolutionLoop)
      return gemmLoop;
  return std::nullopt;
}

std::vector<int> ImplicitGemm::convolutionLoopsOf(int gemmLoop) const {
  std::vector<int> loops;
  for (const auto &[conv, to] : convolutionToGemm)
    if (to == gemmLoop)
      loops.push_back(conv);
  return loops;
}

std::string ImplicitGemm::describeLoop(int gemmLoop) const {
  const std::vector<int> loops = convolutionLoopsOf(gemmLoop);
  std::string sizes, dims;
  for (int loop : loops) {
    const int64_t bound =
        loop >= 0 && static_cast<size_t>(loop) < convolution.bounds.size()
            ? convolution.bounds[static_cast<size_t>(loop)]
            : kDynamicSize;
    sizes += (sizes.empty() ? "" : "x") +
             (bound == kDynamicSize ? std::string("?") : std::to_string(bound));
    dims += (dims.empty() ? "d" : ", d") + std::to_string(loop);
  }
  if (loops.empty())
    return "(no convolution loop)";
  return sizes + " (" + dims + ")";
}

std::vector<std::pair<int64_t, int64_t>> ImplicitGemm::convolutionBox(
    const std::vector<std::pair<int64_t, int64_t>> &gemmBox) const {
  std::vector<std::pair<int64_t, int64_t>> box;
  for (int64_t bound : convolution.bounds)
    box.emplace_back(0, bound);
  for (size_t g = 0; g < gemmBox.size(); ++g) {
    std::vector<int> loops = convolutionLoopsOf(static_cast<int>(g));
    if (loops.size() == 1) {
      box[static_cast<size_t>(loops.front())] = gemmBox[g];
      continue;
    }
    if (loops.empty())
      continue;
    loops = countedLoopsOf(static_cast<int>(g));
    std::vector<int64_t> sizes;
    for (int loop : loops)
      sizes.push_back(convolution.bounds[static_cast<size_t>(loop)]);
    if (std::any_of(sizes.begin(), sizes.end(),
                    [](int64_t size) { return size <= 0; }))
      continue; // dynamic: the whole range
    const auto [begin, end] = gemmBox[g];
    constexpr int64_t kMostPoints = 1 << 20;
    if (end - begin > kMostPoints)
      continue; // the whole range, near enough
    std::vector<int64_t> low(loops.size(), std::numeric_limits<int64_t>::max());
    std::vector<int64_t> high(loops.size(), -1);
    for (int64_t k = begin; k < end; ++k) {
      int64_t rest = k;
      for (size_t i = loops.size(); i-- > 0;) {
        const int64_t digit = rest % sizes[i];
        rest /= sizes[i];
        low[i] = std::min(low[i], digit);
        high[i] = std::max(high[i], digit);
      }
    }
    for (size_t i = 0; i < loops.size(); ++i)
      if (high[i] >= 0)
        box[static_cast<size_t>(loops[i])] = {low[i], high[i] + 1};
  }
  return box;
}

std::vector<std::pair<int64_t, int64_t>> ImplicitGemm::inputBox(
    const std::vector<std::pair<int64_t, int64_t>> &box) const {
  if (convolution.operands.empty() || box.size() != convolution.rank())
    return {};
  const OperandAccess &input = convolution.operands.front();
  std::vector<std::pair<int64_t, int64_t>> out;
  size_t spatial = 0;
  for (int dim : input.dims) {
    if (dim >= 0 && static_cast<size_t>(dim) < box.size()) {
      out.push_back(box[static_cast<size_t>(dim)]);
      continue;
    }
    // out x stride + tap x dilation, the i-th image dimension.
    // (The dimensions may come from a document's JSON: each is checked.)
    if (spatial >= dims.outputImage.size() ||
        spatial >= dims.filterLoop.size() || spatial >= strides.size() ||
        spatial >= dilations.size())
      return {};
    const auto output = static_cast<size_t>(dims.outputImage[spatial]);
    const auto filter = static_cast<size_t>(dims.filterLoop[spatial]);
    if (dims.outputImage[spatial] < 0 || dims.filterLoop[spatial] < 0 ||
        output >= box.size() || filter >= box.size())
      return {};
    const auto [o0, o1] = box[output];
    const auto [f0, f1] = box[filter];
    if (o1 <= o0 || f1 <= f0)
      return {};
    const int64_t stride = strides[spatial], dilation = dilations[spatial];
    out.emplace_back(o0 * stride + f0 * dilation,
                     (o1 - 1) * stride + (f1 - 1) * dilation + 1);
    ++spatial;
  }
  return out;
}

std::vector<int> ImplicitGemm::countedLoopsOf(int gemmLoop) const {
  std::vector<int> loops = convolutionLoopsOf(gemmLoop);
  if (loops.size() > 1 && convolution.operands.size() > 1) {
    const std::vector<int> &filter = convolution.operands[1].dims;
    auto position = [&](int loop) {
      return std::find(filter.begin(), filter.end(), loop) - filter.begin();
    };
    std::stable_sort(loops.begin(), loops.end(),
                     [&](int a, int b) { return position(a) < position(b); });
  }
  return loops;
}

namespace {

// Every assignment of the convolution's loops (-1: not assigned) that
// reads `element` of `access`: a loop the operand indexes alone takes the
// element's coordinate; an image dimension (out x stride + tap x dilation)
// each (out, tap) pair within the loops' bounds that lands on it.
std::vector<std::vector<int64_t>>
loopAssignments(const ImplicitGemm &igemm, const OperandAccess &access,
                const std::vector<int64_t> &element) {
  const std::vector<int64_t> &bounds = igemm.convolution.bounds;
  std::vector<std::vector<int64_t>> assignments{
      std::vector<int64_t>(bounds.size(), -1)};
  auto inBounds = [&](int loop, int64_t value) {
    return loop >= 0 && static_cast<size_t>(loop) < bounds.size() &&
           value >= 0 &&
           (bounds[static_cast<size_t>(loop)] <= 0 ||
            value < bounds[static_cast<size_t>(loop)]);
  };
  size_t spatial = 0;
  for (size_t i = 0; i < access.dims.size(); ++i) {
    const int dim = access.dims[i];
    if (dim >= 0) {
      if (!inBounds(dim, element[i]))
        return {};
      for (std::vector<int64_t> &a : assignments)
        a[static_cast<size_t>(dim)] = element[i];
      continue;
    }
    const ConvolutionDims &dims = igemm.dims;
    if (spatial >= dims.outputImage.size() ||
        spatial >= dims.filterLoop.size() || spatial >= igemm.strides.size() ||
        spatial >= igemm.dilations.size())
      return {};
    const int out = dims.outputImage[spatial], tap = dims.filterLoop[spatial];
    const int64_t stride = igemm.strides[spatial];
    const int64_t dilation = igemm.dilations[spatial];
    ++spatial;
    if (!inBounds(out, 0) || !inBounds(tap, 0) || stride <= 0 ||
        dilation <= 0 || bounds[static_cast<size_t>(tap)] <= 0)
      return {};
    std::vector<std::vector<int64_t>> next;
    for (const std::vector<int64_t> &a : assignments)
      for (int64_t t = 0; t < bounds[static_cast<size_t>(tap)]; ++t) {
        const int64_t rest = element[i] - t * dilation;
        if (rest < 0 || rest % stride != 0 || !inBounds(out, rest / stride))
          continue;
        std::vector<int64_t> b = a;
        b[static_cast<size_t>(out)] = rest / stride;
        b[static_cast<size_t>(tap)] = t;
        next.push_back(std::move(b));
      }
    assignments = std::move(next);
  }
  return assignments;
}

} // namespace

std::vector<std::vector<int64_t>>
ImplicitGemm::gemmPointsOf(size_t operand,
                           const std::vector<int64_t> &element) const {
  if (operand >= convolution.operands.size())
    return {};
  const OperandAccess &access = convolution.operands[operand];
  if (element.size() != access.dims.size())
    return {};
  // Each IGEMM loop's convolution loops, once for every assignment.
  std::vector<std::vector<int>> counted(gemm.rank());
  for (size_t g = 0; g < counted.size(); ++g)
    counted[g] = countedLoopsOf(static_cast<int>(g));
  std::vector<std::vector<int64_t>> points;
  for (const std::vector<int64_t> &a :
       loopAssignments(*this, access, element)) {
    std::vector<int64_t> point(gemm.rank(), -1);
    bool whole = true; // a collapsed loop has all its parts or none
    for (size_t g = 0; g < point.size() && whole; ++g) {
      const std::vector<int> &loops = counted[g];
      size_t given = 0;
      int64_t flat = 0;
      for (int loop : loops) {
        const auto l = static_cast<size_t>(loop);
        if (l >= a.size() || a[l] < 0)
          continue;
        ++given;
        flat = flat * convolution.bounds[l] + a[l];
      }
      if (given == loops.size() && given > 0)
        point[g] = flat;
      else if (given > 0)
        whole = false;
    }
    if (whole)
      points.push_back(std::move(point));
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

bool usesImplicitGemm(const TranslationInfo &info) {
  const auto options = info.pipelineOptions();
  return options && options->useIgemmConvolution.value_or(false);
}

} // namespace tilescope::config
