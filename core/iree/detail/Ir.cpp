#include "core/iree/detail/Ir.h"

#include "core/iree/CompilerLibrary.h"

#include <algorithm>

namespace tilescope::iree::detail {
namespace {

std::string toStdString(MlirStringRef ref) {
  return ref.data ? std::string(ref.data, ref.length) : std::string();
}

void appendToString(MlirStringRef chunk, void *userData) {
  static_cast<std::string *>(userData)->append(chunk.data, chunk.length);
}

document::Severity severityOf(MlirDiagnosticSeverity severity) {
  switch (severity) {
  case MlirDiagnosticWarning:
    return document::Severity::Warning;
  case MlirDiagnosticNote:
    return document::Severity::Note;
  case MlirDiagnosticRemark:
    return document::Severity::Remark;
  case MlirDiagnosticError:
    break;
  }
  return document::Severity::Error;
}

} // namespace

// --- Session ----------------------------------------------------------------

Result<std::shared_ptr<Session>>
Session::create(const CompilerLibrary &library) {
  auto required = requireFunctions(
      library,
      {"ireeCompilerSessionBorrowContext",
       "ireeCompilerInvocationExportStealModule",
       "mlirContextAttachDiagnosticHandler",
       "mlirContextDetachDiagnosticHandler",
       "mlirContextSetAllowUnregisteredDialects", "mlirDiagnosticPrint",
       "mlirDiagnosticGetLocation", "mlirDiagnosticGetSeverity",
       "mlirDiagnosticGetNumNotes", "mlirDiagnosticGetNote",
       "mlirOperationDestroy", "mlirOperationWalk"});
  if (!required)
    return Error{required.error()};
  const FunctionTable &api = library.functions();
  std::shared_ptr<Session> session(new Session(api));
  session->session = api.ireeCompilerSessionCreate();
  session->context = api.ireeCompilerSessionBorrowContext(session->session);
  if (!session->context.ptr)
    return Error{"the IREE compiler at " + library.path().string() +
                 " gave a session without an MLIR context"};
  // iree-opt refuses ops of dialects it does not know; so does Tilescope.
  api.mlirContextSetAllowUnregisteredDialects(session->context, false);
  return session;
}

Session::~Session() {
  if (session)
    api.ireeCompilerSessionDestroy(session);
}

// --- Diagnostics ------------------------------------------------------------

namespace {

struct DiagnosticSink {
  const FunctionTable &api;
  const SourcePosition &position;
  std::vector<document::Diagnostic> &out;

  document::Diagnostic convert(MlirDiagnostic diagnostic) const {
    document::Diagnostic result;
    result.severity = severityOf(api.mlirDiagnosticGetSeverity(diagnostic));
    api.mlirDiagnosticPrint(diagnostic, appendToString, &result.message);
    auto found =
        Ir(api).filePosition(api.mlirDiagnosticGetLocation(diagnostic));
    if (found) {
      const std::string &file = found->file;
      int line = found->line, column = found->column;
      if (file == position.bufferName) {
        result.file = position.fileName;
        // A part of a split file: whole-file line and, on the part's first
        // line, whole-file column.
        if (line == 1 && column > 0)
          column += position.firstColumn - 1;
        if (line > 0)
          line += position.firstLine - 1;
      } else {
        result.file = file;
      }
      result.line = line;
      result.column = column;
    } else {
      result.file = position.fileName;
    }
    for (intptr_t i = 0, e = api.mlirDiagnosticGetNumNotes(diagnostic); i < e;
         ++i)
      result.notes.push_back(convert(api.mlirDiagnosticGetNote(diagnostic, i)));
    return result;
  }

