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
