// The config model's readers (iteration spaces, contraction and convolution
// dimensions, implicit GEMMs) over either kind of JSON value (JsonValue.h):
// ConfigJson's public readers take nlohmann's DOM, DocumentJson's reading of
// the parse worker's answer simdjson's tape, with these field lists.
#pragma once

#include "core/config/configs/ImplicitGemm.h"
#include "core/config/configs/IterationSpace.h"
#include "core/export/detail/JsonValue.h"
#include "core/util/Result.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::exporting::detail {

// The whole numbers of an array, each fitting T; a plain conversion of one
// that does not fit is undefined behaviour (found by fuzz_document).
template <typename T, typename Value>
Result<std::vector<T>> wholeNumbers(const Value &value, const char *key) {
  if (!value.isArray())
    return Error{std::string("\"") + key + "\" is not an array"};
  std::vector<T> numbers;
  for (const Value &entry : value.elements()) {
    const bool fits =
        entry.isInteger() &&
        (entry.isUnsigned()
             ? entry.uint64() <=
                   static_cast<uint64_t>(std::numeric_limits<T>::max())
             : entry.int64() >=
                       static_cast<int64_t>(std::numeric_limits<T>::min()) &&
                   entry.int64() <=
                       static_cast<int64_t>(std::numeric_limits<T>::max()));
    if (!fits)
      return Error{std::string("\"") + key + "\" holds " + entry.text() +
                   ", not a whole number in range"};
    numbers.push_back(static_cast<T>(entry.int64()));
  }
  return numbers;
}

template <typename Value>
Result<config::IterationSpace> readIterationSpace(const Value &value) {
  try {
    config::IterationSpace space;
    auto bounds = wholeNumbers<int64_t>(value.at("bounds"), "bounds");
    if (!bounds)
      return Error{"iteration space: " + bounds.error()};
    space.bounds = std::move(*bounds);
    for (const Value &kind : value.at("kinds").elements())
      space.kinds.push_back(kind.string() == "reduction"
                                ? config::LoopKind::Reduction
                                : config::LoopKind::Parallel);
    if (space.kinds.size() != space.bounds.size())
      return Error{"iteration space: " + std::to_string(space.kinds.size()) +
                   " loop kinds for " + std::to_string(space.bounds.size()) +
                   " bounds"};
    if (auto operands = value.find("operands"))
      for (const Value &entry : operands->elements()) {
        config::OperandAccess operand;
        operand.elementType = entry.at("element_type").string();
        auto dims = wholeNumbers<int>(entry.at("dims"), "dims");
        if (!dims)
          return Error{"iteration space: " + dims.error()};
        operand.dims = std::move(*dims);
        operand.isOutput = entry.at("output").boolean();
        if (auto given = entry.find("shape")) {
          auto shape = wholeNumbers<int64_t>(*given, "shape");
          if (!shape)
            return Error{"iteration space: " + shape.error()};
          operand.shape = std::move(*shape);
        }
        space.operands.push_back(std::move(operand));
      }
    return space;
  } catch (const JsonReadError &error) {
    return Error{std::string("iteration space: ") + error.what()};
  }
}

template <typename Value>
Result<config::ContractionDims> readContractionDims(const Value &value) {
  try {
    config::ContractionDims dims;
    for (auto [key, out] :
         {std::pair{"batch", &dims.batch}, std::pair{"m", &dims.m},
          std::pair{"n", &dims.n}, std::pair{"k", &dims.k}}) {
      auto numbers = wholeNumbers<int>(value.at(key), key);
      if (!numbers)
        return Error{"contraction dimensions: " + numbers.error()};
      *out = std::move(*numbers);
    }
    if (auto kB = value.find("k_b")) {
      auto numbers = wholeNumbers<int>(*kB, "k_b");
      if (!numbers)
        return Error{"contraction dimensions: " + numbers.error()};
      dims.kB = std::move(*numbers);
    }
    return dims;
  } catch (const JsonReadError &error) {
    return Error{std::string("contraction dimensions: ") + error.what()};
  }
}

template <typename Value>
Result<config::ConvolutionDims> readConvolutionDims(const Value &value) {
  if (!value.isObject())
    return Error{"convolution dimensions: not an object"};
  config::ConvolutionDims dims;
  for (auto [key, out] : {std::pair{"batch", &dims.batch},
                          std::pair{"output_image", &dims.outputImage},
                          std::pair{"output_channel", &dims.outputChannel},
                          std::pair{"filter_loop", &dims.filterLoop},
                          std::pair{"input_channel", &dims.inputChannel},
                          std::pair{"depth", &dims.depth}}) {
    auto given = value.find(key);
    if (!given)
      return Error{std::string("convolution dimensions: no \"") + key + "\""};
    auto numbers = wholeNumbers<int>(*given, key);
    if (!numbers)
      return Error{"convolution dimensions: " + numbers.error()};
    *out = std::move(*numbers);
  }
  return dims;
}

template <typename Value>
Result<config::ImplicitGemm> readImplicitGemm(const Value &value) {
  const std::string where = "implicit GEMM: ";
  try {
    config::ImplicitGemm igemm;
    auto convolution = readIterationSpace(value.at("convolution"));
    if (!convolution)
      return Error{where + "convolution " + convolution.error()};
    auto gemm = readIterationSpace(value.at("gemm"));
    if (!gemm)
      return Error{where + "gemm " + gemm.error()};
    auto contraction = readContractionDims(value.at("contraction"));
    if (!contraction)
      return Error{where + contraction.error()};
    igemm.convolution = std::move(*convolution);
    igemm.gemm = std::move(*gemm);
    igemm.contraction = std::move(*contraction);
    for (const Value &pair : value.at("convolution_to_gemm").elements()) {
      auto numbers = wholeNumbers<int>(pair, "convolution_to_gemm");
      if (!numbers)
        return Error{where + numbers.error()};
      if (numbers->size() != 2 || (*numbers)[0] < 0 || (*numbers)[1] < 0 ||
          static_cast<size_t>((*numbers)[0]) >= igemm.convolution.rank() ||
          static_cast<size_t>((*numbers)[1]) >= igemm.gemm.rank())
        return Error{where + "a convolution_to_gemm entry is not a pair of "
                             "loops of the two spaces"};
      igemm.convolutionToGemm.emplace_back((*numbers)[0], (*numbers)[1]);
    }
    auto perm = wholeNumbers<int64_t>(value.at("im2col_output_permutation"),
                                      "im2col_output_permutation");
    if (!perm)
      return Error{where + perm.error()};
    igemm.im2colOutputPermutation = std::move(*perm);
    for (const Value &group : value.at("filter_reassociation").elements()) {
      auto numbers = wholeNumbers<int64_t>(group, "filter_reassociation");
      if (!numbers)
        return Error{where + numbers.error()};
      igemm.filterReassociation.push_back(std::move(*numbers));
    }
    igemm.outputChannelFirst = value.at("output_channel_first").boolean();
    auto dims = readConvolutionDims(value.at("dimensions"));
    if (!dims)
      return Error{where + dims.error()};
    igemm.dims = std::move(*dims);
    for (auto [key, out] : {std::pair{"strides", &igemm.strides},
                            std::pair{"dilations", &igemm.dilations}}) {
      auto numbers = wholeNumbers<int64_t>(value.at(key), key);
      if (!numbers)
        return Error{where + numbers.error()};
      *out = std::move(*numbers);
    }
    return igemm;
  } catch (const JsonReadError &error) {
    return Error{where + error.what()};
  }
}

} // namespace tilescope::exporting::detail
