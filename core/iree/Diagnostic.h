// IREE's diagnostics are the document model's (core/document/Diagnostic.h):
// the names core/iree/ has always used for them.
#pragma once

#include "core/document/Diagnostic.h"

namespace tilescope::iree {
using document::Diagnostic;
using document::formatLikeIreeOpt;
using document::Severity;
using document::toString;
} // namespace tilescope::iree
