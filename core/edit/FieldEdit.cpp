#include "core/edit/FieldEdit.h"

#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/Attribute.h"
#include "core/config/syntax/IreeSyntax.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <variant>

namespace tilescope::edit {

using config::Attribute;

namespace {

constexpr std::string_view kLoweringPrefix = "lowering_config.";
constexpr std::string_view kTranslationPrefix = "translation_info.";
constexpr std::string_view kDecompositionHalves[] = {"qk_attrs.", "pv_attrs."};

// translation_info's own parameters, and #iree_gpu.pipeline_options' fields.
constexpr std::array<std::string_view, 3> kTranslationKeys = {
    "pipeline", "workgroup_size", "subgroup_size"};
constexpr std::array<std::string_view, 4> kPipelineOptionKeys = {
    "prefetch_num_stages", "no_reduce_shared_memory_bank_conflicts",
    "use_igemm_convolution", "reorder_workgroups_strategy"};

template <size_t N>
bool oneOf(std::string_view key, const std::array<std::string_view, N> &keys) {
  for (std::string_view k : keys)
    if (k == key)
      return true;
  return false;
}

Result<Attribute> parseValue(const Field &field, const std::string &text) {
  auto parsed = config::parseAttribute(text);
  if (auto *error = std::get_if<config::ParseError>(&parsed))
    return Error{field.name() + ": \"" + text +
                 "\" is not an attribute: " + error->toString()};
  return std::get<Attribute>(std::move(parsed));
}

std::string printed(const Attribute *attribute) {
  return attribute ? config::printAttribute(*attribute) : std::string();
}

// An integer field's value text.
Result<int64_t> integerValue(const Field &field, const std::string &text) {
  auto value = parseValue(field, text);
  if (!value)
    return Error{value.error()};
  if (auto number = value->asInt64())
    return *number;
  return Error{field.name() + " takes an integer, not " +
               config::printAttribute(*value)};
}

Result<bool> booleanValue(const Field &field, const std::string &text) {
  if (text == "true")
    return true;
  if (text == "false")
    return false;
  return Error{field.name() + " takes true or false, not \"" + text + "\""};
}

// A whole attribute, any kind (a CPU config too), given for a field with
// no key: `#alias = ...` lines allowed; it cannot be removed.
Result<Attribute> wholeValue(const Field &field,
                             const std::optional<std::string> &value) {
  if (!value)
    return Error{field.name() + " cannot be removed here: set it instead"};
  auto parsed = config::parseResolvedAttribute(*value);
  if (!parsed)
    return Error{field.name() + ": " + parsed.error()};
  return std::move(*parsed);
}

bool isCpuLowering(const Attribute &lowering) {
  return lowering.isDialect("iree_cpu", "lowering_config");
}

// A lowering config as IREE prints it (a CPU config as written).
std::string printedLowering(const Attribute &lowering) {
  return isCpuLowering(lowering) ? config::printAttribute(lowering)
                                 : config::printLikeIree(lowering);
}

// A CPU lowering config (#iree_cpu.lowering_config<KEY = VALUE, ...>): its
// parameters are its fields (distribution, cache_parallel,
// vector_common_parallel, vector_reduction, ...).
// Changed in place.
Result<FieldChange> changeCpuLowering(Attribute &attribute, const Field &field,
                                      const std::optional<std::string> &value) {
  FieldChange change;
  std::vector<config::Parameter> kept;
  std::string names;
  for (config::Parameter &parameter : attribute.parameters) {
    names += (names.empty() ? "" : ", ") + parameter.name;
    if (parameter.name == field.key)
      change.oldValue = config::printAttribute(parameter.get());
    else
      kept.push_back(std::move(parameter));
  }
  // Its fields are the levels it has; one it lacks is added whole, where
  // IREE's reader judges the name.
  if (change.oldValue.empty())
    return Error{field.name() +
                 " is not a field of this op's CPU lowering "
                 "config (it has " +
                 names +
                 "); to add one, replace the whole attribute with "
                 "lowering_config=#iree_cpu.lowering_config<...>"};
  if (value) {
    auto number = parseValue(field, *value);
    if (!number)
      return Error{number.error()};
    change.newValue = config::printAttribute(*number);
    kept.push_back(Attribute::parameter(field.key, std::move(*number)));
    // IREE prints the parameters sorted by name.
    std::stable_sort(
        kept.begin(), kept.end(),
        [](const config::Parameter &a, const config::Parameter &b) {
          return a.name < b.name;
        });
  }
  attribute.parameters = std::move(kept);
  return change;
}

// A lowering config (GPU or CPU) by field, changed in place; the caller
// prints it.
Result<FieldChange> changeLowering(Attribute &lowering, const Field &field,
                                   const std::optional<std::string> &value) {
  if (isCpuLowering(lowering))
    return changeCpuLowering(lowering, field, value);
  FieldChange change;
  auto parsed = config::LoweringConfig::fromAttribute(lowering);
  if (!parsed)
    return Error{field.name() +
                 ": this op's lowering config is not one Tilescope edits field "
                 "by field (" +
                 parsed.error() +
                 "); replace the whole attribute with lowering_config=..."};
  config::LoweringConfig loweringConfig = std::move(*parsed);
  if (loweringConfig.isDerivedThreadConfig())
    return Error{field.name() +
                 ": this op's config is #iree_gpu.derived_thread_config, "
                 "which has no fields (IREE derives its thread tiles from the "
                 "op's loops); to give it tiles, replace the whole attribute "
                 "with lowering_config=#iree_gpu.lowering_config<{...}>"};
  change.oldValue = printed(loweringConfig.get(field.key));
  if (value) {
    auto attribute = parseValue(field, *value);
    if (!attribute)
      return Error{attribute.error()};
    loweringConfig.set(field.key, std::move(*attribute));
    change.newValue = printed(loweringConfig.get(field.key));
  } else {
    if (!loweringConfig.has(field.key))
      return Error{field.name() + " is not set on this op"};
    loweringConfig.erase(field.key);
  }
  lowering = loweringConfig.toAttribute();
  return change;
}

Result<bool> setPipelineOption(config::TranslationInfo &info,
                               const Field &field,
                               const std::optional<std::string> &value,
                               std::string &oldValue, std::string &newValue) {
  config::PipelineOptions options =
      info.pipelineOptions().value_or(config::PipelineOptions{});
  const Attribute before = options.toAttribute();
  auto current = [&](const Attribute &attribute) {
    for (const auto &parameter : attribute.parameters)
      if (parameter.name == field.key)
        return config::printAttribute(parameter.value.front());
    return std::string();
  };
  oldValue = current(before);
  if (field.key == "prefetch_num_stages") {
    options.prefetchNumStages.reset();
    if (value) {
      auto number = integerValue(field, *value);
      if (!number)
        return Error{number.error()};
      options.prefetchNumStages = *number;
    }
  } else if (field.key == "reorder_workgroups_strategy") {
    options.reorderWorkgroupsStrategy.reset();
    if (value) {
      // `Transpose` or `#iree_gpu.reorder_workgroups_strategy<Transpose>`.
      std::string name = *value;
      if (const size_t open = name.find('<'); open != std::string::npos) {
        const size_t close = name.rfind('>');
        name = close > open ? name.substr(open + 1, close - open - 1) : "";
      }
      if (name.empty())
        return Error{field.name() + " takes None or Transpose, not \"" +
                     *value + "\""};
      options.reorderWorkgroupsStrategy = name;
    }
  } else {
    std::optional<bool> flag;
    if (value) {
      auto parsed = booleanValue(field, *value);
      if (!parsed)
        return Error{parsed.error()};
      flag = *parsed;
    }
    if (field.key == "no_reduce_shared_memory_bank_conflicts")
      options.noReduceSharedMemoryBankConflicts = flag;
    else
      options.useIgemmConvolution = flag;
  }
  info.setPipelineOptions(options);
  newValue = current(options.toAttribute());
  return true;
}

// A translation_info by field, changed in place; the caller prints it.
Result<FieldChange> changeTranslation(config::TranslationInfo &info,
                                      const Field &field,
                                      const std::optional<std::string> &value) {
  FieldChange change;
  const std::string &key = field.key;
  if (key == "pipeline") {
    change.oldValue = config::printAttribute(info.pipeline());
    if (!value)
      return Error{"translation_info.pipeline cannot be removed"};
    if (!value->empty() && (*value)[0] == '#') {
      auto attribute = parseValue(field, *value);
      if (!attribute)
        return Error{attribute.error()};
      info.setPipelineAttribute(std::move(*attribute));
    } else if (value->rfind("LLVMGPU", 0) == 0 ||
               value->rfind("LLVMCPU", 0) == 0) {
      info.setPipelineAttribute(Attribute::keyword(*value)); // IREE <= 3.11
    } else {
      info.setPipeline(
          *value, info.pipelineSyntax() == config::PipelineSyntax::LegacyKeyword
                      ? config::PipelineSyntax::LegacyKeyword
                      : config::PipelineSyntax::GpuPipelineAttribute);
    }
    change.newValue = config::printAttribute(info.pipeline());
  } else if (key == "workgroup_size") {
    if (info.workgroupSize)
      change.oldValue =
          config::printAttribute(Attribute::integerArray(*info.workgroupSize));
    info.workgroupSize.reset();
    if (value) {
      auto attribute = parseValue(field, *value);
      if (!attribute)
        return Error{attribute.error()};
      auto sizes = attribute->asInt64Array();
      if (!sizes)
        return Error{field.name() + " takes a list of integers, not " +
                     config::printAttribute(*attribute)};
      info.workgroupSize = *sizes;
      change.newValue = config::printAttribute(Attribute::integerArray(*sizes));
    }
  } else if (key == "subgroup_size") {
    if (info.subgroupSize)
      change.oldValue = std::to_string(*info.subgroupSize);
    info.subgroupSize.reset();
    if (value) {
      auto number = integerValue(field, *value);
      if (!number)
        return Error{number.error()};
      info.subgroupSize = *number;
      change.newValue = std::to_string(*number);
    }
  } else if (oneOf(key, kPipelineOptionKeys)) {
    auto set =
        setPipelineOption(info, field, value, change.oldValue, change.newValue);
    if (!set)
      return Error{set.error()};
  } else {
    // An entry of the configuration dictionary (gpu_pipeline_options,
    // llvm_func_attrs, ...).
    Attribute dictionary =
        info.configuration.value_or(Attribute::dictionary({}));
    change.oldValue = printed(dictionary.find(key));
    std::vector<config::Parameter> kept;
    for (auto &parameter : dictionary.parameters)
      if (parameter.name != key)
        kept.push_back(std::move(parameter));
    if (value) {
      auto attribute = parseValue(field, *value);
      if (!attribute)
        return Error{attribute.error()};
      change.newValue = config::printAttribute(*attribute);
      kept.push_back(Attribute::parameter(key, std::move(*attribute)));
    } else if (change.oldValue.empty()) {
      return Error{field.name() + " is not set on this op"};
    }
    if (kept.empty())
      info.configuration.reset();
    else
      info.configuration = Attribute::dictionary(std::move(kept));
  }
  return change;
}

// The lowering config inside a compilation_info or a decomposition_config,
// whole or by field, changed in place.
Result<FieldChange>
changeInnerLowering(Attribute &lowering, const Field &field,
                    const std::optional<std::string> &value) {
  if (!field.key.empty())
    return changeLowering(lowering, field, value);
  auto whole = wholeValue(field, value);
  if (!whole)
    return Error{whole.error()};
  FieldChange change;
  change.oldValue = config::printAttribute(lowering);
  change.newValue = config::printAttribute(*whole);
  lowering = std::move(*whole);
  return change;
}

// The translation_info inside a compilation_info, whole or by field,
// changed in place.
Result<FieldChange>
changeInnerTranslation(config::TranslationInfo &info, const Field &field,
                       const std::optional<std::string> &value) {
  if (!field.key.empty())
    return changeTranslation(info, field, value);
  auto whole = wholeValue(field, value);
  if (!whole)
    return Error{whole.error()};
  auto typed = config::TranslationInfo::fromAttribute(*whole);
  if (!typed)
    return Error{field.name() + ": " + typed.error()};
  FieldChange change;
  change.oldValue = info.print();
  change.newValue = config::printAttribute(*whole);
  info = std::move(*typed);
  return change;
}

// One half (a lowering config or a translation_info) whole or by field:
// `written` (the document's reading of `text`) changed in place and printed
// once.
Result<FieldChange> changeHalf(const std::string &text,
                               Result<Attribute> written, const Field &field,
                               const std::optional<std::string> &value) {
  if (field.key.empty()) {
    auto whole = wholeValue(field, value);
    if (!whole)
      return Error{whole.error()};
    FieldChange change;
    change.oldValue = text;
    change.attribute = config::printAttribute(*whole);
    change.newValue = change.attribute;
    return change;
  }
  if (!written)
    return Error{field.name() +
                 (field.part == ConfigPart::LoweringConfig &&
                          !config::isCpuLoweringConfigText(text)
                      ? ": this op's lowering config is not one Tilescope "
                        "edits field by field (" +
                            written.error() +
                            "); replace the whole attribute with "
                            "lowering_config=..."
                      : ": " + written.error())};
  if (field.part == ConfigPart::LoweringConfig) {
    auto change = changeLowering(*written, field, value);
    if (change)
      change->attribute = printedLowering(*written);
    return change;
  }
  auto info = config::TranslationInfo::fromAttribute(*written);
  if (!info)
    return Error{field.name() + ": " + info.error()};
  auto change = changeTranslation(*info, field, value);
  if (change)
    change->attribute = info->print();
  return change;
}

// A key of the qk or pv lowering config inside a decomposition_config:
// that lowering config changed as any other (in IREE's printed form), the
// dictionary printed whole.
Result<FieldChange>
changeDecomposition(Result<Attribute> written, const Field &field,
                    const std::optional<std::string> &value) {
  const size_t dot = field.key.find('.');
  const std::string half = field.key.substr(0, dot);
  const Field inner{ConfigPart::LoweringConfig, field.key.substr(dot + 1)};
  if (!written)
    return Error{field.name() + ": the decomposition_config does not read: " +
                 written.error()};
  Attribute &dictionary = *written;
  Attribute *attrs = dictionary.is(config::Attribute::Kind::Dictionary)
                         ? dictionary.find(half)
                         : nullptr;
  Attribute *lowering = attrs ? attrs->find("lowering_config") : nullptr;
  if (!lowering)
    return Error{field.name() + ": the decomposition_config has no " + half +
                 " = {lowering_config = ...} to edit"};
  auto change = changeInnerLowering(*lowering, inner, value);
  if (!change)
    return Error{half + "." + change.error()};
  if (!inner.key.empty() && !isCpuLowering(*lowering))
    *lowering = config::likeIree(*lowering);
  change->attribute = config::printAttribute(dictionary);
  return change;
}

} // namespace

std::string Field::name() const {
  if (part == ConfigPart::Decomposition)
    return key.empty() ? "decomposition_config" : key;
  if (part == ConfigPart::LoweringConfig)
    return key.empty() ? "lowering_config" : key;
  if (key.empty())
    return "translation_info";
  return "translation_info." + key;
}

Result<Field> parseField(std::string_view name) {
  if (name.empty())
    return Error{"an empty field name"};
  Field field;
  if (name == "lowering_config")
    return field;
  if (name == "translation_info") {
    field.part = ConfigPart::TranslationInfo;
    return field;
  }
  for (std::string_view half : kDecompositionHalves)
    if (name.substr(0, half.size()) == half) {
      if (name.size() == half.size())
        return Error{"\"" + std::string(name) + "\" names no field"};
      field.part = ConfigPart::Decomposition;
      field.key = std::string(name);
      return field;
    }
  if (name.substr(0, kLoweringPrefix.size()) == kLoweringPrefix) {
    field.key = std::string(name.substr(kLoweringPrefix.size()));
  } else if (name.substr(0, kTranslationPrefix.size()) == kTranslationPrefix) {
    field.part = ConfigPart::TranslationInfo;
    field.key = std::string(name.substr(kTranslationPrefix.size()));
  } else {
    field.key = std::string(name);
    if (oneOf(name, kTranslationKeys) || oneOf(name, kPipelineOptionKeys))
      field.part = ConfigPart::TranslationInfo;
  }
  if (field.key.empty())
    return Error{"\"" + std::string(name) + "\" names no field"};
  for (char c : field.key)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
          c == '$'))
      return Error{"\"" + std::string(name) + "\" is not a field name"};
  return field;
}

