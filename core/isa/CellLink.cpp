#include "core/isa/CellLink.h"

#include <algorithm>

namespace tilescope::isa {

namespace {

template <typename T> void sortUnique(std::vector<T> &values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

std::vector<bool> openLoopsOf(const std::vector<int64_t> &cell) {
  std::vector<bool> open(cell.size());
  for (size_t d = 0; d < cell.size(); ++d)
    open[d] = cell[d] < 0;
  return open;
}

} // namespace

bool cellHolds(const std::vector<int64_t> &cell,
               const std::vector<int64_t> &point) {
  if (cell.size() != point.size())
    return false;
  for (size_t d = 0; d < cell.size(); ++d)
    if (cell[d] >= 0 && cell[d] != point[d])
      return false;
  return true;
}

void CellLink::add(const std::vector<int64_t> &cell, size_t line) {
  linesOfCell[cell].push_back(line);
  cellsOfLine[line].push_back(cell);
  open.insert(openLoopsOf(cell));
}

void CellLink::finish() {
  for (auto &[cell, lines] : linesOfCell)
    sortUnique(lines);
  for (auto &[line, cells] : cellsOfLine)
    sortUnique(cells);
}

void CellLink::merge(const CellLink &other) {
  for (const auto &[cell, lines] : other.linesOfCell)
    for (size_t line : lines)
      add(cell, line);
  finish();
}

std::vector<size_t> CellLink::linesAt(const std::vector<int64_t> &point) const {
  std::vector<size_t> lines;
  for (const std::vector<bool> &pattern : open) {
    if (pattern.size() != point.size())
      continue;
    std::vector<int64_t> cell = point;
    for (size_t d = 0; d < cell.size(); ++d)
      if (pattern[d])
        cell[d] = -1;
    if (auto found = linesOfCell.find(cell); found != linesOfCell.end())
      lines.insert(lines.end(), found->second.begin(), found->second.end());
  }
  sortUnique(lines);
  return lines;
}

} // namespace tilescope::isa
