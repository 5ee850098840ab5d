#include "core/edit/ConfigDiff.h"

#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/Attribute.h"
#include "core/edit/OpLayoutInputs.h"

#include <algorithm>
#include <map>
#include <memory>
#include <variant>

namespace tilescope::edit {
namespace {

// In the dictionary's order.
using Entries = std::vector<FieldEntry>;

FieldEntry entry(std::string key, config::Attribute value) {
  std::string text = config::printAttribute(value);
  return {std::move(key), std::move(value), std::move(text)};
}

// Compared as printed: what a person reads, whatever the spelling read.
void compareEntries(const Entries &a, const Entries &b,
                    const std::string &prefix,
                    std::vector<FieldDifference> &out) {
  auto printed = [](const Entries &entries) {
    std::vector<std::pair<std::string, std::string>> list;
    for (const FieldEntry &e : entries)
      list.emplace_back(e.field, e.text);
    return list;
  };
  const auto listA = printed(a), listB = printed(b);
  std::map<std::string, std::string> inB(listB.begin(), listB.end());
  std::map<std::string, std::string> inA(listA.begin(), listA.end());
  for (const auto &[key, value] : listA) {
    auto it = inB.find(key);
    const std::string after = it == inB.end() ? "" : it->second;
    if (after != value)
      out.push_back({prefix + key, value, after, {}});
  }
  for (const auto &[key, value] : listB)
    if (!inA.count(key))
      out.push_back({prefix + key, "", value, {}});
}

// A config as the document read it: its text (what two versions are first
// compared by, and shown whole where it does not read) and its model.
template <class Model> struct ReadConfig {
  ReadConfig(std::string text = {}, std::optional<Model> model = {})
      : text(std::move(text)), model(std::move(model)) {}
  std::string text;
  std::optional<Model> model;
  // The attribute as written, where it parsed, and the reading that owns it.
  const config::Attribute *attribute = nullptr;
  std::shared_ptr<const void> owner;
};

// `read`'s attribute as `reading` parsed it.
template <class Model, class Reading>
void keepAttribute(ReadConfig<Model> &read,
                   const std::shared_ptr<const Reading> &reading) {
  if (const auto &written = reading->written()) {
    read.attribute = &*written;
    read.owner = reading;
  }
}

// An op's GPU lowering config: its compilation_info's (printed: the text
// two versions are compared by) or its own.
ReadConfig<config::LoweringConfig> loweringOf(const document::RootOp &op) {
  if (!op.compilationInfo.empty()) {
    const auto compilation = document::compilationReadingOf(op);
    if (const auto &info = compilation->model()) {
      ReadConfig<config::LoweringConfig> read{
          config::printAttribute(info->loweringConfig), std::nullopt};
      if (auto inner =
              config::LoweringConfig::fromAttribute(info->loweringConfig))
        read.model = std::move(*inner);
      read.attribute = &info->loweringConfig;
      read.owner = compilation;
      return read;
    }
  }
  ReadConfig<config::LoweringConfig> read{op.loweringConfig, std::nullopt};
  // The reading held: one made now (a text set without readConfigs) lives
  // only as long as this pointer.
  const auto reading = document::loweringReadingOf(op);
  if (const auto &model = reading->model())
    read.model = *model;
  keepAttribute(read, reading);
  return read;
}

// The translation_info of an op's compilation_info (printed), none where it
// has none.
ReadConfig<config::TranslationInfo>
compilationTranslationOf(const document::RootOp &op) {
  if (op.compilationInfo.empty())
    return {};
  const auto compilation = document::compilationReadingOf(op);
  if (const auto &info = compilation->model())
    return {info->translationInfo.print(), info->translationInfo};
  ReadConfig<config::TranslationInfo> read{op.compilationInfo, std::nullopt};
  keepAttribute(read, compilation);
  return read;
}

ReadConfig<config::TranslationInfo>
translationOf(const document::Dispatch &dispatch) {
  ReadConfig<config::TranslationInfo> read{dispatch.translationInfo,
                                           std::nullopt};
  const auto reading = document::translationReadingOf(dispatch);
  if (const auto &model = reading->model())
    read.model = *model;
  keepAttribute(read, reading);
  return read;
}

Entries entriesOf(const config::LoweringConfig &cfg) {
  Entries list;
  for (const config::Parameter &p : cfg.dictionary().parameters)
    list.push_back(entry(p.name, p.get()));
  return list;
}

Entries entriesOf(const config::TranslationInfo &info) {
  Entries list;
  list.push_back(entry("pipeline", info.pipeline()));
  if (info.workgroupSize)
    list.push_back(entry("workgroup_size",
                         config::Attribute::integerArray(*info.workgroupSize)));
  // The number alone, as a person types it (an integer attribute alone
  // prints typed: "32 : i64").
  if (info.subgroupSize)
    list.push_back({"subgroup_size",
                    config::Attribute::integer(*info.subgroupSize),
                    std::to_string(*info.subgroupSize)});
  if (info.codegenSpec)
    list.push_back(entry("codegen_spec", *info.codegenSpec));
  if (info.configuration)
    for (const config::Parameter &p : info.configuration->parameters)
      list.push_back(entry(p.name, p.get()));
  return list;
}

// Attention's qk and pv lowering configs, entry by entry, each key
// prefixed "qk_attrs." / "pv_attrs." (the names set-config takes).
Entries decompositionEntries(const document::RootOp &op) {
  Entries list;
  if (op.decompositionConfig.empty())
    return list;
  auto decomposition = decompositionOf(op);
  if (!decomposition)
    return list;
  for (const auto &[prefix, half] :
       {std::pair{"qk_attrs.", &decomposition->qk},
        std::pair{"pv_attrs.", &decomposition->pv}})
    if (*half)
      for (FieldEntry &e : entriesOf(**half)) {
        e.field = prefix + e.field;
        list.push_back(std::move(e));
      }
  return list;
}

std::string opLabel(const document::RootOp &op) {
  return op.name + " (line " + std::to_string(op.line) + ")";
}

} // namespace

std::vector<FieldEntry> opFieldEntries(const document::Dispatch &dispatch,
                                       const document::RootOp &op) {
  Entries fields;
  // The configs as the document read them (compilation_info holds both).
  const std::optional<config::LoweringConfig> cfg = loweringOf(op).model;
  const std::optional<config::TranslationInfo> info =
      op.compilationInfo.empty() ? translationOf(dispatch).model
                                 : compilationTranslationOf(op).model;
  if (cfg)
    fields = entriesOf(*cfg);
  for (auto &entry : decompositionEntries(op))
    fields.push_back(std::move(entry));
  if (info)
    for (FieldEntry &e : entriesOf(*info)) {
      e.field = "translation_info." + e.field;
      fields.push_back(std::move(e));
    }
  return fields;
}

std::vector<FieldValue> opFields(const document::Dispatch &dispatch,
                                 const document::RootOp &op) {
  std::vector<FieldValue> fields;
  for (FieldEntry &e : opFieldEntries(dispatch, op))
    fields.push_back({std::move(e.field), std::move(e.text)});
  return fields;
}

namespace {

std::optional<FieldEntry> entryNamed(Entries list, std::string_view field) {
  for (FieldEntry &e : list)
    if (e.field == field)
      return std::move(e);
  return std::nullopt;
}

std::optional<FieldEntry> parameterNamed(const config::LoweringConfig &cfg,
                                         const std::string &name) {
  if (const config::Attribute *value = cfg.get(name))
    return entry(name, *value);
  return std::nullopt;
}

} // namespace

// The one field asked for, found where it lives: not every field of the op
// copied and printed (a sweep asks per knob and per candidate).
std::optional<FieldEntry> opField(const document::Dispatch &dispatch,
                                  const document::RootOp &op,
                                  const std::string &field) {
  constexpr std::string_view kTranslation = "translation_info.";
  if (field.starts_with(kTranslation)) {
    const std::optional<config::TranslationInfo> info =
        op.compilationInfo.empty() ? translationOf(dispatch).model
                                   : compilationTranslationOf(op).model;
    auto found =
        info ? entryNamed(entriesOf(*info), field.substr(kTranslation.size()))
             : std::nullopt;
    if (found)
      found->field = field;
    return found;
  }
  if (field.starts_with("qk_attrs.") || field.starts_with("pv_attrs."))
    return entryNamed(decompositionEntries(op), field);
  if (!op.compilationInfo.empty()) {
    const std::optional<config::LoweringConfig> cfg = loweringOf(op).model;
    return cfg ? parameterNamed(*cfg, field) : std::nullopt;
  }
  const auto reading = document::loweringReadingOf(op);
  const auto &cfg = reading->model();
  return cfg ? parameterNamed(*cfg, field) : std::nullopt;
}

namespace {

// A dialect attribute's parameters, printed; none for anything else.
std::vector<std::pair<std::string, std::string>>
parametersOf(const config::Attribute *attribute) {
  std::vector<std::pair<std::string, std::string>> list;
  if (attribute && attribute->is(config::Attribute::Kind::Dialect))
    for (const config::Parameter &p : attribute->parameters)
      list.emplace_back(p.name, config::printAttribute(p.get()));
  return list;
}

// Two whole attributes' parameters by name, a's order then b's new ones.
std::vector<FieldDifference> parameterEntries(const config::Attribute *a,
                                              const config::Attribute *b) {
  const auto listA = parametersOf(a), listB = parametersOf(b);
  std::vector<FieldDifference> entries;
  auto valueIn = [](const auto &list, const std::string &name) {
    for (const auto &[key, value] : list)
      if (key == name)
        return value;
    return std::string();
  };
  for (const auto &[key, value] : listA)
    entries.push_back({key, value, valueIn(listB, key), {}});
  for (const auto &[key, value] : listB)
    if (std::none_of(listA.begin(), listA.end(),
                     [&](const auto &e) { return e.first == key; }))
      entries.push_back({key, "", value, {}});
  return entries;
}

// Two versions of a config, entry by entry; whole where either does not
// read.
template <class Model>
std::vector<FieldDifference>
differences(const ReadConfig<Model> &a, const ReadConfig<Model> &b,
            const std::string &whole, const std::string &prefix) {
  std::vector<FieldDifference> out;
  if (a.text == b.text)
    return out;
  if (!a.model || !b.model) {
    out.push_back(
        {whole, a.text, b.text, parameterEntries(a.attribute, b.attribute)});
    return out;
  }
  compareEntries(entriesOf(*a.model), entriesOf(*b.model), prefix, out);
  return out;
}

} // namespace

std::vector<FieldDifference>
loweringConfigDifferences(const document::RootOp &a,
                          const document::RootOp &b) {
  std::vector<FieldDifference> out;
  if (a.decompositionConfig != b.decompositionConfig)
    compareEntries(decompositionEntries(a), decompositionEntries(b), "", out);
  for (FieldDifference &d :
       differences(loweringOf(a), loweringOf(b), "lowering_config", ""))
    out.push_back(std::move(d));
  return out;
}

std::vector<FieldDifference>
translationInfoDifferences(const document::Dispatch &a,
                           const document::Dispatch &b) {
  return differences(translationOf(a), translationOf(b), "translation_info",
                     "translation_info.");
}

DocumentDifference documentDifferences(const document::Document &before,
                                       const document::Document &after,
                                       LinesFrom lines) {
  DocumentDifference result;
  std::map<std::string, size_t> afterByName;
  for (size_t i = 0; i < after.dispatches.size(); ++i)
    afterByName.emplace(after.dispatches[i].name, i);
  std::map<std::string, size_t> beforeByName;
  for (size_t i = 0; i < before.dispatches.size(); ++i)
    beforeByName.emplace(before.dispatches[i].name, i);
  std::vector<bool> matched(after.dispatches.size(), false);
  for (size_t i = 0; i < before.dispatches.size(); ++i) {
    const document::Dispatch &a = before.dispatches[i];
    // By name; else by position, if that one is not another's namesake.
    size_t j = after.dispatches.size();
    if (auto it = afterByName.find(a.name); it != afterByName.end())
      j = it->second;
    else if (i < after.dispatches.size() &&
             !beforeByName.count(after.dispatches[i].name))
      j = i;
    if (j >= after.dispatches.size() || matched[j]) {
      result.onlyBefore.push_back(a.name);
      continue;
    }
    matched[j] = true;
    const document::Dispatch &b = after.dispatches[j];
    auto translation = translationInfoDifferences(a, b);
    if (!translation.empty())
      result.ops.push_back({a.name, "", std::move(translation)});
    const size_t ops = std::max(a.rootOps.size(), b.rootOps.size());
    for (size_t k = 0; k < ops; ++k) {
      if (k >= a.rootOps.size() || k >= b.rootOps.size()) {
        const document::RootOp &only =
            k < a.rootOps.size() ? a.rootOps[k] : b.rootOps[k];
        result.ops.push_back({a.name,
                              opLabel(only),
                              {{"root op",
                                k < a.rootOps.size() ? only.name : "",
                                k < b.rootOps.size() ? only.name : "",
                                {}}}});
        continue;
      }
      std::vector<FieldDifference> fields =
          loweringConfigDifferences(a.rootOps[k], b.rootOps[k]);
      // A compilation_info's translation_info differs too.
      for (FieldDifference &d :
           differences(compilationTranslationOf(a.rootOps[k]),
                       compilationTranslationOf(b.rootOps[k]),
                       "translation_info", "translation_info."))
        fields.push_back(std::move(d));
      if (!fields.empty())
        result.ops.push_back(
            {a.name,
             opLabel(lines == LinesFrom::After ? b.rootOps[k] : a.rootOps[k]),
             std::move(fields)});
    }
  }
  for (size_t j = 0; j < after.dispatches.size(); ++j)
    if (!matched[j])
      result.onlyAfter.push_back(after.dispatches[j].name);
  return result;
}

} // namespace tilescope::edit
