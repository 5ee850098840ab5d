// explain FILE --op on an attention op (LayoutInputs::attention set).
#pragma once

#include "app/cli/LayoutInputs.h"

namespace tilescope::cli {

int explainAttention(const LayoutInputs &in, bool asJson);

} // namespace tilescope::cli
