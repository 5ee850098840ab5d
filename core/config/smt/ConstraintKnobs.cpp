#include "core/config/smt/ConstraintKnobs.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace tilescope::config {
namespace {

// The entries IREE's buildCombinedConfigDict adds beside the lowering
// config's own: workgroup_size (when set), subgroup_size (0 when unset),
// the three pipeline options with their defaults, use_igemm_convolution.
std::vector<Parameter> combinedEntries(const Attribute &loweringConfig,
                                       const TranslationInfo &translation,
                                       const Attribute *decomposition) {
  std::vector<Parameter> entries;
  const std::vector<const Attribute *> positional = loweringConfig.positional();
  if (!positional.empty() &&
      positional.front()->is(Attribute::Kind::Dictionary))
    entries = positional.front()->parameters;
  if (translation.workgroupSize && !translation.workgroupSize->empty())
    entries.push_back(Attribute::parameter(
        "workgroup_size", Attribute::integerArray(*translation.workgroupSize)));
  entries.push_back(Attribute::parameter(
      "subgroup_size",
      Attribute::integer(translation.subgroupSize.value_or(0))));
  int64_t prefetch = 0;
  bool noReduce = false, igemm = false;
  if (auto options = translation.pipelineOptions()) {
    prefetch = options->prefetchNumStages.value_or(0);
    noReduce = options->noReduceSharedMemoryBankConflicts.value_or(false);
    igemm = options->useIgemmConvolution.value_or(false);
  }
  entries.push_back(Attribute::parameter(
      "gpu_pipeline_options",
      Attribute::dictionary(
          {Attribute::parameter("prefetch_num_stages",
                                Attribute::integer(prefetch)),
           Attribute::parameter("no_reduce_shared_memory_bank_conflicts",
                                Attribute::boolean(noReduce)),
           Attribute::parameter("use_igemm_convolution",
                                Attribute::boolean(igemm))})));
  entries.push_back(
      Attribute::parameter("use_igemm_convolution", Attribute::boolean(igemm)));
  if (decomposition)
    entries.push_back(
        Attribute::parameter("decomposition_config", *decomposition));
  return entries;
}

constexpr std::string_view kDecomposition = "decomposition_config.";
constexpr std::string_view kInnerConfig = ".lowering_config.";

// An intrinsic attribute without its `col_major` parameter.
Attribute withoutColMajor(const Attribute &attribute) {
  Attribute copy = attribute;
  std::erase_if(copy.parameters,
                [](const Parameter &p) { return p.name == "col_major"; });
  return copy;
}

} // namespace

std::string knobFieldName(const std::string &path) {
  // decomposition_config.qk_attrs.lowering_config.KEY -> qk_attrs.KEY
  if (path.rfind(kDecomposition, 0) == 0) {
    const std::string rest = path.substr(kDecomposition.size());
    const size_t inner = rest.find(kInnerConfig);
    if (inner != std::string::npos)
      return rest.substr(0, inner) + "." +
             rest.substr(inner + kInnerConfig.size());
    return rest;
  }
  static const std::pair<const char *, const char *> kTranslation[] = {
      {"workgroup_size", "translation_info.workgroup_size"},
      {"subgroup_size", "translation_info.subgroup_size"},
      {"use_igemm_convolution", "translation_info.use_igemm_convolution"},
  };
  for (const auto &[key, name] : kTranslation)
    if (path.rfind(key, 0) == 0 && (path.size() == std::string(key).size() ||
                                    path[std::string(key).size()] == '['))
      return name;
  const std::string options = "gpu_pipeline_options.";
  if (path.rfind(options, 0) == 0)
    return "translation_info." + path.substr(options.size());
  return path;
}

namespace {

std::string knobName(const Attribute &knob) {
  const std::vector<const Attribute *> positional = knob.positional();
  return positional.empty() ? std::string() : positional.front()->text;
}

class Matcher {
public:
  explicit Matcher(KnobMatch &match) : match(match) {}

