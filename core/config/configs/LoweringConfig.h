// #iree_gpu.lowering_config<{...}>: the tiling and distribution IREE's GPU
// pipelines read, as typed data over the attribute's dictionary.
//
// The dictionary stays the source of truth, so what Tilescope does not model
// (or does not know) survives a read, an edit and a write unchanged.
#pragma once

#include "core/config/syntax/Attribute.h"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::config {

// The tiling levels IREE's GPU lowering config carries (TilingLevel).
enum class TilingLevel {
  Workgroup,
  Reduction,
  PartialReduction,
  Serial,
  Thread,
  Subgroup,
  Lane,
};
inline constexpr TilingLevel kAllTilingLevels[] = {
    TilingLevel::Workgroup,
    TilingLevel::Reduction,
    TilingLevel::PartialReduction,
    TilingLevel::Serial,
    TilingLevel::Thread,
    TilingLevel::Subgroup,
    TilingLevel::Lane};
const char *keyOf(TilingLevel level); // "workgroup", "partial_reduction", ...

// `[[counts...], [mapping...]]`: iteration dimension i takes basis digit
// mapping[i] (IREE's LLVMGPUConfigureTensorLayouts).
struct Basis {
  std::vector<int64_t> counts;
  std::vector<int64_t> mapping;
  int64_t product() const; // how many threads / subgroups the basis names
  Attribute toAttribute() const;
};

// #iree_gpu.mma_layout<X[, col_major = true]> and its virtual, scaled and
// data-tiled relatives.
struct MmaKind {
  std::string attributeName; // "mma_layout", "virtual_mma_layout", ...
  std::string intrinsic;     // "MFMA_F32_16x16x16_F16"
  bool colMajor = false;
  // #iree_gpu.scaled_mma_layout names its element types ("f4E2M1FN",
  // "f32"); the intrinsic's name does not.
  std::string lhsElementType = {}, rhsElementType = {}, accElementType = {};
  bool isVirtual() const { return attributeName == "virtual_mma_layout"; }
  bool isScaled() const { return attributeName == "scaled_mma_layout"; }
};

// #iree_gpu.expand_dims<[[0], [1], [2, 3]], output_shape = [?, ?, ?, 8]>
// (IREE 3.11 only). A dynamic output size is std::nullopt.
struct ExpandDims {
  std::vector<std::vector<int64_t>> reassociation;
  std::vector<std::optional<int64_t>> outputShape;
  Attribute toAttribute() const;
};

// A problem reading a key: wrong value shape, a legacy name, an unknown key.
struct ReadNote {
  enum class Kind { UnknownKey, LegacyKey, BadValue };
  Kind kind;
  std::string key;
  std::string message;
};

class LoweringConfig {
public:
  // From `#iree_gpu.lowering_config<{...}>` (or a bare `{...}` dictionary),
  // or `#iree_gpu.derived_thread_config` (no fields: IREE derives the op's
  // thread tiles from its loops, see isDerivedThreadConfig).
  static Result<LoweringConfig> fromAttribute(const Attribute &attribute);
  // From text; `#alias = ...` definitions before it are honoured.
  static Result<LoweringConfig> parse(std::string_view text);

  // --- reading --------------------------------------------------------------
  std::optional<std::vector<int64_t>> tileSizes(TilingLevel level) const;
  // lane_basis (thread_basis before IREE 3.7) and subgroup_basis.
  std::optional<Basis> laneBasis() const;
  std::optional<Basis> subgroupBasis() const;
  std::optional<MmaKind> mmaKind() const;
  std::optional<std::vector<int64_t>> promoteOperands() const;
  const Attribute *promotionTypes() const;
  std::optional<std::vector<int64_t>> padding() const;
  std::optional<std::vector<int64_t>> paddingConv() const;
  const Attribute *workgroupReorderingStrategy() const;
  std::optional<std::string> loweringStrategy() const;
  bool convertAccGemm() const;
  std::optional<ExpandDims> expandDims() const;
  std::optional<int64_t> subgroupMCount() const; // IREE <= 3.7
  std::optional<int64_t> subgroupNCount() const; // IREE <= 3.7
  // Keys in the dictionary, as written.
  std::vector<std::string> keys() const;
  // Unknown keys (kept verbatim), legacy names and malformed values.
  std::vector<ReadNote> notes() const;

  // --- editing --------------------------------------------------------------
  void setTileSizes(TilingLevel level, const std::vector<int64_t> &sizes);
  void setLaneBasis(const Basis &basis);
  void setSubgroupBasis(const Basis &basis);
  void setMmaKind(const MmaKind &kind);
  void setPromoteOperands(const std::vector<int64_t> &operands);
  void setExpandDims(const ExpandDims &expandDims);
  // Sets any key to any attribute (a unit attribute for flags).
  void set(const std::string &key, Attribute value);
  void erase(const std::string &key);
  bool has(const std::string &key) const;
  const Attribute *get(const std::string &key) const;

  // #iree_gpu.derived_thread_config, which IREE gives copies, gathers and
  // other ops its passes create or promote: thread tiles of 128-bit vectors
  // of the result along the innermost loop (IREE's deriveThreadTileSizes).
  bool isDerivedThreadConfig() const { return derivedThreadConfig; }

  // --- writing --------------------------------------------------------------
  Attribute toAttribute() const;
  std::string print() const; // exactly as IREE prints it

  const Attribute &dictionary() const { return entries; }

private:
  Attribute entries = Attribute::dictionary({});
  bool derivedThreadConfig = false;
};

// Whether an op's lowering_config text is one LoweringConfig reads: an
// #iree_gpu.lowering_config or #iree_gpu.derived_thread_config (not a CPU
// config or another dialect's).
bool isGpuLoweringConfigText(std::string_view text);
// An #iree_cpu.lowering_config (IREE's CPU pipelines': cache, distribution
// and vector tiles).
bool isCpuLoweringConfigText(std::string_view text);
// Whether a lowering config (GPU or CPU, as written) tiles the dispatch
// over workgroups: a GPU config's `workgroup` tiles, a CPU config's
// `distribution` tiles. A softmax's other reductions and a fill beside a
// matmul carry thread, serial or cache tiles only.
bool distributesWorkgroups(const Attribute &loweringConfig);

// Every key IREE's GPU lowering config reads, in one list, with the release
// range it belongs to: for flagging unknown and out-of-release keys.
struct LoweringConfigKey {
  const char *name;
  const char *since;   // first release that reads it, "" = always
  const char *removed; // first release that no longer reads it, "" = never
  const char *meaning;
};
const std::vector<LoweringConfigKey> &loweringConfigKeys();

// Decodes `[[counts], [mapping]]`.
Result<Basis> basisFromAttribute(const Attribute &attribute,
                                 const std::string &key);
Result<MmaKind> mmaKindFromAttribute(const Attribute &attribute);
Attribute mmaKindToAttribute(const MmaKind &kind);
Result<ExpandDims> expandDimsFromAttribute(const Attribute &attribute);

} // namespace tilescope::config
