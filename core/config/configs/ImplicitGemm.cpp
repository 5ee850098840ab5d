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
    // A collapsed loop counts its convolution loops in the filter's order,
    // the last fastest (IREE collapses the filter as it is laid out).
    if (convolution.operands.size() > 1) {
      const std::vector<int> &filter = convolution.operands[1].dims;
      auto position = [&](int loop) {
        return std::find(filter.begin(), filter.end(), loop) - filter.begin();
      };
      std::stable_sort(loops.begin(), loops.end(),
                       [&](int a, int b) { return position(a) < position(b); });
    }
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

bool usesImplicitGemm(const TranslationInfo &info) {
  const auto options = info.pipelineOptions();
  return options && options->useIgemmConvolution.value_or(false);
}

} // namespace tilescope::config
