#include "core/iree/ProgramReader.h"

#include "core/iree/CompilerLibrary.h"
#include "core/iree/detail/Ir.h"
#include "core/iree/detail/RootOpReader.h"

#include <map>

namespace tilescope::iree {

using namespace detail;

namespace {

constexpr const char *kSplitAttribute = "iree_linalg_ext.split_reduction";

std::optional<document::SourceLocation> sourceOf(const Ir &ir, MlirOperation op,
                                       const std::string &bufferName) {
  auto position = ir.filePosition(ir.api.mlirOperationGetLocation(op));
  if (!position || position->file == bufferName)
    return std::nullopt;
  return document::SourceLocation{position->file, position->line, position->column};
}

bool opensRegionWeSkip(const std::string &name) {
  return name == "hal.executable" || name == "flow.executable" ||
         name == "stream.executable" || name == "flow.dispatch.region" ||
         name == "flow.dispatch.workgroups";
}

bool isFunction(const std::string &name) {
  return name == "util.func" || name == "func.func";
}

// The facts IREE's heuristic reads of an op, or nullopt for an op its
// passes do not walk (not a linalg structured op, not an arg_compare).
std::optional<config::ReductionFacts> factsOf(const Ir &ir, MlirOperation op,
                                              const std::string &name) {
  const FunctionTable &api = ir.api;
  config::ReductionFacts facts;
  facts.opName = name;
  if (name == "iree_linalg_ext.arg_compare") {
    MlirAttribute dimension = ir.attribute(op, "dimension");
    if (!dimension.ptr || !api.mlirAttributeIsAInteger(dimension) ||
        api.mlirOperationGetNumOperands(op) < 1)
      return std::nullopt;
    auto input = ir.shaped(api.mlirValueGetType(api.mlirOperationGetOperand(op, 0)));
    if (!input)
      return std::nullopt;
    const int64_t reduced = api.mlirIntegerAttrGetValueInt(dimension);
    for (size_t i = 0; i < input->shape.size(); ++i) {
      facts.space.bounds.push_back(input->shape[i] < 0 ? config::kDynamicSize
                                                       : input->shape[i]);
      facts.space.kinds.push_back(static_cast<int64_t>(i) == reduced
                                      ? config::LoopKind::Reduction
                                      : config::LoopKind::Parallel);
    }
    facts.argCompareDimension = static_cast<int>(reduced);
    return facts;
  }
  if (name.rfind("linalg.", 0) != 0 || !api.mlirLinalgGetIndexingMapsAttribute ||
      !api.mlirLinalgGetIndexingMapsAttribute(op).ptr)
    return std::nullopt;
  auto space = iterationSpaceOf(ir, op);
  if (!space)
    return std::nullopt;
  facts.space = std::move(*space);
  facts.isLinalgOp = true;
  for (const config::OperandAccess &operand : facts.space.operands)
    if (operand.isOutput) {
      facts.outputFirstLoop = operand.dims.empty() ? -1 : operand.dims.front();
      break;
    }
  for (intptr_t i = 0, e = api.mlirOperationGetNumOperands(op); i < e; ++i) {
    auto shaped =
        ir.shaped(api.mlirValueGetType(api.mlirOperationGetOperand(op, i)));
    if (shaped)
      for (int64_t size : shaped->shape)
        if (size < 0)
          facts.staticOperandShapes = false;
  }
  const MlirLinalgContractionDimensions contraction =
      api.mlirLinalgInferContractionDimensions(op);
  if (contraction.m.ptr)
    facts.contraction = config::ContractionDims{
        dimsOf(api, contraction.batch), dimsOf(api, contraction.m),
        dimsOf(api, contraction.n), dimsOf(api, contraction.k)};
  if (api.mlirLinalgIsAConvolutionOp(op)) {
    const MlirLinalgConvolutionDimensions conv =
        api.mlirLinalgInferConvolutionDimensions(op);
    if (conv.batch.ptr)
      facts.convolution = config::ConvolutionDims{
          dimsOf(api, conv.batch),        dimsOf(api, conv.outputImage),
          dimsOf(api, conv.outputChannel), dimsOf(api, conv.filterLoop),
          dimsOf(api, conv.inputChannel), dimsOf(api, conv.depth)};
  }
  return facts;
}

std::optional<std::vector<int64_t>> splitOf(const Ir &ir, MlirOperation op) {
  MlirAttribute split = ir.attribute(op, kSplitAttribute);
  if (!split.ptr)
    return std::nullopt;
  return ir.integers(split);
}

// Walks the reductions of a module's functions (not inside executables or
// dispatch regions), in IR order, numbering them per function.
template <typename Visit>
void forEachReduction(const Ir &ir, MlirOperation module, Visit &&visit) {
  std::string function;
  std::map<std::string, int> counts;
  ir.walk(module, [&](MlirOperation op) {
    const std::string name = ir.name(op);
    if (opensRegionWeSkip(name))
      return false;
    if (isFunction(name)) {
      function = ir.symbolName(op);
      return true;
    }
    auto facts = factsOf(ir, op, name);
    if (!facts || config::reductionBounds(facts->space).empty())
      return true;
    visit(op, name, function, counts[function]++, std::move(*facts));
    return false; // a linalg op's body holds no reductions of its own
  });
}

} // namespace

Result<ProgramReader>
ProgramReader::create(std::shared_ptr<CompilerLibrary> library) {
  auto required = requireFunctions(
      *library,
      {"mlirLinalgGetIndexingMapsAttribute", "mlirLinalgInferContractionDimensions",
       "mlirLinalgIsAConvolutionOp", "mlirLinalgInferConvolutionDimensions",
       "mlirAttributeIsADenseI32Array", "mlirDenseI32ArrayGetElement",
       "mlirAttributeParseGet", "mlirOperationSetAttributeByName",
       "mlirOperationRemoveAttributeByName", "mlirOpPrintingFlagsCreate",
       "mlirOpPrintingFlagsDestroy", "mlirOpPrintingFlagsEnableDebugInfo",
       "mlirOperationPrintWithFlags"});
  if (!required)
    return Error{required.error()};
  auto session = Session::create(*library);
  if (!session)
    return Error{session.error()};
  ProgramReader reader;
  reader.library = std::move(library);
  reader.session = std::move(*session);
  return reader;
}

ProgramReader::~ProgramReader() = default;
ProgramReader::ProgramReader(ProgramReader &&) noexcept = default;
ProgramReader &ProgramReader::operator=(ProgramReader &&) noexcept = default;

Result<std::vector<document::ProgramReduction>>
ProgramReader::reductions(const std::string &text,
                          const std::string &name) const {
  auto parsed = parseOrExplain(session, text, name);
  if (!parsed)
    return Error{parsed.error()};
  const Ir ir(session->api);
  std::vector<document::ProgramReduction> found;
  forEachReduction(ir, (*parsed)->operation(),
                   [&](MlirOperation op, const std::string &opName,
                       const std::string &function, int index,
                       config::ReductionFacts facts) {
                     document::ProgramReduction reduction;
                     reduction.function = function;
                     reduction.index = index;
                     reduction.name = opName;
                     reduction.source = sourceOf(ir, op, name);
                     for (intptr_t i = 0,
                                   e = ir.api.mlirOperationGetNumOperands(op);
                          i < e; ++i)
                       reduction.operandTypes.push_back(
                           ir.print(ir.api.mlirValueGetType(
                               ir.api.mlirOperationGetOperand(op, i))));
                     reduction.facts = std::move(facts);
                     reduction.split = splitOf(ir, op);
                     found.push_back(std::move(reduction));
                   });
  return found;
}

Result<std::string>
ProgramReader::withSplits(const std::string &text, const std::string &name,
                          const std::vector<document::SplitChoice> &choices) const {
  auto parsed = parseOrExplain(session, text, name);
  if (!parsed)
    return Error{parsed.error()};
  const Ir ir(session->api);
  const FunctionTable &api = ir.api;
  std::vector<bool> used(choices.size(), false);
  std::string failure;
  const MlirStringRef attributeName =
      toStringRef(kSplitAttribute, std::string_view(kSplitAttribute).size());
  forEachReduction(
      ir, (*parsed)->operation(),
      [&](MlirOperation op, const std::string &, const std::string &function,
          int index, const config::ReductionFacts &) {
        for (size_t i = 0; i < choices.size(); ++i) {
          const document::SplitChoice &choice = choices[i];
          if (choice.function != function || choice.index != index)
            continue;
          used[i] = true;
          if (!choice.sizes) {
            api.mlirOperationRemoveAttributeByName(op, attributeName);
            continue;
          }
          const std::string value =
              config::splitReductionAttributeText(*choice.sizes);
          MlirAttribute attribute = api.mlirAttributeParseGet(
              session->context, toStringRef(value.data(), value.size()));
          if (!attribute.ptr) {
            failure = "IREE refused the split " + value;
            continue;
          }
          api.mlirOperationSetAttributeByName(op, attributeName, attribute);
        }
      });
  if (!failure.empty())
    return Error{failure};
  for (size_t i = 0; i < choices.size(); ++i)
    if (!used[i])
      return Error{name + " has no reduction " + choices[i].function + ":" +
                   std::to_string(choices[i].index)};
  return ir.printWithLocations((*parsed)->operation());
}

Result<std::vector<document::FormedDispatch>>
ProgramReader::dispatches(const std::string &text,
                          const std::string &name) const {
  auto parsed = parseOrExplain(session, text, name);
  if (!parsed)
    return Error{parsed.error()};
  const Ir ir(session->api);
  std::vector<document::FormedDispatch> formed;
  ir.walk((*parsed)->operation(), [&](MlirOperation op) {
    const std::string opName = ir.name(op);
    if (opName == "flow.executable") {
      formed.push_back(document::FormedDispatch{ir.symbolName(op), {}, {}});
      return true;
    }
    if (opName == "util.func")
      return false; // the program's own functions: no dispatch of their own
    if (formed.empty())
      return true;
    if (opName == "flow.executable.export") {
      if (formed.back().name.empty())
        formed.back().name = ir.symbolName(op);
      return true;
    }
    if (!isComputeOp(opName) || opName == "linalg.fill")
      return true;
    document::DispatchedOp dispatched;
    dispatched.name = opName;
    dispatched.source = sourceOf(ir, op, name);
    dispatched.split = splitOf(ir, op);
    if (auto facts = factsOf(ir, op, opName))
      dispatched.bounds = facts->space.bounds;
    formed.back().ops.push_back(std::move(dispatched));
    return false;
  });
  return formed;
}

} // namespace tilescope::iree
