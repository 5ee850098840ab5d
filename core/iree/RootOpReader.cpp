#include "core/iree/detail/RootOpReader.h"

#include <algorithm>

namespace tilescope::iree::detail {
namespace {

constexpr int64_t kUnset = -2;

// The element type of a shaped operand, or the type itself for a scalar.
std::string elementTypeOf(const Ir &ir, MlirType type) {
  if (auto shaped = ir.shaped(type))
    return shaped->elementType;
  if (type.ptr && ir.api.mlirTypeIsAShaped(type))
    return ir.print(ir.api.mlirShapedTypeGetElementType(type));
  return ir.print(type);
}

// Loop kinds from an `iterator_types` array, when the op carries one.
std::optional<std::vector<config::LoopKind>>
iteratorKinds(const Ir &ir, MlirOperation op, size_t rank) {
  MlirAttribute types = ir.attribute(op, "iterator_types");
  if (!types.ptr || !ir.api.mlirAttributeIsAArray(types) ||
      static_cast<size_t>(ir.api.mlirArrayAttrGetNumElements(types)) != rank)
    return std::nullopt;
  std::vector<config::LoopKind> kinds;
  for (size_t i = 0; i < rank; ++i) {
    // #linalg.iterator_type<reduction> (or a string in older IR): the enum
    // has no C API, its spelling is the only reading there is.
    const std::string text = ir.print(
        ir.api.mlirArrayAttrGetElement(types, static_cast<intptr_t>(i)));
    kinds.push_back(text.find("reduction") != std::string::npos
                        ? config::LoopKind::Reduction
                        : config::LoopKind::Parallel);
  }
  return kinds;
}

// Whether a convolution-like op never reads its second input's values (the
// window of a pooling op: linalg's convolution interface matches pooling
// too, whose "filter" is only a shape). Its body's block argument for that
// input has no use; false where the C API cannot say.
bool readsNoWindowValues(const FunctionTable &api, MlirOperation op) {
  if (!api.mlirOperationGetRegion || !api.mlirRegionGetFirstBlock ||
      !api.mlirBlockGetNumArguments || !api.mlirBlockGetArgument ||
      !api.mlirValueGetFirstUse || !api.mlirOpOperandIsNull)
    return false;
  const MlirBlock body =
      api.mlirRegionGetFirstBlock(api.mlirOperationGetRegion(op, 0));
  if (!body.ptr || api.mlirBlockGetNumArguments(body) < 3)
    return false;
  return api.mlirOpOperandIsNull(
      api.mlirValueGetFirstUse(api.mlirBlockGetArgument(body, 1)));
}

// The convolution as IREE's IGEMM conversion sees it, when IREE can convert
// it (ireeCodegenHasIGEMMGenericConvDetails): its loops, the contraction's
// maps over them and how the convolution's loops map onto them.
std::optional<config::ImplicitGemm>
implicitGemmOf(const Ir &ir, MlirOperation op,
               const config::IterationSpace &convolution) {
  const FunctionTable &api = ir.api;
  if (!api.ireeCodegenHasIGEMMGenericConvDetails ||
      !api.ireeCodegenGetIGEMMGenericConvDetails ||
      !api.ireeCodegenHasIGEMMGenericConvDetails(op))
    return std::nullopt;
  const ireeCodegenIGEMMGenericConvDetails details =
      api.ireeCodegenGetIGEMMGenericConvDetails(op);
  config::ImplicitGemm igemm;
  igemm.convolution = convolution;
  igemm.outputChannelFirst = details.isOutputChannelFirst;
  auto bounds = ir.integers(details.igemmLoopBounds);
  if (!bounds || bounds->empty())
    return std::nullopt;
  igemm.gemm.bounds = *bounds;
  for (int64_t &bound : igemm.gemm.bounds)
    if (bound < 0)
      bound = config::kDynamicSize;
  const size_t rank = igemm.gemm.bounds.size();
  MlirAttribute iterators = details.igemmLoopIterators;
  if (!iterators.ptr || !api.mlirAttributeIsAArray(iterators) ||
      static_cast<size_t>(api.mlirArrayAttrGetNumElements(iterators)) != rank)
    return std::nullopt;
  for (size_t i = 0; i < rank; ++i) {
    MlirAttribute kind =
        api.mlirArrayAttrGetElement(iterators, static_cast<intptr_t>(i));
    const std::string text =
        api.mlirAttributeIsAString(kind)
            ? [&] {
                MlirStringRef ref = api.mlirStringAttrGetValue(kind);
                return std::string(ref.data, ref.length);
              }()
            : ir.print(kind);
    igemm.gemm.kinds.push_back(text.find("reduction") != std::string::npos
                                   ? config::LoopKind::Reduction
                                   : config::LoopKind::Parallel);
  }
  // The contraction's operands: the im2col'd input and the collapsed filter
  // (swapped where the output channel comes first), then the output; each
  // keeps the element type of the convolution operand it is made from.
  MlirAttribute maps = details.igemmContractionMaps;
  if (!maps.ptr || !api.mlirAttributeIsAArray(maps) ||
      api.mlirArrayAttrGetNumElements(maps) != 3 ||
      convolution.operands.size() != 3)
    return std::nullopt;
  for (intptr_t i = 0; i < 3; ++i) {
    auto dims = ir.mapDims(api.mlirArrayAttrGetElement(maps, i));
    if (!dims || dims->numDims != rank)
      return std::nullopt;
    size_t from = static_cast<size_t>(i);
    if (igemm.outputChannelFirst && i < 2)
      from = 1 - from;
    config::OperandAccess operand;
    operand.elementType = convolution.operands[from].elementType;
    operand.dims = dims->results;
    operand.isOutput = i == 2;
    igemm.gemm.operands.push_back(std::move(operand));
  }
  auto contraction = config::inferContraction(igemm.gemm);
  if (!contraction || contraction->m.empty() || contraction->n.empty() ||
      contraction->k.empty())
    return std::nullopt;
  igemm.contraction = std::move(*contraction);

  if (auto perm = ir.integers(details.im2colOutputPerm))
    igemm.im2colOutputPermutation = std::move(*perm);
  MlirAttribute reassociation = details.filterReassocIndices;
  if (reassociation.ptr && api.mlirAttributeIsAArray(reassociation))
    for (intptr_t i = 0, e = api.mlirArrayAttrGetNumElements(reassociation);
         i < e; ++i)
      igemm.filterReassociation.push_back(
          ir.integers(api.mlirArrayAttrGetElement(reassociation, i))
              .value_or(std::vector<int64_t>{}));
  MlirAttribute pairs = details.convToIgemmDimMap;
  if (!pairs.ptr || !api.mlirAttributeIsAArray(pairs))
    return std::nullopt;
  for (intptr_t i = 0, e = api.mlirArrayAttrGetNumElements(pairs); i < e; ++i) {
    auto pair = ir.integers(api.mlirArrayAttrGetElement(pairs, i));
    if (!pair || pair->size() != 2 || (*pair)[0] < 0 ||
        static_cast<size_t>((*pair)[0]) >= convolution.rank() ||
        (*pair)[1] < 0 || static_cast<size_t>((*pair)[1]) >= rank)
      return std::nullopt;
    igemm.convolutionToGemm.emplace_back(static_cast<int>((*pair)[0]),
                                         static_cast<int>((*pair)[1]));
  }
  std::sort(igemm.convolutionToGemm.begin(), igemm.convolutionToGemm.end());
  if (api.mlirLinalgInferConvolutionDimensions) {
    const MlirLinalgConvolutionDimensions conv =
        api.mlirLinalgInferConvolutionDimensions(op);
    igemm.dims = config::ConvolutionDims{
        dimsOf(api, conv.batch),         dimsOf(api, conv.outputImage),
        dimsOf(api, conv.outputChannel), dimsOf(api, conv.filterLoop),
        dimsOf(api, conv.inputChannel),  dimsOf(api, conv.depth)};
    igemm.strides = ir.integers(conv.strides).value_or(std::vector<int64_t>{});
    igemm.dilations =
        ir.integers(conv.dilations).value_or(std::vector<int64_t>{});
  }
  return igemm;
}

} // namespace

std::vector<int> dimsOf(const FunctionTable &api, MlirAttribute attribute) {
  std::vector<int> dims;
  if (!attribute.ptr || !api.mlirAttributeIsADenseI32Array ||
      !api.mlirAttributeIsADenseI32Array(attribute))
    return dims;
  for (intptr_t i = 0, e = api.mlirDenseArrayGetNumElements(attribute); i < e;
       ++i)
    dims.push_back(api.mlirDenseI32ArrayGetElement(attribute, i));
  return dims;
}

std::optional<config::IterationSpace> iterationSpaceOf(const Ir &ir,
                                                       MlirOperation op) {
  const FunctionTable &api = ir.api;
  MlirAttribute maps{nullptr};
  if (api.mlirLinalgGetIndexingMapsAttribute)
    maps = api.mlirLinalgGetIndexingMapsAttribute(op);
  if (!maps.ptr)
    maps = ir.attribute(op, "indexing_maps"); // linalg_ext ops
  if (!maps.ptr || !api.mlirAttributeIsAArray(maps))
    return std::nullopt;
  const intptr_t mapCount = api.mlirArrayAttrGetNumElements(maps);
  const intptr_t operandCount = api.mlirOperationGetNumOperands(op);
  if (mapCount == 0 || mapCount != operandCount)
    return std::nullopt;
  // Destination-passing style: the last operands are the inits, one per
  // tensor result (a memref op has none; its last operand is the output).
  const intptr_t outputs =
      std::max<intptr_t>(1, api.mlirOperationGetNumResults(op));

  std::vector<Ir::MapDims> accesses;
  for (intptr_t i = 0; i < mapCount; ++i) {
    auto dims = ir.mapDims(api.mlirArrayAttrGetElement(maps, i));
    if (!dims)
      return std::nullopt;
    accesses.push_back(std::move(*dims));
  }
  const size_t rank = accesses.front().numDims;
  config::IterationSpace space;
  space.bounds.assign(rank, kUnset);
  for (intptr_t i = 0; i < mapCount; ++i) {
    const Ir::MapDims &access = accesses[static_cast<size_t>(i)];
    if (access.numDims != rank)
      return std::nullopt;
    MlirType type = api.mlirValueGetType(api.mlirOperationGetOperand(op, i));
    config::OperandAccess operand;
    operand.elementType = elementTypeOf(ir, type);
    operand.dims = access.results;
    operand.isOutput = i >= mapCount - outputs;
    if (auto shaped = ir.shaped(type);
        shaped && shaped->shape.size() == access.results.size()) {
      for (int64_t size : shaped->shape)
        operand.shape.push_back(size < 0 ? config::kDynamicSize : size);
      for (size_t j = 0; j < access.results.size(); ++j) {
        const int dim = access.results[j];
        if (dim >= 0 && static_cast<size_t>(dim) < rank &&
            space.bounds[static_cast<size_t>(dim)] == kUnset)
          space.bounds[static_cast<size_t>(dim)] =
              shaped->shape[j] < 0 ? config::kDynamicSize : shaped->shape[j];
      }
    }
    space.operands.push_back(std::move(operand));
  }
  for (int64_t &bound : space.bounds)
    if (bound == kUnset)
      bound = config::kDynamicSize;

  if (auto kinds = iteratorKinds(ir, op, rank)) {
    space.kinds = std::move(*kinds);
  } else {
    // Named ops and attention: a loop no output reads is a reduction.
    space.kinds.assign(rank, config::LoopKind::Reduction);
    for (const config::OperandAccess &operand : space.operands)
      if (operand.isOutput)
        for (int dim : operand.dims)
          if (dim >= 0 && static_cast<size_t>(dim) < rank)
            space.kinds[static_cast<size_t>(dim)] = config::LoopKind::Parallel;
  }
  return space;
}

void describeRootOp(const Ir &ir, MlirOperation op, document::RootOp &root) {
  const FunctionTable &api = ir.api;
  root.space = iterationSpaceOf(ir, op);
  // IREE's check casts to a linalg op unchecked: ask it of linalg ops only.
  if (root.name.rfind("linalg.", 0) == 0 &&
      api.ireeCodegenMlirOperationIsAScaledContractionOp &&
      api.ireeCodegenInferScaledContractionDimensions &&
      api.ireeCodegenMlirOperationIsAScaledContractionOp(op)) {
    root.kind = config::OpKind::ScaledContraction;
    const ireeCodegenScaledContractionDimensions dims =
        api.ireeCodegenInferScaledContractionDimensions(op);
    auto read = [&](MlirAttribute attribute) {
      std::vector<int> out;
      for (int64_t d : ir.integers(attribute).value_or(std::vector<int64_t>{}))
        out.push_back(static_cast<int>(d));
      return out;
    };
    config::ContractionDims contraction{read(dims.batch), read(dims.m),
                                        read(dims.n), read(dims.k),
                                        read(dims.kB)};
    if (!contraction.m.empty())
      root.contraction = std::move(contraction);
    return;
  }
  if (api.mlirLinalgIsAContractionOp && api.mlirLinalgIsAContractionOp(op)) {
    root.kind = config::OpKind::Contraction;
    if (api.mlirLinalgInferContractionDimensions) {
      const MlirLinalgContractionDimensions dims =
          api.mlirLinalgInferContractionDimensions(op);
      config::ContractionDims contraction;
      contraction.batch = dimsOf(api, dims.batch);
      contraction.m = dimsOf(api, dims.m);
      contraction.n = dimsOf(api, dims.n);
      contraction.k = dimsOf(api, dims.k);
      if (dims.m.ptr)
        root.contraction = std::move(contraction);
    }
    return;
  }
  if (api.mlirLinalgIsAConvolutionOp && api.mlirLinalgIsAConvolutionOp(op)) {
    // Pooling matches the convolution interface too (linalg's pooling ops,
    // and their generic form: a window "filter" whose values the body never
    // reads, max or add instead of multiply-add); IREE builds no implicit
    // GEMM of it.
    if (readsNoWindowValues(api, op)) {
      root.kind = config::OpKind::Pooling;
      return;
    }
    root.kind = config::OpKind::Convolution;
    if (root.space)
      root.implicitGemm = implicitGemmOf(ir, op, *root.space);
    return;
  }
  if (api.ireeCodegenMlirOperationIsACodegenAttentionOp &&
      api.ireeCodegenMlirOperationIsACodegenAttentionOp(op)) {
    root.kind = config::OpKind::Attention;
    return;
  }
  root.kind = config::opKindFromNameAndLoops(
      root.name, root.space ? &*root.space : nullptr);
}

bool isComputeOp(const std::string &opName) {
  const bool linalg = opName.rfind("linalg.", 0) == 0 ||
                      opName.rfind("iree_linalg_ext.", 0) == 0;
  if (!linalg)
    return opName == "tensor.pack" || opName == "tensor.unpack";
  return opName != "linalg.yield" && opName != "linalg.index" &&
         opName != "iree_linalg_ext.yield" && opName != "iree_linalg_ext.index";
}

} // namespace tilescope::iree::detail
