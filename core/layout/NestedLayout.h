// Who holds each element of a vector under an #iree_vector_ext.nested_layout,
// and which elements each (subgroup, lane) holds, in register order.
//
// Per dimension i the vector is subgroup x batch x outer x thread x element
// tiles. A (subgroup, lane) sees virtual ids
//   virtual_subgroup[i] = (subgroup / subgroup_strides[i]) % subgroup_tile[i]
//   virtual_lane[i]     = (lane / thread_strides[i]) % thread_tile[i]
// (a stride of 0: that dimension is not distributed at that level). Its
// registers are row-major over [batch..., outer..., element...], as IREE's
// distributed (SIMT) vector. More lanes or subgroups than a layout names hold
// copies (replication); a layout that names more subgroups than the workgroup
// has wraps them modulo the workgroup's subgroup count.
#pragma once

#include "core/config/configs/LayoutAttributes.h"
#include "core/util/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::layout {

// Tile indices of one element, per dimension and level.
struct TileCoordinates {
  std::vector<int64_t> subgroup, batch, outer, thread, element;
};

struct Owner {
  int64_t subgroup = 0;
  int64_t lane = 0;
  int64_t registerIndex = 0; // position in the thread's distributed vector
};

class NestedLayout {
public:
  // `subgroupCount` and `subgroupSize` are the workgroup's (0: as many as the
  // layout names, i.e. the highest id its strides reach, plus one).
  static Result<NestedLayout> create(const config::NestedLayoutAttr &attr,
                                     int64_t subgroupCount = 0,
                                     int64_t subgroupSize = 0);

  const config::NestedLayoutAttr &attribute() const { return attr; }
  size_t rank() const { return attr.rank(); }
  const std::vector<int64_t> &shape() const { return vectorShape; }
  int64_t elementCount() const { return elements; }
  int64_t subgroupCount() const { return subgroups; }
  int64_t subgroupSize() const { return lanes; }

  // [batch..., outer..., element...]: IREE's distributed shape (3 x rank).
  std::vector<int64_t> distributedShape() const;
  // Per dimension batch x outer x element: the seed's "vector<2x16>".
  std::vector<int64_t> simtShape() const;
  int64_t registersPerThread() const;

  TileCoordinates decompose(const std::vector<int64_t> &index) const;
  std::vector<int64_t> compose(const TileCoordinates &coordinates) const;
  int64_t registerIndex(const TileCoordinates &coordinates) const;

  // Every (subgroup, lane) holding the element: one, several (replication),
  // or none (a tile whose stride is 0 beyond index 0).
  std::vector<Owner> ownersOf(const std::vector<int64_t> &index) const;
  // The first owner, without allocating: for drawing. False when unowned.
  bool primaryOwner(int64_t flatIndex, Owner &owner) const;
  // What a (subgroup, lane) holds, in register order.
  std::vector<std::vector<int64_t>> elementsOf(int64_t subgroup,
                                               int64_t lane) const;
  // The virtual ids a subgroup or lane takes.
  std::vector<int64_t> virtualSubgroupIds(int64_t subgroup) const;
  std::vector<int64_t> virtualLaneIds(int64_t lane) const;
  // The linear subgroup id a virtual subgroup position maps to (the inverse
  // formula), before and after the modulo wrap.
  int64_t subgroupIdOf(const std::vector<int64_t> &virtualIds) const;

  // Problems with the layout: overlapping distributed strides, tiles with
  // stride 0, more names than the workgroup has.
  std::vector<std::string> problems() const;

  std::vector<int64_t> unflatten(int64_t flatIndex) const;
  int64_t flatten(const std::vector<int64_t> &index) const;

private:
  config::NestedLayoutAttr attr;
  std::vector<int64_t> vectorShape;
  int64_t elements = 0;
  int64_t subgroups = 1;
  int64_t lanes = 1;
  int64_t namedSubgroups = 1; // product of subgroup tiles
};

} // namespace tilescope::layout
