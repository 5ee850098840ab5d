#include "core/export/DocumentJson.h"

#include "core/export/ConfigJson.h"
#include "core/export/detail/FieldReader.h"

#include <cstdint>
#include <limits>
#include <type_traits>
#include <unordered_map>
#include <utility>

namespace tilescope::exporting {

using detail::FieldReader;
using nlohmann::json;

namespace {

Result<document::RootOp>
rootOpFromJson(const json &value, const std::string &where,
               const std::vector<std::string> &shared) {
  FieldReader reader(value, where);
  document::RootOp op;
  reader.read("name", op.name, true);
  reader.read("line", op.line);
  if (value.is_object() && value.contains("root_op_set")) {
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
  if (auto it = value.find("iteration_space"); it != value.end()) {
    auto space = iterationSpaceFromJson(*it);
    if (!space)
      return Error{where + " " + space.error()};
    op.space = std::move(*space);
  }
  if (auto it = value.find("source"); it != value.end()) {
    FieldReader source(*it, where + " source");
    document::SourceLocation location;
    source.read("file", location.file, true);
    source.read("line", location.line);
    source.read("column", location.column);
    if (!source.error.empty())
      return Error{source.error};
    op.source = std::move(location);
  }
  if (auto it = value.find("contraction"); it != value.end()) {
    auto dims = contractionDimsFromJson(*it);
    if (!dims)
      return Error{where + " " + dims.error()};
    op.contraction = std::move(*dims);
  }
  if (auto it = value.find("implicit_gemm"); it != value.end()) {
    auto igemm = implicitGemmFromJson(*it);
    if (!igemm)
      return Error{where + " " + igemm.error()};
    op.implicitGemm = std::move(*igemm);
  }
  return op;
}

Result<document::Dispatch>
dispatchFromJson(const json &value, const std::string &where,
                 const std::vector<std::string> &shared) {
  FieldReader reader(value, where);
  document::Dispatch dispatch;
  reader.read("name", dispatch.name, true);
  reader.read("executable", dispatch.executable);
  reader.read("variant", dispatch.variant);
  reader.readText("target", dispatch.target, shared);
  reader.readText("translation_info", dispatch.translationInfo, shared);
  reader.read("line", dispatch.line);
  reader.read("column", dispatch.column);
  reader.read("part", dispatch.part);
  if (const json *fused = reader.array("fused_ops"))
    for (const json &entry : *fused) {
      FieldReader fusedReader(entry, where + " fused op");
      document::FusedOp op;
      fusedReader.read("name", op.name, true);
      fusedReader.read("line", op.line);
      if (!fusedReader.error.empty())
        return Error{fusedReader.error};
      dispatch.fusedOps.push_back(std::move(op));
    }
  if (const json *ops = reader.array("root_ops"))
    for (size_t i = 0; i < ops->size(); ++i) {
      auto op = rootOpFromJson((*ops)[i],
                               where + " root op " + std::to_string(i), shared);
      if (!op)
        return Error{op.error()};
      dispatch.rootOps.push_back(std::move(*op));
    }
  if (!reader.error.empty())
    return Error{reader.error};
  return dispatch;
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
  FieldReader reader(value, "diagnostic");
  document::Diagnostic diagnostic;
  std::string severity;
  reader.read("severity", severity, true);
  diagnostic.severity = document::severityFromString(severity);
  reader.read("file", diagnostic.file);
  reader.read("line", diagnostic.line);
  reader.read("column", diagnostic.column);
  reader.read("message", diagnostic.message, true);
  if (const json *notes = reader.array("notes"))
    for (const json &note : *notes) {
      auto parsed = diagnosticFromJson(note);
      if (!parsed)
        return Error{parsed.error()};
      diagnostic.notes.push_back(std::move(*parsed));
    }
  if (!reader.error.empty())
    return Error{reader.error};
  return diagnostic;
}

Result<document::Document> documentFromJson(const json &value) {
  FieldReader reader(value, "document");
  document::Document document;
  std::string file;
  reader.read("file", file);
  document.path = file;
  reader.read("parts", document.partCount, true);
  std::vector<std::string> shared;
  if (const json *texts = reader.array("texts"))
    for (const json &text : *texts) {
      if (!text.is_string())
        return Error{"document: \"texts\" holds something other than text"};
      shared.push_back(text.get<std::string>());
    }
  if (const json *dispatches = reader.array("dispatches"))
    for (size_t i = 0; i < dispatches->size(); ++i) {
      auto dispatch = dispatchFromJson((*dispatches)[i],
                                       "dispatch " + std::to_string(i), shared);
      if (!dispatch)
        return Error{dispatch.error()};
      document.dispatches.push_back(std::move(*dispatch));
    }
  if (const json *diagnostics = reader.array("diagnostics"))
    for (const json &entry : *diagnostics) {
      auto diagnostic = diagnosticFromJson(entry);
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

} // namespace tilescope::exporting
