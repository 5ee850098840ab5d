#include "widgets/render/DistributionScenes.h"

#include "core/layout/MmaLayouts.h"

#include <QStringList>

#include <algorithm>
#include <optional>

namespace tilescope::render {
namespace {

QString join(const std::vector<int64_t> &values, const char *separator) {
  QStringList parts;
  for (int64_t v : values)
    parts << QString::number(v);
  return parts.join(separator);
}

// One cell: which worker (and, by fragment, which lane or register) holds
// the element `at`, in which iteration and round, and its tile.
CellInfo distributionCell(const layout::ForallDistribution &dist,
                          const std::vector<int64_t> &at, const QString &worker,
                          const QString &prefix, int64_t rounds,
                          bool byFragment, ColorBy coloured) {
  const int64_t iteration = dist.iterationOf(at);
  const int64_t who = iteration % std::max<int64_t>(dist.workers, 1);
  const int64_t round = iteration / std::max<int64_t>(dist.workers, 1);
  CellInfo info;
  info.colorKey = who;
  info.label = rounds > 1 ? QString("%1%2·%3").arg(prefix).arg(who).arg(round)
                          : QString("%1%2").arg(prefix).arg(who);
  QString fragment;
  if (byFragment)
    if (const auto owner = dist.accumulatorOwnerOf(at)) {
      info.colorKey = coloured == ColorBy::Lane ? owner->lane : owner->reg;
      info.label = coloured == ColorBy::Lane ? QString("l%1").arg(owner->lane)
                                             : QString("r%1").arg(owner->reg);
      fragment = QString("; lane %1 (thread %2), accumulator register %3")
                     .arg(owner->lane)
                     .arg(owner->thread)
                     .arg(owner->reg);
    }
  const std::vector<int64_t> origin = dist.tileOrigin(iteration);
  QStringList span;
  for (size_t i = 0; i < dist.loops.size(); ++i) {
    const size_t loop = dist.loops[i];
    const int64_t size = dist.tiles[loop] * dist.unit[loop];
    span << QString("d%1 [%2, %3)")
                .arg(loop)
                .arg(origin[loop])
                .arg(std::min(origin[loop] + size,
                              dist.bounds[loop] * dist.unit[loop]));
  }
  QString whoText = QString("%1 %2").arg(worker).arg(who);
  if (worker == "thread" && !dist.workgroupSize.empty()) {
    const auto xyz = dist.threadCoordinates(who);
    whoText +=
        QString(" (x %1, y %2, z %3)").arg(xyz[0]).arg(xyz[1]).arg(xyz[2]);
  } else if (worker == "subgroup" && dist.subgroupSize > 0) {
    whoText += QString(" (threads %1 to %2)")
                   .arg(who * dist.subgroupSize)
                   .arg((who + 1) * dist.subgroupSize - 1);
  }
  info.detail =
      QString("element [%1]: %2%6, forall iteration %3 (round %4); its "
              "tile: %5")
          .arg(join(at, ", "), whoText)
          .arg(iteration)
          .arg(round)
          .arg(span.join(" x "))
          .arg(fragment);
  return info;
}

// How many workers, the forall and its rounds, idle workers and the tile.
QString distributionFooter(const layout::ForallDistribution &d,
                           const QString &worker, bool subgroups,
                           int64_t rounds) {
  const size_t rank = d.bounds.size();
  QStringList forall;
  for (size_t i = 0; i < d.loops.size(); ++i)
    forall << QString("d%1: %2 (linear_dim_%3)")
                  .arg(d.loops[i])
                  .arg(d.tripCounts[i])
                  .arg(d.linearDims[i]);
  QStringList tile;
  for (size_t loop = 0; loop < rank; ++loop)
    tile << (d.tiles[loop] > 0 ? QString::number(d.tiles[loop] * d.unit[loop])
                               : QString("all"));
  return QString("%1 %2s%3. scf.forall over %4 = %5 iterations; %2 w runs "
                 "iterations w, w + %1, ... (%6 round%7)%8. %9 tile: %10%11.")
      .arg(d.workers)
      .arg(worker)
      .arg(d.workgroupSize.empty() ? QString()
                                   : QString(" (workgroup_size [%1])")
                                         .arg(join(d.workgroupSize, ", ")))
      .arg(forall.join(", "))
      .arg(d.iterations())
      .arg(rounds)
      .arg(rounds == 1 ? "" : "s")
      .arg(d.idleWorkers() > 0
               ? QString("; %1 %2s idle").arg(d.idleWorkers()).arg(worker)
               : QString())
      .arg(subgroups ? "Subgroup" : "Thread")
      .arg(tile.join(" x "))
      .arg(subgroups ? QString(" elements (intrinsic tiles)")
                     : QString(" elements"));
}

} // namespace

GridScene distributionScene(
    std::shared_ptr<const layout::ForallDistribution> distribution,
    size_t rowLoop, size_t columnLoop, const QString &subtitle,
    const std::vector<int64_t> &slice, ColorBy colorBy) {
  const layout::ForallDistribution &d = *distribution;
  const bool subgroups = d.level == "subgroup";
  const QString worker = subgroups ? "subgroup" : "thread";
  const QString prefix = subgroups ? "sg" : "t";
  const size_t rank = d.bounds.size();
  rowLoop = std::min(rowLoop, rank - 1);
  columnLoop = std::min(columnLoop, rank - 1);
  auto extent = [&](size_t loop) { return d.bounds[loop] * d.unit[loop]; };

  // Lane or register: the intrinsic's accumulator fragment, on the M and N
  // loops of the distribution.
  const layout::MmaIntrinsic *intrinsic =
      subgroups && !d.intrinsic.empty() ? layout::findMmaIntrinsic(d.intrinsic)
                                        : nullptr;
  std::optional<size_t> mLoop, nLoop;
  for (size_t loop = 0; loop < d.role.size(); ++loop) {
    if (d.role[loop] == "M")
      mLoop = loop;
    if (d.role[loop] == "N")
      nLoop = loop;
  }
  const bool byFragment =
      intrinsic && mLoop && nLoop &&
      (colorBy == ColorBy::Lane || colorBy == ColorBy::Register);

  GridScene scene;
  scene.title = QString("%1 tiles of one workgroup tile").arg(worker);
  scene.subtitle = subtitle;
  scene.colorBy = byFragment  ? colorBy
                  : subgroups ? ColorBy::Subgroup
                              : ColorBy::Thread;
  scene.colorCount = d.workers;
  if (byFragment)
    scene.colorCount = colorBy == ColorBy::Lane
                           ? intrinsic->subgroupSize
                           : intrinsic->acc.elementsPerLane();
  const QString keyName = !byFragment                ? worker
                          : colorBy == ColorBy::Lane ? QString("lane")
                                                     : QString("register");
  for (int64_t key = 0; key < scene.colorCount && key < 256; ++key)
    scene.legend.push_back({key, QString("%1 %2").arg(keyName).arg(key)});

  std::vector<int64_t> extents;
  for (size_t loop = 0; loop < rank; ++loop) {
    extents.push_back(extent(loop));
    scene.sliceDims.push_back({QString("d%1").arg(loop), extent(loop)});
  }
  scene.rowDim = rowLoop;
  scene.columnDim = columnLoop;
  scene.sliceAt = sliceIndices(extents, slice);
  scene.cellsAreLoopPoints = true;
  const QString held =
      heldText(scene.sliceDims, rowLoop, columnLoop, scene.sliceAt);

  Panel panel;
  panel.rows = rowLoop == columnLoop ? 1 : extent(rowLoop);
  panel.columns = extent(columnLoop);
  panel.rowAxis = QString("d%1").arg(rowLoop);
  panel.columnAxis = QString("d%1").arg(columnLoop);
  panel.rowGroup =
      d.tiles[rowLoop] > 0 ? d.tiles[rowLoop] * d.unit[rowLoop] : 0;
  panel.columnGroup =
      d.tiles[columnLoop] > 0 ? d.tiles[columnLoop] * d.unit[columnLoop] : 0;
  panel.title = QString("d%1 x d%2 of the workgroup tile%3")
                    .arg(rowLoop)
                    .arg(columnLoop)
                    .arg(held.isEmpty() ? QString() : ", " + held);
  const size_t rows = rowLoop, columns = columnLoop;
  auto coordinate = [held = scene.sliceAt, rows, columns](int64_t row,
                                                          int64_t column) {
    return slicePoint(held, rows, columns, row, column);
  };
  const int64_t rounds = d.rounds();
  const ColorBy coloured = scene.colorBy;
  panel.cell = [distribution, coordinate, worker, prefix, rounds, byFragment,
                coloured](int64_t row, int64_t column) {
    return distributionCell(*distribution, coordinate(row, column), worker,
                            prefix, rounds, byFragment, coloured);
  };
  panel.colorKey = [distribution, coordinate, byFragment,
                    coloured](int64_t row, int64_t column) -> int64_t {
    const std::vector<int64_t> at = coordinate(row, column);
    const auto owner =
        byFragment ? distribution->accumulatorOwnerOf(at) : std::nullopt;
    if (!owner)
      return distribution->workerOf(at);
    return coloured == ColorBy::Lane ? owner->lane : owner->reg;
  };
  scene.panels.push_back(std::move(panel));

  scene.footer = distributionFooter(d, worker, subgroups, rounds);
  return scene;
}

} // namespace tilescope::render
