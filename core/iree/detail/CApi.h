// Our own declarations of the parts of IREE's compiler C API that Tilescope
// calls, written from IREE's documented signatures (embedding_api.h,
// mlir_interop.h, dialects/iree_gpu.h, dialects/iree_codegen.h) and from the
// MLIR C API (mlir-c/IR.h, Support.h). No IREE or MLIR header is copied here:
// the wheel ships none, and users may bring their own IREE build.
//
// Private to core/iree/: nothing outside this folder includes it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tilescope::iree::capi {

// --- embedding_api.h (stable, API 1.x) -------------------------------------
struct iree_compiler_error_t;
struct iree_compiler_session_t;
struct iree_compiler_invocation_t;
struct iree_compiler_source_t;
struct iree_compiler_output_t;

enum iree_compiler_diagnostic_severity_t : int {
  IREE_COMPILER_DIAGNOSTIC_SEVERITY_NOTE = 0,
  IREE_COMPILER_DIAGNOSTIC_SEVERITY_WARNING = 1,
  IREE_COMPILER_DIAGNOSTIC_SEVERITY_ERROR = 2,
  IREE_COMPILER_DIAGNOSTIC_SEVERITY_REMARK = 3,
};

enum iree_compiler_pipeline_t : int {
  IREE_COMPILER_PIPELINE_STD = 0,
  IREE_COMPILER_PIPELINE_HAL_EXECUTABLE = 1,
  IREE_COMPILER_PIPELINE_PRECOMPILE = 2,
  IREE_COMPILER_PIPELINE_VM = 3,
};

using DiagnosticCallback = void (*)(iree_compiler_diagnostic_severity_t,
                                    const char *message, size_t messageSize,
                                    void *userData);
using StringCallback = void (*)(const char *value, void *userData);
using SourceSplitCallback = void (*)(iree_compiler_source_t *source,
                                     void *userData);

// --- mlir-c handles (each a single pointer, passed by value) ----------------
struct MlirContext {
  void *ptr;
};
struct MlirOperation {
  void *ptr;
};
struct MlirAttribute {
  const void *ptr;
};
struct MlirType {
  const void *ptr;
};
struct MlirIdentifier {
  const void *ptr;
};
struct MlirLocation {
  const void *ptr;
};
struct MlirValue {
  const void *ptr;
};
struct MlirBlock {
  void *ptr;
};
struct MlirOpOperand {
  void *ptr;
};
struct MlirRegion {
  void *ptr;
};
struct MlirAffineMap {
  const void *ptr;
};
struct MlirAffineExpr {
  const void *ptr;
};
struct MlirDiagnostic {
  void *ptr;
};
struct MlirLogicalResult {
  int8_t value;
};
using MlirDiagnosticHandlerID = uint64_t;
enum MlirDiagnosticSeverity : int {
  MlirDiagnosticError = 0,
  MlirDiagnosticWarning = 1,
  MlirDiagnosticNote = 2,
  MlirDiagnosticRemark = 3,
};
struct MlirStringRef {
  const char *data;
  size_t length;
};
struct MlirNamedAttribute {
  MlirIdentifier name;
  MlirAttribute attribute;
};

enum MlirWalkResult : int {
  MlirWalkResultAdvance = 0,
  MlirWalkResultInterrupt = 1,
  MlirWalkResultSkip = 2,
};
enum MlirWalkOrder : int { MlirWalkPreOrder = 0, MlirWalkPostOrder = 1 };

using MlirStringCallback = void (*)(MlirStringRef, void *userData);
using MlirDiagnosticHandler = MlirLogicalResult (*)(MlirDiagnostic,
                                                    void *userData);
using MlirOperationWalkCallback = MlirWalkResult (*)(MlirOperation,
                                                     void *userData);

// --- dialects/iree_gpu.h (unstable) ----------------------------------------
using mma_intrinsic_enum_t = uint32_t;

struct ireeGPUMMASingleSubgroupLayout {
  MlirAttribute outer;
  MlirAttribute thread;
  MlirAttribute tstrides;
  MlirAttribute element;
};

// --- mlir-c/Dialect/Linalg.h ----------------------------------------------
// Each field a DenseI32ArrayAttr of loop dimensions; null when not inferred.
struct MlirLinalgContractionDimensions {
  MlirAttribute batch;
  MlirAttribute m;
  MlirAttribute n;
  MlirAttribute k;
};

