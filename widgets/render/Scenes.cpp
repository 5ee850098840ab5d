#include "widgets/render/Scenes.h"

#include <QStringList>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace tilescope::render {
namespace {

// "64x64", as in vector<64x64xf16>.
QString shapeText(const std::vector<int64_t> &shape) {
  QStringList dims;
  for (int64_t s : shape)
    dims << QString::number(s);
  return dims.join("x");
}

int64_t keyFor(ColorBy colorBy, const layout::Owner &owner) {
  switch (colorBy) {
  case ColorBy::Subgroup:
    return owner.subgroup;
  case ColorBy::Register:
    return owner.registerIndex;
  default:
    return owner.lane;
  }
}

QString ownerLabel(ColorBy colorBy, const layout::Owner &owner) {
  switch (colorBy) {
  case ColorBy::Subgroup:
    return QString("s%1").arg(owner.subgroup);
  case ColorBy::Register:
    return QString("r%1").arg(owner.registerIndex);
  default:
    return QString("%1").arg(owner.lane);
  }
}

// Every owner of a layout element past the first (others reading the same
// element: replication): the cell is marked, any of their keys marks it,
// and the hover text names them.
QString replicas(CellInfo &info, const layout::NestedLayout &layout,
                 int64_t flatIndex, ColorBy colorBy) {
  const std::vector<layout::Owner> owners =
      layout.ownersOf(layout.unflatten(flatIndex));
  if (owners.size() < 2)
    return {};
  info.marked = true;
  QStringList names;
  for (size_t i = 1; i < owners.size(); ++i) {
    const int64_t key = keyFor(colorBy, owners[i]);
    if (key != info.colorKey &&
        std::find(info.otherKeys.begin(), info.otherKeys.end(), key) ==
            info.otherKeys.end())
      info.otherKeys.push_back(key);
    if (names.size() < 8)
      names << QString("subgroup %1 lane %2")
                   .arg(owners[i].subgroup)
                   .arg(owners[i].lane);
  }
  return QString("; replicated: %1 threads hold it (also %2%3)")
      .arg(owners.size())
      .arg(names.join(", "))
      .arg(owners.size() - 1 > 8 ? ", ..." : "");
}

} // namespace

const char *colorByName(ColorBy colorBy) {
  switch (colorBy) {
  case ColorBy::Subgroup:
    return "subgroup";
  case ColorBy::Register:
    return "register";
  case ColorBy::Bank:
    return "bank";
  case ColorBy::Thread:
    return "thread";
  default:
    return "lane";
  }
}

std::optional<ColorBy> ownerColoringNamed(std::string_view name) {
  for (ColorBy owner : {ColorBy::Lane, ColorBy::Subgroup, ColorBy::Register})
    if (name == colorByName(owner))
      return owner;
  return std::nullopt;
}

