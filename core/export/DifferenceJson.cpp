#include "core/export/DifferenceJson.h"

namespace tilescope::exporting {

nlohmann::json differencesJson(const edit::DocumentDifference &difference,
                               const char *beforeKey, const char *afterKey) {
  nlohmann::json ops = nlohmann::json::array();
  for (const edit::OpDifference &op : difference.ops) {
    nlohmann::json fields = nlohmann::json::array();
    for (const edit::FieldDifference &f : op.fields) {
      nlohmann::json field = {
          {"field", f.field}, {beforeKey, f.before}, {afterKey, f.after}};
      // A whole config's parameters, each side's by name.
      if (!f.entries.empty()) {
        nlohmann::json entries = nlohmann::json::array();
        for (const edit::FieldDifference &e : f.entries)
          entries.push_back(
              {{"field", e.field}, {beforeKey, e.before}, {afterKey, e.after}});
        field["entries"] = std::move(entries);
      }
      fields.push_back(std::move(field));
    }
    ops.push_back(
        {{"dispatch", op.dispatch}, {"op", op.op}, {"fields", fields}});
  }
  return ops;
}

} // namespace tilescope::exporting
