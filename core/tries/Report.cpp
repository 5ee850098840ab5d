#include "core/tries/Report.h"

#include "core/edit/ConfigDiff.h"
#include "core/edit/RootOpContext.h"
#include "core/export/ConfigJson.h"
#include "core/export/DifferenceJson.h"
#include "core/export/DocumentJson.h"
#include "core/tries/History.h"
#include "core/tries/TriedConfigs.h"

using nlohmann::json;

namespace tilescope::tries {

json tuningReport(const document::Document &original,
                  const document::Document &edited,
                  const std::vector<TryRecord> &tries) {
  // Each root op's configs as the history keeps them, with its problems.
  json ops = json::array();
  for (const OpConfigs &op : configsOf(edited)) {
    json entry = toJson(op);
    entry["problems"] = exporting::toJson(
        edit::ruleVerdict(
            edit::contextOf(edited, edit::OpRef{op.dispatchIndex, op.opIndex}))
            .problems);
    ops.push_back(std::move(entry));
  }
  const edit::DocumentDifference edits =
      edit::documentDifferences(original, edited);
  json triesJson = json::array();
  for (const TryRecord &record : tries)
    triesJson.push_back(toJson(record));
  return {{"tilescope_report", 1},
          {"file", edited.path.string()},
          {"document", exporting::toJson(edited)},
          {"ops", ops},
          {"edits", exporting::differencesJson(edits, "original", "edited")},
          {"tries", triesJson}};
}

} // namespace tilescope::tries
