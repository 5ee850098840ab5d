#include "widgets/render/SplitKScene.h"

#include "core/config/rules/SplitReduction.h"

#include <QStringList>

#include <algorithm>

namespace tilescope::render {
namespace {

// Chunk colours: a 128-way split cycles through these (neighbours differ).
constexpr int64_t kColours = 12;

// Reduction loop d`loop` (bound `bound`) in `count` chunks of `tile`: a row
// per chunk, its elements across.
Panel chunkPanel(size_t loop, int64_t bound, int64_t tile, int64_t count) {
  const QString name = QString("d%1").arg(loop);
  Panel panel;
  panel.rows = count;
  panel.columns = tile;
  panel.rowAxis = "chunk of " + name;
  panel.columnAxis = name + " in chunk";
  panel.title =
      count > 1
          ? QString("%1 = %2 in %3 chunks of %4%5")
                .arg(name)
                .arg(bound)
                .arg(count)
                .arg(tile)
                .arg(bound % tile ? QString(" (the last %1)").arg(bound % tile)
                                  : QString())
          : QString("%1 = %2, whole").arg(name).arg(bound);
  panel.cell = [name, bound, tile, count](int64_t row, int64_t column) {
    CellInfo info;
    const int64_t index = row * tile + column;
    if (index >= bound) {
      info.detail =
          QString("past %1 = %2: the last chunk is short").arg(name).arg(bound);
      return info;
    }
    info.colorKey = row % kColours;
    info.label = QString::number(index);
    info.detail =
        count > 1
            ? QString("%1 = %2: chunk %3 of %4 (%1 %5..%6), its own "
                      "partial result")
                  .arg(name)
                  .arg(index)
                  .arg(row)
                  .arg(count)
                  .arg(row * tile)
                  .arg(std::min(bound, (row + 1) * tile) - 1)
            : QString("%1 = %2: reduced in one piece").arg(name).arg(index);
    return info;
  };
  panel.colorKey = [bound, tile](int64_t row, int64_t column) -> int64_t {
    return row * tile + column < bound ? row % kColours : -1;
  };
  return panel;
}

// What the second dispatch adds: the `total` partial results, a row per
// chunk (beside the chunk rows they come from) and the innermost parallel
// loop across (every other output index alike); it adds each column. A
// chunk's colour is its row in its loop's panel: the chunk of the innermost
// split loop, of which there are `inner`.
Panel partialsPanel(const config::IterationSpace &space, int64_t total,
                    int64_t inner) {
  int64_t outputs = 1;
  QString outputName = "output";
  QStringList alike;
  for (size_t d = space.rank(); d-- > 0;) {
    if (space.isReduction(d))
      continue;
    if (outputs == 1 && outputName == "output" && space.bounds[d] > 0) {
      outputs = space.bounds[d];
      outputName = QString("d%1").arg(d);
    } else {
      alike.prepend(QString("d%1").arg(d));
    }
  }
  Panel partials;
  partials.rows = total;
  partials.columns = outputs;
  partials.rowAxis = "partial result (chunk)";
  partials.columnAxis = outputName;
  partials.title =
      QString("partial results, added down each column%1")
          .arg(alike.isEmpty() ? QString()
                               : " (every " + alike.join(", ") + " alike)");
  partials.cell = [inner, total, outputName](int64_t row, int64_t column) {
    CellInfo info;
    info.colorKey = (row % inner) % kColours;
    info.label = QString::number(row);
    info.detail = QString("%1 = %2, the partial result of chunk %3: one of "
                          "the %4 the second dispatch adds")
                      .arg(outputName)
                      .arg(column)
                      .arg(row)
                      .arg(total);
    return info;
  };
  partials.colorKey = [inner](int64_t row, int64_t) {
    return (row % inner) % kColours;
  };
  return partials;
}

// A legend entry per colour of the innermost loop's `inner` chunks.
std::vector<LegendEntry> chunkLegend(int64_t total, int64_t inner) {
  if (total == 1)
    return {{0, "the whole loop: one partial result"}};
  std::vector<LegendEntry> legend;
  for (int64_t chunk = 0; chunk < std::min(inner, kColours); ++chunk)
    legend.push_back(
        {chunk,
         inner > kColours
             ? QString("chunk %1, %2, ...").arg(chunk).arg(chunk + kColours)
             : QString("chunk %1").arg(chunk)});
  return legend;
}

} // namespace

Result<GridScene> splitKScene(const SplitKPicture &picture) {
  std::vector<size_t> loops; // the reduction loops, outer to inner
  for (size_t d = 0; d < picture.space.rank(); ++d)
    if (picture.space.isReduction(d))
      loops.push_back(d);
  if (loops.empty())
    return Error{"the op has no reduction loop to split"};
  const std::vector<int64_t> bounds = config::reductionBounds(picture.space);
  for (size_t i = 0; i < bounds.size(); ++i)
    if (bounds[i] <= 0)
      return Error{"reduction loop d" + std::to_string(loops[i]) +
                   " is dynamic: the chunks are known only at run time"};
  const bool split = picture.sizes && !picture.sizes->empty();
  if (split && picture.sizes->size() != bounds.size())
    return Error{"the split has " + std::to_string(picture.sizes->size()) +
                 " tile(s); the op has " + std::to_string(bounds.size()) +
                 " reduction loop(s)"};
  std::vector<int64_t> tiles = split ? *picture.sizes : bounds;
  for (size_t i = 0; i < tiles.size(); ++i)
    if (tiles[i] <= 0 || tiles[i] > bounds[i])
      tiles[i] = bounds[i]; // 0 leaves the loop whole
  const std::vector<int64_t> counts = config::splitCounts(bounds, tiles);
  int64_t total = 1;
  for (int64_t count : counts)
    total *= count;

  GridScene scene;
  scene.title =
      QString("split-k of %1 over %2")
          .arg(picture.op, QString::fromStdString(picture.space.toString()));
  scene.colorBy = ColorBy::Custom;
  scene.colorCount = std::min(total, kColours);
  if (split && total > 1)
    scene.subtitle =
        QString("%1 %2: %3 chunk(s); each is reduced by its own workgroups "
                "into a partial result, and a second dispatch adds the %3 "
                "partial results of every output element")
            .arg(picture.whose, listText(*picture.sizes))
            .arg(total);
  else
    scene.subtitle = QString("not split (%1): one dispatch reduces every "
                             "loop whole")
                         .arg(picture.whose);

  for (size_t i = 0; i < loops.size(); ++i)
    scene.panels.push_back(
        chunkPanel(loops[i], bounds[i], tiles[i], counts[i]));
  if (split && total > 1)
    scene.panels.push_back(partialsPanel(picture.space, total, counts.back()));
  scene.legend = chunkLegend(total, counts.back());
  scene.footer = QString("reduction loops %1, tiles %2, chunks %3")
                     .arg(listText(bounds), listText(tiles), listText(counts));
  return scene;
}

} // namespace tilescope::render
