#include "core/iree/ConstraintsSmtLib.h"

#include "core/iree/CompilerLibrary.h"
#include "core/iree/detail/Ir.h"

namespace tilescope::iree {

using namespace detail;

Result<std::vector<ConstraintsSmtLib>>
constraintsAsSmtLib(std::shared_ptr<CompilerLibrary> library,
                    const std::string &text, const std::string &name) {
  if (auto required = requireFunctions(
          *library, {"ireeCodegenConvertConstraintsOpToSMTLIB"});
      !required)
    return Error{required.error()};
  auto session = Session::create(*library);
  if (!session)
    return Error{session.error()};
  auto parsed = parseOrExplain(*session, text, name);
  if (!parsed)
    return Error{parsed.error()};
  const Ir ir((*session)->api);
  std::vector<ConstraintsSmtLib> found;
  std::string function;
  std::string failure;
  ir.walk((*parsed)->operation(), [&](MlirOperation op) {
    const std::string opName = ir.name(op);
    if (opName == "func.func")
      function = ir.symbolName(op);
    if (opName != "iree_codegen.smt.constraints")
      return true;
    const MlirAttribute smtlib =
        ir.api.ireeCodegenConvertConstraintsOpToSMTLIB(op, false);
    if (!smtlib.ptr || !ir.api.mlirAttributeIsAString(smtlib)) {
      failure = "IREE could not translate the constraints of @" + function +
                " to SMT-LIB";
      return false;
    }
    const MlirStringRef value = ir.api.mlirStringAttrGetValue(smtlib);
    found.push_back({function, ir.attributeText(op, "pipeline"),
                     std::string(value.data, value.length)});
    return false;
  });
  if (!failure.empty())
    return Error{failure};
  return found;
}

} // namespace tilescope::iree
