// A cheap scan of MLIR text for nesting deeper than IREE's parser can take.
//
// MLIR's parser recurses once per nested bracket, brace, parenthesis, angle
// bracket and region; on an 8 MB stack IREE 3.13's iree-opt dies (SIGSEGV)
// between 5,000 and 10,000 nested brackets and between 2,000 and 5,000
// nested regions, and region nesting costs quadratic time well before that
// (20,000 regions: 27 s). No real dispatch comes near: IREE's own codegen
// tests nest fewer than 30 levels. docs/parse-safety.md has the figures.
#pragma once

#include <optional>
#include <string_view>

namespace tilescope::iree {

// The deepest nesting Tilescope hands to IREE's parser.
inline constexpr int kMaximumNesting = 1000;

struct NestingExcess {
  int line = 0, column = 0; // 1-based: the opening that goes one too deep
  int depth = 0;            // the depth it reaches
};

// The first place the text nests deeper than `limit` (string literals and
// `//` comments skipped; `->` and `>=` are not brackets), or nothing.
std::optional<NestingExcess> findExcessiveNesting(std::string_view text,
                                                  int limit = kMaximumNesting);

} // namespace tilescope::iree