GridScene nestedLayoutScene(std::shared_ptr<const layout::NestedLayout> layout,
                            ColorBy colorBy, size_t rowDim, size_t columnDim,
                            std::vector<int64_t> fixedIndex,
                            const QString &subtitle) {
  GridScene scene;
  const auto &shape = layout->shape();
  fixedIndex.resize(layout->rank(), 0);
  scene.title = QString("nested_layout on vector<%1>").arg(shapeText(shape));
  scene.subtitle = subtitle;
  scene.colorBy = colorBy;
  const int64_t keys = colorBy == ColorBy::Subgroup ? layout->subgroupCount()
                       : colorBy == ColorBy::Register
                           ? layout->registersPerThread()
                           : layout->subgroupSize();
  scene.numberLegend(keys, colorByName(colorBy));

  Panel panel;
  const bool twoD = layout->rank() >= 2 && rowDim != columnDim;
  panel.rows = twoD ? shape[rowDim] : 1;
  panel.columns = layout->rank() == 0 ? 0 : shape[twoD ? columnDim : 0];
  panel.rowAxis = twoD ? QString("d%1").arg(rowDim) : QString();
  panel.columnAxis = QString("d%1").arg(twoD ? columnDim : 0);
  const auto &attr = layout->attribute();
  if (twoD) {
    panel.rowGroup = attr.threadTile[rowDim] * attr.elementTile[rowDim];
    panel.columnGroup =
        attr.threadTile[columnDim] * attr.elementTile[columnDim];
  }
  // Flat index of (row, column): precomputed strides, no allocation per cell.
  std::vector<int64_t> strides(layout->rank(), 1);
  for (size_t k = layout->rank(); k-- > 1;)
    strides[k - 1] = strides[k] * shape[k];
  int64_t base = 0;
  for (size_t k = 0; k < layout->rank(); ++k)
    if (!twoD || (k != rowDim && k != columnDim))
      base += fixedIndex[k] * strides[k];
  const int64_t rowStride = twoD ? strides[rowDim] : 0;
  const int64_t columnStride =
      layout->rank() == 0 ? 0 : strides[twoD ? columnDim : 0];
  const size_t rDim = rowDim, cDim = twoD ? columnDim : 0;
  panel.title =
      twoD ? QString("d%1 x d%2").arg(rowDim).arg(columnDim) : QString("d0");
  panel.cell = [layout, colorBy, base, rowStride, columnStride, rDim, cDim,
                twoD](int64_t row, int64_t column) {
    CellInfo info;
    layout::Owner owner;
    if (!layout->primaryOwner(base + row * rowStride + column * columnStride,
                              owner)) {
      info.detail = QString("element (%1, %2): no owner").arg(row).arg(column);
      return info;
    }
    info.colorKey = keyFor(colorBy, owner);
    info.label = ownerLabel(colorBy, owner);
    const int64_t flat = base + row * rowStride + column * columnStride;
    info.detail = QString("d%1=%2, d%3=%4: subgroup %5, lane %6, register %7")
                      .arg(twoD ? rDim : 0)
                      .arg(row)
                      .arg(cDim)
                      .arg(column)
                      .arg(owner.subgroup)
                      .arg(owner.lane)
                      .arg(owner.registerIndex) +
                  replicas(info, *layout, flat, colorBy);
    return info;
  };
  panel.colorKey = [layout, colorBy, base, rowStride,
                    columnStride](int64_t row, int64_t column) -> int64_t {
    layout::Owner owner;
    if (!layout->primaryOwner(base + row * rowStride + column * columnStride,
                              owner))
      return -1;
    return keyFor(colorBy, owner);
  };
  scene.panels.push_back(std::move(panel));
  scene.footer =
      QString("%1 subgroup(s) x %2 lanes; each thread holds vector%3 "
              "(%4 registers)")
          .arg(layout->subgroupCount())
          .arg(layout->subgroupSize())
          .arg(listText(layout->simtShape()))
          .arg(layout->registersPerThread());
  for (const std::string &problem : layout->problems())
    scene.footer += "\n" + QString::fromStdString(problem);
  return scene;
}

