#include "core/jobs/Report.h"

#include "core/edit/ConfigDiff.h"
#include "core/edit/RootOpContext.h"
#include "core/export/ConfigJson.h"
#include "core/export/DifferenceJson.h"
#include "core/export/DocumentJson.h"

using nlohmann::json;

namespace tilescope::jobs {

json tuningReport(const iree::Document &original, const iree::Document &edited,
                  const std::vector<TryRecord> &tries) {
  json ops = json::array();
  for (size_t d = 0; d < edited.dispatches.size(); ++d) {
    const iree::Dispatch &dispatch = edited.dispatches[d];
    for (size_t o = 0; o < dispatch.rootOps.size(); ++o) {
      const iree::RootOp &op = dispatch.rootOps[o];
      json entry = {{"dispatch", dispatch.name},
                    {"op", op.name},
                    {"line", op.line},
                    {"translation_info", dispatch.translationInfo}};
      if (!op.compilationInfo.empty())
        entry["compilation_info"] = op.compilationInfo;
      else
        entry["lowering_config"] = op.loweringConfig;
      entry["problems"] = exporting::toJson(
          edit::validateRootOp(edit::contextOf(edited, edit::OpRef{d, o})));
      ops.push_back(std::move(entry));
    }
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

} // namespace tilescope::jobs
