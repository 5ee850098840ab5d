// Checks a lowering config and translation_info against an iteration space
// and a target, in the user's terms: which field, what is wrong, by how much.
//
// The rules are IREE's own where IREE states them (the VectorDistribute and
// TileAndFuse constraint generators, the lowering_config verifier, target
// limits) plus local rules about the shape of each field.
#pragma once

#include "core/config/configs/GpuTarget.h"
#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/OtherConfigs.h"
#include "core/config/configs/TranslationInfo.h"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::config {

struct Problem {
  enum class Severity { Error, Warning, Note };
  // What IREE 3.13 does with a config that has this problem.
  enum class IreeResponse {
    Refuses,   // it reports an error (or crashes): the compile fails
    Asserts,   // its code asserts against it, compiled out of release
               // builds: what a release build does is undefined
    Unchecked, // it checks nothing and builds what cannot be right (a layout
               // over lanes that do not exist, a negative tile)
    Compiles,  // it compiles it; the message says what the kernel does
  };
  Severity severity = Severity::Error;
  std::string
      field; // "workgroup[1]", "lane_basis", "translation_info.workgroup_size"
  std::string
      message; // "workgroup[1]=96 does not divide 6656 (6656 = 69 x 96 + 32)"
  std::string rule; // a stable name: "workgroup-divides-bound"
  // The IREE code the rule mirrors ("LLVMGPUConfigureTensorLayouts.cpp,
  // distributeTilingSizes").
  std::string source;
  IreeResponse iree = IreeResponse::Refuses;
  // Who found it: Tilescope's rules, or IREE itself (its pipeline
  // constraints checked by its own evaluator, jobs/IreeConstraints).
  enum class Origin { Tilescope, IreeConstraints };
  Origin origin = Origin::Tilescope;
  // The one value of `field` the rest of the config implies, where there is
  // one ("[512, 1, 1]" for a workgroup_size TileAndFuse derives from the
  // tiles): what a sweep sets so its candidates stay self-consistent.
  std::string implied;

  bool isError() const { return severity == Severity::Error; }
};
// Whether any of `problems` is an error.
bool hasErrors(const std::vector<Problem> &problems);
std::string toString(Problem::IreeResponse response);
std::string toString(Problem::Origin origin);
std::string toString(Problem::Severity severity);

struct ValidationContext {
  // The texts as written, when the caller has them: IREE's parser verdict on
  // them is part of validation (a translation_info with commas, a duplicate
  // key), which the typed models above cannot see.
  std::optional<Attribute> loweringConfigText, translationInfoText;
  std::optional<IterationSpace> iterationSpace;
  std::optional<GpuTarget> target;
  std::optional<TranslationInfo> translationInfo;
  // An attention op's qk and pv configs (its decomposition_config).
  std::optional<DecompositionConfig> decomposition;
  // Whether the dispatch computes an op after this one in the same kernel (a
  // consumer fused into it: a bias add, an activation); unknown when the
  // config is judged without its dispatch.
  std::optional<bool> fusedConsumer;
  // The IREE release the config is meant for ("3.13"): decides which keys
  // and syntaxes are current.
  std::string ireeRelease = "3.13";
};

// The rules of core/config (attribute syntax, tile shapes, bases, pipeline
// constraints, target limits). layout::validate adds the rules that need
// layout math and is what front ends call.
std::vector<Problem> validate(const LoweringConfig &config,
                              const ValidationContext &context);

// Every rule validation knows, by name, with the IREE code it mirrors and
// what IREE does with a config that breaks it (layout::validate's rules
// included).
struct RuleDescription {
  std::string name, source;
  Problem::IreeResponse iree = Problem::IreeResponse::Refuses;
};
std::vector<RuleDescription> validationRules();

// "SUBJECT counts multiply to P of the L lanes of a subgroup: ... repeating
// their work": the basis-product rule's words for a lane basis that names
// fewer lanes than a subgroup has (an op's own, or an attention
// contraction's).
std::string lanesWrapMessage(const std::string &subject, int64_t product,
                             int64_t lanes);

// A problem of a named rule, with the rule's IREE source and response (for
// rules that live above core/config).
Problem makeProblem(std::string field, std::string message,
                    const std::string &rule);

// The M, N, K (and block count) an MMA intrinsic name states, with the
// subgroup size it runs on: MFMA and virtual MFMA are wave64, the rest 32.
struct IntrinsicShape {
  int64_t m = 0, n = 0, k = 0, blocks = 1;
  int64_t subgroupSize = 0;
  std::string aType, bType, cType; // "f16", "f16", "f32"
};
std::optional<IntrinsicShape> intrinsicShape(std::string_view name);

} // namespace tilescope::config
