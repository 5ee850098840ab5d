// A config field's value as a person or a sweep writes it: a tile list
// ("[64, 128, 0]") or a basis ("[[1, 4, 16], [0, 1, 2]]"), read with IREE's
// attribute syntax in one place for the editor's boxes, the sweep's values
// and the CLI's options (a whole config is read by its own model, or through
// the document's reading of it).
#pragma once

#include "core/config/configs/LoweringConfig.h"
#include "core/util/Result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::config {

// The integers of a list; an Error: the text does not parse, or is not a
// list of integers.
Result<std::vector<int64_t>> integerListOf(std::string_view text);

// A basis's counts and mapping; an Error names `field` ("lane_basis").
Result<Basis> basisOf(std::string_view text, const std::string &field);

} // namespace tilescope::config
