// A listing as JSON, the form `tilescope-cli isa --json` prints and Python's
// tilescope.instructions returns.
#pragma once

#include "core/isa/Assembly.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace tilescope::isa {

// {"kind", "label", "first_line", "last_line", "counts": {class: n},
//  "width_bits": {class: {bits: n}}, "instructions": [...] (when asked)}
nlohmann::json toJson(const Region &region, bool withInstructions);
// [{"file", "dialect", "kernel", "regions": [...]}, ...] a kernel each.
nlohmann::json toJson(const std::filesystem::path &file, const Listing &listing,
                      bool withInstructions);

} // namespace tilescope::isa
