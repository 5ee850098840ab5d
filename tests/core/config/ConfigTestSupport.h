// What the config-model tests share: the seed's reduction config, and a
// lowering config or translation_info read from text (a test stops where it
// does not read).
#pragma once

#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"

#include <QtGlobal>

#include <string>

namespace tilescope::test {

// The seed's reduction (lowering-configs.txt, "Example").
inline const char *kSeedReduction =
    "#iree_gpu.lowering_config<{expand_dims = #iree_gpu.expand_dims<[[0], [1], "
    "[2, 3]], output_shape = [?, ?, ?, 8]>, lane_basis = [[1, 1, 64, 1], [0, "
    "1, "
    "2, 3]], partial_reduction = [0, 0, 64, 0], subgroup_basis = [[1, 1, 1, "
    "1], "
    "[0, 1, 2, 3]], thread = [0, 0, 1, 8], workgroup = [4, 1, 0, 0]}>";

inline config::LoweringConfig makeConfig(const std::string &text) {
  auto parsed = config::LoweringConfig::parse(text);
  if (!parsed)
    qFatal("%s", parsed.error().c_str());
  return *parsed;
}

inline config::TranslationInfo translation(const std::string &text) {
  auto parsed = config::TranslationInfo::parse(text);
  if (!parsed)
    qFatal("%s", parsed.error().c_str());
  return *parsed;
}

} // namespace tilescope::test
