#include "core/export/DocumentJson.h"

#include "core/export/ConfigJson.h"
#include "core/export/detail/ConfigReaders.h"
#include "core/export/detail/FieldReader.h"
#include "core/export/detail/JsonTape.h"

#include <unordered_map>
#include <utility>

namespace tilescope::exporting {

using detail::BasicFieldReader;
using nlohmann::json;

namespace {

template <typename Value>
Result<document::RootOp> readRootOp(const Value &value,
                                    const std::string &where,
                                    const std::vector<std::string> &shared) {
  BasicFieldReader<Value> reader(value, where);
  document::RootOp op;
  reader.read("name", op.name, true);
  reader.read("line", op.line);
  if (value.find("root_op_set")) {
    long long set = 0;
    reader.read("root_op_set", set);
    op.rootOpSet = set;
  }
  reader.readText("lowering_config", op.loweringConfig, shared);
  reader.readText("compilation_info", op.compilationInfo, shared);
  reader.readText("decomposition_config", op.decompositionConfig, shared);
  reader.read("operand_types", op.operandTypes);
  reader.read("result_types", op.resultTypes);
  reader.readText("indexing_maps", op.indexingMaps, shared);
  reader.readText("iterator_types", op.iteratorTypes, shared);
  reader.read("column", op.column);
  std::string kind = "other";
  reader.read("kind", kind);
  if (auto parsed = config::opKindFromString(kind))
    op.kind = *parsed;
  else
    reader.fail("has an unknown kind \"" + kind + "\"");
  if (!reader.error.empty())
    return Error{reader.error};
  if (auto given = value.find("iteration_space")) {
    auto space = detail::readIterationSpace(*given);
    if (!space)
      return Error{where + " " + space.error()};
    op.space = std::move(*space);
  }
  if (auto given = value.find("source")) {
    BasicFieldReader<Value> source(*given, where + " source");
    document::SourceLocation location;
    source.read("file", location.file, true);
    source.read("line", location.line);
    source.read("column", location.column);
    if (!source.error.empty())
      return Error{source.error};
    op.source = std::move(location);
  }
  if (auto given = value.find("contraction")) {
    auto dims = detail::readContractionDims(*given);
    if (!dims)
      return Error{where + " " + dims.error()};
    op.contraction = std::move(*dims);
  }
  if (auto given = value.find("implicit_gemm")) {
    auto igemm = detail::readImplicitGemm(*given);
    if (!igemm)
      return Error{where + " " + igemm.error()};
    op.implicitGemm = std::move(*igemm);
  }
  return op;
}

template <typename Value>
Result<document::Dispatch>
readDispatch(const Value &value, const std::string &where,
             const std::vector<std::string> &shared) {
  BasicFieldReader<Value> reader(value, where);
  document::Dispatch dispatch;
  reader.read("name", dispatch.name, true);
  reader.read("executable", dispatch.executable);
  reader.read("variant", dispatch.variant);
  reader.readText("target", dispatch.target, shared);
  reader.readText("translation_info", dispatch.translationInfo, shared);
  reader.read("line", dispatch.line);
  reader.read("column", dispatch.column);
  reader.read("part", dispatch.part);
  if (auto fused = reader.array("fused_ops"))
    for (const Value &entry : fused->elements()) {
      BasicFieldReader<Value> fusedReader(entry, where + " fused op");
      document::FusedOp op;
      fusedReader.read("name", op.name, true);
      fusedReader.read("line", op.line);
      if (!fusedReader.error.empty())
        return Error{fusedReader.error};
      dispatch.fusedOps.push_back(std::move(op));
    }
  if (auto ops = reader.array("root_ops")) {
    const std::vector<Value> entries = ops->elements();
    for (size_t i = 0; i < entries.size(); ++i) {
      auto op = readRootOp(entries[i], where + " root op " + std::to_string(i),
                           shared);
      if (!op)
        return Error{op.error()};
      dispatch.rootOps.push_back(std::move(*op));
    }
  }
  if (!reader.error.empty())
    return Error{reader.error};
  return dispatch;
}

template <typename Value>
Result<document::Diagnostic> readDiagnostic(const Value &value) {
  BasicFieldReader<Value> reader(value, "diagnostic");
  document::Diagnostic diagnostic;
  std::string severity;
  reader.read("severity", severity, true);
  diagnostic.severity = document::severityFromString(severity);
  reader.read("file", diagnostic.file);
  reader.read("line", diagnostic.line);
  reader.read("column", diagnostic.column);
  reader.read("message", diagnostic.message, true);
  if (auto notes = reader.array("notes"))
    for (const Value &note : notes->elements()) {
      auto parsed = readDiagnostic(note);
      if (!parsed)
        return Error{parsed.error()};
      diagnostic.notes.push_back(std::move(*parsed));
    }
  if (!reader.error.empty())
    return Error{reader.error};
  return diagnostic;
}

template <typename Value>
Result<document::Document> readDocument(const Value &value) {
  BasicFieldReader<Value> reader(value, "document");
  document::Document document;
  std::string file;
  reader.read("file", file);
  document.path = file;
  reader.read("parts", document.partCount, true);
  std::vector<std::string> shared;
  if (auto texts = reader.array("texts"))
    for (const Value &text : texts->elements()) {
      if (!text.isString())
        return Error{"document: \"texts\" holds something other than text"};
      shared.push_back(text.string());
    }
  if (auto dispatches = reader.array("dispatches")) {
    const std::vector<Value> entries = dispatches->elements();
    document.dispatches.reserve(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
      auto dispatch =
          readDispatch(entries[i], "dispatch " + std::to_string(i), shared);
      if (!dispatch)
        return Error{dispatch.error()};
      document.dispatches.push_back(std::move(*dispatch));
    }
  }
  if (auto diagnostics = reader.array("diagnostics"))
    for (const Value &entry : diagnostics->elements()) {
      auto diagnostic = readDiagnostic(entry);
      if (!diagnostic)
        return Error{diagnostic.error()};
      document.diagnostics.push_back(std::move(*diagnostic));
    }
  if (!reader.error.empty())
    return Error{reader.error};
  // The configs travel as their texts; each gets its reading here, as the
  // parser gives them.
  document::readConfigs(document);
  return document;
}

} // namespace

json toJson(const document::Diagnostic &diagnostic) {
  json notes = json::array();
  for (const document::Diagnostic &note : diagnostic.notes)
    notes.push_back(toJson(note));
  return {{"severity", document::toString(diagnostic.severity)},
          {"file", diagnostic.file},
          {"line", diagnostic.line},
          {"column", diagnostic.column},
          {"message", diagnostic.message},
          {"notes", std::move(notes)}};
}

json toJson(const document::RootOp &op) {
  json entry = {{"name", op.name},
                {"line", op.line},
                {"column", op.column},
                {"kind", config::toString(op.kind)},
                {"operand_types", op.operandTypes},
                {"result_types", op.resultTypes}};
  if (op.rootOpSet)
    entry["root_op_set"] = *op.rootOpSet;
  if (!op.loweringConfig.empty())
    entry["lowering_config"] = op.loweringConfig;
  if (!op.compilationInfo.empty())
    entry["compilation_info"] = op.compilationInfo;
  if (!op.decompositionConfig.empty())
    entry["decomposition_config"] = op.decompositionConfig;
  if (!op.indexingMaps.empty())
    entry["indexing_maps"] = op.indexingMaps;
  if (!op.iteratorTypes.empty())
    entry["iterator_types"] = op.iteratorTypes;
  if (op.space)
    entry["iteration_space"] = toJson(*op.space);
  if (op.contraction)
    entry["contraction"] = toJson(*op.contraction);
  if (op.implicitGemm)
    entry["implicit_gemm"] = toJson(*op.implicitGemm);
  if (op.source)
    entry["source"] = toJson(*op.source);
  return entry;
}

json toJson(const document::SourceLocation &source) {
  return json{
      {"file", source.file}, {"line", source.line}, {"column", source.column}};
}

json toJson(const document::Dispatch &dispatch) {
  json rootOps = json::array();
  for (const document::RootOp &op : dispatch.rootOps)
    rootOps.push_back(toJson(op));
  json fused = json::array();
  for (const document::FusedOp &op : dispatch.fusedOps)
    fused.push_back({{"name", op.name}, {"line", op.line}});
  return {{"name", dispatch.name},
          {"executable", dispatch.executable},
          {"variant", dispatch.variant},
          {"target", dispatch.target},
          {"translation_info", dispatch.translationInfo},
          {"line", dispatch.line},
          {"column", dispatch.column},
          {"part", dispatch.part},
          {"root_ops", std::move(rootOps)},
          {"fused_ops", std::move(fused)}};
}

json toJson(const document::Document &document, bool shareTexts) {
  json dispatches = json::array();
  std::vector<std::string> texts;
  std::unordered_map<std::string, size_t> indices;
  // A long text field becomes its index in "texts".
  auto share = [&](json &entry, const char *key) {
    auto it = entry.find(key);
    if (it == entry.end() || !it->is_string())
      return;
    auto [found, added] =
        indices.try_emplace(it->get_ref<const std::string &>(), texts.size());
    if (added)
      texts.push_back(found->first);
    *it = found->second;
  };
  for (const document::Dispatch &dispatch : document.dispatches) {
    json entry = toJson(dispatch);
    if (shareTexts) {
      share(entry, "target");
      share(entry, "translation_info");
      for (json &op : entry["root_ops"])
        for (const char *key :
             {"lowering_config", "compilation_info", "decomposition_config",
              "indexing_maps", "iterator_types"})
          share(op, key);
    }
    dispatches.push_back(std::move(entry));
  }
  json diagnostics = json::array();
  for (const document::Diagnostic &diagnostic : document.diagnostics)
    diagnostics.push_back(toJson(diagnostic));
  // Moved in, not copied: a program's document is large.
  json result = {{"file", document.path.string()},
                 {"parts", document.partCount},
                 {"dispatches", std::move(dispatches)},
                 {"diagnostics", std::move(diagnostics)}};
  if (shareTexts)
    result["texts"] = std::move(texts);
  return result;
}

Result<document::Diagnostic> diagnosticFromJson(const json &value) {
  return readDiagnostic(detail::DomValue(value));
}

Result<document::Document> documentFromJson(const json &value) {
  return readDocument(detail::DomValue(value));
}

Result<DocumentAnswer> documentAnswerFromJsonText(const std::string &text) {
  // simdjson refuses the whole text where nlohmann would refuse a field: a
  // whole number past 64 bits or a float past double's range (nlohmann
  // reads both as floats), nesting past 1024 levels. The worker writes
  // neither: its numbers are whole and fit, its document 8 levels deep.
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto error = parser.parse(text).get(root))
    return Error{std::string("not JSON (") + simdjson::error_message(error) +
                 ")"};
  const detail::TapeValue answer(root);
  DocumentAnswer read;
  std::optional<detail::TapeValue> ok = answer.find("ok");
  if (!ok || !ok->isBool())
    return Error{"not a parse result (no \"ok\")"};
  read.ok = ok->boolean();
  if (auto error = answer.find("error"); error && error->isString())
    read.error = error->string();
  if (auto diagnostics = answer.find("diagnostics");
      diagnostics && diagnostics->isArray())
    for (const detail::TapeValue &entry : diagnostics->elements())
      if (auto diagnostic = readDiagnostic(entry))
        read.diagnostics.push_back(std::move(*diagnostic));
  if (!read.ok)
    return read;
  std::optional<detail::TapeValue> document = answer.find("document");
  auto readBack =
      document
          ? readDocument(*document)
          : Result<document::Document>(Error{"the answer has no \"document\""});
  if (readBack)
    read.document = std::move(*readBack);
  else
    read.documentError = readBack.error();
  return read;
}

} // namespace tilescope::exporting
