// The layout and swizzle attributes Tilescope draws, as typed data:
// #iree_vector_ext.nested_layout, #iree_codegen.xor_shuffle and
// #iree_codegen.rotate_rows. The math over them lives in core/layout/.
#pragma once

#include "core/config/syntax/Attribute.h"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::config {

// #iree_vector_ext.nested_layout<subgroup_tile = [...], batch_tile = [...],
// outer_tile = [...], thread_tile = [...], element_tile = [...],
// subgroup_strides = [...], thread_strides = [...]>
struct NestedLayoutAttr {
  std::vector<int64_t> subgroupTile;
  std::vector<int64_t> batchTile;
  std::vector<int64_t> outerTile;
  std::vector<int64_t> threadTile;
  std::vector<int64_t> elementTile;
  std::vector<int64_t> subgroupStrides;
  std::vector<int64_t> threadStrides;

  size_t rank() const { return subgroupTile.size(); }
  static Result<NestedLayoutAttr> fromAttribute(const Attribute &attribute);
  static Result<NestedLayoutAttr> parse(std::string_view text);
  // IREE's form: every field, and a stride of 0 wherever its tile is 1
  // (NestedLayoutAttr::get normalizes them).
  Attribute toAttribute() const;
  std::string print() const;
};

// #iree_codegen.xor_shuffle<row_width, access_width[, row_stride[, per_phase]]>
struct XorShuffleAttr {
  int64_t rowWidth = 0;
  int64_t accessWidth = 0;
  std::optional<int64_t> rowStride; // defaults to rowWidth
  std::optional<int64_t> perPhase;  // defaults to 1
  int64_t effectiveRowStride() const { return rowStride.value_or(rowWidth); }
  int64_t effectivePerPhase() const { return perPhase.value_or(1); }
  static Result<XorShuffleAttr> fromAttribute(const Attribute &attribute);
  Attribute toAttribute() const;
};

// #iree_codegen.rotate_rows<row_width, access_width>
struct RotateRowsAttr {
  int64_t rowWidth = 0;
  int64_t accessWidth = 0;
  static Result<RotateRowsAttr> fromAttribute(const Attribute &attribute);
  Attribute toAttribute() const;
};

} // namespace tilescope::config
