// A convolution as IREE builds it with use_igemm_convolution: an implicit
// GEMM (IREE's getIGEMMGenericConvDetails and ConvolutionToIGEMM). Its
// lowering config's lists index these loops, not the convolution's own:
// NHWC x HWCF is (n, oh, ow, f, K) with K = fh x fw x c, a contraction whose
// LHS is the im2col'd input and whose RHS is the filter collapsed to K x f.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/TranslationInfo.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::config {

struct ImplicitGemm {
  // The convolution's own loops (a conv_2d_nhwc_hwcf has 7).
  IterationSpace convolution;
  // IREE's IGEMM loops: bounds, iterator kinds, and the contraction's three
  // operands from IREE's igemmContractionMaps (the im2col'd input and the
  // collapsed filter, in the order IREE gives them, then the output).
  IterationSpace gemm;
  // batch / M / N / K of the IGEMM loops (linalg's contraction inference).
  ContractionDims contraction;
  // Each convolution loop and the IGEMM loop it becomes (many to one: the
  // filter window and input channels all become K).
  std::vector<std::pair<int, int>> convolutionToGemm;
  // The im2col tensor's permutation and the filter's collapse, as IREE
  // states them.
  std::vector<int64_t> im2colOutputPermutation;
  std::vector<std::vector<int64_t>> filterReassociation;
  // Output channels before the spatial dims (NCHW-like): IREE swaps input
  // and filter in the contraction.
  bool outputChannelFirst = false;
  // The convolution's own dimensions, strides and dilations (linalg's
  // inferConvolutionDims): what the im2col map reads.
  ConvolutionDims dims;
  std::vector<int64_t> strides, dilations;

  // The IGEMM loop a convolution loop became; nullopt for none.
  std::optional<int> gemmLoopOf(int convolutionLoop) const;
  // The convolution loops one IGEMM loop stands for, in order.
  std::vector<int> convolutionLoopsOf(int gemmLoop) const;
  // "3x3x256 (d4, d5, d6)", "64 (d1)": the convolution loops an IGEMM loop
  // is made of, for a person.
  std::string describeLoop(int gemmLoop) const;

  // The convolution's loop ranges [begin, end) that a box of IGEMM loop
  // ranges covers: a loop IREE keeps is the same range; a collapsed loop
  // (K) is the box around the points its range decomposes into.
  std::vector<std::pair<int64_t, int64_t>>
  convolutionBox(const std::vector<std::pair<int64_t, int64_t>> &gemmBox) const;
  // The input elements those convolution loops read, per input dimension
  // (the im2col map: output pixel x stride + filter tap x dilation), as
  // [begin, end); empty where the input's indexing is not one Tilescope
  // reads.
  std::vector<std::pair<int64_t, int64_t>> inputBox(
      const std::vector<std::pair<int64_t, int64_t>> &convolutionBox) const;
  // The convolution loops one IGEMM loop stands for, in the order it
  // counts them: a collapsed loop (K) in the filter's order, the last
  // fastest (IREE collapses the filter as it is laid out).
  std::vector<int> countedLoopsOf(int gemmLoop) const;
  // The IGEMM points that read element `element` of the convolution's
  // operand `operand` (0 the input, 1 the filter; its coordinates in the
  // operand's own dimensions): one per way the im2col map reaches it (an
  // input pixel is read by every filter tap that lands on it within the
  // loops' bounds), the IGEMM loops the operand does not index open (-1).
  // Empty where no point reads it, or the operand's indexing is not one
  // Tilescope reads.
  std::vector<std::vector<int64_t>>
  gemmPointsOf(size_t operand, const std::vector<int64_t> &element) const;
};

// Whether a translation_info's pipeline options ask for the IGEMM path
// (use_igemm_convolution = true): IREE then tiles the convolution's IGEMM
// loops, and its lowering config indexes them.
bool usesImplicitGemm(const TranslationInfo &info);

} // namespace tilescope::config
