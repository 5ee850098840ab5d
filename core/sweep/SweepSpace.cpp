#include "core/sweep/SweepSpace.h"

#include "core/config/configs/LoweringConfig.h"
#include "core/config/smt/ConstraintKnobs.h"
#include "core/config/smt/SmtProgram.h"
#include "core/config/syntax/Attribute.h"
#include "core/config/syntax/MmaIntrinsicTable.h"
#include "core/service/IreeConstraints.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>

namespace tilescope::sweep {
namespace {

// "workgroup_size[2]" -> ("workgroup_size", {2}).
std::pair<std::string, std::vector<size_t>> splitPath(const std::string &path) {
  const size_t open = path.find('[');
  std::pair<std::string, std::vector<size_t>> split{path.substr(0, open), {}};
  for (size_t at = open; at != std::string::npos; at = path.find('[', at + 1))
    split.second.push_back(
        static_cast<size_t>(std::atoll(path.c_str() + at + 1)));
  return split;
}

// The field a path of IREE's combined dictionary is edited through.
std::string editedField(const std::string &top) {
  if (top.rfind("decomposition_config.", 0) == 0)
    return config::knobFieldName(top); // "qk_attrs.mma_kind"
  if (top == "workgroup_size" || top == "subgroup_size")
    return "translation_info." + top;
  const std::string options = "gpu_pipeline_options.";
  if (top.rfind(options, 0) == 0)
    return "translation_info." + top.substr(options.size());
  return top;
}

// A one_of knob's options in the template, by knob name.
void collectOptions(
    const config::Attribute &attribute,
    std::map<std::string, std::vector<config::Attribute>> &options) {
  if (attribute.isDialect("iree_codegen", "smt.one_of_knob")) {
    const std::vector<const config::Attribute *> p = attribute.positional();
    if (p.size() == 2 && p[1]->is(config::Attribute::Kind::Array)) {
      options[p[0]->text] = p[1]->elements;
    }
    return;
  }
  for (const config::Attribute &element : attribute.elements)
    collectOptions(element, options);
  for (const config::Parameter &parameter : attribute.parameters)
    collectOptions(parameter.get(), options);
}

// Knobs an assert sets outright: `knob == e` at the assert's top.
std::set<std::string> followingKnobs(const config::SmtProgram &program) {
  std::set<std::string> following;
  for (const config::SmtAssert &a : program.asserts) {
    const config::SmtNode &condition =
        program.nodes[static_cast<size_t>(a.condition)];
    if (condition.kind != config::SmtNode::Kind::Eq)
      continue;
    for (int operand : condition.operands) {
      const config::SmtNode &n = program.nodes[static_cast<size_t>(operand)];
      if (n.kind == config::SmtNode::Kind::Knob)
        following.insert(program.variables[static_cast<size_t>(n.index)].name);
    }
  }
  return following;
}

// How far an assignment is from the config: octaves apart for sizes,
// one for a different choice.
double distance(const IreeSpace &space, const std::vector<int64_t> &values) {
  double d = 0;
  for (size_t k = 0; k < values.size(); ++k) {
    const int64_t a = values[k], b = space.current[k];
    if (a == b)
      continue;
    if (a > 0 && b > 0 && space.options[k].empty())
      d += std::abs(std::log2(static_cast<double>(a)) -
                    std::log2(static_cast<double>(b)));
    else
      d += 1;
  }
  return d;
}

const config::MmaTableEntry *tableEntry(const std::string &intrinsic) {
  for (const config::MmaTableEntry &entry : config::mmaIntrinsicTable())
    if (intrinsic == entry.name)
      return &entry;
  return nullptr;
}

// Attention's two intrinsics, as IREE's attention config marks them
// (KernelConfig.cpp): both col_major where Q.K^T's ACC layout (element,
// thread and strides of its lanes) equals P.V's RHS layout, so S reaches
// P.V without a relayout. IREE's template lists the intrinsics without
// col_major; a point of its space changing either gets IREE's marking.
Result<bool> markColMajor(const document::Document &document, edit::OpRef op,
                          std::map<std::string, config::Attribute> &edited,
                          std::vector<std::string> &order) {
  const std::string qkField = "qk_attrs.mma_kind",
                    pvField = "pv_attrs.mma_kind";
  if (!edited.count(qkField) && !edited.count(pvField))
    return true;
  std::map<std::string, config::MmaKind> kinds;
  for (const std::string &field : {qkField, pvField}) {
    std::optional<config::Attribute> attribute =
        edited.count(field) ? std::optional(edited.at(field))
                            : currentAttribute(document, op, field);
    if (!attribute)
      return Error{field + ": the op has none"};
    auto kind = config::mmaKindFromAttribute(*attribute);
    if (!kind)
      return Error{field + ": " + kind.error()};
    kinds.emplace(field, std::move(*kind));
  }
  const config::MmaTableEntry *qk = tableEntry(kinds.at(qkField).intrinsic);
  const config::MmaTableEntry *pv = tableEntry(kinds.at(pvField).intrinsic);
  if (!qk || !pv)
    return true; // no layouts to compare: left as written
  const bool colMajor = qk->acc.element == pv->rhs.element &&
                        qk->acc.thread == pv->rhs.thread &&
                        qk->acc.tstrides == pv->rhs.tstrides;
  for (auto &[field, kind] : kinds) {
    if (!edited.count(field) && kind.colMajor == colMajor)
      continue;
    kind.colMajor = colMajor;
    if (!edited.count(field))
      order.push_back(field);
    edited.insert_or_assign(field, config::mmaKindToAttribute(kind));
  }
  return true;
}

} // namespace

std::string spaceSweepName(const document::Document &document, edit::OpRef op,
                           const std::vector<std::string> &vary,
                           size_t nearest) {
  std::string name = defaultSweepName(document, op, {}) + " iree-space";
  for (const std::string &v : vary)
    name += " " + v;
  return name + " nearest=" + std::to_string(nearest);
}

std::string describe(const IreeSpace &space) {
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.1f", space.listMilliseconds);
  return "IREE's " + space.pipeline + " constraints (" +
         std::to_string(space.assertions) + " asserts) allow " +
         std::to_string(space.space.points.size()) +
         (space.space.truncated ? "+" : "") + " knob assignments (listed in " +
         ms + " ms, " + std::to_string(space.space.visited) +
         " search nodes); the config " +
         (space.currentInSpace ? "is" : "is NOT") + " one of them";
}

Result<SweepPoint> pointOf(const document::Document &document, edit::OpRef op,
                           const IreeSpace &space,
                           const std::vector<int64_t> &values) {
  SweepPoint point;
  std::map<std::string, config::Attribute> edited; // field -> new value
  std::vector<std::string> order;
  // The value at `path`, the field's other entries as they stand.
  auto setAt = [&](const std::string &path,
                   config::Attribute value) -> Result<bool> {
    auto [top, indices] = splitPath(path);
    const std::string field = editedField(top);
    if (indices.empty()) {
      edited.insert_or_assign(field, std::move(value));
      order.push_back(field);
      return true;
    }
    if (!edited.count(field)) {
      auto whole = currentAttribute(document, op, field);
      if (!whole)
        return Error{field + ": the op has none"};
      edited.emplace(field, std::move(*whole));
      order.push_back(field);
    }
    config::Attribute *at = &edited.at(field);
    for (size_t i : indices) {
      if (!at->is(config::Attribute::Kind::Array) || i >= at->elements.size())
        return Error{field + " has no entry " + path};
      at = &at->elements[i];
    }
    *at = std::move(value);
    return true;
  };
  for (size_t k = 0; k < values.size(); ++k) {
    if (values[k] == space.current[k])
      continue;
    config::Attribute value = config::Attribute::integer(values[k]);
    if (!space.options[k].empty()) {
      if (values[k] < 0 ||
          static_cast<size_t>(values[k]) >= space.options[k].size())
        return Error{space.knobs[k] + " = " + std::to_string(values[k]) +
                     " names no option"};
      value = space.options[k][static_cast<size_t>(values[k])];
    }
    for (const std::string &other : space.alsoAt[k])
      if (auto set = setAt(other, value); !set)
        return Error{set.error()};
    if (auto set = setAt(space.paths[k], std::move(value)); !set)
      return Error{set.error()};
  }
  if (auto marked = markColMajor(document, op, edited, order); !marked)
    return Error{marked.error()};
  for (const std::string &field : order)
    if (auto it = edited.find(field); it != edited.end()) {
      // A typed integer option ("0 : i64") reads as its number.
      const std::string text = it->second.is(config::Attribute::Kind::Integer)
                                   ? it->second.text
                                   : config::printAttribute(it->second);
      point.name += (point.name.empty() ? "" : " ") + field + "=" + text;
      point.settings.emplace_back(field, text);
      edited.erase(it);
    }
  point.distance = distance(space, values);
  return point;
}

namespace {

// The constraints IREE states for the op's own pipeline, or why none.
Result<const service::ConstraintSet *>
constraintsOfPipeline(const service::OpConstraintVerdict &op) {
  const service::ConstraintSet *set = nullptr;
  std::string offered;
  for (const service::ConstraintSet &s : op.sets) {
    offered += (offered.empty() ? "" : ", ") + s.pipeline;
    if (s.pipeline == op.pipeline)
      set = &s;
  }
  if (!set)
    return Error{!op.reason.empty()
                     ? op.reason
                     : "IREE states no constraints for the op's " +
                           op.pipeline + " pipeline" +
                           (offered.empty()
                                ? std::string(" (nor any other)")
                                : " (it does for " + offered + ")")};
  if (op.knobs.outcome != config::KnobMatch::Outcome::Matched)
    return Error{"the config does not fit IREE's " + op.pipeline +
                 " knobs template (" + op.knobs.describe() +
                 "), so IREE's constraints do not describe its neighbours"};
  return set;
}

// Asserts where IREE's constraints disagree with its own choice (the IGEMM
// prefetch pin), by the knob they pin.
std::map<std::string, std::vector<size_t>>
disagreeingAsserts(const config::SmtProgram &program) {
  std::map<std::string, std::vector<size_t>> disagreeing;
  for (size_t a = 0; a < program.asserts.size(); ++a) {
    const config::SmtAssert &assertion = program.asserts[a];
    if (!service::isIgemmPrefetchPin(assertion.message))
      continue;
    const config::SmtNode &condition =
        program.nodes[static_cast<size_t>(assertion.condition)];
    for (int operand : condition.operands) {
      const config::SmtNode &n = program.nodes[static_cast<size_t>(operand)];
      if (n.kind == config::SmtNode::Kind::Knob)
        disagreeing[program.variables[static_cast<size_t>(n.index)].name]
            .push_back(a);
    }
  }
  return disagreeing;
}

// Each knob of the program placed in the config and sorted: varied (named
// by the request's `vary`, or all when it names none), following another,
// or held at the config's value (and then pinned in `listing`). A pin of
// IREE's that disagrees with its own choice is dropped (its asserts in
// `dropped`) and the config's value held.
std::optional<Error> sortKnobs(const config::SmtProgram &program,
                               const service::OpConstraintVerdict &op,
                               const config::Attribute &knobsTemplate,
                               const std::vector<std::string> &vary,
                               IreeSpace &space,
                               config::SmtSpaceOptions &listing,
                               std::set<size_t> &dropped) {
  std::map<std::string, std::vector<config::Attribute>> options;
  collectOptions(knobsTemplate, options);
  const std::set<std::string> following = followingKnobs(program);
  const auto disagreeing = disagreeingAsserts(program);
  std::set<std::string> matchedVary;
  for (const config::SmtVariable &variable : program.variables) {
    if (variable.free)
      continue;
    const std::string &name = variable.name;
    const auto value = op.knobs.values.find(name);
    const auto path = op.knobs.paths.find(name);
    if (value == op.knobs.values.end() || path == op.knobs.paths.end())
      return Error{"IREE's constraints use knob '" + name +
                   "', which its template does not place in the config"};
    space.knobs.push_back(name);
    space.fields.push_back(op.knobs.fields.at(name));
    space.paths.push_back(path->second);
    const auto also = op.knobs.alsoAt.find(name);
    space.alsoAt.push_back(also == op.knobs.alsoAt.end()
                               ? std::vector<std::string>{}
                               : also->second);
    space.current.push_back(value->second);
    space.options.push_back(
        options.count(name) ? options[name] : std::vector<config::Attribute>{});
    const std::string top = splitPath(path->second).first;
    const std::string field = editedField(top);
    bool named = false;
    for (const std::string &v : vary)
      if (v == field || v == top || v == path->second ||
          "translation_info." + v == field || v == op.knobs.fields.at(name)) {
        named = true;
        matchedVary.insert(v);
      }
    const bool varied = named || vary.empty();
    if (const auto pins = disagreeing.find(name);
        pins != disagreeing.end() && !named && value->second != 0) {
      // IREE pins it to 0 and chooses (and compiles) the config's value:
      // the neighbours keep the config's prefetching.
      dropped.insert(pins->second.begin(), pins->second.end());
      space.held.push_back(name);
      listing.pinned[name] = value->second;
      space.relaxed.push_back("\"" +
                              program.asserts[pins->second.front()].message +
                              "\" left out: IREE's own config chooses " + name +
                              " = " + std::to_string(value->second) +
                              " and compiles it; the candidates keep it");
    } else if (varied)
      space.varied.push_back(name);
    else if (following.count(name))
      space.following.push_back(name);
    else {
      space.held.push_back(name);
      listing.pinned[name] = value->second;
    }
  }
  for (const std::string &v : vary)
    if (!matchedVary.count(v)) {
      std::string fields;
      for (const std::string &f : space.fields)
        if (fields.find(f) == std::string::npos)
          fields += (fields.empty() ? "" : ", ") + f;
      return Error{"'" + v + "' has no knob in IREE's " + space.pipeline +
                   " constraints (their fields: " + fields + ")"};
    }
  return std::nullopt;
}

// The space's points other than the config, nearest first; only the
// `nearest` kept (0: all) are turned into settings.
std::optional<Error> keepNearest(const IreeSpaceRequest &request,
                                 IreeSpace &space) {
  std::vector<std::pair<double, size_t>> order;
  for (size_t p = 0; p < space.space.points.size(); ++p) {
    if (space.space.points[p] == space.current) {
      space.currentInSpace = true;
      continue;
    }
    order.emplace_back(distance(space, space.space.points[p]), p);
  }
  const size_t kept =
      request.nearest ? std::min(request.nearest, order.size()) : order.size();
  std::partial_sort(order.begin(), order.begin() + static_cast<long>(kept),
                    order.end());
  for (size_t i = 0; i < kept; ++i) {
    auto point = pointOf(*request.document, request.op, space,
                         space.space.points[order[i].second]);
    if (!point)
      return Error{point.error()};
    space.points.push_back(std::move(*point));
  }
  return std::nullopt;
}

} // namespace

Result<IreeSpace> ireeSweepSpace(const tools::IreeInstallation &iree,
                                 const IreeSpaceRequest &request) {
  if (!request.document)
    return Error{"no document"};
  auto verdict = service::ireeConstraintVerdict(
      iree, *request.document, request.timeout, request.cancel, request.op);
  if (!verdict)
    return Error{verdict.error()};
  IreeSpace space;
  space.commands = verdict->commands;
  space.stated = std::make_shared<const service::StatedConstraints>(
      service::StatedConstraints{request.document->text, request.op, *verdict});
  if (verdict->ops.empty())
    return Error{"the op has no GPU lowering_config for IREE's constraints to "
                 "describe"};
  const service::OpConstraintVerdict &op = verdict->ops.front();
  auto set = constraintsOfPipeline(op);
  if (!set)
    return Error{set.error()};
  space.pipeline = (*set)->pipeline;
  space.assertions = (*set)->assertions;

  const auto started = std::chrono::steady_clock::now();
  auto program = config::parseSmtProgram((*set)->body, (*set)->dims);
  if (!program)
    return Error{program.error()};
  config::SmtSpaceOptions listing;
  std::set<size_t> dropped;
  const Result<config::Attribute> &knobsTemplate = (*set)->knobsTemplate;
  if (!knobsTemplate)
    return Error{"IREE's knobs template: " + knobsTemplate.error()};
  if (auto refused = sortKnobs(*program, op, *knobsTemplate, request.vary,
                               space, listing, dropped))
    return *refused;
  for (auto a = dropped.rbegin(); a != dropped.rend(); ++a)
    program->asserts.erase(program->asserts.begin() +
                           static_cast<std::ptrdiff_t>(*a));
  auto listed = config::enumerateSmtSpace(*program, listing);
  if (!listed)
    return Error{listed.error()};
  space.space = std::move(*listed);
  if (auto refused = keepNearest(request, space))
    return *refused;
  space.listMilliseconds = std::chrono::duration<double, std::milli>(
                               std::chrono::steady_clock::now() - started)
                               .count();
  return space;
}

} // namespace tilescope::sweep
