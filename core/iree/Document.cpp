#include "core/iree/Document.h"

#include "core/iree/CApi.h"
#include "core/iree/CompilerLibrary.h"
#include "core/util/Numbers.h"

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace tilescope::iree {

using namespace capi;

namespace {

// Files up to this size are parsed; a larger one is refused with a message.
constexpr std::uintmax_t kMaximumFileBytes = 512ull << 20;

std::string toStdString(MlirStringRef ref) {
  return ref.data ? std::string(ref.data, ref.length) : std::string();
}

void appendToString(MlirStringRef chunk, void *userData) {
  static_cast<std::string *>(userData)->append(chunk.data, chunk.length);
}

std::string trim(const std::string &text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos)
    return {};
  const size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

// Collects the compiler's diagnostics for one parse of one part of the file.
struct DiagnosticCollector {
  std::string bufferName;
  int lineOffset = 0;
  std::vector<Diagnostic> *out = nullptr;

  static void callback(iree_compiler_diagnostic_severity_t severity,
                       const char *message, size_t size, void *userData) {
    auto *self = static_cast<DiagnosticCollector *>(userData);
    self->add(severity, std::string(message, size));
  }

  void add(iree_compiler_diagnostic_severity_t severity,
           const std::string &text) {
    Diagnostic diagnostic;
    switch (severity) {
    case IREE_COMPILER_DIAGNOSTIC_SEVERITY_NOTE:
      diagnostic.severity = Severity::Note;
      break;
    case IREE_COMPILER_DIAGNOSTIC_SEVERITY_WARNING:
      diagnostic.severity = Severity::Warning;
      break;
    case IREE_COMPILER_DIAGNOSTIC_SEVERITY_REMARK:
      diagnostic.severity = Severity::Remark;
      break;
    default:
      diagnostic.severity = Severity::Error;
      break;
    }
    diagnostic.file = bufferName;
    // The compiler formats a located diagnostic as `<loc>: message` where
    // <loc> is `"file":line:col` (sometimes `loc("file":line:col)`).
    static const std::regex located(
        R"re(^(?:loc\()?"?([^"]*)"?:(\d+):(\d+)\)?:?\s*(?:error:\s*)?([\s\S]*)$)re");
    std::smatch match;
    if (std::regex_match(text, match, located)) {
      if (!match[1].str().empty())
        diagnostic.file = match[1].str();
      diagnostic.line =
          static_cast<int>(parseInt64(match[2].str()).value_or(0)) + lineOffset;
      diagnostic.column =
          static_cast<int>(parseInt64(match[3].str()).value_or(0));
      diagnostic.message = trim(match[4].str());
    } else {
      diagnostic.message = trim(text);
    }
    out->push_back(std::move(diagnostic));
  }
};

// Walks a parsed module and records its dispatches and configured ops.
class ModuleReader {
public:
  ModuleReader(const FunctionTable &api, int lineOffset, int part)
      : api(api), lineOffset(lineOffset), part(part) {}

  void read(MlirOperation module) {
    api.mlirOperationWalk(module, &ModuleReader::visit, this, MlirWalkPreOrder);
  }

  // Functions that are kernels: inside an executable, or configured.
  std::vector<Dispatch> takeDispatches() {
    std::vector<Dispatch> result;
    for (auto &[op, entry] : functions) {
      (void)op;
      if (entry.insideExecutable || !entry.dispatch.translationInfo.empty() ||
          !entry.dispatch.rootOps.empty())
        result.push_back(std::move(entry.dispatch));
    }
    std::stable_sort(
        result.begin(), result.end(),
        [](const Dispatch &a, const Dispatch &b) { return a.line < b.line; });
    return result;
  }

private:
  struct FunctionEntry {
    Dispatch dispatch;
    bool insideExecutable = false;
  };

  static MlirWalkResult visit(MlirOperation op, void *userData) {
    static_cast<ModuleReader *>(userData)->visitOperation(op);
    return MlirWalkResultAdvance;
  }

  std::string name(MlirOperation op) const {
    return toStdString(api.mlirIdentifierStr(api.mlirOperationGetName(op)));
  }

  MlirAttribute attribute(MlirOperation op, const char *attributeName) const {
    return api.mlirOperationGetAttributeByName(
        op, toStringRef(attributeName,
                        std::char_traits<char>::length(attributeName)));
  }

  std::string attributeText(MlirOperation op, const char *attributeName) const {
    MlirAttribute value = attribute(op, attributeName);
    if (!value.ptr)
      return {};
    std::string text;
    api.mlirAttributePrint(value, appendToString, &text);
    return text;
  }

  std::string symbolName(MlirOperation op) const {
    MlirAttribute value = attribute(op, "sym_name");
    if (!value.ptr || !api.mlirAttributeIsAString(value))
      return {};
    return toStdString(api.mlirStringAttrGetValue(value));
  }

  int line(MlirOperation op) const {
    MlirLocation location = api.mlirOperationGetLocation(op);
    if (location.ptr && api.mlirLocationIsAFileLineColRange(location))
      return api.mlirLocationFileLineColRangeGetStartLine(location) +
             lineOffset;
    return 0;
  }

  std::string typeText(MlirType type) const {
    std::string text;
    api.mlirTypePrint(type, appendToString, &text);
    return text;
  }

  void visitOperation(MlirOperation op) {
    const std::string opName = name(op);
    if (opName == "func.func") {
      visitFunction(op);
      return;
    }
    const std::string loweringConfig = attributeText(op, "lowering_config");
    const std::string compilationInfo = attributeText(op, "compilation_info");
    const std::string rootOp = attributeText(op, "root_op");
    const std::string decomposition = attributeText(op, "decomposition_config");
    if (loweringConfig.empty() && compilationInfo.empty() && rootOp.empty() &&
        decomposition.empty())
      return;

    RootOp root;
    root.name = opName;
    root.line = line(op);
    root.loweringConfig = loweringConfig;
    root.compilationInfo = compilationInfo;
    root.decompositionConfig = decomposition;
    static const std::regex setPattern(R"(set\s*=\s*(-?\d+))");
    std::smatch match;
    if (std::regex_search(rootOp, match, setPattern))
      root.rootOpSet = parseInt64(match[1].str());
    for (intptr_t i = 0, e = api.mlirOperationGetNumOperands(op); i < e; ++i)
      root.operandTypes.push_back(
          typeText(api.mlirValueGetType(api.mlirOperationGetOperand(op, i))));
    for (intptr_t i = 0, e = api.mlirOperationGetNumResults(op); i < e; ++i)
      root.resultTypes.push_back(
          typeText(api.mlirValueGetType(api.mlirOperationGetResult(op, i))));
    root.indexingMaps = attributeText(op, "indexing_maps");
    root.iteratorTypes = attributeText(op, "iterator_types");

    for (MlirOperation parent = api.mlirOperationGetParentOperation(op);
         parent.ptr; parent = api.mlirOperationGetParentOperation(parent)) {
      if (auto it = functions.find(parent.ptr); it != functions.end()) {
        it->second.dispatch.rootOps.push_back(std::move(root));
        return;
      }
    }
  }

  void visitFunction(MlirOperation op) {
    FunctionEntry entry;
    entry.dispatch.name = symbolName(op);
    entry.dispatch.line = line(op);
    entry.dispatch.part = part;
    entry.dispatch.translationInfo = attributeText(op, "translation_info");
    for (MlirOperation parent = api.mlirOperationGetParentOperation(op);
         parent.ptr; parent = api.mlirOperationGetParentOperation(parent)) {
      const std::string parentName = name(parent);
      if (parentName == "hal.executable.variant") {
        entry.dispatch.variant = symbolName(parent);
        entry.dispatch.target = attributeText(parent, "target");
      } else if (parentName == "hal.executable" ||
                 parentName == "hal.executable.source" ||
                 parentName == "flow.executable" ||
                 parentName == "stream.executable") {
        entry.dispatch.executable = symbolName(parent);
        entry.insideExecutable = true;
        break;
      }
    }
    functions.emplace(op.ptr, std::move(entry));
  }

  const FunctionTable &api;
  int lineOffset;
  int part;
  std::map<void *, FunctionEntry> functions;
};

bool hasSplitMarker(const std::string &line) {
  return trim(line).rfind("// -----", 0) == 0;
}

} // namespace

std::string toString(Severity severity) {
  switch (severity) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Remark:
    return "remark";
  case Severity::Error:
    break;
  }
  return "error";
}

std::string Diagnostic::toString() const {
  std::ostringstream out;
  out << (file.empty() ? "<input>" : file);
  if (line > 0)
    out << ':' << line;
  if (column > 0)
    out << ':' << column;
  out << ": " << iree::toString(severity) << ": " << message;
  return out.str();
}

std::vector<TextPart> splitInputFile(const std::string &text) {
  std::vector<TextPart> parts(1);
  std::istringstream in(text);
  std::string lineText;
  int lineNumber = 0;
  while (std::getline(in, lineText)) {
    if (hasSplitMarker(lineText)) {
      // The marker belongs to neither part; the next part starts on the line
      // after it, and its 1-based line numbers are shifted by firstLine.
      parts.push_back(TextPart{"", lineNumber + 1});
    } else {
      parts.back().text += lineText;
      parts.back().text += '\n';
    }
    ++lineNumber;
  }
  return parts;
}

DocumentParser::DocumentParser(std::shared_ptr<CompilerLibrary> library)
    : library(std::move(library)) {}

Result<Document> DocumentParser::parseFile(const fs::path &path,
                                           const ParseOptions &options) {
  diagnostics.clear();
  std::error_code ec;
  if (!fs::exists(path, ec))
    return Error{path.string() + ": no such file"};
  if (fs::is_directory(path, ec))
    return Error{path.string() + ": is a directory, not an MLIR file"};
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec)
    return Error{path.string() + ": cannot read: " + ec.message()};
  if (size > kMaximumFileBytes)
    return Error{path.string() + ": " + std::to_string(size >> 20) +
                 " MiB is larger than the " +
                 std::to_string(kMaximumFileBytes >> 20) +
                 " MiB Tilescope reads; pass a single dispatch"};
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return Error{path.string() + ": cannot open for reading"};
  std::string text((std::istreambuf_iterator<char>(file)),
                   std::istreambuf_iterator<char>());
  Result<Document> document = parseText(text, path.string(), options);
  if (document)
    document->path = path;
  return document;
}