// Each a DenseI32ArrayAttr of loop dimensions (strides and dilations
// DenseI64ArrayAttrs); all null when not inferred.
struct MlirLinalgConvolutionDimensions {
  MlirAttribute batch;
  MlirAttribute outputImage;
  MlirAttribute outputChannel;
  MlirAttribute filterLoop;
  MlirAttribute inputChannel;
  MlirAttribute depth;
  MlirAttribute strides;
  MlirAttribute dilations;
};

struct MlirOpPrintingFlags {
  void *ptr;
};

// The functions Tilescope resolves, as X-macros:
//   X(name, return type, (parameter types))
// Required ones must all be present for the library to count as IREE.
#define TILESCOPE_IREE_REQUIRED_FUNCTIONS(X)                                   \
  X(ireeCompilerGetAPIVersion, int, ())                                        \
  X(ireeCompilerGlobalInitialize, void, ())                                    \
  X(ireeCompilerGetRevision, const char *, ())                                 \
  X(ireeCompilerEnumerateRegisteredHALTargetBackends, void,                    \
    (StringCallback, void *))                                                  \
  X(ireeCompilerErrorDestroy, void, (iree_compiler_error_t *))                 \
  X(ireeCompilerErrorGetMessage, const char *, (iree_compiler_error_t *))      \
  X(ireeCompilerSessionCreate, iree_compiler_session_t *, ())                  \
  X(ireeCompilerSessionDestroy, void, (iree_compiler_session_t *))             \
  X(ireeCompilerSessionSetFlags, iree_compiler_error_t *,                      \
    (iree_compiler_session_t *, int, const char *const *))                     \
  X(ireeCompilerInvocationCreate, iree_compiler_invocation_t *,                \
    (iree_compiler_session_t *))                                               \
  X(ireeCompilerInvocationDestroy, void, (iree_compiler_invocation_t *))       \
  X(ireeCompilerInvocationEnableCallbackDiagnostics, void,                     \
    (iree_compiler_invocation_t *, int, DiagnosticCallback, void *))           \
  X(ireeCompilerInvocationParseSource, bool,                                   \
    (iree_compiler_invocation_t *, iree_compiler_source_t *))                  \
  X(ireeCompilerInvocationPipeline, bool,                                      \
    (iree_compiler_invocation_t *, iree_compiler_pipeline_t))                  \
  X(ireeCompilerInvocationOutputIR, iree_compiler_error_t *,                   \
    (iree_compiler_invocation_t *, iree_compiler_output_t *))                  \
  X(ireeCompilerSourceOpenFile, iree_compiler_error_t *,                       \
    (iree_compiler_session_t *, const char *, iree_compiler_source_t **))      \
  X(ireeCompilerSourceWrapBuffer, iree_compiler_error_t *,                     \
    (iree_compiler_session_t *, const char *, const char *, size_t, bool,      \
     iree_compiler_source_t **))                                               \
  X(ireeCompilerSourceSplit, iree_compiler_error_t *,                          \
    (iree_compiler_source_t *, SourceSplitCallback, void *))                   \
  X(ireeCompilerSourceDestroy, void, (iree_compiler_source_t *))               \
  X(ireeCompilerOutputOpenMembuffer, iree_compiler_error_t *,                  \
    (iree_compiler_output_t **))                                               \
  X(ireeCompilerOutputMapMemory, iree_compiler_error_t *,                      \
    (iree_compiler_output_t *, void **, uint64_t *))                           \
  X(ireeCompilerOutputDestroy, void, (iree_compiler_output_t *))

