#include "core/tries/TriedCheck.h"

#include "core/service/UntrustedFiles.h"

#include <algorithm>
#include <cmath>
#include <limits>

using nlohmann::json;

namespace tilescope::tries {
namespace {

constexpr long long kMostCount = std::numeric_limits<long long>::max();

// A number the JSON holds; NaN where it holds none (a NaN or an infinity is
// written as null).
double numberOrNaN(const json &in, std::string_view key) {
  return service::numberField(in, key).value_or(
      std::numeric_limits<double>::quiet_NaN());
}

double nonNegative(const json &in, std::string_view key) {
  return std::max(0.0, service::numberField(in, key).value_or(0));
}

json toJson(const CheckedOutput &output) {
  json mismatches = json::array();
  for (const run::Mismatch &m : output.firstMismatches)
    mismatches.push_back(
        {{"index", m.index}, {"value", m.value}, {"reference", m.reference}});
  return {{"index", output.index},
          {"type", output.type},
          {"passed", output.passed},
          {"mismatches", output.mismatches},
          {"max_abs_error", output.maxAbsoluteError},
          {"max_rel_error", output.maxRelativeError},
          {"tolerance",
           {{"absolute", output.tolerance.absolute},
            {"relative", output.tolerance.relative}}},
          {"first_mismatches", mismatches}};
}

CheckedOutput checkedOutputOf(const json &in) {
  CheckedOutput output;
  output.index = static_cast<int>(
      service::integerField(in, "index", 0, std::numeric_limits<int>::max())
          .value_or(0));
  output.type = service::stringField(in, "type");
  output.passed = service::flagField(in, "passed");
  output.mismatches =
      service::integerField(in, "mismatches", 0, kMostCount).value_or(0);
  output.maxAbsoluteError = numberOrNaN(in, "max_abs_error");
  output.maxRelativeError = numberOrNaN(in, "max_rel_error");
  if (const json *tolerance = service::objectField(in, "tolerance")) {
    output.tolerance.absolute = nonNegative(*tolerance, "absolute");
    output.tolerance.relative = nonNegative(*tolerance, "relative");
  }
  if (const auto first = in.find("first_mismatches");
      first != in.end() && first->is_array())
    for (const json &m : *first) {
      if (!m.is_object())
        continue;
      run::Mismatch mismatch;
      if (const auto index = m.find("index");
          index != m.end() && index->is_array())
        for (const json &i : *index)
          if (i.is_number_integer())
            mismatch.index.push_back(i.get<int64_t>());
      mismatch.value = numberOrNaN(m, "value");
      mismatch.reference = numberOrNaN(m, "reference");
      output.firstMismatches.push_back(std::move(mismatch));
    }
  return output;
}

} // namespace

TriedCheck triedCheckOf(const run::CheckResult &check) {
  TriedCheck c;
  c.directory = check.directory.string();
  c.backend = check.backend;
  c.device = check.device;
  c.function = check.function;
  c.commands = check.commands;
  for (const run::OutputCheck &output : check.outputs) {
    const run::TensorComparison &comparison = output.comparison;
    c.outputs.push_back(
        {output.index, comparison.type.toString(), comparison.passed(),
         static_cast<long long>(comparison.mismatches),
         comparison.maxAbsoluteError, comparison.maxRelativeError,
         comparison.tolerance, comparison.firstMismatches});
  }
  c.summary = check.summary();
  c.seconds = check.elapsed.count() / 1000.0;
  if (check.hasVerdict())
    c.passed = check.passed();
  if (!check.error.empty()) {
    c.failedStep = check.failedStep;
    c.error = check.error;
  }
  return c;
}

json toJson(const TriedCheck &c) {
  json outputs = json::array();
  for (const CheckedOutput &output : c.outputs)
    outputs.push_back(toJson(output));
  json out = {{"directory", c.directory}, {"backend", c.backend},
              {"device", c.device},       {"function", c.function},
              {"commands", c.commands},   {"outputs", outputs},
              {"summary", c.summary},     {"seconds", c.seconds}};
  out["passed"] = c.passed ? json(*c.passed) : json(nullptr);
  if (!c.error.empty()) {
    out["failed_step"] = c.failedStep;
    out["error"] = c.error;
  }
  return out;
}

std::optional<TriedCheck> triedCheckFromJson(const json &in) {
  if (!in.is_object())
    return std::nullopt;
  TriedCheck c;
  c.directory = service::stringField(in, "directory");
  c.backend = service::stringField(in, "backend");
  c.device = service::stringField(in, "device");
  c.function = service::stringField(in, "function");
  c.commands = service::stringsField(in, "commands");
  if (const auto outputs = in.find("outputs");
      outputs != in.end() && outputs->is_array())
    for (const json &output : *outputs)
      if (output.is_object())
        c.outputs.push_back(checkedOutputOf(output));
  c.summary = service::stringField(in, "summary");
  c.seconds = nonNegative(in, "seconds");
  if (const auto passed = in.find("passed");
      passed != in.end() && passed->is_boolean())
    c.passed = passed->get<bool>();
  c.failedStep = service::stringField(in, "failed_step");
  c.error = service::stringField(in, "error");
  return c;
}

} // namespace tilescope::tries
