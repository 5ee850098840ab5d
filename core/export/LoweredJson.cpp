#include "core/export/LoweredJson.h"

namespace tilescope::exporting {
namespace {

using nlohmann::json;

json toJson(const std::optional<document::AnchorLayout> &anchor) {
  if (!anchor)
    return nullptr;
  return {{"layout", anchor->layout},
          {"shape", anchor->shape},
          {"elementType", anchor->elementType},
          {"sharedMemoryConversion", anchor->sharedMemoryConversion}};
}

std::vector<std::optional<document::AnchorLayout>>
anchorsFrom(const json &value) {
  std::vector<std::optional<document::AnchorLayout>> anchors;
  for (const json &entry : value) {
    if (entry.is_null()) {
      anchors.emplace_back();
      continue;
    }
    document::AnchorLayout anchor;
    anchor.layout = entry.at("layout").get<std::string>();
    anchor.shape = entry.at("shape").get<std::vector<int64_t>>();
    anchor.elementType = entry.at("elementType").get<std::string>();
    anchor.sharedMemoryConversion =
        entry.at("sharedMemoryConversion").get<std::string>();
    anchors.push_back(std::move(anchor));
  }
  return anchors;
}

} // namespace

json toJson(const document::LoweredFunction &function) {
  json ops = json::array();
  for (const document::AnchoredOp &op : function.anchoredOps) {
    json operands = json::array(), results = json::array();
    for (const auto &anchor : op.operands)
      operands.push_back(toJson(anchor));
    for (const auto &anchor : op.results)
      results.push_back(toJson(anchor));
    ops.push_back({{"name", op.name},
                   {"loweringConfig", op.loweringConfig},
                   {"operands", operands},
                   {"results", results},
                   {"iteratorTypes", op.iteratorTypes}});
  }
  json foralls = json::array();
  for (const document::ForallLoop &loop : function.foralls)
    foralls.push_back({{"lowerBounds", loop.lowerBounds},
                       {"upperBounds", loop.upperBounds},
                       {"steps", loop.steps},
                       {"mapping", loop.mapping}});
  return {{"name", function.name}, {"anchoredOps", ops}, {"foralls", foralls}};
}

Result<document::LoweredFunction> loweredFunctionFromJson(const json &value) {
  try {
    document::LoweredFunction function;
    function.name = value.at("name").get<std::string>();
    for (const json &entry : value.at("anchoredOps")) {
      document::AnchoredOp op;
      op.name = entry.at("name").get<std::string>();
      op.loweringConfig = entry.at("loweringConfig").get<std::string>();
      op.operands = anchorsFrom(entry.at("operands"));
      op.results = anchorsFrom(entry.at("results"));
      op.iteratorTypes =
          entry.at("iteratorTypes").get<std::vector<std::string>>();
      function.anchoredOps.push_back(std::move(op));
    }
    for (const json &entry : value.at("foralls")) {
      document::ForallLoop loop;
      loop.lowerBounds = entry.at("lowerBounds").get<std::vector<int64_t>>();
      loop.upperBounds = entry.at("upperBounds").get<std::vector<int64_t>>();
      loop.steps = entry.at("steps").get<std::vector<int64_t>>();
      loop.mapping = entry.at("mapping").get<std::vector<std::string>>();
      function.foralls.push_back(std::move(loop));
    }
    return function;
  } catch (const json::exception &error) {
    return Error{std::string("a lowered function that does not read back: ") +
                 error.what()};
  }
}

} // namespace tilescope::exporting