GridScene basisScene(std::shared_ptr<const layout::BasisMap> basis,
                     const QString &subtitle) {
  GridScene scene;
  scene.title = QString("basis %1 -> iteration dimensions, mapping %2")
                    .arg(listText(basis->basis().counts))
                    .arg(listText(basis->basis().mapping));
  scene.subtitle = subtitle;
  scene.colorBy = ColorBy::Thread;
  const auto &counts = basis->basis().counts;

  // Basis space: the thread ids laid out over their digits (the last two
  // axes that count more than one; other axes fixed at 0).
  Panel digits;
  const size_t axes = counts.size();
  std::vector<size_t> wide;
  for (size_t k = 0; k < axes; ++k)
    if (counts[k] > 1)
      wide.push_back(k);
  const size_t columnAxis = wide.empty() ? axes - 1 : wide.back();
  // The row axis: the next wide axis before it, else the axis just before.
  const bool hasRow = wide.size() >= 2 || columnAxis > 0;
  const size_t rowAxis = wide.size() >= 2 ? wide[wide.size() - 2]
                         : columnAxis > 0 ? columnAxis - 1
                                          : 0;
  std::vector<int64_t> idStrides(axes, 1); // row-major over counts
  for (size_t k = axes; k-- > 1;)
    idStrides[k - 1] = idStrides[k] * counts[k];
  digits.rows = hasRow ? counts[rowAxis] : 1;
  digits.columns = counts[columnAxis];
  digits.rowAxis = hasRow ? QString("digit %1").arg(rowAxis) : QString();
  digits.columnAxis = QString("digit %1").arg(columnAxis);
  digits.title = "basis space: thread id by digit";
  const int64_t rowStride = hasRow ? idStrides[rowAxis] : 0;
  const int64_t columnStride = idStrides[columnAxis];
  digits.cell = [basis, rowStride, columnStride](int64_t row, int64_t column) {
    const int64_t id = row * rowStride + column * columnStride;
    CellInfo info;
    info.colorKey = id;
    info.label = QString::number(id);
    info.detail = QString("thread %1: digits %2 -> iteration %3")
                      .arg(id)
                      .arg(listText(basis->digits(id)))
                      .arg(listText(basis->coordinates(id)));
    return info;
  };
  scene.panels.push_back(std::move(digits));

  // Iteration space: the thread at each coordinate (first two dimensions the
  // basis spans; others 0).
  const auto sizes = basis->sizes();
  std::vector<size_t> spanned;
  for (size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] > 1)
      spanned.push_back(i);
  size_t rowDim = 0, columnDim = sizes.empty() ? 0 : sizes.size() - 1;
  if (spanned.size() >= 2) {
    rowDim = spanned[spanned.size() - 2];
    columnDim = spanned.back();
  } else if (spanned.size() == 1) {
    columnDim = spanned.front();
    rowDim = columnDim == 0 ? (sizes.size() > 1 ? 1 : 0) : 0;
  }
  Panel iteration;
  iteration.rows = rowDim == columnDim ? 1 : sizes[rowDim];
  iteration.columns = sizes.empty() ? 0 : sizes[columnDim];
  iteration.rowAxis = QString("d%1").arg(rowDim);
  iteration.columnAxis = QString("d%1").arg(columnDim);
  iteration.title = "iteration space: thread at each coordinate";
  const size_t rank = sizes.size();
  iteration.cell = [basis, rowDim, columnDim, rank](int64_t row,
                                                    int64_t column) {
    std::vector<int64_t> coordinates(rank, 0);
    if (rowDim != columnDim)
      coordinates[rowDim] = row;
    coordinates[columnDim] = column;
    const auto ids = basis->idsAt(coordinates);
    CellInfo info;
    if (ids.empty())
      return info;
    info.colorKey = ids.front();
    info.label = QString::number(ids.front());
    info.marked = ids.size() > 1;
    info.otherKeys.assign(ids.begin() + 1, ids.end());
    info.detail =
        QString("iteration %1: thread %2 (digits %3)%4")
            .arg(listText(coordinates))
            .arg(ids.front())
            .arg(listText(basis->digits(ids.front())))
            .arg(ids.size() > 1 ? QString(", and %1 more").arg(ids.size() - 1)
                                : QString());
    return info;
  };
  scene.panels.push_back(std::move(iteration));
  scene.numberLegend(basis->idCount(), "thread");
  scene.footer = QString("iteration dimension i takes basis digit mapping[i] "
                         "(IREE's rule); sizes %1, strides %2")
                     .arg(listText(basis->sizes()))
                     .arg(listText(basis->strides()));
  return scene;
}

std::vector<int64_t> sliceIndices(const std::vector<int64_t> &extents,
                                  const std::vector<int64_t> &asked) {
  std::vector<int64_t> at(extents.size(), 0);
  for (size_t d = 0; d < extents.size() && d < asked.size(); ++d)
    if (asked[d] >= 0 && asked[d] < extents[d])
      at[d] = asked[d];
  return at;
}

QString heldText(const std::vector<GridScene::SliceDim> &dims, size_t row,
                 size_t column, const std::vector<int64_t> &at) {
  QStringList held;
  for (size_t d = 0; d < dims.size(); ++d)
    if (d != row && d != column)
      held << QString("%1 at %2")
                  .arg(dims[d].name)
                  .arg(d < at.size() ? at[d] : 0);
  return held.join(", ");
}

