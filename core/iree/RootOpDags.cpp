// ProgramReader::rootOpDags: a configured text's root ops, each cloned
// alone into a function whose arguments stand for its operands, stripped of
// the attributes configuration added, and printed by IREE: the body of a
// tuning spec's cast_compatible_dag_from_root matcher.
#include "core/iree/CompilerLibrary.h"
#include "core/iree/ProgramReader.h"
#include "core/iree/detail/Ir.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace tilescope::iree {

using namespace detail;

namespace {

// What IREE's configuration adds to a root op: the spec matches the op
// before it has them, and gives them back.
constexpr const char *kConfigAttributes[] = {
    "lowering_config", "compilation_info", "root_op", "decomposition_config"};

// A root op as the document reader counts one: a config of its own, a
// root_op mark, or a decomposition_config set on it (attention's own,
// inherent one counts only beside a config).
bool hasConfig(const Ir &ir, MlirOperation op) {
  if (ir.attribute(op, "lowering_config").ptr ||
      ir.attribute(op, "compilation_info").ptr ||
      ir.attribute(op, "root_op").ptr)
    return true;
  const FunctionTable &api = ir.api;
  if (!api.mlirOperationGetNumDiscardableAttributes ||
      !api.mlirOperationGetDiscardableAttribute)
    return false;
  for (intptr_t i = 0, e = api.mlirOperationGetNumDiscardableAttributes(op);
       i < e; ++i) {
    const MlirStringRef name = api.mlirIdentifierStr(
        api.mlirOperationGetDiscardableAttribute(op, i).name);
    if (std::string_view(name.data, name.length) == "decomposition_config")
      return true;
  }
  return false;
}

// The lines between a printed function's header and its `return`,
// indented by two.
std::string functionBody(const std::string &printed) {
  std::vector<std::string> lines;
  std::istringstream in(printed);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  size_t last = lines.size();
  while (last > 0 && lines[last - 1].find("return") == std::string::npos)
    --last;
  if (lines.size() < 3 || last < 2)
    return {};
  size_t indent = std::string::npos;
  for (size_t i = 1; i + 1 < last; ++i)
    if (const size_t first = lines[i].find_first_not_of(' ');
        first != std::string::npos)
      indent = std::min(indent, first);
  std::string body;
  for (size_t i = 1; i + 1 < last; ++i)
    body += "  " + lines[i].substr(std::min(indent, lines[i].size())) + "\n";
  return body;
}

} // namespace

Result<std::vector<document::RootOpDag>>
ProgramReader::rootOpDags(const std::string &text,
                          const std::string &name) const {
  auto required = requireFunctions(
      *library,
      {"mlirOperationClone", "mlirOperationSetOperand",
       "mlirOperationGetRegion", "mlirRegionGetFirstBlock",
       "mlirBlockGetNumArguments", "mlirBlockGetArgument",
       "mlirBlockGetTerminator", "mlirBlockInsertOwnedOperationBefore"});
  if (!required)
    return Error{required.error()};
  auto parsed = parseOrExplain(session, text, name);
  if (!parsed)
    return Error{parsed.error()};
  const Ir ir(session->api);
  const FunctionTable &api = ir.api;

  // The root ops, by function, in IR order (as the document reader counts).
  struct Found {
    MlirOperation op;
    document::RootOpDag dag;
  };
  std::vector<Found> found;
  std::map<std::string, int> counted;
  ir.walk((*parsed)->operation(), [&](MlirOperation op) {
    if (ir.name(op) == "func.func" || !hasConfig(ir, op))
      return true;
    std::string function;
    for (MlirOperation parent = api.mlirOperationGetParentOperation(op);
         parent.ptr; parent = api.mlirOperationGetParentOperation(parent))
      if (ir.name(parent) == "func.func") {
        function = ir.symbolName(parent);
        break;
      }
    if (function.empty())
      return true;
    document::RootOpDag dag;
    dag.function = function;
    dag.index = counted[function]++;
    dag.name = ir.name(op);
    dag.line = ir.line(op);
    found.push_back(Found{op, std::move(dag)});
    return true;
  });

  std::vector<document::RootOpDag> dags;
  for (Found &entry : found) {
    const MlirOperation op = entry.op;
    const intptr_t operands = api.mlirOperationGetNumOperands(op);
    // "%arg0: TYPE, ...": the wrapper's arguments, and the matcher block's.
    std::string arguments;
    for (intptr_t i = 0; i < operands; ++i)
      arguments +=
          (i ? ", " : "") + std::string("%arg") + std::to_string(i) + ": " +
          ir.print(api.mlirValueGetType(api.mlirOperationGetOperand(op, i)));
    // A function of the op's operand types, in this session's context, to
    // hold the clone: its arguments print as %arg0... as the matcher's
    // block arguments do.
    const std::string wrapper =
        "func.func @tilescope_dag(" + arguments + ") {\n  func.return\n}\n";
    std::vector<document::Diagnostic> wrapperDiagnostics;
    auto holder = ParsedModule::parse(
        session, wrapper, SourcePosition{"<dag>", "<dag>"}, wrapperDiagnostics);
    if (!holder)
      return Error{name + ":" + std::to_string(entry.dag.line) + ": " +
                   entry.dag.name + "'s operand types do not parse alone"};
    MlirOperation function{nullptr};
    ir.walk((*holder)->operation(), [&](MlirOperation inner) {
      if (ir.name(inner) == "func.func")
        function = inner;
      return !function.ptr;
    });
    if (!function.ptr)
      return Error{"IREE parsed the matcher's function into nothing"};
    const MlirBlock block =
        api.mlirRegionGetFirstBlock(api.mlirOperationGetRegion(function, 0));
    if (api.mlirBlockGetNumArguments(block) != operands)
      return Error{"IREE's matcher function has the wrong arguments"};
    const MlirOperation clone = api.mlirOperationClone(op);
    for (intptr_t i = 0; i < operands; ++i)
      api.mlirOperationSetOperand(clone, i, api.mlirBlockGetArgument(block, i));
    for (const char *attribute : kConfigAttributes)
      api.mlirOperationRemoveAttributeByName(
          clone, toStringRef(attribute, std::string_view(attribute).size()));
    api.mlirBlockInsertOwnedOperationBefore(
        block, api.mlirBlockGetTerminator(block), clone);
    const std::string body = functionBody(ir.printWithoutLocations(function));
    if (body.empty())
      return Error{name + ":" + std::to_string(entry.dag.line) +
                   ": IREE printed " + entry.dag.name + " as nothing"};
    // A body that uses a value from outside the op (a captured constant)
    // has no dag of its own: left without a matcher.
    if (body.find("<<UNKNOWN SSA VALUE>>") != std::string::npos)
      continue;
    entry.dag.body = "^bb0(" + arguments + "):\n" + body;
    dags.push_back(std::move(entry.dag));
  }
  return dags;
}

} // namespace tilescope::iree