// Optional: a missing one is reported and degrades the feature using it.
#define TILESCOPE_IREE_OPTIONAL_FUNCTIONS(X)                                   \
  /* embedding_api.h, newer than 1.0 */                                        \
  X(ireeCompilerEnumeratePlugins, void, (StringCallback, void *))              \
  X(ireeCompilerInvocationRunPassPipeline, bool,                               \
    (iree_compiler_invocation_t *, const char *))                              \
  /* mlir_interop.h */                                                         \
  X(ireeCompilerInvocationExportStealModule, MlirOperation,                    \
    (iree_compiler_invocation_t *))                                            \
  X(ireeCompilerSessionBorrowContext, MlirContext,                             \
    (iree_compiler_session_t *))                                               \
  X(mlirAttributeParseGet, MlirAttribute, (MlirContext, MlirStringRef))        \
  X(mlirArrayAttrGetNumElements, intptr_t, (MlirAttribute))                    \
  X(mlirArrayAttrGetElement, MlirAttribute, (MlirAttribute, intptr_t))         \
  X(mlirIntegerAttrGetValueInt, int64_t, (MlirAttribute))                      \
  /* mlir-c/IR.h */                                                            \
  X(mlirOperationDestroy, void, (MlirOperation))                               \
  X(mlirOperationWalk, void,                                                   \
    (MlirOperation, MlirOperationWalkCallback, void *, MlirWalkOrder))         \
  X(mlirOperationGetName, MlirIdentifier, (MlirOperation))                     \
  X(mlirOperationGetParentOperation, MlirOperation, (MlirOperation))           \
  X(mlirOperationGetAttributeByName, MlirAttribute,                            \
    (MlirOperation, MlirStringRef))                                            \
  X(mlirOperationGetNumAttributes, intptr_t, (MlirOperation))                  \
  X(mlirOperationGetAttribute, MlirNamedAttribute, (MlirOperation, intptr_t))  \
  X(mlirOperationGetNumDiscardableAttributes, intptr_t, (MlirOperation))       \
  X(mlirOperationGetDiscardableAttribute, MlirNamedAttribute,                  \
    (MlirOperation, intptr_t))                                                 \
  X(mlirOperationGetNumOperands, intptr_t, (MlirOperation))                    \
  X(mlirOperationGetOperand, MlirValue, (MlirOperation, intptr_t))             \
  X(mlirOperationGetNumResults, intptr_t, (MlirOperation))                     \
  X(mlirOperationGetResult, MlirValue, (MlirOperation, intptr_t))              \
  X(mlirOperationGetLocation, MlirLocation, (MlirOperation))                   \
  X(mlirValueGetType, MlirType, (MlirValue))                                   \
  X(mlirTypePrint, void, (MlirType, MlirStringCallback, void *))               \
  X(mlirIdentifierStr, MlirStringRef, (MlirIdentifier))                        \
  X(mlirAttributePrint, void, (MlirAttribute, MlirStringCallback, void *))     \
  X(mlirAttributeIsAString, bool, (MlirAttribute))                             \
  X(mlirStringAttrGetValue, MlirStringRef, (MlirAttribute))                    \
  X(mlirLocationIsAFileLineColRange, bool, (MlirLocation))                     \
  X(mlirLocationFileLineColRangeGetStartLine, int, (MlirLocation))             \
  X(mlirLocationFileLineColRangeGetStartColumn, int, (MlirLocation))           \
  X(mlirLocationPrint, void, (MlirLocation, MlirStringCallback, void *))       \
  X(mlirContextAttachDiagnosticHandler, MlirDiagnosticHandlerID,               \
    (MlirContext, MlirDiagnosticHandler, void *, void (*)(void *)))            \
  X(mlirContextDetachDiagnosticHandler, void,                                  \
    (MlirContext, MlirDiagnosticHandlerID))                                    \
  X(mlirContextSetAllowUnregisteredDialects, void, (MlirContext, bool))        \
  X(mlirDiagnosticPrint, void, (MlirDiagnostic, MlirStringCallback, void *))   \
  X(mlirDiagnosticGetLocation, MlirLocation, (MlirDiagnostic))                 \
  X(mlirDiagnosticGetSeverity, MlirDiagnosticSeverity, (MlirDiagnostic))       \
  X(mlirDiagnosticGetNumNotes, intptr_t, (MlirDiagnostic))                     \
  X(mlirDiagnosticGetNote, MlirDiagnostic, (MlirDiagnostic, intptr_t))         \
  X(mlirLocationFileLineColRangeGetFilename, MlirIdentifier, (MlirLocation))   \
  X(mlirLocationIsAName, bool, (MlirLocation))                                 \
  X(mlirLocationNameGetChildLoc, MlirLocation, (MlirLocation))                 \
  X(mlirLocationIsAFused, bool, (MlirLocation))                                \
  X(mlirLocationFusedGetNumLocations, unsigned, (MlirLocation))                \
  X(mlirLocationFusedGetLocations, void, (MlirLocation, MlirLocation *))       \
  X(mlirLocationIsACallSite, bool, (MlirLocation))                             \
  X(mlirLocationCallSiteGetCallee, MlirLocation, (MlirLocation))               \
  X(mlirLocationIsAUnknown, bool, (MlirLocation))                              \
  X(mlirValueIsAOpResult, bool, (MlirValue))                                   \
  X(mlirValueIsABlockArgument, bool, (MlirValue))                              \
  X(mlirOpResultGetOwner, MlirOperation, (MlirValue))                          \
  X(mlirOpResultGetResultNumber, intptr_t, (MlirValue))                        \
  X(mlirBlockArgumentGetOwner, MlirBlock, (MlirValue))                         \
  X(mlirBlockArgumentGetArgNumber, intptr_t, (MlirValue))                      \
  X(mlirBlockGetParentOperation, MlirOperation, (MlirBlock))                   \
  X(mlirTypeIsAShaped, bool, (MlirType))                                       \
  X(mlirShapedTypeHasRank, bool, (MlirType))                                   \
  X(mlirShapedTypeGetRank, int64_t, (MlirType))                                \
  X(mlirShapedTypeGetDimSize, int64_t, (MlirType, intptr_t))                   \
  X(mlirShapedTypeIsDynamicDim, bool, (MlirType, intptr_t))                    \
  X(mlirShapedTypeGetElementType, MlirType, (MlirType))                        \
  X(mlirAttributeIsAArray, bool, (MlirAttribute))                              \
  X(mlirAttributeIsADenseI64Array, bool, (MlirAttribute))                      \
  X(mlirDenseArrayGetNumElements, intptr_t, (MlirAttribute))                   \
  X(mlirDenseI64ArrayGetElement, int64_t, (MlirAttribute, intptr_t))           \
  X(mlirAttributeIsAInteger, bool, (MlirAttribute))                            \
  X(mlirAttributeIsAAffineMap, bool, (MlirAttribute))                          \
  X(mlirAffineMapAttrGetValue, MlirAffineMap, (MlirAttribute))                 \
  X(mlirAffineMapGetNumDims, intptr_t, (MlirAffineMap))                        \
  X(mlirAffineMapGetNumResults, intptr_t, (MlirAffineMap))                     \
  X(mlirAffineMapGetResult, MlirAffineExpr, (MlirAffineMap, intptr_t))         \
  X(mlirAffineExprIsADim, bool, (MlirAffineExpr))                              \
  X(mlirAffineDimExprGetPosition, intptr_t, (MlirAffineExpr))                  \
  X(mlirAffineExprIsAConstant, bool, (MlirAffineExpr))                         \
  X(mlirAffineConstantExprGetValue, int64_t, (MlirAffineExpr))                 \
  X(mlirLinalgGetIndexingMapsAttribute, MlirAttribute, (MlirOperation))        \
  X(mlirLinalgIsAContractionOp, bool, (MlirOperation))                         \
  X(mlirLinalgInferContractionDimensions, MlirLinalgContractionDimensions,     \
    (MlirOperation))                                                           \
  X(mlirLinalgIsAConvolutionOp, bool, (MlirOperation))                         \
  X(mlirLinalgInferConvolutionDimensions, MlirLinalgConvolutionDimensions,     \
    (MlirOperation))                                                           \
  X(mlirDenseI32ArrayGetElement, int32_t, (MlirAttribute, intptr_t))           \
  X(mlirAttributeIsADenseI32Array, bool, (MlirAttribute))                      \
  X(mlirOperationSetAttributeByName, void,                                     \
    (MlirOperation, MlirStringRef, MlirAttribute))                             \
  X(mlirOperationRemoveAttributeByName, bool, (MlirOperation, MlirStringRef))  \
  X(mlirOpPrintingFlagsCreate, MlirOpPrintingFlags, ())                        \
  X(mlirOpPrintingFlagsDestroy, void, (MlirOpPrintingFlags))                   \
  X(mlirOpPrintingFlagsEnableDebugInfo, void,                                  \
    (MlirOpPrintingFlags, bool, bool))                                         \
  X(mlirOperationPrintWithFlags, void,                                         \
    (MlirOperation, MlirOpPrintingFlags, MlirStringCallback, void *))          \
  X(mlirOperationClone, MlirOperation, (MlirOperation))                        \
  X(mlirOperationSetOperand, void, (MlirOperation, intptr_t, MlirValue))       \
  X(mlirOperationGetRegion, MlirRegion, (MlirOperation, intptr_t))             \
  X(mlirRegionGetFirstBlock, MlirBlock, (MlirRegion))                          \
  X(mlirBlockGetNumArguments, intptr_t, (MlirBlock))                           \
  X(mlirBlockGetArgument, MlirValue, (MlirBlock, intptr_t))                    \
  X(mlirBlockGetTerminator, MlirOperation, (MlirBlock))                        \
  X(mlirValueGetFirstUse, MlirOpOperand, (MlirValue))                          \
  X(mlirOpOperandIsNull, bool, (MlirOpOperand))                                \
  X(mlirBlockInsertOwnedOperationBefore, void,                                 \
    (MlirBlock, MlirOperation, MlirOperation))                                 \
  /* dialects/iree_gpu.h */                                                    \
  X(ireeGPUMMAIntrinsicAttrGet, MlirAttribute,                                 \
    (MlirContext, mma_intrinsic_enum_t))                                       \
  X(ireeGPUVirtualMMAIntrinsicAttrGet, MlirAttribute,                          \
    (MlirContext, mma_intrinsic_enum_t))                                       \
  X(ireeGPUGetSingleSubgroupLayout, ireeGPUMMASingleSubgroupLayout,            \
    (MlirAttribute, uint32_t))                                                 \
  X(ireeGPUIsXORShuffleValid, bool, (int64_t, int64_t, int64_t))               \
  X(ireeGPUGetXorShuffleBounds, bool,                                          \
    (MlirAttribute, int32_t, int64_t *, int64_t *))                            \
  /* dialects/iree_codegen.h */                                                \
  X(ireeAttributeIsACodegenTranslationInfoAttr, bool, (MlirAttribute))         \
  X(ireeAttributeIsAGPULoweringConfigAttr, bool, (MlirAttribute))              \
  X(ireeAttributeIsACodegenCompilationInfoAttr, bool, (MlirAttribute))         \
  X(ireeCodegenMlirOperationIsACodegenAttentionOp, bool, (MlirOperation))      \
  X(ireeCodegenMlirOperationIsAScaledContractionOp, bool, (MlirOperation))     \
  X(ireeCodegenInferScaledContractionDimensions,                               \
    ireeCodegenScaledContractionDimensions, (MlirOperation))                   \
  X(ireeCodegenConvertConstraintsOpToSMTLIB, MlirAttribute,                    \
    (MlirOperation, bool))                                                     \
  X(ireeCodegenHasIGEMMGenericConvDetails, bool, (MlirOperation))              \
  X(ireeCodegenGetIGEMMGenericConvDetails, ireeCodegenIGEMMGenericConvDetails, \
    (MlirOperation))

