// Which banks a kernel's shared-memory accesses land on, from its PTX or its
// AMDGPU assembly (AmdgpuBanks.cpp): the
// byte address each lane of the first subgroup uses is found by running the
// kernel's integer arithmetic for all its lanes at once, in program order
// (each loop's first pass: the values its prologue gives), and the lanes'
// addresses are put through the same bank model as the swizzle view
// (layout::conflictDegrees). An address that rests on a value loaded from
// memory, or on arithmetic this reader does not run, is said to be
// unresolved, with the line where its value was lost; a base that is the
// same for every lane (a kernel argument) is taken as bank-aligned.
#pragma once

#include "core/isa/AmdgpuText.h"
#include "core/isa/PtxText.h"
#include "core/layout/Swizzle.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::isa {

struct SharedAccess {
  size_t line = 0;      // the instruction's line in the file
  std::string mnemonic; // "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
  bool store = false;
  // Bytes one lane moves in one access: a ldmatrix lane gives the address
  // of one 16-byte row.
  int64_t accessBytes = 0;
  bool resolved = false;
  std::string why; // where not resolved
  // The first subgroup's lanes that take part, each with its byte address
  // in shared memory (its first pass, where the access is in a loop).
  std::vector<layout::LaneAddress> addresses;
  // Uniform parts the reader could not know (a kernel argument), taken as
  // bank-aligned.
  bool uniformBaseAssumed = false;
  layout::PhaseDegrees degrees; // the conflict degree of each phase
};

struct KernelBanks {
  std::string kernel;
  int64_t subgroupSize = 32;
  // The workgroup's shape the lanes were numbered in (.reqntid / .maxntid;
  // x alone where the kernel states none).
  int64_t workgroupX = 0, workgroupY = 1, workgroupZ = 1;
  std::vector<SharedAccess> accesses; // in program order
  // The first subgroup's lanes: all of it, or the workgroup where that is
  // smaller (its shape not stated: the whole subgroup).
  size_t firstSubgroupLanes() const;
  size_t resolvedCount() const;
  // The worst conflict degree over the resolved accesses (1: none).
  int64_t worstDegree() const;
};

// `access` (its bytes set) resolved: the first `lanes` lanes at `base`
// (each lane's address, or its offset beside a base the same in every lane
// where `uniformBase`) plus each of `offsets` (a read2's two, in turn),
// their degrees through `banks`, a pair's phases one after the other.
void resolveAccess(SharedAccess &access, const std::vector<int64_t> &base,
                   bool uniformBase, const std::vector<int64_t> &offsets,
                   size_t lanes, const layout::BankModel &banks);

// What the accesses made from lines `firstLine` to `lastLine` do to the
// banks, in words: "32 shared-memory accesses: 16 without conflicts, 16
// 2-way (ld.shared.b32 x 16); 2 unresolved"; empty where there are none.
std::string describeBanks(const std::vector<SharedAccess> &accesses,
                          size_t firstLine = 0, size_t lastLine = SIZE_MAX);

// Every shared-memory access (ld.shared, st.shared, ldmatrix, stmatrix,
// atom/red.shared, cp.async's shared side) of each kernel of a PTX text.
std::vector<KernelBanks> sharedBanksOfPtx(const std::string &text,
                                          const layout::BankModel &banks);
// The same of a text already read.
std::vector<KernelBanks> sharedBanksOfPtx(const PtxText &ptx,
                                          const layout::BankModel &banks);
// Every LDS access (ds_read*, ds_write*, ds_load*, ds_store* and the LDS
// atomics; a read2 / write2 as its two accesses) of each kernel of AMDGPU
// assembly: the first wave's lanes, v0 their work-item ids (packed where
// the kernel descriptor asks for y or z), the workgroup's shape from the
// metadata's reqd_workgroup_size, the wave's size from its wavefront_size
// and the banks from its .amdgcn_target (`banks` where it names none).
std::vector<KernelBanks> sharedBanksOfAmdgpu(const std::string &text,
                                             const layout::BankModel &banks);
// The same of kernels already read (amdgpuKernelsOf, its `arch`).
std::vector<KernelBanks>
sharedBanksOfAmdgpu(const std::vector<AmdgpuKernelText> &kernels,
                    const std::string &arch, const layout::BankModel &banks);

} // namespace tilescope::isa
