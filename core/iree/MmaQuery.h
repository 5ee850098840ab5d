// What the loaded IREE itself says about MMA intrinsics and XOR swizzles,
// through its iree_gpu dialect C API: the reference core/layout is tested
// against.
#pragma once

#include "core/util/Result.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::iree {

class CompilerLibrary;

struct QueriedIntrinsic {
  std::string name;
  uint32_t enumValue = 0;
  bool isVirtual = false;
};

struct QueriedFragment {
  std::vector<int64_t> outer, thread, tstrides, element;
};

class MmaQuery {
public:
  static Result<MmaQuery> create(std::shared_ptr<CompilerLibrary> library);
  ~MmaQuery();
  MmaQuery(MmaQuery &&) noexcept;
  MmaQuery &operator=(MmaQuery &&) = delete;

  // Every MMA and virtual MMA intrinsic the library knows (its enum values
  // that print a name).
  std::vector<QueriedIntrinsic> intrinsics() const;
  // ireeGPUGetSingleSubgroupLayout for LHS (0), RHS (1), ACC (2).
  Result<std::array<QueriedFragment, 3>>
  fragments(const QueriedIntrinsic &intrinsic) const;
  // ireeGPUGetXorShuffleBounds for an operand of
  // #iree_gpu.(virtual_)mma_layout<NAME>; none when IREE says no.
  Result<std::optional<std::pair<int64_t, int64_t>>>
  xorShuffleBounds(const QueriedIntrinsic &intrinsic, int32_t operand) const;
  // ireeGPUIsXORShuffleValid.
  Result<bool> isXorShuffleValid(int64_t rowElements, int64_t accessElements,
                                 int64_t totalTileElements) const;

private:
  explicit MmaQuery(std::shared_ptr<CompilerLibrary> library);
  struct Session;
  std::shared_ptr<CompilerLibrary> library;
  std::unique_ptr<Session> session;
};

} // namespace tilescope::iree
