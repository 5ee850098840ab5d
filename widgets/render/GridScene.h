// A scene to draw: one or more labelled panels, each a grid of cells whose
// contents are computed on demand, so drawing cost follows the pixels drawn,
// not the element count (a 16M-element layout is never materialized).
//
// QtGui only (no QWidget): the views paint it, and tilescope-cli render
// writes it to PNG, SVG and PDF with the offscreen platform.
#pragma once

#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

namespace tilescope::render {

// What one cell shows.
struct CellInfo {
  // Which colour: cells with equal keys share a colour (e.g. the owning
  // subgroup, lane or register, a bank). -1: no owner (drawn as empty).
  int64_t colorKey = -1;
  // Short text drawn inside the cell when it is large enough ("s0 l5 r3").
  QString label;
  // Marked cells get a hatched overlay and a thick outline (bank conflicts,
  // the selected thread's elements, replicated elements).
  bool marked = false;
  // The keys of the cell's other owners, where several hold it (a basis
  // whose unmapped digit replicates): marking any of them marks the cell.
  std::vector<int64_t> otherKeys;
  // Tool tip / hover text: the full answer ("element [3, 17]: subgroup 1, lane
  // 42, register 5").
  QString detail;
};

struct Panel {
  QString title; // "LHS 16x16 (M x K)", "before swizzle", ...
  int64_t rows = 0;
  int64_t columns = 0;
  QString rowAxis;    // "M", "row", "d0"
  QString columnAxis; // "K", "access column", "d1"
  // Thin separators every `rowGroup` rows / `columnGroup` columns (tile
  // boundaries); 0: none.
  int64_t rowGroup = 0;
  int64_t columnGroup = 0;
  std::function<CellInfo(int64_t row, int64_t column)> cell;
  // Optional fast path: the colour key alone, used when cells are drawn too
  // small for text (sampling, one call per pixel). Set it when cell()
  // formats labels or details; marks are not drawn on that path.
  std::function<int64_t(int64_t row, int64_t column)> colorKey;
  // Begins a new row of panels below the ones before it (panels are laid
  // out left to right; attention's Q.K^T and P.V each take a row).
  bool startsRow = false;
  // Where each cell is an element of an operand of the op (attention's Q,
  // K, V and O panels): the point of the op's loops it stands for, -1 for
  // a loop the operand does not index, as the kernel's instructions link
  // cells (isa::CellLink). Unset: the panel's cells are no such element.
  std::function<std::vector<int64_t>(int64_t row, int64_t column)> pointAt;
};

enum class ColorBy { Subgroup, Lane, Register, Bank, Thread, Custom };

struct LegendEntry {
  int64_t colorKey = 0;
  QString text; // "subgroup 0", "bank 7"
};

struct GridScene {
  QString title;    // "nested_layout on vector<64x64xf16>"
  QString subtitle; // the attribute text or a short explanation
  ColorBy colorBy = ColorBy::Custom;
  int64_t colorCount = 0; // distinct colour keys, for the palette (0: unknown)
  std::vector<Panel> panels;
  std::vector<LegendEntry> legend; // may be long: the painter shows what fits
  QString footer; // summary lines ("4 subgroups x 64 lanes, 16 registers")

  // A picture of two dimensions of more: every dimension it can be drawn
  // over (name, extent), the two drawn, and where the others are held.
  // Empty for a picture that is not such a slice.
  struct SliceDim {
    QString name;
    int64_t extent = 1;
  };
  std::vector<SliceDim> sliceDims;
  size_t rowDim = 0, columnDim = 0;
  std::vector<int64_t> sliceAt; // one per dimension; the drawn two unused
  // Each cell is a point of the op's workgroup tile, its coordinates per
  // loop (sliceAt with the row and column put in): what the kernel's
  // instructions link to (the subgroup and thread tile pictures).
  bool cellsAreLoopPoints = false;
  // The point a cell of such a scene stands for.
  std::vector<int64_t> pointAt(int64_t row, int64_t column) const;
  // Whether the instructions can link to its cells: a scene of loop
  // points, or one with panels of operand elements (Panel::pointAt).
  bool linksLoopPoints() const {
    if (cellsAreLoopPoints)
      return true;
    for (const Panel &panel : panels)
      if (panel.pointAt)
        return true;
    return false;
  }

  // A legend of `count` numbered keys ("lane 0", "lane 1", ...; the first
  // 256 listed), the palette sized for them.
  void numberLegend(int64_t count, const QString &prefix) {
    colorCount = count;
    for (int64_t key = 0; key < count && key < 256; ++key)
      legend.push_back({key, QString("%1 %2").arg(prefix).arg(key)});
  }
};

// The point of a slice held at `sliceAt` that row `row` and column
// `column` of its drawn dimensions stand for (one row where they are the
// same dimension).
inline std::vector<int64_t> slicePoint(std::vector<int64_t> sliceAt,
                                       size_t rowDim, size_t columnDim,
                                       int64_t row, int64_t column) {
  if (rowDim < sliceAt.size() && rowDim != columnDim)
    sliceAt[rowDim] = row;
  if (columnDim < sliceAt.size())
    sliceAt[columnDim] = column;
  return sliceAt;
}

inline std::vector<int64_t> GridScene::pointAt(int64_t row,
                                               int64_t column) const {
  return slicePoint(sliceAt, rowDim, columnDim, row, column);
}

// "[64, 128, 0]", as IREE prints a list.
inline QString listText(const std::vector<int64_t> &values) {
  QString text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + QString::number(values[i]);
  return text + "]";
}

// Where a slice holds each dimension not drawn: `asked` where given and in
// range, else 0.
std::vector<int64_t> sliceIndices(const std::vector<int64_t> &extents,
                                  const std::vector<int64_t> &asked);
// "d2 at 3, d3 at 0": the dimensions held, for a panel title.
QString heldText(const std::vector<GridScene::SliceDim> &dims, size_t row,
                 size_t column, const std::vector<int64_t> &at);

} // namespace tilescope::render
