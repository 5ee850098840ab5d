#include "core/export/ProgramReductionsJson.h"

#include "core/export/ConfigJson.h"
#include "core/export/DocumentJson.h"
#include "core/export/detail/FieldReader.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::exporting {

using nlohmann::json;

namespace {

json sizesJson(const std::optional<std::vector<int64_t>> &sizes) {
  return sizes ? json(*sizes) : json(nullptr);
}

// Reads `key` of `value` into `out` through the export area's one strict
// reader (a whole number outside its field's range is refused); the first
// failure names the key.
template <typename T>
void field(const json &value, const char *key, T &out, std::string &error) {
  if (!error.empty())
    return;
  detail::FieldReader reader(value, "");
  reader.read(key, out, true);
  if (!reader.error.empty())
    error = reader.error.substr(1); // without the empty `where`'s space
}

void sizesField(const json &value, const char *key,
                std::optional<std::vector<int64_t>> &out, std::string &error) {
  if (!error.empty())
    return;
  auto it = value.find(key);
  if (it == value.end() || it->is_null()) {
    out.reset();
    return;
  }
  std::vector<int64_t> sizes;
  field(value, key, sizes, error);
  if (error.empty())
    out = std::move(sizes);
}

void sourceField(const json &value,
                 std::optional<document::SourceLocation> &out,
                 std::string &error) {
  if (!error.empty())
    return;
  auto it = value.find("source");
  if (it == value.end() || it->is_null())
    return;
  document::SourceLocation location;
  field(*it, "file", location.file, error);
  field(*it, "line", location.line, error);
  field(*it, "column", location.column, error);
  if (error.empty())
    out = std::move(location);
  else
    error = "source " + error;
}

json factsJson(const config::ReductionFacts &facts) {
  json out = {{"op_name", facts.opName},
              {"iteration_space", toJson(facts.space)},
              {"is_linalg_op", facts.isLinalgOp},
              {"output_first_loop", facts.outputFirstLoop},
              {"static_operand_shapes", facts.staticOperandShapes}};
  out["contraction"] =
      facts.contraction ? toJson(*facts.contraction) : json(nullptr);
  out["convolution"] =
      facts.convolution ? toJson(*facts.convolution) : json(nullptr);
  out["arg_compare_dimension"] = facts.argCompareDimension
                                     ? json(*facts.argCompareDimension)
                                     : json(nullptr);
  return out;
}

std::string factsFrom(const json &value, config::ReductionFacts &facts) {
  std::string error;
  field(value, "op_name", facts.opName, error);
  field(value, "is_linalg_op", facts.isLinalgOp, error);
  field(value, "output_first_loop", facts.outputFirstLoop, error);
  field(value, "static_operand_shapes", facts.staticOperandShapes, error);
  if (!error.empty())
    return error;
  if (!value.contains("iteration_space"))
    return "has no \"iteration_space\"";
  auto space = iterationSpaceFromJson(value["iteration_space"]);
  if (!space)
    return space.error();
  facts.space = std::move(*space);
  if (auto it = value.find("contraction");
      it != value.end() && !it->is_null()) {
    auto dims = contractionDimsFromJson(*it);
    if (!dims)
      return dims.error();
    facts.contraction = std::move(*dims);
  }
  if (auto it = value.find("convolution");
      it != value.end() && !it->is_null()) {
    auto dims = convolutionDimsFromJson(*it);
    if (!dims)
      return dims.error();
    facts.convolution = std::move(*dims);
  }
  if (auto it = value.find("arg_compare_dimension");
      it != value.end() && !it->is_null()) {
    int dimension = 0;
    field(value, "arg_compare_dimension", dimension, error);
    if (!error.empty())
      return error;
    facts.argCompareDimension = dimension;
  }
  return {};
}

} // namespace

