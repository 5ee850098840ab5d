#include "core/edit/RootOpContext.h"

#include "core/edit/OpLayoutInputs.h"

#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TargetAttribute.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/syntax/Attribute.h"
#include "core/layout/LayoutValidation.h"
#include "core/util/Numbers.h"

#include <algorithm>

namespace tilescope::edit {

RootOpContext contextOf(const document::Document &document, OpRef ref) {
  RootOpContext context;
  if (ref.dispatch >= document.dispatches.size())
    return context;
  const document::Dispatch &dispatch = document.dispatches[ref.dispatch];
  if (ref.op >= dispatch.rootOps.size())
    return context;
  const document::RootOp &op = dispatch.rootOps[ref.op];
  context.dispatch = &dispatch;
  context.op = &op;
  config::ValidationContext &validation = context.validation;
  validation.iterationSpace = op.space;
  // A compute op after the root op in its dispatch consumes what it computes
  // (a bias add, an activation); fills come before it, and producers IREE
  // fuses (a dequantization) too.
  validation.fusedConsumer =
      std::any_of(dispatch.fusedOps.begin(), dispatch.fusedOps.end(),
                  [&](const document::FusedOp &fused) {
                    return fused.line > op.line && fused.name != "linalg.fill";
                  });
  if (op.kind == config::OpKind::Attention && !op.decompositionConfig.empty())
    if (auto decomposition = decompositionOf(op))
      validation.decomposition = std::move(*decomposition);

  // Each config text as the document read it, once (ConfigReading.h): the
  // attribute as written (IREE's parser judges it) and the typed model.
  if (!dispatch.translationInfo.empty()) {
    const auto translation = document::translationReadingOf(dispatch);
    if (translation->written()) {
      validation.translationInfoText = *translation->written();
      if (translation->model())
        validation.translationInfo = *translation->model();
    }
  }
  if (!op.compilationInfo.empty()) {
    const auto compilation = document::compilationReadingOf(op);
    if (compilation->written())
      validation.loweringConfigText = *compilation->written();
    if (const auto &info = compilation->model()) {
      if (!validation.translationInfo)
        validation.translationInfo = info->translationInfo;
      if (auto cfg = info->gpuLoweringConfig())
        context.loweringConfig = *cfg;
      else
        context.loweringConfigError =
            "its compilation_info holds no #iree_gpu.lowering_config";
    } else {
      context.loweringConfigError = info.error();
    }
  } else if (!op.loweringConfig.empty()) {
    const auto lowering = document::loweringReadingOf(op);
    if (lowering->written())
      validation.loweringConfigText = *lowering->written();
    if (!config::isGpuLoweringConfigText(op.loweringConfig)) {
      context.loweringConfigError =
          "not an #iree_gpu.lowering_config (the GPU rules do not apply)";
    } else if (!lowering->written()) {
      context.loweringConfigError = lowering->written().error();
    } else if (lowering->model()) {
      context.loweringConfig = *lowering->model();
    } else {
      context.loweringConfigError = lowering->model().error();
    }
  } else {
    context.loweringConfigError = "the op carries no lowering config";
  }

  if (config::namesGpuTarget(dispatch.target)) {
    if (auto target = config::gpuTargetFromText(dispatch.target))
      context.target = *target;
    else
      context.targetNote = target.error();
  } else if (!dispatch.target.empty()) {
    context.targetNote = "not a GPU target";
  }
  validation.target = context.target;
  return context;
}

std::vector<config::Problem> validateRootOp(const RootOpContext &context) {
  if (!context.loweringConfig)
    return {};
  return layout::validate(*context.loweringConfig, context.validation);
}

const config::Problem *RuleVerdict::firstError() const {
  for (const config::Problem &p : problems)
    if (p.isError())
      return &p;
  return nullptr;
}

size_t RuleVerdict::warnings() const {
  return static_cast<size_t>(
      std::count_if(problems.begin(), problems.end(), [](const auto &p) {
        return p.severity == config::Problem::Severity::Warning;
      }));
}

std::string RuleVerdict::whyNot() const {
  const config::Problem *error = firstError();
  return error ? error->field + ": " + error->message + " [" + error->rule + "]"
               : std::string();
}

RuleVerdict ruleVerdict(const RootOpContext &context) {
  return {validateRootOp(context)};
}

size_t rootOpIndex(const document::Dispatch &dispatch) {
  const auto &ops = dispatch.rootOps;
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].rootOpSet)
      return i;
  // IREE's CPU pipelines mark no root op: the root's config is the one
  // that distributes the dispatch over workgroups (a fill beside it has
  // cache and vector tiles only).
  // The config as read once for the document (document::ConfigReading).
  auto distributes = [&](size_t i, bool cpu) {
    const std::string &text = ops[i].loweringConfig;
    if (cpu ? !config::isCpuLoweringConfigText(text)
            : !config::isGpuLoweringConfigText(text))
      return false;
    const auto reading = document::loweringReadingOf(ops[i]);
    const auto &written = reading->written();
    return written.ok() && config::distributesWorkgroups(*written);
  };
  for (size_t i = 0; i < ops.size(); ++i)
    if (distributes(i, /*cpu=*/true))
      return i;
  // IREE's GPU pipelines distribute the dispatch by the one config with
  // workgroup tiles (a softmax's or a norm's other reductions carry thread
  // and serial tiles only, and run inside its workgroups).
  for (size_t i = 0; i < ops.size(); ++i)
    if (distributes(i, /*cpu=*/false))
      return i;
  // Else the first op that reduces: fills and elementwise ops beside it
  // run on its tiles.
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].space)
      for (size_t dim = 0; dim < ops[i].space->rank(); ++dim)
        if (ops[i].space->isReduction(dim))
          return i;
  return 0;
}

