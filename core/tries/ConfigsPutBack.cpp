#include "core/tries/ConfigsPutBack.h"

namespace tilescope::tries {

std::vector<ConfigChange> configChanges(const TriedConfigs &configs,
                                        const document::Document &document) {
  std::vector<ConfigChange> changes;
  for (const OpConfigs &tried : configs) {
    const std::string &config = tried.config();
    const std::string &info = tried.translationInfo;
    for (size_t d = 0; d < document.dispatches.size(); ++d) {
      const document::Dispatch &dispatch = document.dispatches[d];
      const size_t k = tried.opIndex;
      if (dispatch.name != tried.dispatch || k >= dispatch.rootOps.size())
        continue;
      const document::RootOp &op = dispatch.rootOps[k];
      if (!config.empty() && config != op.loweringConfig &&
          config != op.compilationInfo)
        changes.push_back({{d, k}, "lowering_config", config});
      // A compilation_info carries its own translation_info.
      if (!info.empty() && op.compilationInfo.empty() &&
          info != dispatch.translationInfo)
        changes.push_back({{d, k}, "translation_info", info});
    }
  }
  return changes;
}

document::Document withConfigs(const TriedConfigs &configs,
                               const document::Document &document) {
  edit::EditableDocument editable(document);
  for (const ConfigChange &change : configChanges(configs, document))
    (void)editable.set(change.op, change.field, change.value);
  return editable.document();
}

} // namespace tilescope::tries
