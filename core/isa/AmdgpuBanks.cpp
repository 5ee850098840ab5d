// The LDS banks of AMDGPU assembly's ds_* accesses: the first wave's lanes
// run in lockstep from the kernel's entry (v0 holding each lane's work-item
// ids, packed x | y << 10 | z << 20 where the kernel asks for y or z), the
// vector and scalar integer arithmetic LLVM writes for addresses run here,
// and each ds_ access's addresses (and a read2/write2's two) put through
// the bank model.
#include "core/isa/SharedBanks.h"

#include "core/isa/AmdgpuLanes.h"
#include "core/isa/AmdgpuText.h"
#include "core/isa/LaneValues.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <map>
#include <optional>

namespace tilescope::isa {

namespace {

// A ds_ access: its address operand, the bytes a lane moves, and the
// offsets of its one or two accesses.
struct DsShape {
  std::string address;
  int64_t bytes = 0;
  std::vector<int64_t> offsets;
  bool store = false;
};

std::optional<DsShape> dsShapeOf(const AmdgpuStatement &s) {
  const std::string m = amdgpuBaseOf(s.mnemonic);
  if (!m.starts_with("ds_") || s.operands.empty())
    return std::nullopt;
  // Cross-lane moves through the LDS hardware touch no LDS memory.
  for (const char *lane : {"permute", "swizzle", "bpermute", "addtid", "gws",
                           "append", "consume", "nop", "ordered"})
    if (m.find(lane) != std::string::npos)
      return std::nullopt;
  DsShape shape;
  const bool read = m.starts_with("ds_read") || m.starts_with("ds_load");
  const bool write = m.starts_with("ds_write") || m.starts_with("ds_store");
  shape.store = !read;
  // ds_read vdst, vaddr; ds_write vaddr, vdata; atomics ds_op vaddr, ...;
  // atomics returning (_rtn_) vdst, vaddr, ...
  const bool returns = read || m.find("_rtn") != std::string::npos;
  if (returns && s.operands.size() < 2)
    return std::nullopt;
  shape.address = returns ? s.operands[1] : s.operands[0];
  static const std::vector<std::pair<const char *, int64_t>> kWidths = {
      {"b128", 16}, {"b96", 12}, {"b64", 8}, {"u64", 8}, {"i64", 8}, {"f64", 8},
      {"b32", 4},   {"u32", 4},  {"i32", 4}, {"f32", 4}, {"b16", 2}, {"u16", 2},
      {"i16", 2},   {"f16", 2},  {"b8", 1},  {"u8", 1},  {"i8", 1}};
  for (const auto &[suffix, bytes] : kWidths)
    if (m.find(suffix) != std::string::npos) {
      shape.bytes = bytes;
      break;
    }
  if (shape.bytes == 0)
    return std::nullopt;
  const bool two = m.find("read2") != std::string::npos ||
                   m.find("write2") != std::string::npos ||
                   m.find("load_2") != std::string::npos ||
                   m.find("store_2") != std::string::npos;
  if (two) {
    // Offsets in elements (times 64 for the st64 forms).
    const int64_t unit =
        shape.bytes * (m.find("st64") != std::string::npos ? 64 : 1);
    auto at = [&](const char *name) {
      auto found = s.modifiers.find(name);
      return found == s.modifiers.end() ? 0 : found->second * unit;
    };
    shape.offsets = {at("offset0"), at("offset1")};
  } else {
    auto found = s.modifiers.find("offset");
    shape.offsets = {found == s.modifiers.end() ? 0 : found->second};
  }
  (void)write;
  return shape;
}

} // namespace

std::vector<KernelBanks> sharedBanksOfAmdgpu(const std::string &text,
                                             const layout::BankModel &given) {
  std::string arch;
  const std::vector<AmdgpuKernelText> kernels = amdgpuKernelsOf(text, arch);
  return sharedBanksOfAmdgpu(kernels, arch, given);
}

std::vector<KernelBanks>
sharedBanksOfAmdgpu(const std::vector<AmdgpuKernelText> &kernels,
                    const std::string &arch, const layout::BankModel &given) {
  std::vector<KernelBanks> result;
  for (const AmdgpuKernelText &k : kernels) {
    layout::BankModel banks =
        arch.empty() ? given : layout::BankModel::forArch(arch);
    if (k.waveSize > 0)
      banks.subgroupSize = k.waveSize;
    KernelBanks kernel;
    kernel.kernel = k.name;
    kernel.subgroupSize = banks.subgroupSize;
    kernel.workgroupX = k.x;
    kernel.workgroupY = k.y;
    kernel.workgroupZ = k.z;
    const size_t lanes = kernel.firstSubgroupLanes();
    AmdgpuLanes machine({lanes,
                         k.x > 0 ? k.x : banks.subgroupSize,
                         k.y,
                         k.workItemIds > 0,
                         {}});
    for (const AmdgpuStatement &statement : k.statements) {
      const size_t line = statement.line;
      if (auto shape = dsShapeOf(statement)) {
        SharedAccess access;
        access.line = line;
        access.mnemonic = statement.mnemonic;
        access.store = shape->store;
        access.accessBytes = shape->bytes;
        const Lanes base = machine.read(shape->address, line);
        if (base.isLost()) {
          access.why = "its address rests on line " +
                       std::to_string(base.lostAt) + ": " + base.lostWhy;
        } else {
          // A read2 / write2 is two accesses, its phases one after the
          // other.
          resolveAccess(access, base.value, base.kind == Lanes::Kind::Uniform,
                        shape->offsets, lanes, banks);
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
