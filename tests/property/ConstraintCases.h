// The contractions the constraint property tests ask IREE about: random
// TileAndFuse and VectorDistribute matmuls configured the way IREE's own
// templates shape them, some changed the way people change them while
// tuning, written as one dispatch per case.
#pragma once

#include "ConfigCases.h"

#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/Attribute.h"
#include "core/edit/FieldEdit.h"
#include "core/iree/DocumentParser.h"

#include <iostream>
#include <map>

namespace tilescope::property {

inline std::string gfx942ExecutableTarget() {
  std::ifstream file(std::string(TILESCOPE_SOURCE_DIR) +
                     "/examples/rocm_gfx942/"
                     "matmul_f16_1024_dispatch_0.benchmark.mlir");
  std::string line;
  while (std::getline(file, line))
    if (line.find("#hal.device.target<") != std::string::npos)
      return executableTargetFromDevice(line);
  return {};
}

// Sets a field of the case's lowering config or translation_info.
inline bool setField(Case &c, const std::string &name,
                     const std::optional<std::string> &value) {
  auto field = edit::parseField(name);
  if (!field)
    return false;
  std::string &text = field->part == edit::ConfigPart::TranslationInfo
                          ? c.probe.translationInfo
                          : c.probe.loweringConfig;
  auto changed = edit::changeField(text, config::parseResolvedAttribute(text),
                                   *field, value);
  if (!changed)
    return false;
  text = changed->attribute;
  return true;
}

inline std::optional<std::vector<int64_t>> intsOf(const std::string &config,
                                                  const std::string &key) {
  auto attribute = config::parseResolvedAttribute(config);
  if (!attribute)
    return std::nullopt;
  const auto positional = attribute->positional();
  if (positional.empty())
    return std::nullopt;
  const config::Attribute *value = positional.front()->find(key);
  return value ? value->asInt64Array() : std::nullopt;
}

// One change of the kind people make while tuning; its name, or "" when it
// does not apply to the case.
inline std::string perturb(Random &random, Case &c) {
  switch (random.range(0, 6)) {
  case 0:
  case 1: { // a tile doubled, tripled or halved
    const std::string key =
        random.pick<std::string>({"workgroup", "reduction", "subgroup"});
    auto tiles = intsOf(c.probe.loweringConfig, key);
    if (!tiles)
      return "";
    std::vector<size_t> set;
    for (size_t i = 0; i < tiles->size(); ++i)
      if ((*tiles)[i] > 0)
        set.push_back(i);
    if (set.empty())
      return "";
    int64_t &tile = (*tiles)[random.pick(set)];
    tile = random.chance(0.5) && tile % 2 == 0 ? tile / 2
                                               : tile * random.range(2, 3);
    return setField(c, key, list(*tiles)) ? key + " changed" : "";
  }
  case 2: // IREE's verifier wants promotion_types as long as the operands
    if (c.probe.loweringConfig.find("promotion_types") != std::string::npos)
      setField(c, "promotion_types", std::nullopt);
    return setField(c, "promote_operands", std::nullopt)
               ? "promote_operands removed"
               : "";
  case 3:
    if (c.probe.loweringConfig.find("promotion_types") != std::string::npos)
      setField(c, "promotion_types",
               std::string("[#iree_gpu.derived_thread_config]"));
    return setField(c, "promote_operands", std::string("[0]"))
               ? "promote_operands [0]"
               : "";
  case 4:
    return setField(c, "subgroup_size",
                    std::to_string(c.subgroupSize == 64 ? 32 : 64))
               ? "subgroup_size changed"
               : "";
  case 5: {
    std::vector<int64_t> size = c.workgroupSize;
    size[0] *= 2;
    return setField(c, "workgroup_size", list(size)) ? "workgroup_size doubled"
                                                     : "";
  }
  default:
    return setField(c, "prefetch_num_stages", std::string("3"))
               ? "prefetch_num_stages 3"
               : "";
  }
}

struct ConstraintCases {
  std::vector<Case> cases;
  std::map<std::string, std::string> changes; // function -> perturbation
};

// `perTarget` cases for `target`, numbered on from `index`; `changeChance`:
// how often one is changed after it is made.
inline ConstraintCases constraintCases(Random &random, const Target &target,
                                       int perTarget, int &index,
                                       double changeChance = 0.6) {
  ConstraintCases made;
  std::vector<Case> &cases = made.cases;
  std::map<std::string, std::string> &changes = made.changes;
  for (int i = 0; i < perTarget; ++i) {
    // Mostly what IREE's own templates offer: plain intrinsics, row-major
    // accumulators, both operands promoted.
    std::vector<std::string> plain;
    for (const std::string &name : target.intrinsics)
      if (!layout::findMmaIntrinsic(name)->isVirtual)
        plain.push_back(name);
    const bool typical = random.chance(0.85);
    const std::string &intrinsic =
        random.pick(typical ? plain : target.intrinsics);
    Case c = i % 2 == 0 ? tileAndFuseMmaCase(random, target, intrinsic, index++)
                        : contractionCase(random, target, intrinsic, index++);
    c.probe.executableTarget = target.executableTarget;
    c.probe.function = "c" + std::to_string(index);
    if (typical) {
      const std::string colMajor = ", col_major = true";
      if (size_t at = c.probe.loweringConfig.find(colMajor);
          at != std::string::npos)
        c.probe.loweringConfig.erase(at, colMajor.size());
      setField(c, "promote_operands", std::string("[0, 1]"));
      setField(c, "prefetch_num_stages", std::string("2"));
    }
    // IREE's VectorDistribute template asks for promotion_types.
    if (c.family.rfind("contraction", 0) == 0 &&
        c.probe.loweringConfig.find("promote_operands = [0, 1]") !=
            std::string::npos &&
        (typical || random.chance(0.5)))
      setField(c, "promotion_types",
               std::string("[#iree_gpu.derived_thread_config, "
                           "#iree_gpu.derived_thread_config]"));
    std::string change = "none";
    if (random.chance(changeChance))
      for (int attempt = 0; attempt < 4; ++attempt)
        if (std::string name = perturb(random, c); !name.empty()) {
          change = name;
          break;
        }
    changes[c.probe.function] = change;
    cases.push_back(std::move(c));
  }
  return made;
}

// The cases as one document IREE parsed; an error in its words.
inline Result<document::Document> casesDocument(iree::DocumentParser &parser,
                                                const std::vector<Case> &cases,
                                                const std::string &name) {
  std::string text;
  for (const Case &c : cases) {
    auto function = devices::probeFunctionText(c.probe);
    if (!function)
      return Error{function.error()};
    text += *function + "\n";
  }
  auto document = parser.parseText(text, name);
  if (!document)
    return Error{"the cases do not parse: " + document.error()};
  document->path = name;
  return document;
}

} // namespace tilescope::property