  // Mirrors extractKnobValue: false stops the walk with match's outcome set.
  bool walk(const Attribute &pattern, const Attribute *config,
            const std::string &path) {
    if (pattern.isDialect("iree_codegen", "smt.int_knob")) {
      if (!config)
        return missing(path, pattern);
      const std::optional<int64_t> value = config->asInt64();
      if (!value || config->is(Attribute::Kind::Bool))
        return mismatch(path, pattern, *config);
      return place(knobName(pattern), *value, path, pattern, *config);
    }
    if (pattern.isDialect("iree_codegen", "smt.one_of_knob")) {
      if (!config)
        return missing(path, pattern);
      const std::vector<const Attribute *> positional = pattern.positional();
      if (positional.size() == 2 && positional[1]->is(Attribute::Kind::Array)) {
        const std::string found = printAttribute(*config);
        // Attention's intrinsics carry the col_major IREE chose for them.
        const std::string plain = path.rfind(kDecomposition, 0) == 0
                                      ? printAttribute(withoutColMajor(*config))
                                      : found;
        const auto &options = positional[1]->elements;
        for (size_t i = 0; i < options.size(); ++i)
          if (const std::string option = printAttribute(options[i]);
              option == found || option == plain)
            return place(knobName(pattern), static_cast<int64_t>(i), path,
                         pattern, *config);
      }
      return mismatch(path, pattern, *config);
    }
    if (pattern.is(Attribute::Kind::Dictionary)) {
      if (!config || !config->is(Attribute::Kind::Dictionary))
        return config ? mismatch(path, pattern, *config)
                      : missing(path, pattern);
      for (const Parameter &entry : pattern.parameters) {
        const std::string inner =
            path.empty() ? entry.name : path + "." + entry.name;
        const Attribute *value = config->find(entry.name);
        if (!value)
          return missing(inner, entry.get());
        if (!walk(entry.get(), value, inner))
          return false;
      }
      return true;
    }
    if (!config)
      return missing(path, pattern);
    // A dialect attribute holding knobs (attention's
    // #iree_gpu.lowering_config<{...}> inside decomposition_config): its
    // parameters in turn, as IREE's extractKnobValue walks an attribute's
    // immediate sub-elements. Positional ones keep the path.
    if (pattern.is(Attribute::Kind::Dialect) &&
        config->is(Attribute::Kind::Dialect) &&
        pattern.qualifiedName() == config->qualifiedName() &&
        pattern.parameters.size() == config->parameters.size() &&
        !pattern.parameters.empty()) {
      for (size_t i = 0; i < pattern.parameters.size(); ++i) {
        const Parameter &want = pattern.parameters[i];
        const Parameter &have = config->parameters[i];
        if (want.name != have.name)
          return mismatch(path, pattern, *config);
        if (!walk(want.get(), &have.get(),
                  want.name.empty() ? path : path + "." + want.name))
          return false;
      }
      return true;
    }
    if (pattern.is(Attribute::Kind::Array)) {
      if (!config->is(Attribute::Kind::Array) ||
          config->elements.size() != pattern.elements.size())
        return mismatch(path, pattern, *config);
      for (size_t i = 0; i < pattern.elements.size(); ++i)
        if (!walk(pattern.elements[i], &config->elements[i],
                  path + "[" + std::to_string(i) + "]"))
          return false;
      return true;
    }
    if (pattern.is(Attribute::Kind::Integer) &&
        config->is(Attribute::Kind::Integer)) {
      if (pattern.asInt64() == config->asInt64())
        return true;
      return mismatch(path, pattern, *config);
    }
    // A fixed attribute: IREE compares it element by element, which for
    // the attributes templates hold (booleans, intrinsics, derived configs)
    // is equality of the printed text.
    if (printAttribute(pattern) == printAttribute(*config))
      return true;
    return mismatch(path, pattern, *config);
  }

private:
  // A knob's value at `path`; a knob the template places twice must have
  // one value (IREE's extractKnobValue keeps the last; the tuner writes
  // both).
  bool place(const std::string &name, int64_t value, const std::string &path,
             const Attribute &pattern, const Attribute &config) {
    if (auto seen = match.values.find(name); seen != match.values.end()) {
      if (seen->second != value)
        return mismatch(path, pattern, config);
      match.alsoAt[name].push_back(path);
      return true;
    }
    match.values[name] = value;
    match.fields[name] = knobFieldName(path);
    match.paths[name] = path;
    return true;
  }
  bool missing(const std::string &path, const Attribute &pattern) {
    match.outcome = KnobMatch::Outcome::Missing;
    match.field = knobFieldName(path);
    match.expected = printAttribute(pattern);
    return false;
  }
  bool mismatch(const std::string &path, const Attribute &pattern,
                const Attribute &config) {
    match.outcome = KnobMatch::Outcome::Mismatch;
    match.field = knobFieldName(path);
    match.expected = printAttribute(pattern);
    match.found = printAttribute(config);
    return false;
  }
  KnobMatch &match;
};

bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

} // namespace