struct ireeCodegenScaledContractionDimensions {
  MlirAttribute batch, m, n, k, kB; // ArrayAttrs of i32 IntegerAttrs
};

// A convolution as IREE's IGEMM conversion sees it (dialects/iree_codegen.h,
// stable since IREE 3.9): the implicit-GEMM loops and how the conv's map
// onto them. Ask ireeCodegenHasIGEMMGenericConvDetails first: the getter
// asserts on an op it cannot convert.
struct ireeCodegenIGEMMGenericConvDetails {
  MlirAttribute igemmContractionMaps; // ArrayAttr of AffineMapAttr
  MlirAttribute igemmLoopBounds;      // ArrayAttr of i64 IntegerAttr
  MlirAttribute igemmLoopIterators;   // ArrayAttr of StringAttr
  MlirAttribute im2colOutputPerm;     // ArrayAttr of i64 IntegerAttr
  MlirAttribute filterReassocIndices; // ArrayAttr of ArrayAttr of i64
  bool isOutputChannelFirst;          // input and filter swapped in the maps
  MlirAttribute convToIgemmDimMap;    // ArrayAttr of [conv dim, IGEMM dim]
};

// One pointer per function; null when the library does not export it.
struct FunctionTable {
#define TILESCOPE_DECLARE_POINTER(name, ret, params)                           \
  ret(*name) params = nullptr;
  TILESCOPE_IREE_REQUIRED_FUNCTIONS(TILESCOPE_DECLARE_POINTER)
  TILESCOPE_IREE_OPTIONAL_FUNCTIONS(TILESCOPE_DECLARE_POINTER)
#undef TILESCOPE_DECLARE_POINTER
};

inline MlirStringRef toStringRef(const char *data, size_t length) {
  return MlirStringRef{data, length};
}

} // namespace tilescope::iree::capi
