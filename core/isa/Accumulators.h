// Where a kernel's MMA results go: which register of which MMA each element
// a global store writes comes from, and where, for each thread of the
// first workgroup. The link from a layout's accumulator cell to the
// instructions that compute and store it, and back.
//
// Two passes over each kernel's statements. The first follows values, not
// numbers: each MMA's destination registers hold its elements (in the
// fragment's register order), moves, conversions and packs carry them,
// elementwise arithmetic of one element carries it as derived, anything
// else forgets; each loop's body is run twice so that an MMA sees the
// step before it through the loop's back edge. The second runs the
// workgroup's threads' integer arithmetic in lockstep (PtxLanes,
// AmdgpuLanes) with the workgroup's ids 0, giving each store's byte
// offset from the output's base per thread. A store whose address rests
// on a loaded value, or whose data no MMA computed, is said so.
#pragma once

#include "core/config/configs/IterationSpace.h"
#include "core/isa/AmdgpuText.h"
#include "core/isa/CellLink.h"
#include "core/isa/PtxText.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilescope::isa {

// One element one thread stores.
struct StoredElement {
  int64_t thread = 0;   // the linear thread id in the workgroup
  int64_t offset = 0;   // bytes from the output's base (the first workgroup)
  size_t mma = 0;       // the line of the MMA that last wrote it
  int64_t element = 0;  // its index among that MMA's destination elements of
                        // the lane: the fragment's register
  bool derived = false; // computed from it (elementwise), not converted only
};

struct AccumulatorStore {
  size_t line = 0;
  std::string mnemonic;
  int64_t elementBytes = 0;
  bool resolved = false;
  std::string why;                     // where not resolved
  std::vector<StoredElement> elements; // thread-major, in register order
};

struct MmaStep {
  size_t line = 0;
  std::string mnemonic;
  std::vector<std::string> destination; // its result's registers, in order
  // The MMAs whose results its accumulator operand reads: the one before it
  // in the reduction, or the loop's last, a pass earlier.
  std::vector<size_t> accumulatesFrom;
};

struct KernelAccumulators {
  std::string kernel;
  int64_t threads = 0, subgroupSize = 0;
  std::vector<MmaStep> mmas;            // in program order
  std::vector<AccumulatorStore> stores; // the global stores of MMA results
  // The MMA at `line`, if one is there.
  const MmaStep *mmaAt(size_t line) const;
  size_t resolvedStores() const;
};

std::vector<KernelAccumulators> accumulatorsOfPtx(const PtxText &ptx,
                                                  int64_t subgroupSize = 32);
std::vector<KernelAccumulators>
accumulatorsOfAmdgpu(const std::vector<AmdgpuKernelText> &kernels);

// What the kernel stores of its MMAs' results, in words: "4096 elements
// of 16 MMAs' results stored by 16 global stores (st.global.v2.b32 x 16)
// for 128 threads"; where stores are unresolved, how many; empty where no
// store carries an MMA's result.
std::string describe(const KernelAccumulators &kernel);

// A stored element's place in the output: its coordinates in the output's
// dimensions, who stored it from which MMA, and the store's line.
struct AccumulatorCell {
  std::vector<int64_t> coordinates;
  StoredElement element;
  size_t store = 0;
};
// Every resolved store's elements placed in a row-major output of `shape`
// (the first workgroup's: its tile starts at the origin); an element
// outside the shape is left out.
std::vector<AccumulatorCell> cellsOf(const KernelAccumulators &kernel,
                                     const std::vector<int64_t> &shape);
// The MMAs one reduction runs into the result of the MMA at `line`: it and
// those it accumulates from, transitively, in program order.
std::vector<size_t> chainOf(const KernelAccumulators &kernel, size_t line);

// The accumulator cells of a layout picture linked to the kernel's lines:
// a cell's store and its MMA with those that accumulate into it. Its output
// is the op's first output operand, laid out row-major in its own
// dimension order (each dimension the bound of its loop); the loops it does
// not index (the reduction's) are left open (-1).
CellLink linkCells(const KernelAccumulators &kernel,
                   const config::IterationSpace &space);

// A byte offset as coordinates of a row-major `shape` of `elementBytes`
// elements; empty where it falls outside.
std::vector<int64_t> coordinatesOf(int64_t offset, int64_t elementBytes,
                                   const std::vector<int64_t> &shape);

} // namespace tilescope::isa
