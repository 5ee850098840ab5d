#include "core/layout/OpLayouts.h"

#include "core/config/rules/Validation.h"
#include "core/util/Numbers.h"

namespace tilescope::layout {
namespace {

std::string inferPipeline(const config::LoweringConfig &config) {
  if (config.laneBasis() || config.subgroupBasis())
    return "VectorDistribute";
  if (config.tileSizes(config::TilingLevel::Thread) ||
      config.tileSizes(config::TilingLevel::Subgroup))
    return "TileAndFuse";
  return "VectorDistribute";
}

} // namespace

namespace {

// #iree_gpu.derived_thread_config: IREE's GPUApplyTilingLevel asks the
// attribute for the thread tiles (deriveThreadTileSizes: 128 bits of the
// op's result along the innermost loop, widened over whole inner loops when
// the workgroup's threads share the trips evenly) and distributes them as it
// does a `thread` config.
Result<OpLayouts> derivedThreadLayouts(const OpLayoutRequest &request,
                                       OpLayouts result) {
  const config::IterationSpace &space = *request.space;
  std::vector<int64_t> workgroupSize{1, 1, 1};
  if (request.translationInfo && request.translationInfo->workgroupSize)
    workgroupSize = *request.translationInfo->workgroupSize;
  else
    result.notes.push_back("no workgroup_size: one thread assumed");
  for (int64_t bound : space.bounds)
    if (bound == config::kDynamicSize)
      return Error{"#iree_gpu.derived_thread_config on dynamic loops: IREE "
                   "tiles them by one vector along the innermost loop, which "
                   "cannot be drawn without their sizes"};
  if (space.operands.empty() || !space.operands.back().isOutput)
    return Error{"#iree_gpu.derived_thread_config needs the op's result "
                 "element type (IREE sizes the vectors by it)"};
  const std::string &type = space.operands.back().elementType;
  const int64_t bits = config::elementBits(type);
  if (bits <= 0)
    return Error{"#iree_gpu.derived_thread_config: unknown result element "
                 "type '" +
                 type + "'"};
  const int64_t threads = saturatingProduct(workgroupSize);
  const auto tiles =
      derivedThreadTileSizes(space.bounds, space.kinds, threads, bits);
  ForallDistribution threadsForall =
      distributeForall("thread", space.bounds, tiles, threads);
  threadsForall.workgroupSize = workgroupSize;
  std::string tileText;
  for (size_t d = 0; d < tiles.size(); ++d)
    tileText += (d ? ", " : "") + std::to_string(tiles[d]);
  result.notes.push_back(
      "#iree_gpu.derived_thread_config: IREE derives thread tiles [" +
      tileText + "] (vectors of 128 bits of the " + type +
      " result along the innermost loop, over " + std::to_string(threads) +
      " threads)");
  result.view = OpView::ThreadTiles;
  result.threads = std::move(threadsForall);
  return result;
}

} // namespace

Result<OpLayouts> opLayouts(const OpLayoutRequest &request) {
  const config::LoweringConfig &config = *request.config;
  const config::IterationSpace &space = *request.space;
  OpLayouts result;
  if (request.translationInfo && request.translationInfo->pipelineSyntax() !=
                                     config::PipelineSyntax::Other) {
    result.pipeline = request.translationInfo->pipelineName();
  } else {
    result.pipeline = inferPipeline(config);
    result.pipelineInferred = true;
    result.notes.push_back("no GPU translation_info: drawn as " +
                           result.pipeline +
                           " (inferred from the config's keys)");
  }
  if (auto mma = config.mmaKind()) {
    result.intrinsic = mma->intrinsic;
    result.colMajor = mma->colMajor;
  }

  if (request.decomposition) {
    if (result.pipeline != "VectorDistribute")
      return Error{"attention is laid out as IREE's VectorDistribute "
                   "pipeline decomposes it; this dispatch's pipeline is " +
                   result.pipeline};
    auto attention =
        deriveAttentionLayouts(config, space, *request.decomposition);
    if (!attention)
      return Error{attention.error()};
    result.view = OpView::AttentionLayout;
    result.intrinsic = attention->qk.layouts.intrinsic;
    result.notes = attention->notes;
    for (const AttentionContraction *part : {&attention->qk, &attention->pv})
      for (const std::string &note : part->layouts.notes)
        result.notes.push_back(part->name + ": " + note);
    result.attention = std::move(*attention);
    return result;
  }
  if (config.isDerivedThreadConfig())
    return derivedThreadLayouts(request, std::move(result));
  if (result.pipeline == "TileAndFuse") {
    std::vector<int64_t> workgroupSize{1, 1, 1};
    int64_t subgroupSize = request.options.subgroupSize;
    if (request.translationInfo) {
      if (request.translationInfo->workgroupSize)
        workgroupSize = *request.translationInfo->workgroupSize;
      if (request.translationInfo->subgroupSize)
        subgroupSize = *request.translationInfo->subgroupSize;
    }
    if (saturatingProduct(workgroupSize) <= 1)
      result.notes.push_back("no workgroup_size: one thread assumed");
    if (config.mmaKind()) {
      auto subgroups = tileAndFuseSubgroups(
          config, space, workgroupSize,
          subgroupSize > 0 ? subgroupSize
                           : config::intrinsicShape(result.intrinsic)
                                 .value_or(config::IntrinsicShape{})
                                 .subgroupSize);
      if (!subgroups)
        return Error{subgroups.error()};
      result.view = OpView::SubgroupTiles;
      result.subgroups = std::move(*subgroups);
      return result;
    }
    auto threads = tileAndFuseThreads(config, space, workgroupSize);
    if (!threads)
      return Error{threads.error()};
    result.view = OpView::ThreadTiles;
    result.threads = std::move(*threads);
    if (result.threads->idleWorkers() > 0)
      result.notes.push_back(std::to_string(result.threads->idleWorkers()) +
                             " of " + std::to_string(result.threads->workers) +
                             " threads get no tile");
    if (result.threads->rounds() > 1)
      result.notes.push_back(
          "each thread runs " + std::to_string(result.threads->rounds()) +
          " tiles (the forall has " +
          std::to_string(result.threads->iterations()) + " iterations for " +
          std::to_string(result.threads->workers) + " threads)");
    return result;
  }

  if (config.mmaKind()) {
    auto contraction = deriveContractionLayouts(config, space);
    if (!contraction)
      return Error{contraction.error()};
    result.view = OpView::ContractionLayout;
    result.contraction = std::move(*contraction);
    result.notes.insert(result.notes.end(), result.contraction->notes.begin(),
                        result.contraction->notes.end());
    return result;
  }
  auto derived = deriveLayout(config, space, request.options);
  if (!derived)
    return Error{derived.error()};
  result.view = OpView::VectorLayout;
  result.derived = std::move(*derived);
  return result;
}

} // namespace tilescope::layout
