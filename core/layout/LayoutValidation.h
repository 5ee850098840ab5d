// Validation of a config: core/config's rules plus the ones that need the
// layout math of this folder (what IREE's own layout derivations refuse).
// Front ends call this one.
#pragma once

#include "core/config/rules/Validation.h"

#include <vector>

namespace tilescope::layout {

std::vector<config::Problem> validate(const config::LoweringConfig &config,
                                      const config::ValidationContext &context);

} // namespace tilescope::layout