Result<OpRef> findOp(const document::Document &document,
                     const std::string &spec) {
  if (document.dispatches.empty())
    return Error{"the file has no dispatches"};
  std::string dispatchPart = spec;
  std::string opPart;
  if (const size_t colon = spec.rfind(':'); colon != std::string::npos) {
    dispatchPart = spec.substr(0, colon);
    opPart = spec.substr(colon + 1);
  }
  OpRef ref;
  if (auto index = parseInt64(dispatchPart)) {
    if (*index < 0 || static_cast<size_t>(*index) >= document.dispatches.size())
      return Error{"dispatch " + dispatchPart + " is not in the file (it has " +
                   std::to_string(document.dispatches.size()) + ", from 0)"};
    ref.dispatch = static_cast<size_t>(*index);
  } else {
    std::vector<size_t> matches;
    for (size_t i = 0; i < document.dispatches.size(); ++i) {
      const std::string &name = document.dispatches[i].name;
      if (name == dispatchPart) {
        matches = {i};
        break;
      }
      if (name.rfind(dispatchPart, 0) == 0)
        matches.push_back(i);
    }
    if (matches.empty())
      return Error{"no dispatch is named \"" + dispatchPart + "\""};
    if (matches.size() > 1)
      return Error{"\"" + dispatchPart + "\" names " +
                   std::to_string(matches.size()) +
                   " dispatches; give more of the name or an index"};
    ref.dispatch = matches.front();
  }
  const document::Dispatch &dispatch = document.dispatches[ref.dispatch];
  if (opPart.empty()) {
    ref.op = rootOpIndex(dispatch);
    return ref;
  }
  auto op = parseInt64(opPart);
  if (!op || *op < 0 || static_cast<size_t>(*op) >= dispatch.rootOps.size())
    return Error{"@" + dispatch.name + " has no root op \"" + opPart +
                 "\" (it has " + std::to_string(dispatch.rootOps.size()) +
                 ", from 0)"};
  ref.op = static_cast<size_t>(*op);
  return ref;
}

layout::OpCostInputs costInputsOf(const RootOpContext &context) {
  layout::OpCostInputs inputs;
  if (!context.op) {
    inputs.whyNoOp = "no such root op";
    return inputs;
  }
  inputs.validation = &context.validation;
  if (context.target)
    inputs.target = &*context.target;
  inputs.whyNoTarget = context.targetNote;
  if (context.loweringConfig)
    inputs.loweringConfig = &*context.loweringConfig;
  inputs.whyNoConfig = context.loweringConfigError;
  inputs.attention = context.op->kind == config::OpKind::Attention;
  // contextOf read the qk and pv configs; where it could not, why.
  if (inputs.attention && !context.validation.decomposition)
    inputs.whyNoDecomposition = decompositionOf(*context.op).error();
  return inputs;
}

} // namespace tilescope::edit
