// JSON for a parsed document: what `tilescope-cli dispatches --json` prints
// and what tilescope-iree-worker hands back to the process that asked it to
// parse (core/service/DocumentWorker). Reading it back is strict: a field of
// the wrong type is an error naming the field, never a crash.
#pragma once

#include "core/document/Document.h"
#include "core/util/Result.h"

#include <nlohmann/json.hpp>

namespace tilescope::exporting {

nlohmann::json toJson(const document::Diagnostic &diagnostic);
nlohmann::json toJson(const document::SourceLocation &source);
nlohmann::json toJson(const document::RootOp &op);
nlohmann::json toJson(const document::Dispatch &dispatch);
// The document without its text (the reader has the file). With
// `shareTexts`, each distinct long text (target, translation_info,
// lowering_config, compilation_info, decomposition_config, indexing_maps,
// iterator_types) is written once, in "texts", and the field holds its
// index there: the parse worker's reply, where a 1000-dispatch program
// would otherwise carry one 2 KB target 1000 times and its few kinds of
// translation_info and indexing maps hundreds of times each.
// documentFromJson reads both forms.
nlohmann::json toJson(const document::Document &document,
                      bool shareTexts = false);

Result<document::Diagnostic> diagnosticFromJson(const nlohmann::json &value);
Result<document::Document> documentFromJson(const nlohmann::json &value);

// The parse worker's answer (tilescope-iree-worker parse): {"ok": true,
// "document": {...}} or {"ok": false, "error": "...", "diagnostics":
// [...]}, read from its text straight into the model with simdjson, the
// same fields and checks as documentFromJson but no DOM to build and free
// (about 20 ms of a 1000-dispatch program's open, bench_documents). An
// error says why the text is not such an answer; a refusal is ok = false;
// a document that does not read back is documentError.
struct DocumentAnswer {
  bool ok = false;
  std::string error; // where !ok: what IREE said
  std::vector<document::Diagnostic> diagnostics;
  document::Document document; // where ok
  std::string documentError;   // where ok: why the document does not read
};
Result<DocumentAnswer> documentAnswerFromJsonText(const std::string &text);

} // namespace tilescope::exporting
