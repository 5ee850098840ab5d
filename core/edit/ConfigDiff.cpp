#include "core/edit/ConfigDiff.h"

#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/Attribute.h"
#include "core/edit/OpLayoutInputs.h"

#include <map>
#include <variant>

namespace tilescope::edit {
namespace {

// key -> printed value, in the dictionary's order.
using Entries = std::vector<std::pair<std::string, std::string>>;

void compareEntries(const Entries &a, const Entries &b,
                    const std::string &prefix,
                    std::vector<FieldDifference> &out) {
  std::map<std::string, std::string> inB(b.begin(), b.end());
  std::map<std::string, std::string> inA(a.begin(), a.end());
  for (const auto &[key, value] : a) {
    auto it = inB.find(key);
    const std::string after = it == inB.end() ? "" : it->second;
    if (after != value)
      out.push_back({prefix + key, value, after});
  }
  for (const auto &[key, value] : b)
    if (!inA.count(key))
      out.push_back({prefix + key, "", value});
}

// The GPU lowering config text of an op, "" when it has none.
std::string loweringText(const document::RootOp &op) {
  if (!op.compilationInfo.empty())
    if (auto info = config::CompilationInfo::parse(op.compilationInfo))
      return config::printAttribute(info->loweringConfig);
  return op.loweringConfig;
}

Entries entriesOf(const config::LoweringConfig &cfg) {
  Entries list;
  for (const config::Parameter &p : cfg.dictionary().parameters)
    list.emplace_back(p.name, config::printAttribute(p.value.front()));
  return list;
}

Entries entriesOf(const config::TranslationInfo &info) {
  Entries list;
  list.emplace_back("pipeline", config::printAttribute(info.pipeline()));
  if (info.workgroupSize)
    list.emplace_back("workgroup_size",
                      config::printAttribute(config::Attribute::integerArray(
                          *info.workgroupSize)));
  if (info.subgroupSize)
    list.emplace_back("subgroup_size", std::to_string(*info.subgroupSize));
  if (info.codegenSpec)
    list.emplace_back("codegen_spec",
                      config::printAttribute(*info.codegenSpec));
  if (info.configuration)
    for (const config::Parameter &p : info.configuration->parameters)
      list.emplace_back(p.name, config::printAttribute(p.value.front()));
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
      for (auto &[key, value] : entriesOf(**half))
        list.emplace_back(prefix + key, std::move(value));
  return list;
}

std::string opLabel(const document::RootOp &op) {
  return op.name + " (line " + std::to_string(op.line) + ")";
}

} // namespace

std::vector<FieldValue> opFields(const document::Dispatch &dispatch,
                                 const document::RootOp &op) {
  std::vector<FieldValue> fields;
  // The configs as the document read them (compilation_info holds both).
  std::optional<config::LoweringConfig> cfg;
  std::optional<config::TranslationInfo> info;
  if (!op.compilationInfo.empty()) {
    const auto compilation = document::compilationReadingOf(op);
    if (compilation->model()) {
      if (auto inner = config::LoweringConfig::fromAttribute(
              compilation->model()->loweringConfig))
        cfg = std::move(*inner);
      info = compilation->model()->translationInfo;
    }
  } else {
    const auto lowering = document::loweringReadingOf(op);
    if (lowering->model())
      cfg = *lowering->model();
    const auto translation = document::translationReadingOf(dispatch);
    if (translation->model())
      info = *translation->model();
  }
  if (cfg)
    for (auto &[key, value] : entriesOf(*cfg))
      fields.push_back({key, value});
  for (auto &[key, value] : decompositionEntries(op))
    fields.push_back({key, value});
  if (info)
    for (auto &[key, value] : entriesOf(*info))
      fields.push_back({"translation_info." + key, value});
  return fields;
}

std::vector<FieldDifference>
loweringConfigDifferences(const document::RootOp &a,
                          const document::RootOp &b) {
  std::vector<FieldDifference> out;
  if (a.decompositionConfig != b.decompositionConfig)
    compareEntries(decompositionEntries(a), decompositionEntries(b), "", out);
  const std::string textA = loweringText(a), textB = loweringText(b);
  if (textA == textB)
    return out;
  auto configA = config::LoweringConfig::parse(textA);
  auto configB = config::LoweringConfig::parse(textB);
  if (!configA || !configB) {
    out.push_back({"lowering_config", textA, textB});
    return out;
  }
  compareEntries(entriesOf(*configA), entriesOf(*configB), "", out);
  return out;
}

std::vector<FieldDifference> translationInfoDifferences(const std::string &a,
                                                        const std::string &b) {
  std::vector<FieldDifference> out;
  if (a == b)
    return out;
  auto infoA = config::TranslationInfo::parse(a);
  auto infoB = config::TranslationInfo::parse(b);
  if (!infoA || !infoB) {
    out.push_back({"translation_info", a, b});
    return out;
  }
  compareEntries(entriesOf(*infoA), entriesOf(*infoB), "translation_info.",
                 out);
  return out;
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
    auto translation =
        translationInfoDifferences(a.translationInfo, b.translationInfo);
    if (!translation.empty())
      result.ops.push_back({a.name, "", std::move(translation)});
    const size_t ops = std::max(a.rootOps.size(), b.rootOps.size());
    for (size_t k = 0; k < ops; ++k) {
      if (k >= a.rootOps.size() || k >= b.rootOps.size()) {
        const document::RootOp &only =
            k < a.rootOps.size() ? a.rootOps[k] : b.rootOps[k];
        result.ops.push_back(
            {a.name,
             opLabel(only),
             {{"root op", k < a.rootOps.size() ? only.name : "",
               k < b.rootOps.size() ? only.name : ""}}});
        continue;
      }
      std::vector<FieldDifference> fields =
          loweringConfigDifferences(a.rootOps[k], b.rootOps[k]);
      // A compilation_info's translation_info differs too.
      auto inner = [](const document::RootOp &op) {
        if (op.compilationInfo.empty())
          return std::string();
        auto info = config::CompilationInfo::parse(op.compilationInfo);
        return info ? info->translationInfo.print() : op.compilationInfo;
      };
      for (FieldDifference &d :
           translationInfoDifferences(inner(a.rootOps[k]), inner(b.rootOps[k])))
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