  static MlirLogicalResult handle(MlirDiagnostic diagnostic, void *userData) {
    auto *sink = static_cast<DiagnosticSink *>(userData);
    sink->out.push_back(sink->convert(diagnostic));
    return MlirLogicalResult{1};
  }
};

} // namespace

// --- ParsedModule -----------------------------------------------------------

Result<std::unique_ptr<ParsedModule>>
ParsedModule::parse(std::shared_ptr<Session> session, std::string_view text,
                    const SourcePosition &position,
                    std::vector<document::Diagnostic> &diagnostics, bool nulTerminated) {
  const FunctionTable &api = session->api;
  std::unique_ptr<ParsedModule> parsed(new ParsedModule(session));
  DiagnosticSink sink{api, position, diagnostics};
  const MlirDiagnosticHandlerID handler =
      api.mlirContextAttachDiagnosticHandler(
          session->context, &DiagnosticSink::handle, &sink, nullptr);
  struct Detach {
    const FunctionTable &api;
    MlirContext context;
    MlirDiagnosticHandlerID id;
    ~Detach() { api.mlirContextDetachDiagnosticHandler(context, id); }
  } detach{api, session->context, handler};

  parsed->invocation = api.ireeCompilerInvocationCreate(session->session);
  // IREE wants a NUL-terminated buffer whose length counts the NUL: the
  // caller's where it ends in one (a whole std::string), else a copy.
  std::string copy;
  if (!nulTerminated) {
    copy.assign(text);
    text = copy;
  }
  iree_compiler_source_t *source = nullptr;
  if (iree_compiler_error_t *error = api.ireeCompilerSourceWrapBuffer(
          session->session, position.bufferName.c_str(), text.data(),
          text.size() + 1, /*isNullTerminated=*/true, &source)) {
    std::string message = api.ireeCompilerErrorGetMessage(error);
    api.ireeCompilerErrorDestroy(error);
    return Error{position.fileName + ": " + message};
  }
  const bool ok =
      api.ireeCompilerInvocationParseSource(parsed->invocation, source);
  api.ireeCompilerSourceDestroy(source);
  if (!ok)
    return Error{position.fileName + ": IREE could not parse it"};
  parsed->module =
      api.ireeCompilerInvocationExportStealModule(parsed->invocation);
  if (!parsed->module.ptr)
    return Error{position.fileName + ": IREE parsed it but returned no module"};
  return parsed;
}

ParsedModule::~ParsedModule() {
  const FunctionTable &api = session->api;
  if (module.ptr)
    api.mlirOperationDestroy(module);
  if (invocation)
    api.ireeCompilerInvocationDestroy(invocation);
}

// --- Ir ---------------------------------------------------------------------

std::string Ir::name(MlirOperation op) const {
  return toStdString(api.mlirIdentifierStr(api.mlirOperationGetName(op)));
}

MlirAttribute Ir::attribute(MlirOperation op, const std::string &name) const {
  return api.mlirOperationGetAttributeByName(
      op, toStringRef(name.data(), name.size()));
}

std::string Ir::attributeText(MlirOperation op, const std::string &name) const {
  MlirAttribute value = attribute(op, name);
  return value.ptr ? print(value) : std::string();
}

std::string Ir::print(MlirAttribute attribute) const {
  std::string text;
  api.mlirAttributePrint(attribute, appendToString, &text);
  return text;
}

std::string Ir::print(MlirType type) const {
  std::string text;
  api.mlirTypePrint(type, appendToString, &text);
  return text;
}

Result<std::unique_ptr<ParsedModule>>
parseOrExplain(const std::shared_ptr<Session> &session, std::string_view text,
               const std::string &name) {
  std::vector<document::Diagnostic> diagnostics;
  auto parsed = ParsedModule::parse(session, text, SourcePosition{name, name},
                                    diagnostics);
  if (parsed)
    return std::move(*parsed);
  std::string message = name + ": IREE cannot read it";
  for (const document::Diagnostic &d : diagnostics)
    message += "\n" + d.toString();
  return Error{message};
}

namespace {

std::string printOperation(const FunctionTable &api, MlirOperation op,
                           bool locations) {
  MlirOpPrintingFlags flags = api.mlirOpPrintingFlagsCreate();
  if (locations)
    api.mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  std::string text;
  api.mlirOperationPrintWithFlags(op, flags, appendToString, &text);
  api.mlirOpPrintingFlagsDestroy(flags);
  return text;
}

} // namespace

std::string Ir::printWithLocations(MlirOperation op) const {
  return printOperation(api, op, true);
}

std::string Ir::printWithoutLocations(MlirOperation op) const {
  return printOperation(api, op, false);
}

std::string Ir::symbolName(MlirOperation op) const {
  MlirAttribute value = attribute(op, "sym_name");
  if (!value.ptr || !api.mlirAttributeIsAString(value))
    return {};
  return toStdString(api.mlirStringAttrGetValue(value));
}

int Ir::line(MlirOperation op, int lineOffset) const {
  MlirLocation location = api.mlirOperationGetLocation(op);
  if (location.ptr && api.mlirLocationIsAFileLineColRange(location))
    return api.mlirLocationFileLineColRangeGetStartLine(location) + lineOffset;
  return 0;
}

std::optional<Ir::FilePosition> Ir::filePosition(MlirLocation location) const {
  for (int depth = 0; location.ptr && depth <= 64; ++depth) {
    if (api.mlirLocationIsAFileLineColRange(location))
      return FilePosition{
          toStdString(api.mlirIdentifierStr(
              api.mlirLocationFileLineColRangeGetFilename(location))),
          api.mlirLocationFileLineColRangeGetStartLine(location),
          api.mlirLocationFileLineColRangeGetStartColumn(location)};
    if (api.mlirLocationIsAName(location)) {
      location = api.mlirLocationNameGetChildLoc(location);
    } else if (api.mlirLocationIsACallSite(location)) {
      location = api.mlirLocationCallSiteGetCallee(location);
    } else if (api.mlirLocationIsAFused(location)) {
      const unsigned count = api.mlirLocationFusedGetNumLocations(location);
      std::vector<MlirLocation> children(count);
      api.mlirLocationFusedGetLocations(location, children.data());
      for (MlirLocation child : children)
        if (auto found = filePosition(child))
          return found;
      return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

int Ir::column(MlirOperation op) const {
  MlirLocation location = api.mlirOperationGetLocation(op);
  if (location.ptr && api.mlirLocationIsAFileLineColRange(location))
    return api.mlirLocationFileLineColRangeGetStartColumn(location);
  return 0;
}

std::optional<MlirOperation> Ir::definingOp(MlirValue value) const {
  if (!value.ptr || !api.mlirValueIsAOpResult(value))
    return std::nullopt;
  return api.mlirOpResultGetOwner(value);
}

std::optional<Ir::Shaped> Ir::shaped(MlirType type) const {
  if (!type.ptr || !api.mlirTypeIsAShaped(type) ||
      !api.mlirShapedTypeHasRank(type))
    return std::nullopt;
  Shaped result;
  for (intptr_t i = 0, e = api.mlirShapedTypeGetRank(type); i < e; ++i)
    result.shape.push_back(api.mlirShapedTypeIsDynamicDim(type, i)
                               ? -1
                               : api.mlirShapedTypeGetDimSize(type, i));
  result.elementType = print(api.mlirShapedTypeGetElementType(type));
  return result;
}

std::optional<std::vector<int64_t>>
Ir::integers(MlirAttribute attribute) const {
  if (!attribute.ptr)
    return std::nullopt;
  std::vector<int64_t> values;
  if (api.mlirAttributeIsADenseI64Array(attribute)) {
    for (intptr_t i = 0, e = api.mlirDenseArrayGetNumElements(attribute); i < e;
         ++i)
      values.push_back(api.mlirDenseI64ArrayGetElement(attribute, i));
    return values;
  }
  if (!api.mlirAttributeIsAArray(attribute))
    return std::nullopt;
  for (intptr_t i = 0, e = api.mlirArrayAttrGetNumElements(attribute); i < e;
       ++i) {
    MlirAttribute element = api.mlirArrayAttrGetElement(attribute, i);
    if (!api.mlirAttributeIsAInteger(element))
      return std::nullopt;
    values.push_back(api.mlirIntegerAttrGetValueInt(element));
  }
  return values;
}

std::optional<Ir::MapDims> Ir::mapDims(MlirAttribute attribute) const {
  if (!attribute.ptr || !api.mlirAttributeIsAAffineMap(attribute))
    return std::nullopt;
  MlirAffineMap map = api.mlirAffineMapAttrGetValue(attribute);
  MapDims result;
  result.numDims = static_cast<size_t>(api.mlirAffineMapGetNumDims(map));
  std::vector<bool> seen(result.numDims, false);
  for (intptr_t i = 0, e = api.mlirAffineMapGetNumResults(map); i < e; ++i) {
    MlirAffineExpr expr = api.mlirAffineMapGetResult(map, i);
    if (api.mlirAffineExprIsADim(expr)) {
      const auto dim = static_cast<int>(api.mlirAffineDimExprGetPosition(expr));
      result.results.push_back(dim);
      if (dim >= 0 && static_cast<size_t>(dim) < seen.size()) {
        if (seen[static_cast<size_t>(dim)])
          result.projectedPermutation = false;
        seen[static_cast<size_t>(dim)] = true;
      }
    } else {
      result.results.push_back(-1);
      if (!api.mlirAffineExprIsAConstant(expr) ||
          api.mlirAffineConstantExprGetValue(expr) != 0)
        result.projectedPermutation = false;
    }
  }
  return result;
}

Result<bool> requireFunctions(const CompilerLibrary &library,
                              std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (!library.hasFunction(name))
      return Error{"the IREE compiler at " + library.path().string() +
                   " does not export " + name +
                   ", which Tilescope needs to read IR"};
  return true;
}

} // namespace tilescope::iree::detail
