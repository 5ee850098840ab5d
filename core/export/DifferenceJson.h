// JSON of a config diff (core/edit's DocumentDifference): what
// `tilescope-cli diff`, `iree-answers` and `compare` print, and what the
// window's report holds.
#pragma once

#include "core/edit/ConfigDiff.h"

#include <nlohmann/json.hpp>

namespace tilescope::exporting {

// [{"dispatch", "op", "fields": [{"field", BEFORE: ..., AFTER: ...}]}],
// the two versions under the keys given ("before"/"after", "a"/"b"); a
// whole config that differs (a CPU lowering_config) also has "entries", its
// parameters in the same form.
nlohmann::json differencesJson(const edit::DocumentDifference &difference,
                               const char *beforeKey, const char *afterKey);

} // namespace tilescope::exporting
