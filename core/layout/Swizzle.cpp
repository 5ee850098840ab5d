#include "core/layout/Swizzle.h"

#include "core/config/configs/TranslationInfo.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace tilescope::layout {

namespace {

// No GPU's workgroup memory holds a row this long (the largest has a few
// hundred KiB); past it an offset's arithmetic could overflow.
constexpr int64_t kMaximumRowElements = int64_t{1} << 24;

std::optional<Error> pastSharedMemory(const char *swizzle, const char *field,
                                      int64_t value) {
  if (value <= kMaximumRowElements)
    return std::nullopt;
  return Error{std::string(swizzle) + " " + field + " " +
               std::to_string(value) +
               " is past any GPU's shared memory (at "
               "most " +
               std::to_string(kMaximumRowElements) + " elements a row)"};
}

} // namespace

Result<Swizzle> Swizzle::xorShuffle(const config::XorShuffleAttr &attr) {
  for (const auto &[field, value] :
       {std::pair<const char *, int64_t>{"row_width", attr.rowWidth},
        {"access_width", attr.accessWidth},
        {"row_stride", attr.effectiveRowStride()},
        {"per_phase", attr.effectivePerPhase()}})
    if (auto past = pastSharedMemory("xor_shuffle", field, value))
      return *past;
  if (attr.rowWidth <= 0 || attr.accessWidth <= 0 ||
      attr.rowWidth % attr.accessWidth != 0)
    return Error{"xor_shuffle row_width " + std::to_string(attr.rowWidth) +
                 " must be a positive multiple of access_width " +
                 std::to_string(attr.accessWidth)};
  if (attr.effectivePerPhase() <= 0)
    return Error{"xor_shuffle per_phase must be positive"};
  if (attr.effectiveRowStride() < attr.rowWidth)
    return Error{"xor_shuffle row_stride " +
                 std::to_string(attr.effectiveRowStride()) +
                 " is shorter than row_width " + std::to_string(attr.rowWidth)};
  Swizzle s;
  s.kind = Kind::Xor;
  s.width = attr.rowWidth;
  s.access = attr.accessWidth;
  s.stride = attr.effectiveRowStride();
  s.perPhase = attr.effectivePerPhase();
  return s;
}

Result<Swizzle> Swizzle::rotateRows(const config::RotateRowsAttr &attr) {
  for (const auto &[field, value] :
       {std::pair<const char *, int64_t>{"row_width", attr.rowWidth},
        {"access_width", attr.accessWidth}})
    if (auto past = pastSharedMemory("rotate_rows", field, value))
      return *past;
  if (attr.rowWidth <= 0 || attr.accessWidth <= 0 ||
      attr.rowWidth % attr.accessWidth != 0)
    return Error{"rotate_rows row_width " + std::to_string(attr.rowWidth) +
                 " must be a positive multiple of access_width " +
                 std::to_string(attr.accessWidth)};
  Swizzle s;
  s.kind = Kind::Rotate;
  s.width = attr.rowWidth;
  s.access = attr.accessWidth;
  s.stride = attr.rowWidth;
  return s;
}

Result<Swizzle> Swizzle::parse(std::string_view text) {
  auto attribute = config::parseResolvedAttribute(text);
  if (!attribute)
    return Error{attribute.error()};
  if (auto shuffle = config::XorShuffleAttr::fromAttribute(*attribute))
    return Swizzle::xorShuffle(*shuffle);
  if (auto rotate = config::RotateRowsAttr::fromAttribute(*attribute))
    return Swizzle::rotateRows(*rotate);
  return Error{"expected #iree_codegen.xor_shuffle<...> or "
               "#iree_codegen.rotate_rows<...>"};
}

