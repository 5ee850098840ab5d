#include "core/edit/OpLayoutInputs.h"

#include "core/config/configs/TranslationInfo.h"

namespace tilescope::edit {
namespace {

// The loops IREE's IR gives (named ops included); the printed maps only for
// a document read without them.
Result<config::IterationSpace> spaceOf(const document::RootOp &op) {
  if (op.space)
    return *op.space;
  return config::IterationSpace::fromLinalgOp(op.indexingMaps, op.iteratorTypes,
                                              op.operandTypes, op.name);
}

} // namespace

Result<config::DecompositionConfig>
decompositionOf(const document::RootOp &op) {
  if (op.decompositionConfig.empty())
    return Error{"attention without a decomposition_config: IREE has not "
                 "said how it distributes Q.K^T and P.V"};
  const auto reading = document::decompositionReadingOf(op);
  const Result<config::DecompositionConfig> &decomposition = reading->model();
  if (!decomposition)
    return Error{"decomposition_config: " + decomposition.error()};
  return *decomposition;
}

namespace {

// An attention op's qk and pv configs, both present; an Error says why the
// op cannot be laid out without them.
Result<config::DecompositionConfig>
attentionContractions(const document::RootOp &op) {
  auto decomposition = decompositionOf(op);
  if (!decomposition)
    return Error{decomposition.error() +
                 " (the op's own lowering config gives only the outer tiles; "
                 "a picture from them alone would be wrong)"};
  if (!decomposition->qk || !decomposition->pv)
    return Error{"the decomposition_config has no qk_attrs and pv_attrs "
                 "lowering configs: IREE distributes Q.K^T and P.V by them"};
  return decomposition;
}

} // namespace

std::string kindNotLaidOut(const document::RootOp &op) {
  if (op.kind != config::OpKind::Attention)
    return {};
  auto decomposition = attentionContractions(op);
  return decomposition ? std::string() : decomposition.error();
}

Result<OpLayoutInputs> opLayoutInputs(const document::Dispatch &dispatch,
                                      const document::RootOp &op) {
  std::optional<config::DecompositionConfig> decomposition;
  if (op.kind == config::OpKind::Attention) {
    auto contractions = attentionContractions(op);
    if (!contractions)
      return Error{contractions.error()};
    decomposition = std::move(*contractions);
  }
  if (!config::isGpuLoweringConfigText(op.loweringConfig))
    return Error{op.loweringConfig.empty()
                     ? std::string("This op carries no lowering_config.")
                     : "No GPU layout: " + op.loweringConfig.substr(
                                               0, op.loweringConfig.find('<'))};
  const auto reading = document::loweringReadingOf(op);
  const Result<config::LoweringConfig> &config = reading->model();
  if (!config)
    return Error{config.error()};
  auto space = spaceOf(op);
  if (!space)
    return Error{"No iteration space: " + space.error()};
  OpLayoutInputs inputs{
      *config, std::move(*space), std::nullopt, {}, std::move(decomposition)};
  // Ops fused into the root op run on the root's workgroup tile.
  for (const document::RootOp &other : dispatch.rootOps) {
    if (!other.rootOpSet || &other == &op)
      continue;
    const auto rootReading = document::loweringReadingOf(other);
    const Result<config::LoweringConfig> &rootConfig = rootReading->model();
    auto rootSpace = spaceOf(other);
    if (rootConfig && rootSpace && !rootConfig->isDerivedThreadConfig())
      inputs.options.fusedWorkgroupTile = layout::inheritedWorkgroupTile(
          inputs.config, inputs.space, *rootConfig, *rootSpace);
  }
  const auto translation = document::translationReadingOf(dispatch);
  if (const Result<config::TranslationInfo> &info = translation->model()) {
    if (info->subgroupSize)
      inputs.options.subgroupSize = *info->subgroupSize;
    inputs.info = *info;
  }
  return inputs;
}

Result<layout::OpLayouts> opLayoutsOf(const OpLayoutInputs &inputs) {
  layout::OpLayoutRequest request{
      &inputs.config, &inputs.space, inputs.info ? &*inputs.info : nullptr,
      inputs.options, inputs.decomposition ? &*inputs.decomposition : nullptr};
  return layout::opLayouts(request);
}

std::vector<std::string>
operandLayoutTexts(const layout::OpLayouts &layouts,
                   const config::IterationSpace &space) {
  std::vector<std::string> texts;
  if (layouts.view == layout::OpView::ContractionLayout && layouts.contraction)
    return {layouts.contraction->lhs.print(), layouts.contraction->rhs.print(),
            layouts.contraction->acc.print()};
  if (layouts.view == layout::OpView::AttentionLayout && layouts.attention) {
    const layout::AttentionLayouts &a = *layouts.attention;
    return {a.qk.layouts.lhs.print(), a.qk.layouts.rhs.print(),
            a.qk.layouts.acc.print(), a.pv.layouts.lhs.print(),
            a.pv.layouts.rhs.print(), a.pv.layouts.acc.print()};
  }
  if (layouts.view == layout::OpView::VectorLayout && layouts.derived)
    for (const auto &projected :
         layout::operandLayouts(*layouts.derived, space))
      texts.push_back(projected.print());
  return texts;
}

} // namespace tilescope::edit