namespace {

// The grid, the reduction loops' iterations, the reduction elements per
// iteration and the layout's notes.
QString configFooter(const layout::DerivedLayout &derived) {
  QString footer = QString("grid %1 = %2 workgroups")
                       .arg(listText(derived.workgroupCounts))
                       .arg(derived.workgroupCount);
  for (const layout::ReductionLoop &loop : derived.reductionLoops)
    footer += QString("; d%1: %2 iterations of %3")
                  .arg(loop.dimension)
                  .arg(loop.iterations)
                  .arg(loop.chunk);
  if (derived.reductionElementsPerSubgroup > 0)
    footer += QString("\nper iteration: %1 reduction elements per subgroup, "
                      "%2 per thread")
                  .arg(derived.reductionElementsPerSubgroup)
                  .arg(derived.reductionElementsPerThread);
  for (const std::string &note : derived.notes)
    footer += "\n" + QString::fromStdString(note);
  return footer;
}

// The element's index in the op's own loops (workgroup 0, this step), as
// IREE's IR indexes it, not the folded picture's (row, column): a packed
// dimension's outer and inner parts joined again, the step's offset added
// along each reduction loop.
std::function<std::vector<int64_t>(int64_t, int64_t)>
loopIndexOf(const layout::DerivedLayout &derived, int64_t step, size_t rowDim,
            size_t columnDim, const std::vector<int64_t> &held) {
  std::vector<int64_t> origin(derived.space.rank(), 0);
  for (const layout::ReductionLoop &loop : derived.reductionLoops)
    if (loop.dimension < origin.size())
      origin[loop.dimension] =
          std::clamp<int64_t>(step, 0, loop.iterations - 1) * loop.chunk;
  std::vector<int64_t> innerBound(origin.size(), 1);
  for (const layout::LayoutDimension &dim : derived.dimensions)
    if (dim.packedInner && dim.source < innerBound.size())
      innerBound[dim.source] = dim.bound;
  return [dims = derived.dimensions, origin, innerBound, rowDim, columnDim,
          held](int64_t row, int64_t column) {
    std::vector<int64_t> index = origin;
    for (size_t k = 0; k < dims.size(); ++k) {
      const int64_t at = k == columnDim ? column : k == rowDim ? row : held[k];
      const layout::LayoutDimension &dim = dims[k];
      if (dim.source >= index.size() || (k == rowDim && rowDim == columnDim))
        continue;
      index[dim.source] += dim.packedOuter ? at * innerBound[dim.source] : at;
    }
    return index;
  };
}

} // namespace

