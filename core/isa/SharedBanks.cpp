#include "core/isa/SharedBanks.h"

#include "core/isa/Assembly.h"
#include "core/isa/LaneValues.h"
#include "core/isa/PtxText.h"

#include "core/util/Numbers.h"
#include "core/util/Text.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

namespace tilescope::isa {

namespace {

// The shared-memory access a statement makes: its address operand and the
// bytes a lane moves; none for other statements.
struct AccessShape {
  std::string address;
  int64_t bytes = 0;
  int64_t lanes = 0; // 0: every lane of the subgroup
  bool store = false;
};
std::optional<AccessShape> accessOf(const PtxStatement &s) {
  const std::vector<std::string> parts = ptxPartsOf(s.mnemonic);
  if (parts.empty() || s.operands.empty())
    return std::nullopt;
  const std::string &op = parts.front();
  const bool shared =
      std::find(parts.begin(), parts.end(), "shared") != parts.end() ||
      std::find(parts.begin(), parts.end(), "shared::cta") != parts.end();
  if (!shared)
    return std::nullopt;
  AccessShape shape;
  if (op == "ldmatrix" || op == "stmatrix") {
    // Each lane of the first 8 x N gives one 16-byte row's address.
    int64_t matrices = 1;
    for (const std::string &p : parts)
      if (p == "x2")
        matrices = 2;
      else if (p == "x4")
        matrices = 4;
    shape.bytes = 16;
    shape.lanes = 8 * matrices;
    shape.store = op == "stmatrix";
    shape.address = op == "ldmatrix" ? s.operands.back() : s.operands.front();
    return shape;
  }
  if (op == "cp") { // cp.async: shared <- global
    const auto bytes = asyncCopyBytesOf(s);
    if (!bytes)
      return std::nullopt;
    shape.bytes = *bytes;
    shape.store = true;
    shape.address = s.operands[0];
    return shape;
  }
  if (op != "ld" && op != "st" && op != "atom" && op != "red")
    return std::nullopt;
  const int bits = widthOfPtx(s.mnemonic);
  if (bits <= 0)
    return std::nullopt;
  shape.bytes = bits / 8;
  shape.store = op != "ld";
  const bool returns = op == "ld" || op == "atom"; // the address second
  if (returns && s.operands.size() < 2)
    return std::nullopt;
  shape.address = returns ? s.operands[1] : s.operands[0];
  return shape;
}

} // namespace

void resolveAccess(SharedAccess &access, const std::vector<int64_t> &base,
                   bool uniformBase, const std::vector<int64_t> &offsets,
                   size_t lanes, const layout::BankModel &banks) {
  access.resolved = true;
  access.uniformBaseAssumed = uniformBase;
  access.addresses.clear();
  access.degrees = {};
  lanes = std::min(lanes, base.size());
  // No shared memory is 4 GiB: an address past that (a hostile file's
  // immediates) is said, not modelled.
  constexpr int64_t kPastAnySharedMemory = int64_t{1} << 32;
  for (int64_t offset : offsets) {
    std::vector<layout::LaneAddress> addresses;
    for (size_t l = 0; l < lanes; ++l) {
      int64_t address = 0;
      if (__builtin_add_overflow(base[l], offset, &address) ||
          address <= -kPastAnySharedMemory || address >= kPastAnySharedMemory) {
        access.resolved = false;
        access.addresses.clear();
        access.degrees = {};
        access.why = "lane " + std::to_string(l) +
                     "'s address lies past any shared memory";
        return;
      }
      addresses.push_back({static_cast<int64_t>(l), address});
    }
    const layout::PhaseDegrees degrees =
        layout::conflictDegrees(addresses, access.accessBytes, banks);
    access.degrees.lanesPerPhase = degrees.lanesPerPhase;
    access.degrees.perPhase.insert(access.degrees.perPhase.end(),
                                   degrees.perPhase.begin(),
                                   degrees.perPhase.end());
    access.degrees.worst = std::max(access.degrees.worst, degrees.worst);
    access.addresses.insert(access.addresses.end(), addresses.begin(),
                            addresses.end());
  }
}

std::string describeBanks(const std::vector<SharedAccess> &accesses,
                          size_t firstLine, size_t lastLine) {
  size_t total = 0, unresolved = 0;
  // degree -> mnemonic -> count
  std::map<int64_t, std::map<std::string, size_t>> byDegree;
  for (const SharedAccess &a : accesses) {
    if (a.line < firstLine || a.line > lastLine)
      continue;
    ++total;
    if (!a.resolved)
      ++unresolved;
    else
      ++byDegree[a.degrees.worst][a.mnemonic];
  }
  if (total == 0)
    return "";
  std::string text = std::to_string(total) + " shared-memory access" +
                     (total == 1 ? "" : "es") + ":";
  bool first = true;
  for (const auto &[degree, mnemonics] : byDegree) {
    size_t n = 0;
    std::string which;
    for (const auto &[mnemonic, count] : mnemonics) {
      n += count;
      which += (which.empty() ? "" : ", ") + mnemonic + " x " +
               std::to_string(count);
    }
    text += std::string(first ? " " : ", ") + std::to_string(n) + " " +
            (degree <= 1 ? std::string("without conflicts")
                         : std::to_string(degree) + "-way (" + which + ")");
    first = false;
  }
  if (unresolved > 0)
    text += std::string(first ? " " : "; ") + std::to_string(unresolved) +
            " unresolved";
  return text;
}

size_t KernelBanks::firstSubgroupLanes() const {
  const int64_t threads =
      workgroupX > 0 ? workgroupX * workgroupY * workgroupZ : subgroupSize;
  return static_cast<size_t>(
      std::clamp<int64_t>(threads, 1, std::max<int64_t>(subgroupSize, 1)));
}

size_t KernelBanks::resolvedCount() const {
  return static_cast<size_t>(
      std::count_if(accesses.begin(), accesses.end(),
                    [](const SharedAccess &a) { return a.resolved; }));
}

int64_t KernelBanks::worstDegree() const {
  int64_t worst = 1;
  for (const SharedAccess &a : accesses)
    if (a.resolved)
      worst = std::max(worst, a.degrees.worst);
  return worst;
}

std::vector<KernelBanks> sharedBanksOfPtx(const std::string &text,
                                          const layout::BankModel &banks) {
  return sharedBanksOfPtx(ptxTextOf(text), banks);
}

std::vector<KernelBanks> sharedBanksOfPtx(const PtxText &ptx,
                                          const layout::BankModel &banks) {
  std::vector<KernelBanks> result;
  for (const PtxEntryText &e : ptx.entries) {
    KernelBanks kernel;
    kernel.kernel = e.name;
    kernel.subgroupSize = banks.subgroupSize;
    kernel.workgroupX = e.x;
    kernel.workgroupY = e.y;
    kernel.workgroupZ = e.z;
    const size_t lanes = kernel.firstSubgroupLanes();
    PtxLanes machine({lanes, e.x > 0 ? e.x : banks.subgroupSize, e.y,
                      banks.subgroupSize, false},
                     ptx.sharedOffsets);
    for (const PtxStatement &statement : e.statements) {
      const size_t line = statement.line;
      if (auto shape = accessOf(statement)) {
        SharedAccess access;
        access.line = line;
        access.mnemonic = statement.mnemonic;
        access.store = shape->store;
        access.accessBytes = shape->bytes;
        auto address = ptxAddressOf(shape->address);
        if (!address) {
          access.why = "its address '" + shape->address + "' is not read here";
        } else {
          const Lanes base = machine.read(address->first, line);
          if (base.isLost()) {
            access.why = "its address rests on line " +
                         std::to_string(base.lostAt) + ": " + base.lostWhy;
          } else {
            resolveAccess(
                access, base.value, base.kind == Lanes::Kind::Uniform,
                {address->second},
                shape->lanes > 0
                    ? std::min(lanes, static_cast<size_t>(shape->lanes))
                    : lanes,
                banks);
          }
        }
        kernel.accesses.push_back(std::move(access));
      }
      machine.run(statement);
    }
    result.push_back(std::move(kernel));
  }
  return result;
}

} // namespace tilescope::isa
