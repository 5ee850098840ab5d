// The data of a checked run: tensor types as IREE's tools write them
// ("128x128xf32"), deterministic random inputs as raw little-endian bytes
// (what iree-run-module reads with --input=TYPE=@file.bin and writes with
// --output=@file.bin), and the element-by-element comparison of an output
// with its reference.
#pragma once

#include "core/util/Result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::run {

struct TensorType {
  std::vector<int64_t> shape;
  std::string element; // "f32", "f16", "bf16", "f64", "i8", "i16", "i32", "i64"
  size_t elementCount() const;
  size_t elementBytes() const;
  // "128x128xf32", as iree-run-module's --input takes it.
  std::string toString() const;
};

// "tensor<128x128xf32>" or "128x128xf32"; dynamic dims and unknown element
// types are errors.
Result<TensorType> parseTensorType(std::string_view text);

// A function's inputs and results, from the iree.abi.declaration that
// iree-dump-module prints for an exported function:
//   sync func @f(%input0: tensor<4x8xf32>, ...) -> (%output0: tensor<4xf32>)
struct FunctionSignature {
  std::string name;
  std::vector<TensorType> inputs;
  std::vector<TensorType> results;
};
// Every exported function with a declaration in iree-dump-module's output.
Result<std::vector<FunctionSignature>>
parseAbiDeclarations(std::string_view dumpModuleOutput);

// Every public func.func of a program's source text, with its arguments' and
// results' types: for programs IREE writes no iree.abi.declaration for (IREE
// 3.13 writes none for torch-input functions, as iree-import-onnx makes
// them). Reads `tensor<4x8xf32>` and torch's `!torch.vtensor<[4,8],f32>`
// (si64 as i64, ...); a function whose types a checked run cannot feed is
// listed with `unfed` saying why.
struct SourceFunction {
  FunctionSignature signature;
  std::string unfed; // empty when every argument and result is a static tensor
};
std::vector<SourceFunction> parseSourceFunctions(std::string_view mlir);

// Deterministic random data for `type`: floats uniform in [-1, 1) (rounded
// to the type), integers in [-8, 8); the same seed gives the same bytes on
// every machine.
std::string randomTensorBytes(const TensorType &type, uint64_t seed);

// The elements of raw little-endian bytes as doubles.
Result<std::vector<double>> tensorValues(const TensorType &type,
                                         std::string_view bytes);

struct Tolerance {
  double absolute = 0;
  double relative = 0;
};
// Per element type: exact for integers; for floats loose enough for another
// summation order, tight enough to catch a wrong element.
Tolerance defaultTolerance(const std::string &element);

struct Mismatch {
  std::vector<int64_t> index;
  double value = 0;
  double reference = 0;
};

struct TensorComparison {
  TensorType type;
  Tolerance tolerance;
  size_t mismatches = 0;
  double maxAbsoluteError = 0;
  double maxRelativeError = 0;
  std::vector<Mismatch> firstMismatches; // at most 5, in row-major order
  bool passed() const { return mismatches == 0; }
};

// |value - reference| <= absolute + relative * |reference| for every
// element; NaN matches only NaN.
TensorComparison compareTensors(const TensorType &type,
                                const std::vector<double> &values,
                                const std::vector<double> &reference,
                                const Tolerance &tolerance);

} // namespace tilescope::run