BankComparison compareBanks(const Swizzle &swizzle,
                            const std::vector<LaneAccess> &accesses,
                            int64_t elementBytes, const BankModel &banks) {
  const Swizzle packed =
      Swizzle::identity(swizzle.rowWidth(), swizzle.accessWidth());
  return {analyzeBanks(accesses, swizzle.accessWidth(), elementBytes, packed,
                       banks),
          analyzeBanks(accesses, swizzle.accessWidth(), elementBytes, swizzle,
                       banks)};
}

Swizzle Swizzle::identity(int64_t rowWidth, int64_t accessWidth,
                          int64_t rowStride) {
  Swizzle s;
  s.width = std::max<int64_t>(rowWidth, 1);
  s.access = std::max<int64_t>(accessWidth, 1);
  s.stride = std::max(rowStride, s.width);
  return s;
}

std::string Swizzle::describe() const {
  switch (kind) {
  case Kind::Identity:
    return stride == width ? "no swizzle"
                           : "no swizzle, rows padded to " +
                                 std::to_string(stride) + " elements";
  case Kind::Xor:
    return "#iree_codegen.xor_shuffle<" + std::to_string(width) + ", " +
           std::to_string(access) + ", " + std::to_string(stride) + ", " +
           std::to_string(perPhase) + ">";
  case Kind::Rotate:
    return "#iree_codegen.rotate_rows<" + std::to_string(width) + ", " +
           std::to_string(access) + ">";
  }
  return "";
}

int64_t Swizzle::physicalColumn(int64_t row, int64_t column) const {
  const int64_t n = accessesPerRow();
  switch (kind) {
  case Kind::Identity:
    return column;
  case Kind::Xor:
    return ((row / perPhase) % n) ^ column;
  case Kind::Rotate:
    return (row + column) % n;
  }
  return column;
}

int64_t Swizzle::logicalColumn(int64_t row, int64_t physical) const {
  const int64_t n = accessesPerRow();
  switch (kind) {
  case Kind::Identity:
    return physical;
  case Kind::Xor:
    return ((row / perPhase) % n) ^ physical; // XOR is its own inverse
  case Kind::Rotate:
    return ((physical - row) % n + n) % n;
  }
  return physical;
}

int64_t Swizzle::physicalOffset(int64_t row, int64_t element) const {
  const int64_t column = element / access;
  const int64_t within = element % access;
  return row * stride + physicalColumn(row, column) * access + within;
}

bool isXorShuffleValid(int64_t rowElements, int64_t accessElements,
                       int64_t totalTileElements) {
  return rowElements > 0 && accessElements > 0 && totalTileElements > 0 &&
         rowElements % accessElements == 0 &&
         totalTileElements % rowElements == 0;
}

BankModel BankModel::forTarget(const config::GpuTarget &target) {
  BankModel model = forArch(target.arch);
  if (target.workgroupMemoryBankCount)
    model.bankCount = *target.workgroupMemoryBankCount;
  if (!target.subgroupSizeChoices.empty())
    model.subgroupSize = target.subgroupSizeChoices.front();
  return model;
}

BankModel BankModel::forArch(const std::string &arch) {
  // AMD LDS and NVIDIA shared memory: 32 banks of 4 bytes. A wave64 is
  // served in phases of at most 32 lanes; a warp in one.
  BankModel model;
  model.bankCount = 32;
  model.bankWidthBytes = 4;
  model.subgroupSize = arch.rfind("sm_", 0) == 0 ||
                               arch.rfind("gfx11", 0) == 0 ||
                               arch.rfind("gfx12", 0) == 0
                           ? 32
                           : 64;
  model.lanesPerPhase = 32;
  return model;
}

namespace {

int64_t lanesPerPhaseOf(int64_t accessBytes, const BankModel &banks) {
  return std::clamp<int64_t>(
      banks.bankCount * banks.bankWidthBytes /
          std::max<int64_t>(accessBytes, 1),
      1,
      std::max<int64_t>(1, std::min(banks.lanesPerPhase, banks.subgroupSize)));
}

} // namespace

