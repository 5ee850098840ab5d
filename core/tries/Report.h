// The JSON report a person shares about tuning one file: the file and its
// dispatches, each root op's configs as they stand with the problems the
// rules find in them, the edits against the file as opened, and the file's
// tries from the history (compiles, resources, times, checks). What the
// window's File > Export report and `tilescope-cli report` write.
#pragma once

#include "core/document/Document.h"
#include "core/tries/History.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace tilescope::tries {

// {"tilescope_report": 1, "file", "document" (dispatches, as `dispatches
// --json`), "ops": [{"dispatch", "op", "line", "translation_info",
// "lowering_config" | "compilation_info" (the history's form of TriedConfigs),
// "problems"}], "edits" (field by field against `original`), "tries"
// (newest first, with their details)}.
nlohmann::json tuningReport(const document::Document &original,
                            const document::Document &edited,
                            const std::vector<TryRecord> &tries);

} // namespace tilescope::tries
