// A layout picture's cells linked to a kernel's lines, both ways. A cell
// is a point of the first workgroup's tile given per loop of the op (as the
// subgroup picture draws it), -1 for a loop it does not fix: an LHS
// element (m, k) of a matmul is every point (m, *, k).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace tilescope::isa {

// Whether `point` (every loop given) is one of `cell`'s points.
bool cellHolds(const std::vector<int64_t> &cell,
               const std::vector<int64_t> &point);

struct CellLink {
  // A cell -> the lines that move or compute it, in line order.
  std::map<std::vector<int64_t>, std::vector<size_t>> linesOfCell;
  // A line -> the cells it moves or writes.
  std::map<size_t, std::vector<std::vector<int64_t>>> cellsOfLine;

  bool empty() const { return linesOfCell.empty(); }
  void add(const std::vector<int64_t> &cell, size_t line);
  // Sorts each list and drops repeats: after the last add.
  void finish();
  // Another link's cells and lines added to these.
  void merge(const CellLink &other);
  // The lines of every cell that holds `point`, in line order: a point of
  // every loop, or an operand element with the loops it leaves open (-1),
  // whose cells are then that operand's.
  std::vector<size_t> linesAt(const std::vector<int64_t> &point) const;

private:
  // Which loops the cells leave open, one entry per pattern seen.
  std::set<std::vector<bool>> open;
};

} // namespace tilescope::isa