PhaseDegrees conflictDegrees(const std::vector<LaneAddress> &accesses,
                             int64_t accessBytes, const BankModel &banks) {
  PhaseDegrees degrees;
  accessBytes = std::max<int64_t>(accessBytes, 1);
  degrees.lanesPerPhase = lanesPerPhaseOf(accessBytes, banks);
  std::map<int64_t, std::map<int64_t, std::set<int64_t>>> wordsPerBankPerPhase;
  for (const LaneAddress &a : accesses) {
    const int64_t firstWord = a.address / banks.bankWidthBytes;
    const int64_t lastWord =
        (a.address + accessBytes - 1) / banks.bankWidthBytes;
    const int64_t phase = a.lane / degrees.lanesPerPhase;
    for (int64_t word = firstWord; word <= lastWord; ++word)
      wordsPerBankPerPhase[phase][word % banks.bankCount].insert(word);
  }
  for (const auto &[phase, perBank] : wordsPerBankPerPhase) {
    (void)phase;
    int64_t degree = 0;
    for (const auto &[bank, words] : perBank) {
      (void)bank;
      degree = std::max<int64_t>(degree, static_cast<int64_t>(words.size()));
    }
    degrees.perPhase.push_back(degree);
    degrees.worst = std::max(degrees.worst, degree);
  }
  return degrees;
}

BankReport analyzeBanks(const std::vector<LaneAccess> &accesses,
                        int64_t accessElements, int64_t elementBytes,
                        const Swizzle &swizzle, const BankModel &banks) {
  BankReport report;
  const int64_t accessBytes =
      std::max<int64_t>(accessElements * elementBytes, 1);
  std::vector<LaneAddress> addresses;
  for (const LaneAccess &a : accesses) {
    const int64_t physical = swizzle.physicalOffset(a.row, a.column);
    const int64_t firstByte = physical * elementBytes;
    const int64_t firstWord = firstByte / banks.bankWidthBytes;
    const int64_t lastWord =
        (firstByte + accessBytes - 1) / banks.bankWidthBytes;
    addresses.push_back({a.lane, firstByte});
    report.accesses.push_back(
        {a.lane, a.row, a.column, physical - a.row * swizzle.rowStride(),
         firstWord % banks.bankCount, lastWord - firstWord + 1});
  }
  const PhaseDegrees degrees = conflictDegrees(addresses, accessBytes, banks);
  report.conflictDegreePerPhase = degrees.perPhase;
  report.worstConflictDegree = degrees.worst;
  return report;
}

std::vector<LaneAccess> rowMajorAccesses(int64_t lanes, int64_t rowWidth,
                                         int64_t accessElements) {
  std::vector<LaneAccess> accesses;
  const int64_t perRow =
      std::max<int64_t>(rowWidth / std::max<int64_t>(accessElements, 1), 1);
  for (int64_t lane = 0; lane < lanes; ++lane)
    accesses.push_back({lane, lane / perRow, (lane % perRow) * accessElements});
  return accesses;
}

std::vector<LaneAccess> columnMajorAccesses(int64_t lanes, int64_t rows,
                                            int64_t accessElements) {
  std::vector<LaneAccess> accesses;
  rows = std::max<int64_t>(rows, 1);
  for (int64_t lane = 0; lane < lanes; ++lane)
    accesses.push_back({lane, lane % rows, (lane / rows) * accessElements});
  return accesses;
}

std::vector<LaneAccess> fragmentAccesses(const FragmentLayout &fragment,
                                         int64_t subgroupSize) {
  std::vector<LaneAccess> accesses;
  if (fragment.outer.size() != 2)
    return accesses;
  for (int64_t lane = 0; lane < subgroupSize; ++lane) {
    const auto held = fragment.elementsOf(lane);
    if (!held.empty())
      accesses.push_back({lane, held.front()[0], held.front()[1]});
  }
  return accesses;
}

} // namespace tilescope::layout
