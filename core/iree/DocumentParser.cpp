#include "core/iree/DocumentParser.h"

#include "core/iree/CompilerLibrary.h"
#include "core/iree/detail/Ir.h"
#include "core/iree/detail/RootOpReader.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <cctype>
#include <future>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace fs = std::filesystem;

namespace tilescope::iree {

using namespace detail;

namespace {

// Walks a parsed module and records its dispatches and configured ops.
class ModuleReader {
public:
  ModuleReader(const Ir &ir, int lineOffset, int part, std::string bufferName)
      : ir(ir), lineOffset(lineOffset), part(part),
        bufferName(std::move(bufferName)) {}

  void read(MlirOperation module) {
    ir.walk(module, [this](MlirOperation op) {
      visitOperation(op);
      return true;
    });
  }

  // Functions that are kernels: inside an executable, or configured.
  std::vector<document::Dispatch> takeDispatches() {
    std::vector<document::Dispatch> result;
    for (FunctionEntry &entry : functions) {
      if (entry.insideExecutable || !entry.dispatch.translationInfo.empty() ||
          !entry.dispatch.rootOps.empty())
        result.push_back(std::move(entry.dispatch));
    }
    std::stable_sort(
        result.begin(), result.end(),
        [](const document::Dispatch &a, const document::Dispatch &b) { return a.line < b.line; });
    return result;
  }

private:
  struct FunctionEntry {
    document::Dispatch dispatch;
    bool insideExecutable = false;
  };

  void visitOperation(MlirOperation op) {
    const std::string opName = ir.name(op);
    if (opName == "func.func") {
      visitFunction(op);
      return;
    }
    const ConfigAttributes found = configAttributes(op);
    const std::string &loweringConfig = text(found.loweringConfig);
    const std::string &compilationInfo = text(found.compilationInfo);
    const std::string &rootOp = text(found.rootOp);
    const std::string &decomposition = text(found.decomposition);
    if (loweringConfig.empty() && compilationInfo.empty() && rootOp.empty() &&
        decomposition.empty()) {
      if (isComputeOp(opName))
        if (FunctionEntry *function = enclosingFunction(op))
          function->dispatch.fusedOps.push_back(
              document::FusedOp{opName, ir.line(op, lineOffset)});
      return;
    }

    document::RootOp root;
    root.name = opName;
    root.line = ir.line(op, lineOffset);
    root.column = ir.column(op);
    root.loweringConfig = loweringConfig;
    root.compilationInfo = compilationInfo;
    root.decompositionConfig = decomposition;
    root.rootOpSet = rootOpSet(rootOp);
    const FunctionTable &api = ir.api;
    for (intptr_t i = 0, e = api.mlirOperationGetNumOperands(op); i < e; ++i)
      root.operandTypes.push_back(
          text(api.mlirValueGetType(api.mlirOperationGetOperand(op, i))));
    for (intptr_t i = 0, e = api.mlirOperationGetNumResults(op); i < e; ++i)
      root.resultTypes.push_back(
          text(api.mlirValueGetType(api.mlirOperationGetResult(op, i))));
    root.indexingMaps = text(op, "indexing_maps");
    root.iteratorTypes = text(op, "iterator_types");
    describeRootOp(ir, op, root);
    if (auto position = ir.filePosition(api.mlirOperationGetLocation(op));
        position && position->file != bufferName)
      root.source =
          document::SourceLocation{position->file, position->line, position->column};
    if (FunctionEntry *function = enclosingFunction(op))
      function->dispatch.rootOps.push_back(std::move(root));
  }

  FunctionEntry *enclosingFunction(MlirOperation op) {
    const FunctionTable &api = ir.api;
    for (MlirOperation parent = api.mlirOperationGetParentOperation(op);
         parent.ptr; parent = api.mlirOperationGetParentOperation(parent))
      if (auto it = functionIndex.find(parent.ptr); it != functionIndex.end())
        return &functions[it->second];
    return nullptr;
  }

  void visitFunction(MlirOperation op) {
    FunctionEntry entry;
    entry.dispatch.name = ir.symbolName(op);
    entry.dispatch.line = ir.line(op, lineOffset);
    entry.dispatch.column = ir.column(op);
    entry.dispatch.part = part;
    entry.dispatch.translationInfo = text(op, "translation_info");
    const FunctionTable &api = ir.api;
    for (MlirOperation parent = api.mlirOperationGetParentOperation(op);
         parent.ptr; parent = api.mlirOperationGetParentOperation(parent)) {
      const std::string parentName = ir.name(parent);
      if (parentName == "hal.executable.variant") {
        entry.dispatch.variant = ir.symbolName(parent);
        entry.dispatch.target = text(parent, "target");
      } else if (parentName == "hal.executable" ||
                 parentName == "hal.executable.source" ||
                 parentName == "flow.executable" ||
                 parentName == "stream.executable") {
        entry.dispatch.executable = ir.symbolName(parent);
        entry.insideExecutable = true;
        break;
      }
    }
    if (functionIndex.try_emplace(op.ptr, functions.size()).second)
      functions.push_back(std::move(entry));
  }