GridScene configScene(std::shared_ptr<const layout::DerivedLayout> derived,
                      ColorBy colorBy, size_t rowDim, size_t columnDim,
                      int64_t step, const QString &subtitle,
                      const std::vector<int64_t> &slice) {
  GridScene scene;
  scene.title = QString("%1 on %2, workgroup 0, reduction step %3")
                    .arg(colorByName(colorBy))
                    .arg(QString::fromStdString(derived->space.toString()))
                    .arg(step);
  scene.subtitle = subtitle;
  scene.colorBy = colorBy;
  auto created = layout::NestedLayout::create(
      derived->layout, derived->subgroups, derived->subgroupSize);
  if (!created) {
    scene.footer = QString::fromStdString(created.error());
    return scene;
  }
  auto nested =
      std::make_shared<const layout::NestedLayout>(std::move(*created));
  const auto &dims = derived->dimensions;
  const size_t rank = dims.size();
  rowDim = std::min(rowDim, rank - 1);
  columnDim = std::min(columnDim, rank - 1);
  const auto &shape = nested->shape();
  std::vector<int64_t> strides(rank, 1);
  for (size_t k = rank; k-- > 1;)
    strides[k - 1] = strides[k] * shape[k];

  std::vector<int64_t> extents;
  for (const layout::LayoutDimension &dim : dims) {
    extents.push_back(dim.bound);
    scene.sliceDims.push_back({QString::fromStdString(dim.name), dim.bound});
  }
  scene.rowDim = rowDim;
  scene.columnDim = columnDim;
  scene.sliceAt = sliceIndices(extents, slice);
  // Where the dimensions not drawn are held, in the flat element order.
  int64_t heldOffset = 0;
  for (size_t k = 0; k < rank; ++k)
    if (k != rowDim && k != columnDim)
      heldOffset += scene.sliceAt[k] * strides[k];
  const QString held =
      heldText(scene.sliceDims, rowDim, columnDim, scene.sliceAt);

  Panel panel;
  panel.rows = rowDim == columnDim ? 1 : dims[rowDim].bound;
  panel.columns = dims[columnDim].bound;
  panel.rowAxis = QString::fromStdString(dims[rowDim].name);
  panel.columnAxis = QString::fromStdString(dims[columnDim].name);
  const auto &attr = derived->layout;
  panel.rowGroup = attr.threadTile[rowDim] * attr.elementTile[rowDim];
  panel.columnGroup = attr.threadTile[columnDim] * attr.elementTile[columnDim];
  // Where this step's chunk starts in each reduction loop.
  QStringList ranges;
  for (const layout::ReductionLoop &loop : derived->reductionLoops) {
    const int64_t s = std::clamp<int64_t>(step, 0, loop.iterations - 1);
    ranges << QString("d%1 in [%2, %3)")
                  .arg(loop.dimension)
                  .arg(s * loop.chunk)
                  .arg(std::min(loop.size, (s + 1) * loop.chunk));
  }
  panel.title =
      QString("%1 x %2%3%4")
          .arg(panel.rowAxis, panel.columnAxis,
               held.isEmpty() ? QString() : " (" + held + ")",
               ranges.isEmpty() ? QString() : ", " + ranges.join(", "));
  const int64_t rowStride = rowDim == columnDim ? 0 : strides[rowDim];
  const int64_t columnStride = strides[columnDim];
  const auto loopIndex =
      loopIndexOf(*derived, step, rowDim, columnDim, scene.sliceAt);
  panel.cell = [nested, colorBy, rowStride, columnStride, heldOffset, loopIndex,
                rowAxis = rowDim == columnDim ? QString() : panel.rowAxis,
                columnAxis = panel.columnAxis](int64_t row, int64_t column) {
    CellInfo info;
    layout::Owner owner;
    const int64_t flat = heldOffset + row * rowStride + column * columnStride;
    if (!nested->primaryOwner(flat, owner))
      return info;
    info.colorKey = keyFor(colorBy, owner);
    info.label = ownerLabel(colorBy, owner);
    const std::vector<int64_t> index = loopIndex(row, column);
    QStringList loops;
    for (size_t d = 0; d < index.size(); ++d)
      loops << QString("d%1=%2").arg(d).arg(index[d]);
    const QString picture =
        (rowAxis.isEmpty() ? QString()
                           : QString("%1 %2, ").arg(rowAxis).arg(row)) +
        QString("%1 %2").arg(columnAxis).arg(column);
    info.detail = QString("%1 (picture: %2): subgroup %3, lane %4, "
                          "register %5")
                      .arg(loops.join(", "), picture)
                      .arg(owner.subgroup)
                      .arg(owner.lane)
                      .arg(owner.registerIndex) +
                  replicas(info, *nested, flat, colorBy);
    return info;
  };
  panel.colorKey = [nested, colorBy, rowStride, columnStride,
                    heldOffset](int64_t row, int64_t column) -> int64_t {
    layout::Owner owner;
    if (!nested->primaryOwner(
            heldOffset + row * rowStride + column * columnStride, owner))
      return -1;
    return keyFor(colorBy, owner);
  };
  scene.panels.push_back(std::move(panel));
  const int64_t keys = colorBy == ColorBy::Subgroup ? derived->subgroups
                       : colorBy == ColorBy::Register
                           ? nested->registersPerThread()
                           : derived->subgroupSize;
  scene.numberLegend(keys, colorByName(colorBy));
  scene.footer = configFooter(*derived);
  return scene;
}

