// A tune's result as people and scripts read it: the table `tilescope-cli
// tune` prints (per dispatch its share, IREE's default, the winner, the
// speedup; for the program the end-to-end times) and its JSON, which the
// Python package returns and the tune's folder keeps as tune.json.
#pragma once

#include "core/tune/Tune.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tilescope::tune {

nlohmann::json toJson(const TuneResult &result);
std::string tuneReport(const TuneResult &result);

} // namespace tilescope::tune
