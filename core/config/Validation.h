// Checks a lowering config and translation_info against an iteration space
// and a target, in the user's terms: which field, what is wrong, by how much.
//
// The rules are IREE's own where IREE states them (the VectorDistribute and
// TileAndFuse constraint generators, the lowering_config verifier, target
// limits) plus local rules about the shape of each field.
#pragma once

#include "core/config/GpuTarget.h"
#include "core/config/IterationSpace.h"
#include "core/config/LoweringConfig.h"
#include "core/config/TranslationInfo.h"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::config {

struct Problem {
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  std::string
      field; // "workgroup[1]", "lane_basis", "translation_info.workgroup_size"
  std::string
      message; // "workgroup[1]=96 does not divide 6656 (6656 = 69 x 96 + 32)"
  std::string rule; // a stable name: "workgroup-divides-bound"
};
std::string toString(Problem::Severity severity);

struct ValidationContext {
  std::optional<IterationSpace> iterationSpace;
  std::optional<GpuTarget> target;
  std::optional<TranslationInfo> translationInfo;
  // The IREE release the config is meant for ("3.13"): decides which keys
  // and syntaxes are current.
  std::string ireeRelease = "3.13";
};

std::vector<Problem> validate(const LoweringConfig &config,
                              const ValidationContext &context);

// The M, N, K (and block count) an MMA intrinsic name states, with the
// subgroup size it runs on: MFMA and virtual MFMA are wave64, the rest 32.
struct IntrinsicShape {
  int64_t m = 0, n = 0, k = 0, blocks = 1;
  int64_t subgroupSize = 0;
  std::string aType, bType, cType; // "f16", "f16", "f32"
};
std::optional<IntrinsicShape> intrinsicShape(std::string_view name);

// Compares IREE release strings "3.11" < "3.12.0" (major.minor only).
int compareRelease(std::string_view a, std::string_view b);

} // namespace tilescope::config
