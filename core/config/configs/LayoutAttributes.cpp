#include "core/config/configs/LayoutAttributes.h"
#include "core/config/syntax/IreeSyntax.h"

#include "core/config/configs/TranslationInfo.h"

#include <algorithm>

namespace tilescope::config {
namespace {

using Kind = Attribute::Kind;

constexpr const char *kNestedLayoutFields[] = {
    "subgroup_tile", "batch_tile",       "outer_tile",    "thread_tile",
    "element_tile",  "subgroup_strides", "thread_strides"};

// The positional integer parameters of a swizzle attribute.
Result<std::vector<int64_t>> integerParameters(const Attribute &attribute,
                                               size_t minimum, size_t maximum,
                                               const std::string &form) {
  std::vector<int64_t> values;
  for (const Parameter &p : attribute.parameters) {
    auto value = p.get().asInt64();
    if (!p.name.empty() || !value)
      return Error{"#" + attribute.qualifiedName() +
                   " takes integers only: " + form};
    values.push_back(*value);
  }
  if (values.size() < minimum || values.size() > maximum)
    return Error{"#" + attribute.qualifiedName() + " takes " +
                 std::to_string(minimum) +
                 (minimum == maximum ? "" : " to " + std::to_string(maximum)) +
                 " integers: " + form};
  return values;
}

std::vector<Parameter>
integerParameterList(const std::vector<int64_t> &values) {
  std::vector<Parameter> parameters;
  for (int64_t value : values)
    parameters.push_back(Attribute::parameter("", Attribute::integer(value)));
  return parameters;
}

} // namespace

Result<NestedLayoutAttr> NestedLayoutAttr::fromAttribute(const Attribute &a) {
  if (!a.isDialect("iree_vector_ext", "nested_layout"))
    return Error{"expected #iree_vector_ext.nested_layout<...>, found " +
                 printAttribute(a)};
  NestedLayoutAttr layout;
  std::vector<int64_t> *fields[] = {
      &layout.subgroupTile, &layout.batchTile,   &layout.outerTile,
      &layout.threadTile,   &layout.elementTile, &layout.subgroupStrides,
      &layout.threadStrides};
  for (size_t i = 0; i < std::size(kNestedLayoutFields); ++i) {
    const Attribute *value = a.find(kNestedLayoutFields[i]);
    if (!value)
      return Error{std::string("nested_layout is missing ") +
                   kNestedLayoutFields[i] + " = [...]"};
    auto values = value->asInt64Array();
    if (!values)
      return Error{std::string("nested_layout ") + kNestedLayoutFields[i] +
                   " must be an array of integers, not " +
                   printAttribute(*value)};
    *fields[i] = *values;
  }
  for (const Parameter &p : a.parameters) {
    if (std::find(std::begin(kNestedLayoutFields),
                  std::end(kNestedLayoutFields),
                  p.name) == std::end(kNestedLayoutFields))
      return Error{"nested_layout has no field '" +
                   (p.name.empty() ? printAttribute(p.get()) : p.name) + "'"};
  }
  for (size_t i = 1; i < std::size(kNestedLayoutFields); ++i) {
    if (fields[i]->size() != layout.subgroupTile.size())
      return Error{
          std::string("nested_layout ranks differ: subgroup_tile has ") +
          std::to_string(layout.subgroupTile.size()) + " entries, " +
          kNestedLayoutFields[i] + " has " + std::to_string(fields[i]->size())};
  }
  return layout;
}

Result<NestedLayoutAttr> NestedLayoutAttr::parse(std::string_view text) {
  auto attribute = parseResolvedAttribute(text);
  if (!attribute)
    return Error{attribute.error()};
  return fromAttribute(*attribute);
}

Attribute NestedLayoutAttr::toAttribute() const {
  std::vector<int64_t> normalizedSubgroupStrides = subgroupStrides;
  std::vector<int64_t> normalizedThreadStrides = threadStrides;
  for (size_t i = 0; i < rank(); ++i) {
    if (i < normalizedSubgroupStrides.size() && subgroupTile[i] == 1)
      normalizedSubgroupStrides[i] = 0;
    if (i < normalizedThreadStrides.size() && i < threadTile.size() &&
        threadTile[i] == 1)
      normalizedThreadStrides[i] = 0;
  }
  const std::vector<int64_t> *values[] = {&subgroupTile,
                                          &batchTile,
                                          &outerTile,
                                          &threadTile,
                                          &elementTile,
                                          &normalizedSubgroupStrides,
                                          &normalizedThreadStrides};
  std::vector<Parameter> parameters;
  for (size_t i = 0; i < std::size(kNestedLayoutFields); ++i)
    parameters.push_back(Attribute::parameter(
        kNestedLayoutFields[i], Attribute::integerArray(*values[i])));
  return Attribute::dialectAttribute("iree_vector_ext", "nested_layout",
                                     std::move(parameters));
}

std::string NestedLayoutAttr::print() const {
  return printLikeIree(toAttribute());
}

Result<XorShuffleAttr> XorShuffleAttr::fromAttribute(const Attribute &a) {
  if (!a.isDialect("iree_codegen", "xor_shuffle"))
    return Error{"expected #iree_codegen.xor_shuffle<...>, found " +
                 printAttribute(a)};
  auto values = integerParameters(a, 2, 4,
                                  "#iree_codegen.xor_shuffle<row_width, "
                                  "access_width[, row_stride[, per_phase]]>");
  if (!values)
    return Error{values.error()};
  XorShuffleAttr shuffle;
  shuffle.rowWidth = (*values)[0];
  shuffle.accessWidth = (*values)[1];
  if (values->size() > 2)
    shuffle.rowStride = (*values)[2];
  if (values->size() > 3)
    shuffle.perPhase = (*values)[3];
  return shuffle;
}

Attribute XorShuffleAttr::toAttribute() const {
  std::vector<int64_t> values = {rowWidth, accessWidth};
  if (rowStride || perPhase)
    values.push_back(effectiveRowStride());
  if (perPhase)
    values.push_back(*perPhase);
  return Attribute::dialectAttribute("iree_codegen", "xor_shuffle",
                                     integerParameterList(values));
}

Result<RotateRowsAttr> RotateRowsAttr::fromAttribute(const Attribute &a) {
  if (!a.isDialect("iree_codegen", "rotate_rows"))
    return Error{"expected #iree_codegen.rotate_rows<...>, found " +
                 printAttribute(a)};
  auto values = integerParameters(
      a, 2, 2, "#iree_codegen.rotate_rows<row_width, access_width>");
  if (!values)
    return Error{values.error()};
  return RotateRowsAttr{(*values)[0], (*values)[1]};
}

Attribute RotateRowsAttr::toAttribute() const {
  return Attribute::dialectAttribute(
      "iree_codegen", "rotate_rows",
      integerParameterList({rowWidth, accessWidth}));
}

} // namespace tilescope::config