GridScene
workgroupGridScene(std::shared_ptr<const layout::DerivedLayout> derived,
                   size_t rowDim, size_t columnDim) {
  GridScene scene;
  scene.title = QString("workgroup grid over %1")
                    .arg(QString::fromStdString(derived->space.toString()));
  scene.colorBy = ColorBy::Custom;
  const size_t rank = derived->workgroupCounts.size();
  rowDim = std::min(rowDim, rank - 1);
  columnDim = std::min(columnDim, rank - 1);
  Panel panel;
  panel.rows = rowDim == columnDim ? 1 : derived->workgroupCounts[rowDim];
  panel.columns = derived->workgroupCounts[columnDim];
  panel.rowAxis = QString("d%1 tiles").arg(rowDim);
  panel.columnAxis = QString("d%1 tiles").arg(columnDim);
  panel.title = QString("tile %1").arg(listText(derived->workgroupTile));
  const int64_t rowTile = derived->workgroupTile[rowDim];
  const int64_t columnTile = derived->workgroupTile[columnDim];
  const int64_t columns = panel.columns;
  panel.cell = [rowTile, columnTile, columns, rowDim,
                columnDim](int64_t row, int64_t column) {
    CellInfo info;
    info.colorKey = (row * columns + column) % 12;
    info.label = QString::number(row * columns + column);
    info.detail = QString("workgroup %1: d%2 [%3, %4), d%5 [%6, %7)")
                      .arg(row * columns + column)
                      .arg(rowDim)
                      .arg(row * rowTile)
                      .arg((row + 1) * rowTile)
                      .arg(columnDim)
                      .arg(column * columnTile)
                      .arg((column + 1) * columnTile);
    return info;
  };
  panel.colorKey = [columns](int64_t row, int64_t column) -> int64_t {
    return (row * columns + column) % 12;
  };
  scene.panels.push_back(std::move(panel));
  scene.colorCount = 12;
  scene.footer = QString("%1 workgroups").arg(derived->workgroupCount);
  return scene;
}

Result<GridScene> contractionScene(const layout::ContractionLayouts &layouts,
                                   ColorBy colorBy, const QString &subtitle,
                                   const std::array<QString, 3> &names) {
  GridScene scene;
  scene.title = QString("mma_kind %1: operand layouts")
                    .arg(QString::fromStdString(layouts.intrinsic));
  scene.subtitle = subtitle;
  scene.colorBy = colorBy;
  struct Operand {
    const QString &name;
    const config::NestedLayoutAttr &attr;
    const std::vector<std::string> &axes;
  };
  const Operand operands[] = {{names[0], layouts.lhs, layouts.lhsAxes},
                              {names[1], layouts.rhs, layouts.rhsAxes},
                              {names[2], layouts.acc, layouts.accAxes}};
  int64_t keys = 1;
  QStringList footer;
  for (const Operand &operand : operands) {
    auto created = layout::NestedLayout::create(operand.attr);
    if (!created)
      return Error{operand.name.toStdString() + ": " + created.error()};
    auto shared =
        std::make_shared<const layout::NestedLayout>(std::move(*created));
    const size_t rank = shared->rank();
    const size_t row = rank >= 2 ? rank - 2 : 0, column = rank ? rank - 1 : 0;
    GridScene one = nestedLayoutScene(shared, colorBy, row, column, {});
    Panel panel = std::move(one.panels.front());
    panel.title =
        QString("%1 vector<%2>").arg(operand.name, shapeText(shared->shape()));
    // Name the drawn axes by the loop dimension they index: "d2 (K)".
    if (operand.axes.size() == rank && rank >= 2) {
      panel.rowAxis = QString::fromStdString(operand.axes[row]);
      panel.columnAxis = QString::fromStdString(operand.axes[column]);
    }
    keys = std::max(keys, colorBy == ColorBy::Subgroup ? shared->subgroupCount()
                          : colorBy == ColorBy::Register
                              ? shared->registersPerThread()
                              : shared->subgroupSize());
    footer << QString("%1: each thread holds vector%2")
                  .arg(operand.name)
                  .arg(listText(shared->simtShape()));
    scene.panels.push_back(std::move(panel));
  }
  scene.numberLegend(keys, colorByName(colorBy));
  scene.footer = footer.join("; ");
  return scene;
}

