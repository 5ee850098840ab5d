// IREE's parser and printer for the attributes Tilescope reads, mirrored
// without IREE: what the pinned release's parser (and the verifiers it runs
// on an attribute) refuses in a text, and the exact text IREE prints for an
// attribute it accepts. tests/property/property_attributes.cpp holds both
// to the real IREE on random texts.
#pragma once

#include "core/config/syntax/Attribute.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::config {

// What IREE `release` (3.12 or later: the forms Tilescope knows) refuses in
// this attribute, in IREE's own words where it has them: duplicate
// dictionary keys, fields out of order or unknown, commas where
// translation_info wants spaces, sizes out of range, unknown intrinsics and
// pipelines, promote_operands / promotion_types of different lengths, a
// nested_layout whose fields differ in rank. Empty: IREE parses it.
struct SyntaxProblem {
  // Where: a dictionary key ("mma_kind", "promotion_types"), a parameter
  // ("translation_info.workgroup_size", "nested_layout.thread_tile"), or
  // empty for the attribute as a whole.
  std::string field;
  std::string message;
};
std::vector<SyntaxProblem> ireeParserProblems(const Attribute &attribute,
                                              std::string_view release);

// The attribute as IREE prints it: dictionaries sorted, a nested_layout's
// strides 0 wherever the tile is 1, col_major = false dropped,
// pipeline_options fields in declaration order, translation_info
// type-elided inside compilation_info, integer types as MLIR shows them.
std::string printLikeIree(const Attribute &attribute);
// The attribute in that form, to print inside another (printLikeIree is
// printAttribute of it).
Attribute likeIree(const Attribute &attribute);

// IREE 3.13's swizzle verifiers (IREECodegenAttrs.cpp) take the remainder
// of a division by the access width, and xor_shuffle then of the row stride
// by the row width, before checking either is non-zero: such a swizzle kills
// IREE's parser with SIGFPE. `values` are the attribute's integers as
// written (xor_shuffle: row_width, access_width[, row_stride[, per_phase]];
// rotate_rows: row_width, access_width); omitted ones are 0 in IREE.
// Returns why it crashes IREE, or nothing.
std::optional<std::string>
swizzleCrashesIree(std::string_view mnemonic,
                   const std::vector<int64_t> &values);

// The MMA intrinsics IREE knows (the table core/layout mirrors), by name.
bool isKnownIntrinsic(std::string_view name, bool isVirtual);

// The pipelines IREE's GPU backends name (#iree_gpu.pipeline values).
const std::vector<std::string> &gpuPipelineNames();

// Compares IREE release strings "3.11" < "3.12.0" (major.minor only).
int compareRelease(std::string_view a, std::string_view b);

} // namespace tilescope::config
