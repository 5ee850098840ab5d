#include "core/layout/NestedLayout.h"

#include "core/layout/Odometer.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <numeric>

namespace tilescope::layout {
namespace {

int64_t product(const std::vector<int64_t> &values) {
  return saturatingProduct(values);
}

std::string list(const std::vector<int64_t> &values) {
  return bracketedList(values);
}

// The highest id a set of (tile, stride) pairs reaches, plus one.
int64_t idsNamed(const std::vector<int64_t> &tiles,
                 const std::vector<int64_t> &strides) {
  int64_t highest = 0;
  for (size_t i = 0; i < tiles.size(); ++i)
    if (strides[i] > 0)
      highest =
          saturatingAdd(highest, saturatingMultiply(strides[i], tiles[i] - 1));
  return saturatingAdd(highest, 1);
}

constexpr int64_t kMaximumElements = int64_t{1} << 40;

} // namespace

Result<NestedLayout> NestedLayout::create(const config::NestedLayoutAttr &attr,
                                          int64_t subgroupCount,
                                          int64_t subgroupSize) {
  const size_t rank = attr.rank();
  for (const auto *field :
       {&attr.batchTile, &attr.outerTile, &attr.threadTile, &attr.elementTile,
        &attr.subgroupStrides, &attr.threadStrides})
    if (field->size() != rank)
      return Error{"nested_layout fields have different ranks"};
  NestedLayout layout;
  layout.attr = attr;
  layout.vectorShape.resize(rank);
  int64_t elements = 1;
  for (size_t i = 0; i < rank; ++i) {
    for (const auto *field :
         {&attr.subgroupTile, &attr.batchTile, &attr.outerTile,
          &attr.threadTile, &attr.elementTile})
      if ((*field)[i] <= 0)
        return Error{"nested_layout tiles must be positive; dimension " +
                     std::to_string(i) + " has " + std::to_string((*field)[i])};
    if (attr.subgroupStrides[i] < 0 || attr.threadStrides[i] < 0)
      return Error{"nested_layout strides must not be negative"};
    // Saturating: tiles near 2^31 or 2^62 would wrap the product to 0 and
    // divide by it below.
    const int64_t size = saturatingProduct(std::initializer_list<int64_t>{
        attr.subgroupTile[i], attr.batchTile[i], attr.outerTile[i],
        attr.threadTile[i], attr.elementTile[i]});
    if (size > kMaximumElements || elements > kMaximumElements / size)
      return Error{"nested_layout describes more than 2^40 elements"};
    layout.vectorShape[i] = size;
    elements *= size;
  }
  layout.elements = elements;
  layout.namedSubgroups = product(attr.subgroupTile);
  layout.subgroups = subgroupCount > 0
                         ? subgroupCount
                         : idsNamed(attr.subgroupTile, attr.subgroupStrides);
  layout.lanes = subgroupSize > 0
                     ? subgroupSize
                     : idsNamed(attr.threadTile, attr.threadStrides);
  // Drawing asks each of them which element it holds: no GPU has more than
  // 1024 threads a workgroup, and 65536 lanes or subgroups is none it runs
  // (a basis of 10^12 lanes froze the view).
  constexpr int64_t kMostIds = int64_t{1} << 16;
  if (layout.lanes > kMostIds || layout.subgroups > kMostIds)
    return Error{"nested_layout names " + std::to_string(layout.lanes) +
                 " lanes in " + std::to_string(layout.subgroups) +
                 " subgroups: more than a GPU runs (65536)"};
  return layout;
}

std::vector<int64_t> NestedLayout::distributedShape() const {
  std::vector<int64_t> shape = attr.batchTile;
  shape.insert(shape.end(), attr.outerTile.begin(), attr.outerTile.end());
  shape.insert(shape.end(), attr.elementTile.begin(), attr.elementTile.end());
  return shape;
}

std::vector<int64_t> NestedLayout::simtShape() const {
  std::vector<int64_t> shape(rank());
  for (size_t i = 0; i < rank(); ++i)
    shape[i] = attr.batchTile[i] * attr.outerTile[i] * attr.elementTile[i];
  return shape;
}

int64_t NestedLayout::registersPerThread() const {
  return product(simtShape());
}

TileCoordinates
NestedLayout::decompose(const std::vector<int64_t> &index) const {
  TileCoordinates c;
  const size_t r = rank();
  c.subgroup.resize(r);
  c.batch.resize(r);
  c.outer.resize(r);
  c.thread.resize(r);
  c.element.resize(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t v = index[i];
    c.element[i] = v % attr.elementTile[i];
    v /= attr.elementTile[i];
    c.thread[i] = v % attr.threadTile[i];
    v /= attr.threadTile[i];
    c.outer[i] = v % attr.outerTile[i];
    v /= attr.outerTile[i];
    c.batch[i] = v % attr.batchTile[i];
    v /= attr.batchTile[i];
    c.subgroup[i] = v;
  }
  return c;
}

std::vector<int64_t> NestedLayout::compose(const TileCoordinates &c) const {
  std::vector<int64_t> index(rank());
  for (size_t i = 0; i < rank(); ++i)
    index[i] =
        (((c.subgroup[i] * attr.batchTile[i] + c.batch[i]) * attr.outerTile[i] +
          c.outer[i]) *
             attr.threadTile[i] +
         c.thread[i]) *
            attr.elementTile[i] +
        c.element[i];
  return index;
}

int64_t NestedLayout::registerIndex(const TileCoordinates &c) const {
  // Row-major over [batch..., outer..., element...].
  int64_t index = 0;
  for (size_t i = 0; i < rank(); ++i)
    index = index * attr.batchTile[i] + c.batch[i];
  for (size_t i = 0; i < rank(); ++i)
    index = index * attr.outerTile[i] + c.outer[i];
  for (size_t i = 0; i < rank(); ++i)
    index = index * attr.elementTile[i] + c.element[i];
  return index;
}

std::vector<int64_t> NestedLayout::virtualSubgroupIds(int64_t subgroup) const {
  std::vector<int64_t> ids(rank());
  for (size_t i = 0; i < rank(); ++i)
    ids[i] = attr.subgroupStrides[i] == 0
                 ? 0
                 : (subgroup / attr.subgroupStrides[i]) % attr.subgroupTile[i];
  return ids;
}

std::vector<int64_t> NestedLayout::virtualLaneIds(int64_t lane) const {
  std::vector<int64_t> ids(rank());
  for (size_t i = 0; i < rank(); ++i)
    ids[i] = attr.threadStrides[i] == 0
                 ? 0
                 : (lane / attr.threadStrides[i]) % attr.threadTile[i];
  return ids;
}

int64_t
NestedLayout::subgroupIdOf(const std::vector<int64_t> &virtualIds) const {
  int64_t id = 0;
  for (size_t i = 0; i < rank(); ++i)
    id += attr.subgroupStrides[i] * virtualIds[i];
  return id % std::max<int64_t>(namedSubgroups, 1);
}

std::vector<Owner>
NestedLayout::ownersOf(const std::vector<int64_t> &index) const {
  std::vector<Owner> owners;
  if (index.size() != rank())
    return owners;
  for (size_t i = 0; i < rank(); ++i)
    if (index[i] < 0 || index[i] >= vectorShape[i])
      return owners;
  const TileCoordinates c = decompose(index);
  const int64_t reg = registerIndex(c);
  std::vector<int64_t> lanesHolding;
  for (int64_t lane = 0; lane < lanes; ++lane)
    if (virtualLaneIds(lane) == c.thread)
      lanesHolding.push_back(lane);
  std::vector<int64_t> subgroupsHolding;
  for (int64_t subgroup = 0; subgroup < subgroups; ++subgroup)
    if (virtualSubgroupIds(subgroup) == c.subgroup)
      subgroupsHolding.push_back(subgroup);
  // A layout naming more subgroups than the workgroup has: the subgroup a
  // position names wraps modulo the workgroup's count.
  if (subgroupsHolding.empty()) {
    const int64_t named = subgroupIdOf(c.subgroup);
    bool reachable = true;
    for (size_t i = 0; i < rank(); ++i)
      reachable &= attr.subgroupStrides[i] != 0 || c.subgroup[i] == 0;
    if (reachable)
      subgroupsHolding.push_back(named % subgroups);
  }
  for (int64_t subgroup : subgroupsHolding)
    for (int64_t lane : lanesHolding)
      owners.push_back({subgroup, lane, reg});
  return owners;
}

bool NestedLayout::primaryOwner(int64_t flatIndex, Owner &owner) const {
  // Decompose without allocating: per dimension from the innermost.
  int64_t rest = flatIndex;
  int64_t reg = 0;
  int64_t lane = 0;
  int64_t subgroup = 0;
  int64_t batchPart = 0, outerPart = 0, elementPart = 0;
  int64_t batchScale = 1, outerScale = 1, elementScale = 1;
  for (size_t k = rank(); k-- > 0;) {
    int64_t v = rest % vectorShape[k];
    rest /= vectorShape[k];
    const int64_t e = v % attr.elementTile[k];
    v /= attr.elementTile[k];
    const int64_t t = v % attr.threadTile[k];
    v /= attr.threadTile[k];
    const int64_t o = v % attr.outerTile[k];
    v /= attr.outerTile[k];
    const int64_t b = v % attr.batchTile[k];
    const int64_t s = v / attr.batchTile[k];
    if (t != 0 && attr.threadStrides[k] == 0)
      return false;
    if (s != 0 && attr.subgroupStrides[k] == 0)
      return false;
    // The lowest lane / subgroup with these virtual ids.
    lane += attr.threadStrides[k] * t;
    subgroup += attr.subgroupStrides[k] * s;
    elementPart += e * elementScale;
    elementScale *= attr.elementTile[k];
    outerPart += o * outerScale;
    outerScale *= attr.outerTile[k];
    batchPart += b * batchScale;
    batchScale *= attr.batchTile[k];
  }
  reg = (batchPart * outerScale + outerPart) * elementScale + elementPart;
  owner = {subgroup % std::max<int64_t>(subgroups, 1), lane, reg};
  return true;
}

std::vector<std::vector<int64_t>> NestedLayout::elementsOf(int64_t subgroup,
                                                           int64_t lane) const {
  std::vector<std::vector<int64_t>> result;
  TileCoordinates c;
  c.subgroup = virtualSubgroupIds(subgroup);
  c.thread = virtualLaneIds(lane);
  const size_t r = rank();
  c.batch.assign(r, 0);
  c.outer.assign(r, 0);
  c.element.assign(r, 0);
  const std::vector<int64_t> limits = distributedShape();
  std::vector<int64_t> counter(3 * r, 0);
  if (r == 0)
    return result;
  while (true) {
    for (size_t i = 0; i < r; ++i) {
      c.batch[i] = counter[i];
      c.outer[i] = counter[r + i];
      c.element[i] = counter[2 * r + i];
    }
    result.push_back(compose(c));
    if (!advanceOdometer(counter, limits))
      return result;
  }
}

std::vector<std::string> NestedLayout::problems() const {
  std::vector<std::string> found;
  auto checkLevel = [&](const char *level, const std::vector<int64_t> &tiles,
                        const std::vector<int64_t> &strides,
                        int64_t available) {
    for (size_t i = 0; i < rank(); ++i)
      if (tiles[i] > 1 && strides[i] == 0)
        found.push_back(std::string(level) + "_tile[" + std::to_string(i) +
                        "]=" + std::to_string(tiles[i]) +
                        " with stride 0: only its first tile has an owner");
    // Distributed strides must not overlap: sorted by stride, each level's
    // span (stride x tile) must fit under the next stride.
    std::vector<size_t> order;
    for (size_t i = 0; i < rank(); ++i)
      if (strides[i] > 0 && tiles[i] > 1)
        order.push_back(i);
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return strides[a] < strides[b]; });
    for (size_t j = 1; j < order.size(); ++j) {
      const size_t lower = order[j - 1], upper = order[j];
      if (strides[lower] * tiles[lower] > strides[upper])
        found.push_back(std::string(level) + "_strides " + list(strides) +
                        " overlap: dimension " + std::to_string(lower) +
                        " spans " +
                        std::to_string(strides[lower] * tiles[lower]) +
                        " ids but dimension " + std::to_string(upper) +
                        " starts at stride " + std::to_string(strides[upper]));
    }
    const int64_t named = idsNamed(tiles, strides);
    if (named > available && std::string(level) == "thread")
      found.push_back("thread tiles name " + std::to_string(named) +
                      " lanes; the subgroup has " + std::to_string(available));
  };
  checkLevel("subgroup", attr.subgroupTile, attr.subgroupStrides, subgroups);
  checkLevel("thread", attr.threadTile, attr.threadStrides, lanes);
  if (namedSubgroups > subgroups)
    found.push_back("the layout names " + std::to_string(namedSubgroups) +
                    " subgroups; the workgroup has " +
                    std::to_string(subgroups) + ": subgroup ids wrap modulo " +
                    std::to_string(subgroups));
  return found;
}

std::vector<int64_t> NestedLayout::unflatten(int64_t flatIndex) const {
  std::vector<int64_t> index(rank());
  for (size_t k = rank(); k-- > 0;) {
    index[k] = flatIndex % vectorShape[k];
    flatIndex /= vectorShape[k];
  }
  return index;
}

int64_t NestedLayout::flatten(const std::vector<int64_t> &index) const {
  int64_t flat = 0;
  for (size_t k = 0; k < rank(); ++k)
    flat = flat * vectorShape[k] + index[k];
  return flat;
}

} // namespace tilescope::layout
