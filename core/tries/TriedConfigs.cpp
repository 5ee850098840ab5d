#include "core/tries/TriedConfigs.h"

#include "core/service/UntrustedFiles.h"
#include "core/util/Numbers.h"

#include <algorithm>
#include <limits>
#include <map>

using nlohmann::json;

namespace tilescope::tries {

const std::string &OpConfigs::config() const {
  return compilationInfo.empty() ? loweringConfig : compilationInfo;
}

TriedConfigs configsOf(const document::Document &document) {
  TriedConfigs configs;
  for (size_t d = 0; d < document.dispatches.size(); ++d) {
    const document::Dispatch &dispatch = document.dispatches[d];
    for (size_t k = 0; k < dispatch.rootOps.size(); ++k) {
      const document::RootOp &op = dispatch.rootOps[k];
      configs.push_back({d, k, dispatch.name, op.name, op.line,
                         dispatch.translationInfo, op.loweringConfig,
                         op.compilationInfo});
    }
  }
  return configs;
}

json toJson(const OpConfigs &op) {
  json entry = {{"dispatch", op.dispatch},
                {"op", op.opName},
                {"line", op.line},
                {"translation_info", op.translationInfo}};
  if (!op.loweringConfig.empty())
    entry["lowering_config"] = op.loweringConfig;
  if (!op.compilationInfo.empty())
    entry["compilation_info"] = op.compilationInfo;
  return entry;
}

json toJson(const TriedConfigs &configs) {
  json out = json::object();
  for (const OpConfigs &op : configs)
    out[std::to_string(op.dispatchIndex) + ":" + std::to_string(op.opIndex)] =
        toJson(op);
  return out;
}

namespace {

std::optional<size_t> indexOf(const std::string &text) {
  auto value = parseInt64(text);
  if (!value || *value < 0)
    return std::nullopt;
  return static_cast<size_t>(*value);
}

} // namespace

TriedConfigs configsFromJson(const json &configs) {
  TriedConfigs out;
  if (!configs.is_object())
    return out;
  for (const auto &[key, entry] : configs.items()) {
    const size_t colon = key.find(':');
    if (colon == std::string::npos || !entry.is_object())
      continue;
    auto d = indexOf(key.substr(0, colon));
    auto k = indexOf(key.substr(colon + 1));
    if (!d || !k)
      continue;
    OpConfigs op;
    op.dispatchIndex = *d;
    op.opIndex = *k;
    op.dispatch = service::stringField(entry, "dispatch");
    op.opName = service::stringField(entry, "op");
    op.line = static_cast<int>(
        service::integerField(entry, "line", 0, std::numeric_limits<int>::max())
            .value_or(0));
    op.translationInfo = service::stringField(entry, "translation_info");
    op.loweringConfig = service::stringField(entry, "lowering_config");
    op.compilationInfo = service::stringField(entry, "compilation_info");
    out.push_back(std::move(op));
  }
  // The object's keys come sorted as text ("10:0" before "2:0"): back to
  // the document's order.
  std::stable_sort(out.begin(), out.end(),
                   [](const OpConfigs &a, const OpConfigs &b) {
                     return std::pair{a.dispatchIndex, a.opIndex} <
                            std::pair{b.dispatchIndex, b.opIndex};
                   });
  return out;
}

document::Document documentFromConfigs(const TriedConfigs &configs) {
  document::Document document;
  std::map<std::string, size_t> dispatchIndex;
  for (const OpConfigs &tried : configs) {
    auto [it, inserted] =
        dispatchIndex.emplace(tried.dispatch, document.dispatches.size());
    if (inserted) {
      document::Dispatch dispatch;
      dispatch.name = tried.dispatch;
      dispatch.translationInfo = tried.translationInfo;
      document.dispatches.push_back(std::move(dispatch));
    }
    document::RootOp op;
    op.name = tried.opName;
    op.line = tried.line;
    op.loweringConfig = tried.loweringConfig;
    op.compilationInfo = tried.compilationInfo;
    document.dispatches[it->second].rootOps.push_back(std::move(op));
  }
  document::readConfigs(document);
  return document;
}

bool holdsConfigs(const TriedConfigs &configs, size_t opIndex,
                  const std::string &config,
                  const std::string &translationInfo) {
  return std::any_of(configs.begin(), configs.end(), [&](const OpConfigs &op) {
    return op.opIndex == opIndex && op.config() == config &&
           op.translationInfo == translationInfo;
  });
}

} // namespace tilescope::tries