std::optional<std::string>
spelledValue(const std::string &attributeText, const Field &field,
             const std::optional<std::string> &value) {
  if (!value)
    return value;
  const std::string &text = *value;
  auto word = [&text](bool upper) {
    if (text.empty() ||
        !(upper ? std::isupper(static_cast<unsigned char>(text[0]))
                : std::isalpha(static_cast<unsigned char>(text[0]))))
      return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
  };
  const std::string_view key = field.key;
  const bool mmaKind =
      key == "mma_kind" ||
      (key.size() > 9 && key.substr(key.size() - 9) == ".mma_kind");
  if (mmaKind && word(true))
    return (text.rfind("VMFMA", 0) == 0 || text.rfind("VWMMA", 0) == 0
                ? "#iree_gpu.virtual_mma_layout<"
                : "#iree_gpu.mma_layout<") +
           text + ">";
  if (field.part == ConfigPart::TranslationInfo && key == "pipeline" &&
      word(false))
    for (const char *dialect : {"#iree_gpu.pipeline<", "#iree_cpu.pipeline<"})
      if (attributeText.find(dialect) != std::string::npos)
        return dialect + text + ">";
  return value;
}

std::string bareName(const Field &field, const std::string &value) {
  const std::string_view key = field.key;
  const bool mma =
      key == "mma_kind" ||
      (key.size() > 9 && key.substr(key.size() - 9) == ".mma_kind");
  const bool pipeline =
      field.part == ConfigPart::TranslationInfo && key == "pipeline";
  if (!mma && !pipeline)
    return value;
  for (const std::string_view prefix :
       {"#iree_gpu.mma_layout<", "#iree_gpu.virtual_mma_layout<",
        "#iree_gpu.pipeline<", "#iree_cpu.pipeline<"}) {
    if (mma != (prefix.find("mma") != std::string_view::npos) ||
        value.size() <= prefix.size() + 1 || value.rfind(prefix, 0) != 0 ||
        value.back() != '>')
      continue;
    const std::string name =
        value.substr(prefix.size(), value.size() - prefix.size() - 1);
    if (std::all_of(name.begin(), name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        }))
      return name;
  }
  return value;
}

Result<FieldChange> changeField(const std::string &attributeText,
                                Result<Attribute> written, const Field &field,
                                const std::optional<std::string> &given) {
  // A bare intrinsic or pipeline name, as a person types it.
  const std::optional<std::string> value =
      spelledValue(attributeText, field, given);
  if (field.part == ConfigPart::Decomposition)
    return changeDecomposition(std::move(written), field, value);
  if (attributeText.rfind("#iree_codegen.compilation_info", 0) != 0)
    return changeHalf(attributeText, std::move(written), field, value);
  // Both halves live in the compilation info: change one, print the whole.
  if (!written)
    return Error{field.name() + ": " + written.error()};
  auto info = config::CompilationInfo::fromAttribute(*written);
  if (!info)
    return Error{field.name() + ": " + info.error()};
  Result<FieldChange> change =
      field.part == ConfigPart::LoweringConfig
          ? changeInnerLowering(info->loweringConfig, field, value)
          : changeInnerTranslation(info->translationInfo, field, value);
  if (change)
    change->attribute = info->print();
  return change;
}

} // namespace tilescope::edit
