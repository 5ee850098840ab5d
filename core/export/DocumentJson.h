// JSON for a parsed document: what `tilescope-cli dispatches --json` prints
// and what tilescope-iree-worker hands back to the process that asked it to
// parse (core/jobs/DocumentWorker). Reading it back is strict: a field of the
// wrong type is an error naming the field, never a crash.
#pragma once

#include "core/iree/Document.h"
#include "core/util/Result.h"

#include <nlohmann/json.hpp>

namespace tilescope::exporting {

nlohmann::json toJson(const iree::Diagnostic &diagnostic);
nlohmann::json toJson(const iree::SourceLocation &source);
nlohmann::json toJson(const iree::RootOp &op);
nlohmann::json toJson(const iree::Dispatch &dispatch);
// The document without its text (the reader has the file).
nlohmann::json toJson(const iree::Document &document);

Result<iree::Diagnostic> diagnosticFromJson(const nlohmann::json &value);
Result<iree::Document> documentFromJson(const nlohmann::json &value);

} // namespace tilescope::exporting
