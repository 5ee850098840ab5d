// IREE's pipeline constraints name the config's tunable values "knobs": an
// `iree_codegen.smt.constraints` op carries a template of the config
// (`workgroup = [#iree_codegen.smt.int_knob<"wg_0">, ...]`, the MMA
// intrinsic as a one_of_knob over the target's intrinsics, fixed values
// elsewhere) and asserts over the knob names. This reads a config the way
// IREE's VerifySMTConstraints pass does (VerifyPipelineConstraints.cpp,
// extractKnobValue over the lowering config merged with translation_info's
// workgroup_size, subgroup_size and pipeline options), so Tilescope can say
// which field each knob is and whether IREE's check applies to the config
// at all: where the template fixes a value the config does not have, IREE
// skips its check silently.
//
// Pure config work: the template is IREE's print of the knobs dictionary.
#pragma once

#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/Attribute.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilescope::config {

struct KnobMatch {
  enum class Outcome {
    Matched,  // every knob has a value: IREE checks the asserts
    Mismatch, // a fixed value of the template differs: IREE skips the check
    Missing,  // an entry the template needs is absent: IREE refuses
  };
  Outcome outcome = Outcome::Matched;
  std::map<std::string, int64_t> values; // knob -> value (one_of: its index)
  // knob -> the field it is, as problems name fields: "workgroup[0]",
  // "mma_kind", "subgroup_basis[0][1]", "translation_info.subgroup_size",
  // "translation_info.prefetch_num_stages".
  std::map<std::string, std::string> fields;
  // knob -> its path in the combined dictionary IREE matches:
  // "workgroup[0]", "workgroup_size[2]", "subgroup_basis[0][1]",
  // "gpu_pipeline_options.prefetch_num_stages".
  std::map<std::string, std::string> paths;
  // knob -> the other paths the template places the same knob at
  // (attention's sg_m_cnt in both the qk and the pv subgroup_basis): one
  // value, written at each.
  std::map<std::string, std::vector<std::string>> alsoAt;
  // Mismatch / Missing: where, and the template's and the config's text.
  std::string field;
  std::string expected;
  std::string found;

  // "the template fixes promote_operands[1] = 1, the config has 0"
  std::string describe() const;
};

// `loweringConfig` is the #iree_gpu.lowering_config<{...}> attribute.
//
// `decomposition`, an attention op's decomposition_config dictionary, is
// matched as the template's `decomposition_config` entry. IREE 3.13 states
// attention's constraints over it (qk_mma_idx, pv_mma_idx, sg_m_cnt) but
// its own verifier reads only the lowering config and refuses ("failed to
// extract SMT knob values"); Tilescope reads it the way the tuner that
// consumes the template does. An intrinsic there matches its option with
// or without `col_major = true`, which IREE's attention config sets from
// the two intrinsics' layouts (KernelConfig.cpp, setAttention...Config:
// Q.K^T's ACC layout equal to P.V's RHS layout) and the template leaves
// out.
KnobMatch matchKnobs(const Attribute &knobs, const Attribute &loweringConfig,
                     const TranslationInfo &translationInfo,
                     const Attribute *decomposition = nullptr);

// A path of IREE's combined dictionary as problems and edits name the
// field: "workgroup_size[0]" -> "translation_info.workgroup_size[0]",
// "decomposition_config.qk_attrs.lowering_config.mma_kind" ->
// "qk_attrs.mma_kind".
std::string knobFieldName(const std::string &path);

// The config fields an assert's message concerns: the knobs it names (and
// the names IREE derives from them: mma_m/n/k from the intrinsic knob,
// wg_m/sg_n products of the tiles, total_threads, shared memory), mapped
// through `fields`. Empty when it names none (a problem-size assert).
std::vector<std::string>
fieldsOfMessage(const std::string &message,
                const std::map<std::string, std::string> &fields);

} // namespace tilescope::config