json toJson(const document::ProgramReduction &reduction) {
  return {
      {"function", reduction.function},
      {"index", reduction.index},
      {"name", reduction.name},
      {"source", reduction.source ? toJson(*reduction.source) : json(nullptr)},
      {"operand_types", reduction.operandTypes},
      {"facts", factsJson(reduction.facts)},
      {"split", sizesJson(reduction.split)}};
}

Result<document::ProgramReduction> programReductionFromJson(const json &value) {
  if (!value.is_object())
    return Error{"a reduction is not an object"};
  document::ProgramReduction reduction;
  std::string error;
  field(value, "function", reduction.function, error);
  field(value, "index", reduction.index, error);
  field(value, "name", reduction.name, error);
  field(value, "operand_types", reduction.operandTypes, error);
  sourceField(value, reduction.source, error);
  sizesField(value, "split", reduction.split, error);
  if (error.empty()) {
    if (!value.contains("facts"))
      error = "has no \"facts\"";
    else if (std::string failed = factsFrom(value["facts"], reduction.facts);
             !failed.empty())
      error = "facts: " + failed;
  }
  if (!error.empty())
    return Error{"reduction " + error};
  return reduction;
}

json toJson(const document::SplitChoice &choice) {
  return {{"function", choice.function},
          {"index", choice.index},
          {"sizes", sizesJson(choice.sizes)}};
}

Result<document::SplitChoice> splitChoiceFromJson(const json &value) {
  if (!value.is_object())
    return Error{"a split choice is not an object"};
  document::SplitChoice choice;
  std::string error;
  field(value, "function", choice.function, error);
  field(value, "index", choice.index, error);
  sizesField(value, "sizes", choice.sizes, error);
  if (!error.empty())
    return Error{"split choice " + error};
  return choice;
}

json toWorkerJson(const document::FormedDispatch &dispatch) {
  json ops = json::array();
  for (const document::DispatchedOp &op : dispatch.ops)
    ops.push_back({{"name", op.name},
                   {"source", op.source ? toJson(*op.source) : json(nullptr)},
                   {"split", sizesJson(op.split)},
                   {"bounds", op.bounds}});
  return {{"executable", dispatch.executable},
          {"name", dispatch.name},
          {"ops", ops}};
}

Result<document::FormedDispatch> formedDispatchFromJson(const json &value) {
  if (!value.is_object())
    return Error{"a dispatch is not an object"};
  document::FormedDispatch dispatch;
  std::string error;
  field(value, "executable", dispatch.executable, error);
  field(value, "name", dispatch.name, error);
  if (error.empty() && !(value.contains("ops") && value["ops"].is_array()))
    error = "has no \"ops\" array";
  if (error.empty())
    for (const json &entry : value["ops"]) {
      document::DispatchedOp op;
      if (!entry.is_object()) {
        error = "op is not an object";
        break;
      }
      field(entry, "name", op.name, error);
      field(entry, "bounds", op.bounds, error);
      sourceField(entry, op.source, error);
      sizesField(entry, "split", op.split, error);
      if (!error.empty()) {
        error = "op " + error;
        break;
      }
      dispatch.ops.push_back(std::move(op));
    }
  if (!error.empty())
    return Error{"dispatch " + error};
  return dispatch;
}

json toJson(const document::RootOpDag &dag) {
  return {{"function", dag.function},
          {"index", dag.index},
          {"name", dag.name},
          {"line", dag.line},
          {"body", dag.body}};
}

Result<document::RootOpDag> rootOpDagFromJson(const json &value) {
  if (!value.is_object())
    return Error{"a root op is not an object"};
  document::RootOpDag dag;
  std::string error;
  field(value, "function", dag.function, error);
  field(value, "index", dag.index, error);
  field(value, "name", dag.name, error);
  field(value, "line", dag.line, error);
  field(value, "body", dag.body, error);
  if (!error.empty())
    return Error{"root op " + error};
  return dag;
}

} // namespace tilescope::exporting
