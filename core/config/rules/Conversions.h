// Named rewrites that move a config between IREE releases, so a file written
// for one release compiles on another. Where no rewrite exists, a note says
// what to do instead.
#pragma once

#include "core/config/syntax/Attribute.h"

#include <string>
#include <vector>

namespace tilescope::config {

struct ConversionInfo {
  const char *name;
  const char *description;
};
// pipeline-keyword-to-attribute, pipeline-attribute-to-keyword,
// prefetch-shared-memory-to-num-stages, prefetch-num-stages-to-shared-memory,
// thread-basis-to-lane-basis, lane-basis-to-thread-basis.
const std::vector<ConversionInfo> &conversions();

struct ConversionResult {
  Attribute attribute;
  std::vector<std::string> applied;    // conversion names, in order
  std::vector<std::string> impossible; // what has no conversion, and what to do
};

// Rewrites every attribute inside `attribute` that `release` ("3.13",
// "3.11", ...) would not read.
ConversionResult convertForRelease(const Attribute &attribute,
                                   const std::string &release);

} // namespace tilescope::config