namespace {

// Operand `i` (LHS, RHS, ACC) of one of attention's contractions, drawn
// over its last two dimensions, the others at 0 (contractionScene): each
// cell an element of the workgroup's tile in one step of K2, a point of
// the attention's loops, those the operand does not index open (-1).
std::function<std::vector<int64_t>(int64_t, int64_t)>
attentionPointAt(const layout::AttentionContraction &part, size_t i,
                 size_t loops) {
  if (i >= part.space.operands.size())
    return {};
  std::vector<int> attentionLoops; // per vector dimension
  for (int d : part.space.operands[i].dims) {
    if (d < 0 || static_cast<size_t>(d) >= part.loops.size())
      return {};
    attentionLoops.push_back(part.loops[static_cast<size_t>(d)]);
  }
  const size_t rank = attentionLoops.size();
  if (rank == 0)
    return {};
  return [attentionLoops, rank, loops](int64_t row, int64_t column) {
    std::vector<int64_t> point(loops, -1);
    for (size_t v = 0; v < rank; ++v) {
      const size_t loop = static_cast<size_t>(attentionLoops[v]);
      if (loop < loops)
        point[loop] = v + 1 == rank                ? column
                      : rank >= 2 && v + 2 == rank ? row
                                                   : 0;
    }
    return point;
  };
}

} // namespace

Result<GridScene> attentionScene(const layout::AttentionLayouts &attention,
                                 ColorBy colorBy, const QString &subtitle) {
  GridScene scene;
  scene.title =
      QString("attention: Q.K^T (%1) above, P.V (%2) below, per step of K2")
          .arg(QString::fromStdString(layout::layoutSource(attention.qk)),
               QString::fromStdString(layout::layoutSource(attention.pv)));
  scene.subtitle = subtitle;
  scene.colorBy = colorBy;
  QStringList footer;
  int64_t keys = 1;
  for (const layout::AttentionContraction *part :
       {&attention.qk, &attention.pv}) {
    // "Q (LHS)", ...: the first row is Q.K^T, the second P.V, as the
    // scene's title says; short, so that a row of three fits a window.
    auto named = [](const std::string &operand, const char *role) {
      return QString("%1 (%2)").arg(QString::fromStdString(operand), role);
    };
    auto one =
        contractionScene(part->layouts, colorBy, {},
                         {named(part->lhs, "LHS"), named(part->rhs, "RHS"),
                          named(part->acc, "ACC")});
    if (!one)
      return Error{part->name + ": " + one.error()};
    for (size_t i = 0; i < one->panels.size(); ++i) {
      Panel &panel = one->panels[i];
      // P.V below Q.K^T: P under S, where it comes from.
      panel.startsRow = i == 0 && part == &attention.pv;
      panel.pointAt = attentionPointAt(*part, i, attention.tile.size());
      scene.panels.push_back(std::move(panel));
    }
    keys = std::max(keys, static_cast<int64_t>(one->legend.size()));
    footer << one->footer;
  }
  scene.numberLegend(keys, colorByName(colorBy));
  scene.footer = footer.join("\n");
  return scene;
}

GridScene markColorKey(GridScene scene, int64_t key) {
  if (key < 0)
    return scene;
  for (Panel &panel : scene.panels) {
    if (!panel.cell)
      continue;
    // Marks are drawn at every zoom: no colour-only fast path.
    panel.colorKey = nullptr;
    panel.cell = [cell = std::move(panel.cell), key](int64_t row,
                                                     int64_t column) {
      CellInfo info = cell(row, column);
      info.marked = info.colorKey == key ||
                    std::find(info.otherKeys.begin(), info.otherKeys.end(),
                              key) != info.otherKeys.end();
      return info;
    };
  }
  // The legend names the key (it stops at 256 entries; past those, the
  // colouring's name does).
  QString name = QString("%1 %2").arg(colorByName(scene.colorBy)).arg(key);
  for (const LegendEntry &entry : scene.legend)
    if (entry.colorKey == key) {
      name = entry.text;
      break;
    }
  scene.footer = "marked: " + name + "\n" + scene.footer;
  return scene;
}

