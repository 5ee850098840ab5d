// One field of a config changed, as text in and text out: the field names a
// person types (`workgroup`, `lane_basis`, `workgroup_size`, `pipeline`,
// `prefetch_num_stages`, ...), the value as MLIR attribute text, and the
// whole attribute printed back as IREE prints it.
//
// Pure config work (core/config's reader and printer): whether IREE takes
// the result is asked separately, by whoever owns the loaded IREE.
#pragma once

#include "core/config/syntax/Attribute.h"
#include "core/util/Result.h"

#include <optional>
#include <string>
#include <string_view>

namespace tilescope::edit {

// Decomposition: a field of the lowering config inside an attention op's
// decomposition_config, `qk_attrs.KEY` or `pv_attrs.KEY` (the Q.K^T and P.V
// contractions' own configs).
enum class ConfigPart { LoweringConfig, TranslationInfo, Decomposition };

struct Field {
  ConfigPart part = ConfigPart::LoweringConfig;
  std::string key; // empty: the whole attribute; "qk_attrs.mma_kind", ...
  // "workgroup", "translation_info.workgroup_size", "lowering_config", ...
  std::string name() const;
};

// `workgroup`, `lowering_config.workgroup`, `lowering_config` (whole),
// `workgroup_size`, `subgroup_size`, `pipeline`, the pipeline options
// (`prefetch_num_stages`, ...), `translation_info.KEY` (an entry of its
// configuration dictionary) and `translation_info` (whole). Any other name
// is a lowering-config key: IREE keeps keys it does not read.
// `qk_attrs.KEY` and `pv_attrs.KEY` name a key of attention's qk or pv
// lowering config.
Result<Field> parseField(std::string_view name);

// The attribute after the change (value unset: the field removed), printed
// as IREE prints it, and the field's text before and after ("" = absent).
struct FieldChange {
  std::string attribute;
  std::string oldValue;
  std::string newValue;
};

// `attributeText` is the config as it stands: a lowering config, a
// translation info, or a compilation info holding both; for a
// Decomposition field, the decomposition_config dictionary.
// A value as a person types it, in IREE's spelling: a bare intrinsic for
// `mma_kind` (`MFMA_F32_16x16x16_F16` -> `#iree_gpu.mma_layout<...>`,
// `VMFMA_...` -> `#iree_gpu.virtual_mma_layout<...>`) and a bare pipeline
// name (`TileAndFuse`) in the dialect the attribute's pipeline already has;
// anything else as given. changeField spells its value so.
std::optional<std::string>
spelledValue(const std::string &attributeText, const Field &field,
             const std::optional<std::string> &value);

// The inverse, for showing a value: an intrinsic or a pipeline attribute
// whose parameter is one bare name (`#iree_gpu.mma_layout<MFMA_...>`,
// `#iree_gpu.pipeline<TileAndFuse>`) as that name; anything else as given.
std::string bareName(const Field &field, const std::string &value);

// `written` is that text as the document's reading of it holds it (parsed
// once, aliases resolved), or why it does not read: the attribute is
// changed in place and printed once.
Result<FieldChange> changeField(const std::string &attributeText,
                                Result<config::Attribute> written,
                                const Field &field,
                                const std::optional<std::string> &value);

} // namespace tilescope::edit