std::string KnobMatch::describe() const {
  switch (outcome) {
  case Outcome::Matched:
    return "every knob of IREE's template has a value in the config";
  case Outcome::Mismatch:
    return "IREE's template fixes " + field + " = " + expected +
           ", the config has " + found;
  case Outcome::Missing:
    return "IREE's template needs " + field + " (" + expected +
           ") and the config has none";
  }
  return {};
}

KnobMatch matchKnobs(const Attribute &knobs, const Attribute &loweringConfig,
                     const TranslationInfo &translationInfo,
                     const Attribute *decomposition) {
  KnobMatch match;
  const Attribute combined = Attribute::dictionary(
      combinedEntries(loweringConfig, translationInfo, decomposition));
  if (knobs.is(Attribute::Kind::Dictionary))
    Matcher(match).walk(knobs, &combined, "");
  return match;
}

std::vector<std::string>
fieldsOfMessage(const std::string &message,
                const std::map<std::string, std::string> &fields) {
  // Names IREE's constraint generators derive from the knobs
  // (LLVMGPUConstraintGenerator.cpp), each the first of its candidate fields
  // the template holds: sg_m is TileAndFuse's subgroup tile, and
  // VectorDistribute's intrinsics per subgroup, derived from workgroup.
  auto holds = [&](const std::string &name) {
    for (const auto &[knob, field] : fields)
      if (field == name || field.rfind(name + "[", 0) == 0)
        return true;
    return false;
  };
  const std::map<std::string, std::vector<std::string>> derived = {
      {"mma_m", {"mma_kind"}},
      {"mma_n", {"mma_kind"}},
      {"mma_k", {"mma_kind"}},
      {"wg_m", {"workgroup"}},
      {"wg_n", {"workgroup"}},
      {"sg_m", {"subgroup", "workgroup"}},
      {"sg_n", {"subgroup", "workgroup"}},
      {"sg_k", {"reduction"}},
      {"sg_m_cnt", {"subgroup_basis", "translation_info.workgroup_size"}},
      {"sg_n_cnt", {"subgroup_basis", "translation_info.workgroup_size"}},
      {"sg_num", {"translation_info.workgroup_size"}},
      {"total_threads", {"translation_info.workgroup_size"}},
      // Attention (IREE's attention constraint generator).
      {"m_tile", {"workgroup"}},
      {"n_tile", {"workgroup"}},
      {"red_k2", {"reduction"}},
      {"qk_mma_m", {"qk_attrs.mma_kind"}},
      {"qk_mma_n", {"qk_attrs.mma_kind"}},
      {"qk_mma_k", {"qk_attrs.mma_kind"}},
      {"qk_acc", {"qk_attrs.mma_kind"}},
      {"qk_schedule", {"qk_attrs.mma_kind"}},
      {"pv_mma_m", {"pv_attrs.mma_kind"}},
      {"pv_mma_n", {"pv_attrs.mma_kind"}},
      {"pv_mma_k", {"pv_attrs.mma_kind"}},
      {"pv_acc", {"pv_attrs.mma_kind"}},
      {"pv_schedule", {"pv_attrs.mma_kind"}},
  };
  std::vector<std::string> out;
  auto add = [&](const std::string &field) {
    if (!field.empty() && std::find(out.begin(), out.end(), field) == out.end())
      out.push_back(field);
  };
  for (size_t i = 0; i < message.size();) {
    if (!isIdentifierChar(message[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < message.size() && isIdentifierChar(message[end]))
      ++end;
    const std::string word = message.substr(i, end - i);
    i = end;
    if (auto known = fields.find(word); known != fields.end())
      add(known->second);
    else if (auto other = derived.find(word); other != derived.end())
      for (const std::string &candidate : other->second)
        if (holds(candidate)) {
          add(candidate);
          break;
        }
  }
  if (message.find("shared memory") != std::string::npos) {
    add("workgroup");
    add("reduction");
  }
  return out;
}

} // namespace tilescope::config