  // IREE uniques attributes and types: one printing serves every use (a
  // program's 1000 dispatches name one 2 KB target).
  // The attributes that make an op a root op: found in one pass over its
  // discardable attributes (most ops have none), where this IREE has the
  // functions for it; else asked for by name.
  struct ConfigAttributes {
    MlirAttribute loweringConfig{}, compilationInfo{}, rootOp{},
        decomposition{};
  };
  ConfigAttributes configAttributes(MlirOperation op) const {
    const FunctionTable &api = ir.api;
    ConfigAttributes found;
    if (!api.mlirOperationGetNumDiscardableAttributes ||
        !api.mlirOperationGetDiscardableAttribute) {
      found.loweringConfig = ir.attribute(op, "lowering_config");
      found.compilationInfo = ir.attribute(op, "compilation_info");
      found.rootOp = ir.attribute(op, "root_op");
      found.decomposition = ir.attribute(op, "decomposition_config");
      return found;
    }
    for (intptr_t i = 0, e = api.mlirOperationGetNumDiscardableAttributes(op);
         i < e; ++i) {
      const MlirNamedAttribute named =
          api.mlirOperationGetDiscardableAttribute(op, i);
      const MlirStringRef name = api.mlirIdentifierStr(named.name);
      const std::string_view key(name.data, name.length);
      if (key == "lowering_config")
        found.loweringConfig = named.attribute;
      else if (key == "compilation_info")
        found.compilationInfo = named.attribute;
      else if (key == "root_op")
        found.rootOp = named.attribute;
      else if (key == "decomposition_config")
        found.decomposition = named.attribute;
    }
    // Attention's decomposition_config is one of the op's own (inherent)
    // attributes, not a discardable one: asked for by name, on root ops
    // only.
    if (!found.decomposition.ptr &&
        (found.loweringConfig.ptr || found.compilationInfo.ptr))
      found.decomposition = ir.attribute(op, "decomposition_config");
    return found;
  }

  // `#iree_codegen.root_op<set = N>`: N.
  static std::optional<int64_t> rootOpSet(std::string_view text) {
    const size_t at = text.find("set");
    if (at == std::string_view::npos)
      return std::nullopt;
    size_t i = at + 3;
    auto skipSpaces = [&] {
      while (i < text.size() &&
             std::isspace(static_cast<unsigned char>(text[i])))
        ++i;
    };
    skipSpaces();
    if (i >= text.size() || text[i] != '=')
      return std::nullopt;
    ++i;
    skipSpaces();
    const size_t start = i;
    if (i < text.size() && text[i] == '-')
      ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      ++i;
    return parseInt64(text.substr(start, i - start));
  }

  const std::string &text(MlirOperation op, const char *name) {
    return text(ir.attribute(op, name));
  }
  const std::string &text(MlirAttribute value) {
    static const std::string none;
    if (!value.ptr)
      return none;
    auto [it, added] = printed.try_emplace(value.ptr);
    if (added)
      it->second = ir.print(value);
    return it->second;
  }
  const std::string &text(MlirType type) {
    auto [it, added] = printed.try_emplace(type.ptr);
    if (added)
      it->second = ir.print(type);
    return it->second;
  }

