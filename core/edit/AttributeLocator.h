// Where an op's attribute is written in the text of an MLIR file, so an edit
// replaces exactly those characters and nothing else in the file changes.
//
// Both ways IREE and people write a config are found: inline
// (`{lowering_config = #iree_gpu.lowering_config<{...}>}`) and through an
// alias (`#config = ...` at the top, `lowering_config = #config` at the op).
// Pure text work: IREE checks the result when the edit is verified.
#pragma once

#include "core/util/Result.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace tilescope::edit {

struct TextRange {
  size_t offset = 0;
  size_t length = 0;
  size_t end() const { return offset + length; }
};

struct AttributeSite {
  TextRange key;   // `lowering_config` at the op
  TextRange value; // what follows `key =` at the op: inline text or `#alias`
  // Set when the op names an alias: its definition's value, and whether
  // anything else in the same part refers to it.
  std::string alias; // "#config"
  TextRange definition;
  bool aliasShared = false;
};

// The byte offset of a 1-based line and column (a column counts bytes, as
// MLIR's locations do); npos past the end.
size_t offsetOf(std::string_view text, int line, int column);
// The 1-based line holding `offset`.
int lineOf(std::string_view text, size_t offset);

// Finds `key = value` for the op starting at `opOffset`: the first such key
// at or after the op, inside `part` (the `// -----` part holding the op).
// An error names what was not found.
Result<AttributeSite> locateAttribute(std::string_view text, size_t opOffset,
                                      std::string_view key, TextRange part);

// A replacement of `site`'s attribute by `newText`: the alias definition
// when only this op uses it, the op's own text otherwise (a shared alias is
// left to the ops that still use it).
struct Splice {
  size_t offset = 0;
  std::string removed;
  std::string inserted;
};
Splice replaceAttribute(std::string_view text, const AttributeSite &site,
                        const std::string &newText);

} // namespace tilescope::edit