namespace {

// Marks the cells of panels of operand elements (Panel::pointAt) whose
// point is one of `points`; the footer says how many of them these panels
// hold (the others are elements of operands not drawn, or of a step not
// drawn).
GridScene
markPanelPoints(GridScene scene,
                std::shared_ptr<const std::set<std::vector<int64_t>>> points,
                const QString &what) {
  std::set<std::vector<int64_t>> here;
  for (Panel &panel : scene.panels) {
    if (!panel.cell || !panel.pointAt)
      continue;
    for (int64_t row = 0; row < panel.rows; ++row)
      for (int64_t column = 0; column < panel.columns; ++column)
        if (const auto point = panel.pointAt(row, column); points->count(point))
          here.insert(point);
    panel.colorKey = nullptr; // marks are drawn at every zoom
    panel.cell = [cell = std::move(panel.cell), pointAt = panel.pointAt,
                  points](int64_t row, int64_t column) {
      CellInfo info = cell(row, column);
      info.marked = info.marked || points->count(pointAt(row, column)) > 0;
      return info;
    };
  }
  const QString shown =
      here.empty() ? what + ", none in this picture"
      : here.size() == points->size()
          ? what
          : QString("%1 (%2 here)").arg(what).arg(here.size());
  scene.footer = "marked: " + shown + "\n" + scene.footer;
  return scene;
}

} // namespace

GridScene
markPoints(GridScene scene,
           std::shared_ptr<const std::set<std::vector<int64_t>>> points,
           const QString &what) {
  if (!points || points->empty() || !scene.linksLoopPoints())
    return scene;
  if (!scene.cellsAreLoopPoints)
    return markPanelPoints(std::move(scene), std::move(points), what);
  // A point may leave loops open (-1: an LHS element (m, k) is every point
  // (m, *, k)): each pattern of open loops is looked up. One that leaves a
  // drawn loop open would cover a whole row or column of the picture (an
  // LHS element drawn over m x n): it is left out, and said so.
  std::set<std::vector<bool>> patterns;
  std::set<size_t> openDrawn;
  size_t left = 0;
  auto drawn = [&](size_t d) {
    return d == scene.rowDim || d == scene.columnDim;
  };
  for (const std::vector<int64_t> &point : *points) {
    std::vector<bool> open(point.size());
    bool fits = true;
    for (size_t d = 0; d < point.size(); ++d) {
      open[d] = point[d] < 0;
      if (open[d] && drawn(d)) {
        fits = false;
        openDrawn.insert(d);
      }
    }
    if (fits)
      patterns.insert(std::move(open));
    else
      ++left;
  }
  QStringList loops;
  for (size_t d : openDrawn)
    loops << (d < scene.sliceDims.size() ? scene.sliceDims[d].name
                                         : QString("d%1").arg(d));
  if (patterns.empty()) {
    scene.footer = "marked: " + what + ", none in this picture (they leave " +
                   loops.join(" and ") +
                   " open: draw the loops their operand indexes)\n" +
                   scene.footer;
    return scene;
  }
  const QString shown = left == 0 ? what
                                  : QString("%1 (%2 here; %3 leave %4 open)")
                                        .arg(what)
                                        .arg(points->size() - left)
                                        .arg(left)
                                        .arg(loops.join(" and "));
  for (Panel &panel : scene.panels) {
    if (!panel.cell)
      continue;
    panel.colorKey = nullptr; // marks are drawn at every zoom
    panel.cell = [cell = std::move(panel.cell), points, patterns,
                  rowDim = scene.rowDim, columnDim = scene.columnDim,
                  sliceAt = scene.sliceAt](int64_t row, int64_t column) {
      CellInfo info = cell(row, column);
      const std::vector<int64_t> at =
          slicePoint(sliceAt, rowDim, columnDim, row, column);
      for (const std::vector<bool> &open : patterns) {
        if (info.marked)
          break;
        if (open.size() != at.size())
          continue;
        std::vector<int64_t> key = at;
        for (size_t d = 0; d < key.size(); ++d)
          if (open[d])
            key[d] = -1;
        info.marked = points->count(key) > 0;
      }
      return info;
    };
  }
  scene.footer = "marked: " + shown + "\n" + scene.footer;
  return scene;
}

} // namespace tilescope::render