Result<Document> DocumentParser::parseText(const std::string &text,
                                           const std::string &bufferName,
                                           const ParseOptions &options) {
  diagnostics.clear();
  const FunctionTable &api = library->functions();
  if (!api.ireeCompilerInvocationExportStealModule || !api.mlirOperationWalk)
    return Error{"the IREE compiler at " + library->path().string() +
                 " lacks the MLIR C API functions Tilescope reads IR with"};
  if (text.find('\0') != std::string::npos)
    return Error{bufferName + ": contains a NUL byte; not an MLIR text file"};

  std::vector<TextPart> parts;
  const bool split =
      options.splitInputFile.value_or(splitInputFile(text).size() > 1);
  if (split)
    parts = splitInputFile(text);
  else
    parts.push_back(TextPart{text, 0});

  Document document;
  document.text = text;
  document.partCount = static_cast<int>(parts.size());

  std::unique_ptr<iree_compiler_session_t,
                  decltype(api.ireeCompilerSessionDestroy)>
      session(api.ireeCompilerSessionCreate(), api.ireeCompilerSessionDestroy);

  for (size_t partIndex = 0; partIndex < parts.size(); ++partIndex) {
    const TextPart &part = parts[partIndex];
    std::vector<Diagnostic> partDiagnostics;
    DiagnosticCollector collector{bufferName, part.firstLine, &partDiagnostics};

    std::unique_ptr<iree_compiler_invocation_t,
                    decltype(api.ireeCompilerInvocationDestroy)>
        invocation(api.ireeCompilerInvocationCreate(session.get()),
                   api.ireeCompilerInvocationDestroy);
    api.ireeCompilerInvocationEnableCallbackDiagnostics(
        invocation.get(), 0, &DiagnosticCollector::callback, &collector);

    iree_compiler_source_t *rawSource = nullptr;
    if (iree_compiler_error_t *error = api.ireeCompilerSourceWrapBuffer(
            session.get(), bufferName.c_str(), part.text.c_str(),
            part.text.size() + 1, /*isNullTerminated=*/true, &rawSource)) {
      std::string message = api.ireeCompilerErrorGetMessage(error);
      api.ireeCompilerErrorDestroy(error);
      return Error{bufferName + ": " + message};
    }
    std::unique_ptr<iree_compiler_source_t,
                    decltype(api.ireeCompilerSourceDestroy)>
        source(rawSource, api.ireeCompilerSourceDestroy);

    if (!api.ireeCompilerInvocationParseSource(invocation.get(),
                                               source.get())) {
      diagnostics = partDiagnostics;
      std::string message;
      for (const Diagnostic &diagnostic : partDiagnostics)
        message += (message.empty() ? "" : "\n") + diagnostic.toString();
      if (message.empty())
        message = bufferName + ": the IREE compiler could not parse this file";
      return Error{message};
    }
    for (Diagnostic &diagnostic : partDiagnostics)
      document.diagnostics.push_back(std::move(diagnostic));

    MlirOperation module =
        api.ireeCompilerInvocationExportStealModule(invocation.get());
    if (!module.ptr)
      continue;
    ModuleReader reader(api, part.firstLine, static_cast<int>(partIndex));
    reader.read(module);
    for (Dispatch &dispatch : reader.takeDispatches())
      document.dispatches.push_back(std::move(dispatch));
    api.mlirOperationDestroy(module);
  }
  return document;
}

