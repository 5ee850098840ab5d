// Shared-memory swizzles and the banks their accesses land in.
//
// #iree_codegen.xor_shuffle<row_width, access_width, row_stride, per_phase>:
// rows of row_width elements are cut into N = row_width / access_width
// accesses; access (i, j) moves to column (j XOR ((i / per_phase) % N)).
// #iree_codegen.rotate_rows<row_width, access_width>: (i, j) -> (i, (i + j) %
// N). Positions are element offsets; row i starts at i * row_stride.
#pragma once

#include "core/config/configs/GpuTarget.h"
#include "core/config/configs/LayoutAttributes.h"
#include "core/layout/MmaLayouts.h"
#include "core/util/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::layout {

class Swizzle {
public:
  static Result<Swizzle> xorShuffle(const config::XorShuffleAttr &attr);
  static Result<Swizzle> rotateRows(const config::RotateRowsAttr &attr);
  // No swizzle; rows `rowStride` elements apart (0 or less than rowWidth:
  // packed), as IREE's GPUReduceBankConflicts pads shared-memory rows.
  static Swizzle identity(int64_t rowWidth, int64_t accessWidth,
                          int64_t rowStride = 0);
  // An #iree_codegen.xor_shuffle<...> or #iree_codegen.rotate_rows<...>
  // as written (an alias resolved); an Error says what it is not.
  static Result<Swizzle> parse(std::string_view text);

  int64_t rowWidth() const { return width; }
  int64_t accessWidth() const { return access; }
  int64_t rowStride() const { return stride; }
  int64_t accessesPerRow() const { return width / access; }
  std::string describe() const;

  // Logical (row, access column) -> physical access column, and back.
  int64_t physicalColumn(int64_t row, int64_t column) const;
  int64_t logicalColumn(int64_t row, int64_t physical) const;
  // Element offsets: logical offset of element (row, element) -> physical.
  int64_t physicalOffset(int64_t row, int64_t element) const;

private:
  enum class Kind { Identity, Xor, Rotate } kind = Kind::Identity;
  int64_t width = 0, access = 1, stride = 0, perPhase = 1;
};

// IREE's validity rule for an XOR shuffle over a tile (the one
// ireeGPUIsXORShuffleValid applies): whole accesses per row, whole rows per
// tile, and a non-empty tile.
bool isXorShuffleValid(int64_t rowElements, int64_t accessElements,
                       int64_t totalTileElements);

// How a target's shared memory (LDS) is banked.
struct BankModel {
  int64_t bankCount = 32;
  int64_t bankWidthBytes = 4;
  int64_t lanesPerPhase = 32; // lanes whose accesses are served together
  int64_t subgroupSize = 64;
  static BankModel forTarget(const config::GpuTarget &target);
  static BankModel forArch(const std::string &arch);
};

// One lane's access: a row and an element column, `width` elements wide.
struct LaneAccess {
  int64_t lane = 0;
  int64_t row = 0;
  int64_t column = 0; // in elements
};

struct BankReport {
  struct Access {
    int64_t lane, row, column;
    int64_t physicalColumn; // in elements, after the swizzle
    int64_t firstBank, bankCount;
  };
  std::vector<Access> accesses;
  std::vector<int64_t>
      conflictDegreePerPhase; // max lanes on one bank, per phase
  int64_t worstConflictDegree = 0;
};

// Lane `lane` moving `accessBytes` bytes from byte `address` of shared
// memory.
struct LaneAddress {
  int64_t lane = 0;
  int64_t address = 0;
};
// How many passes the banks take to serve lanes' accesses of `accessBytes`
// each: the lanes are served in phases of as many as the banks serve at
// once (bank count x bank width / access bytes, at most the model's phase
// and subgroup), and a phase takes as many passes as the most distinct
// words any one bank holds for it (lanes reading one word share it).
struct PhaseDegrees {
  int64_t lanesPerPhase = 1;
  std::vector<int64_t> perPhase; // in phase order
  int64_t worst = 0;
};
PhaseDegrees conflictDegrees(const std::vector<LaneAddress> &accesses,
                             int64_t accessBytes, const BankModel &banks);

// Banks of every access of `accesses`, each reading `accessElements`
// elements of `elementBytes`, through `swizzle`.
BankReport analyzeBanks(const std::vector<LaneAccess> &accesses,
                        int64_t accessElements, int64_t elementBytes,
                        const Swizzle &swizzle, const BankModel &banks);

// The same accesses with the rows packed and unswizzled ("before") and
// through `swizzle` ("after"): what `explain --swizzle`, the bank view and
// the Python package's Swizzle.banks report.
struct BankComparison {
  BankReport before, after;
};
BankComparison compareBanks(const Swizzle &swizzle,
                            const std::vector<LaneAccess> &accesses,
                            int64_t elementBytes, const BankModel &banks);

// The accesses a row-major tile read implies: lane l reads row l / perRow,
// access column l % perRow (a plain row-major copy), for `lanes` lanes.
std::vector<LaneAccess> rowMajorAccesses(int64_t lanes, int64_t rowWidth,
                                         int64_t accessElements);
// The accesses an MMA operand read implies: each lane reads its fragment's
// contiguous elements (see MmaLayouts), rows being the operand's outer dim.
std::vector<LaneAccess> columnMajorAccesses(int64_t lanes, int64_t rows,
                                            int64_t accessElements);
// The reads an MMA operand fragment implies, the operand tile stored
// row-major: each lane reads its first contiguous run of elements (its first
// outer tile), at the row and column of the run's first element.
std::vector<LaneAccess> fragmentAccesses(const FragmentLayout &fragment,
                                         int64_t subgroupSize);

} // namespace tilescope::layout
