#include "core/iree/LoweredIrReader.h"

#include "core/iree/CompilerLibrary.h"
#include "core/iree/detail/Ir.h"
#include "core/iree/detail/LaneSliceReader.h"

#include <limits>
#include <map>
#include <regex>

namespace tilescope::iree {

using namespace detail;

Result<LoweredIrReader>
LoweredIrReader::create(std::shared_ptr<CompilerLibrary> library) {
  auto required = requireFunctions(
      *library, {"mlirValueIsAOpResult", "mlirOpResultGetOwner",
                 "mlirOpResultGetResultNumber", "mlirShapedTypeGetRank",
                 "mlirDenseI64ArrayGetElement"});
  if (!required)
    return Error{required.error()};
  auto session = Session::create(*library);
  if (!session)
    return Error{session.error()};
  LoweredIrReader reader;
  reader.library = std::move(library);
  reader.session = std::move(*session);
  return reader;
}

LoweredIrReader::~LoweredIrReader() = default;
LoweredIrReader::LoweredIrReader(LoweredIrReader &&) noexcept = default;
LoweredIrReader &
LoweredIrReader::operator=(LoweredIrReader &&) noexcept = default;

namespace {

// A to_layout: the layout it anchors and the value it wraps.
struct Layout {
  document::AnchorLayout anchor;
  MlirValue source{nullptr};
};
using LayoutsByValue = std::map<const void *, Layout>;

Layout toLayoutOf(const Ir &ir, MlirOperation op) {
  const FunctionTable &api = ir.api;
  Layout layout;
  layout.anchor.layout = ir.attributeText(op, "layout");
  layout.anchor.sharedMemoryConversion =
      ir.attributeText(op, "shared_memory_conversion");
  MlirValue result = api.mlirOperationGetResult(op, 0);
  if (auto shaped = ir.shaped(api.mlirValueGetType(result))) {
    layout.anchor.shape = shaped->shape;
    layout.anchor.elementType = shaped->elementType;
  }
  layout.source = api.mlirOperationGetOperand(op, 0);
  return layout;
}

// An scf.forall's bounds, steps and mapping. Static entries hold MLIR's
// dynamic sentinel where the value is an operand (lower bounds, then upper
// bounds, then steps): those are read through their arith.constant (-1
// where they are not constants).
document::ForallLoop forallOf(const Ir &ir, MlirOperation op) {
  const FunctionTable &api = ir.api;
  document::ForallLoop loop;
  intptr_t operand = 0;
  auto resolve = [&](const char *field) {
    std::vector<int64_t> values =
        ir.integers(ir.attribute(op, field)).value_or(std::vector<int64_t>{});
    for (int64_t &value : values) {
      if (value != std::numeric_limits<int64_t>::min())
        continue;
      value = -1;
      if (operand >= api.mlirOperationGetNumOperands(op))
        continue;
      auto defining = ir.definingOp(api.mlirOperationGetOperand(op, operand++));
      if (defining && ir.name(*defining) == "arith.constant") {
        MlirAttribute constant = ir.attribute(*defining, "value");
        if (constant.ptr && api.mlirAttributeIsAInteger(constant))
          value = api.mlirIntegerAttrGetValueInt(constant);
      }
    }
    return values;
  };
  loop.lowerBounds = resolve("staticLowerBound");
  loop.upperBounds = resolve("staticUpperBound");
  loop.steps = resolve("staticStep");
  MlirAttribute mapping = ir.attribute(op, "mapping");
  if (mapping.ptr && api.mlirAttributeIsAArray(mapping))
    for (intptr_t i = 0, e = api.mlirArrayAttrGetNumElements(mapping); i < e;
         ++i)
      loop.mapping.push_back(ir.print(api.mlirArrayAttrGetElement(mapping, i)));
  return loop;
}

// `op` with the layouts anchored on its operands (a to_layout's result) and
// results (wrapped by a to_layout); none where it has neither.
std::optional<document::AnchoredOp> anchoredOf(const Ir &ir, MlirOperation op,
                                               const LayoutsByValue &byResult,
                                               const LayoutsByValue &bySource) {
  const FunctionTable &api = ir.api;
  document::AnchoredOp anchored;
  bool any = false;
  for (intptr_t i = 0, e = api.mlirOperationGetNumOperands(op); i < e; ++i) {
    auto it = byResult.find(api.mlirOperationGetOperand(op, i).ptr);
    any |= it != byResult.end();
    anchored.operands.push_back(
        it != byResult.end() ? std::optional(it->second.anchor) : std::nullopt);
  }
  for (intptr_t i = 0, e = api.mlirOperationGetNumResults(op); i < e; ++i) {
    auto it = bySource.find(api.mlirOperationGetResult(op, i).ptr);
    any |= it != bySource.end();
    anchored.results.push_back(
        it != bySource.end() ? std::optional(it->second.anchor) : std::nullopt);
  }
  if (!any)
    return std::nullopt;
  anchored.name = ir.name(op);
  anchored.loweringConfig = ir.attributeText(op, "lowering_config");
  const std::string iterators = ir.attributeText(op, "iterator_types");
  static const std::regex kind(R"(parallel|reduction)");
  for (auto it = std::sregex_iterator(iterators.begin(), iterators.end(), kind);
       it != std::sregex_iterator(); ++it)
    anchored.iteratorTypes.push_back(it->str());
  return anchored;
}

} // namespace

Result<document::LoweredFunction>
LoweredIrReader::read(const std::string &dumpText) const {
  std::vector<document::Diagnostic> diagnostics;
  auto parsed = ParsedModule::parse(
      session, dumpText, SourcePosition{"<lowered IR>", "<lowered IR>"},
      diagnostics);
  if (!parsed) {
    std::string message = "IREE cannot read back its own lowered IR";
    for (const document::Diagnostic &d : diagnostics)
      message += "\n" + d.toString();
    return Error{message};
  }
  const Ir ir(session->api);
  const FunctionTable &api = ir.api;

  LayoutsByValue byResult; // to_layout result -> it
  LayoutsByValue bySource; // wrapped value -> its to_layout
  std::vector<MlirOperation> candidates;
  document::LoweredFunction function;
  ir.walk((*parsed)->operation(), [&](MlirOperation op) {
    const std::string name = ir.name(op);
    if (name == "func.func" && function.name.empty())
      function.name = ir.symbolName(op);
    if (name == "iree_vector_ext.to_layout") {
      const Layout layout = toLayoutOf(ir, op);
      byResult[api.mlirOperationGetResult(op, 0).ptr] = layout;
      bySource[layout.source.ptr] = layout;
    } else if (name == "scf.forall") {
      document::ForallLoop loop = forallOf(ir, op);
      const bool overLanes =
          !loop.mapping.empty() &&
          loop.mapping.front().rfind("#iree_gpu.lane_id", 0) == 0;
      function.foralls.push_back(std::move(loop));
      if (overLanes)
        function.laneDistributions.push_back(readLaneDistribution(ir, op));
    } else {
      candidates.push_back(op);
    }
    return true;
  });
  for (MlirOperation op : candidates)
    if (auto anchored = anchoredOf(ir, op, byResult, bySource))
      function.anchoredOps.push_back(std::move(*anchored));
  return function;
}

} // namespace tilescope::iree