Result<std::string>
printAttributeWithIree(const std::shared_ptr<CompilerLibrary> &library,
                       const std::string &attributeText,
                       const std::string &aliasDefinitions) {
  const FunctionTable &api = library->functions();
  if (!api.ireeCompilerInvocationExportStealModule ||
      !api.mlirOperationGetAttributeByName || !api.mlirAttributePrint)
    return Error{"the IREE compiler at " + library->path().string() +
                 " lacks the MLIR C API functions needed to print attributes"};
  static constexpr const char *kProbe = "tilescope.probe";
  const std::string text = aliasDefinitions + "\nmodule attributes {" + kProbe +
                           " = " + attributeText + "} {}\n";

  std::unique_ptr<iree_compiler_session_t,
                  decltype(api.ireeCompilerSessionDestroy)>
      session(api.ireeCompilerSessionCreate(), api.ireeCompilerSessionDestroy);
  std::unique_ptr<iree_compiler_invocation_t,
                  decltype(api.ireeCompilerInvocationDestroy)>
      invocation(api.ireeCompilerInvocationCreate(session.get()),
                 api.ireeCompilerInvocationDestroy);
  std::vector<Diagnostic> diagnostics;
  DiagnosticCollector collector{"<attribute>", 0, &diagnostics};
  api.ireeCompilerInvocationEnableCallbackDiagnostics(
      invocation.get(), 0, &DiagnosticCollector::callback, &collector);
  iree_compiler_source_t *rawSource = nullptr;
  if (iree_compiler_error_t *error = api.ireeCompilerSourceWrapBuffer(
          session.get(), "<attribute>", text.c_str(), text.size() + 1,
          /*isNullTerminated=*/true, &rawSource)) {
    std::string message = api.ireeCompilerErrorGetMessage(error);
    api.ireeCompilerErrorDestroy(error);
    return Error{message};
  }
  std::unique_ptr<iree_compiler_source_t,
                  decltype(api.ireeCompilerSourceDestroy)>
      source(rawSource, api.ireeCompilerSourceDestroy);
  if (!api.ireeCompilerInvocationParseSource(invocation.get(), source.get())) {
    std::string message = "IREE rejects the attribute";
    for (const Diagnostic &diagnostic : diagnostics)
      message += "\n" + diagnostic.toString();
    return Error{message};
  }
  MlirOperation module =
      api.ireeCompilerInvocationExportStealModule(invocation.get());
  if (!module.ptr)
    return Error{"IREE parsed the attribute but returned no module"};
  MlirAttribute attribute = api.mlirOperationGetAttributeByName(
      module, toStringRef(kProbe, std::char_traits<char>::length(kProbe)));
  std::string printed;
  if (attribute.ptr)
    api.mlirAttributePrint(attribute, appendToString, &printed);
  api.mlirOperationDestroy(module);
  if (!attribute.ptr)
    return Error{"IREE dropped the attribute"};
  return printed;
}

} // namespace tilescope::iree
