#include "core/edit/OpLayoutInputs.h"

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

std::string kindNotLaidOut(const document::RootOp &op) {
  if (op.kind != config::OpKind::Attention)
    return {};
  return "attention is not laid out yet: IREE distributes its Q.K^T and "
         "P.V contractions by the decomposition_config (qk_attrs, pv_attrs) "
         "with the online softmax between them, which the op's own lowering "
         "config does not say; the outer tiles are checked and its time is "
         "predicted from them and the decomposition_config (sweep, "
         "resources), but a picture from the outer tiles alone would be "
         "wrong";
}

Result<OpLayoutInputs> opLayoutInputs(const document::Dispatch &dispatch,
                                      const document::RootOp &op) {
  if (std::string why = kindNotLaidOut(op); !why.empty())
    return Error{why};
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
  OpLayoutInputs inputs{*config, std::move(*space), std::nullopt, {}};
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
  layout::OpLayoutRequest request{&inputs.config, &inputs.space,
                                  inputs.info ? &*inputs.info : nullptr,
                                  inputs.options};
  return layout::opLayouts(request);
}

std::vector<std::string>
operandLayoutTexts(const layout::OpLayouts &layouts,
                   const config::IterationSpace &space) {
  std::vector<std::string> texts;
  if (layouts.view == layout::OpView::ContractionLayout && layouts.contraction)
    return {layouts.contraction->lhs.print(), layouts.contraction->rhs.print(),
            layouts.contraction->acc.print()};
  if (layouts.view == layout::OpView::VectorLayout && layouts.derived)
    for (const auto &projected :
         layout::operandLayouts(*layouts.derived, space))
      texts.push_back(projected.print());
  return texts;
}

} // namespace tilescope::edit