  const Ir &ir;
  int lineOffset;
  int part;
  std::string bufferName;
  // In the order the walk met them: dispatches on one line (a located
  // print's functions can share their source line) keep the IR's order,
  // not the order of their addresses.
  std::vector<FunctionEntry> functions;
  std::unordered_map<const void *, size_t> functionIndex;
  std::unordered_map<const void *, std::string> printed;
};

} // namespace

DocumentParser::DocumentParser(std::shared_ptr<CompilerLibrary> library)
    : library(std::move(library)) {}

DocumentParser::~DocumentParser() = default;

Result<document::Document> DocumentParser::parseFile(const fs::path &path,
                                           const ParseOptions &options) {
  diagnostics.clear();
  auto text = document::readMlirFile(path);
  if (!text)
    return Error{text.error()};
  Result<document::Document> document =
      parseText(std::move(*text), path.string(), options);
  if (document)
    document->path = path;
  return document;
}

void DocumentParser::releaseModules() { keptModules.clear(); }

Result<document::Document> DocumentParser::parseText(std::string text,
                                           const std::string &bufferName,
                                           const ParseOptions &options) {
  diagnostics.clear();
  releaseModules();
  const bool split = splitsInput(text, options);
  // The scans that guard IREE's parser (~10 ms on an 8 MB program) run
  // beside the first parse's session start-up, which does not need them.
  std::future<std::optional<std::string>> refusal;
  if (!options.unguarded)
    refusal = std::async(session ? std::launch::deferred : std::launch::async,
                         [&text, &bufferName, split] {
                           return refuseBeforeParsing(text, bufferName, split);
                         });
  if (!session) {
    auto created = Session::create(*library);
    if (!created)
      return Error{created.error()};
    session = std::move(*created);
  }
  if (refusal.valid())
    if (auto refused = refusal.get())
      return Error{*refused};

  std::vector<document::TextPart> parts;
  std::vector<document::Diagnostic> warnings;
  if (split) {
    document::SplitInput splitInput = document::splitInputFile(text, bufferName);
    parts = std::move(splitInput.parts);
    warnings = std::move(splitInput.nearMisses);
  } else {
    parts.push_back(document::TextPart{0, text.size(), 1, 1});
  }

  document::Document document;
  document.partCount = static_cast<int>(parts.size());
  document.diagnostics = warnings;
  const Ir ir(session->api);

  bool failed = false;
  std::vector<document::Diagnostic> refusals;
  std::vector<std::string> failures; // parts that failed without a diagnostic
  for (size_t partIndex = 0; partIndex < parts.size(); ++partIndex) {
    const document::TextPart &part = parts[partIndex];
    SourcePosition position;
    position.fileName = bufferName;
    position.bufferName =
        parts.size() == 1
            ? bufferName
            : bufferName + " (part " + std::to_string(partIndex + 1) + ")";
    position.firstLine = part.firstLine;
    position.firstColumn = part.firstColumn;
    std::vector<document::Diagnostic> partDiagnostics;
    if (options.beforePart)
      options.beforePart(static_cast<int>(partIndex), part.firstLine);
    // A part that runs to the end of the text ends in its string's NUL.
    auto parsed =
        ParsedModule::parse(session, part.in(text), position, partDiagnostics,
                            part.offset + part.length == text.size());
    if (!parsed) {
      // As iree-opt --split-input-file does, the other parts are still
      // parsed, so every broken part is reported at once.
      failed = true;
      if (partDiagnostics.empty())
        failures.push_back(parsed.error());
      refusals.insert(refusals.end(), partDiagnostics.begin(),
                      partDiagnostics.end());
      continue;
    }
    for (document::Diagnostic &diagnostic : partDiagnostics)
      document.diagnostics.push_back(std::move(diagnostic));
    ModuleReader reader(ir, part.firstLine - 1, static_cast<int>(partIndex),
                        position.bufferName);
    reader.read((*parsed)->operation());
    for (document::Dispatch &dispatch : reader.takeDispatches())
      document.dispatches.push_back(std::move(dispatch));
    if (options.keepModules)
      keptModules.push_back(std::move(*parsed));
  }
  if (failed) {
    diagnostics = std::move(document.diagnostics);
    diagnostics.insert(diagnostics.end(), refusals.begin(), refusals.end());
    std::string message;
    for (const document::Diagnostic &diagnostic : diagnostics)
      message += document::formatLikeIreeOpt(diagnostic, text);
    for (const std::string &failure : failures)
      message += failure + "\n";
    if (!message.empty() && message.back() == '\n')
      message.pop_back();
    return Error{message};
  }
  document.text = std::move(text);
  // Each config text gets its reading, parsed once when first asked and
  // shared by every consumer and copy of this document.
  readConfigs(document);
  return document;
}

Result<std::string>
printAttributeWithIree(const std::shared_ptr<CompilerLibrary> &library,
                       const std::string &attributeText,
                       const std::string &aliasDefinitions) {
  return AttributeParser(library).print(attributeText, aliasDefinitions);
}

AttributeParser::AttributeParser(std::shared_ptr<CompilerLibrary> library)
    : library(std::move(library)) {}

AttributeParser::~AttributeParser() = default;

Result<std::string>
AttributeParser::print(const std::string &attributeText,
                       const std::string &aliasDefinitions) {
  if (!session) {
    auto created = Session::create(*library);
    if (!created)
      return Error{created.error()};
    session = std::move(*created);
  }
  static constexpr const char *kProbe = "tilescope.probe";
  static constexpr const char *kBuffer = "<attribute>";
  // The attribute on a line of its own, so IREE's columns are its own.
  const std::string prefix =
      "module attributes {" + std::string(kProbe) + " =\n";
  const std::string text =
      aliasDefinitions + "\n" + prefix + attributeText + "\n} {}\n";
  if (auto refusal = refuseBeforeParsing(text, kBuffer, false))
    return Error{*refusal};
  std::vector<document::Diagnostic> diagnostics;
  auto parsed = ParsedModule::parse(
      session, text, SourcePosition{kBuffer, kBuffer}, diagnostics);
  if (!parsed) {
    // Lines of the wrapper are counted off, so line 1 is the attribute's.
    const int attributeLine =
        static_cast<int>(std::count(aliasDefinitions.begin(),
                                    aliasDefinitions.end(), '\n')) +
        3;
    std::string message;
    for (document::Diagnostic diagnostic : diagnostics) {
      if (diagnostic.file == kBuffer && diagnostic.line >= attributeLine)
        diagnostic.line -= attributeLine - 1;
      if (!message.empty())
        message += "\n";
      message += diagnostic.toString();
    }
    if (message.empty())
      message = parsed.error();
    return Error{message};
  }
  const Ir ir(session->api);
  MlirAttribute attribute = ir.attribute((*parsed)->operation(), kProbe);
  if (!attribute.ptr)
    return Error{"IREE dropped the attribute"};
  return ir.print(attribute);
}

} // namespace tilescope::iree
