#include "core/export/DifferenceJson.h"

namespace tilescope::exporting {

nlohmann::json differencesJson(const edit::DocumentDifference &difference,
                               const char *beforeKey, const char *afterKey) {
  nlohmann::json ops = nlohmann::json::array();
  for (const edit::OpDifference &op : difference.ops) {
    nlohmann::json fields = nlohmann::json::array();
    for (const edit::FieldDifference &f : op.fields)
      fields.push_back(
          {{"field", f.field}, {beforeKey, f.before}, {afterKey, f.after}});
    ops.push_back(
        {{"dispatch", op.dispatch}, {"op", op.op}, {"fields", fields}});
  }
  return ops;
}

} // namespace tilescope::exporting
