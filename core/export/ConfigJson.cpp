#include "core/export/ConfigJson.h"

#include "core/export/detail/ConfigReaders.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace tilescope::exporting {

using nlohmann::json;

nlohmann::json toJson(const config::LoweringConfig &cfg) {
  json out = json::object();
  json tiles = json::object();
  for (config::TilingLevel level : config::kAllTilingLevels)
    if (auto sizes = cfg.tileSizes(level))
      tiles[config::keyOf(level)] = *sizes;
  out["tile_sizes"] = tiles;
  auto basis = [](const config::Basis &b) {
    return json{
        {"counts", b.counts}, {"mapping", b.mapping}, {"product", b.product()}};
  };
  if (auto lane = cfg.laneBasis())
    out["lane_basis"] = basis(*lane);
  if (auto subgroup = cfg.subgroupBasis())
    out["subgroup_basis"] = basis(*subgroup);
  if (auto mma = cfg.mmaKind())
    out["mma_kind"] = {{"attribute", mma->attributeName},
                       {"intrinsic", mma->intrinsic},
                       {"col_major", mma->colMajor}};
  if (auto operands = cfg.promoteOperands())
    out["promote_operands"] = *operands;
  if (const auto *types = cfg.promotionTypes())
    out["promotion_types"] = config::printAttribute(*types);
  if (auto dims = cfg.expandDims()) {
    json shape = json::array();
    for (const auto &size : dims->outputShape)
      shape.push_back(size ? json(*size) : json("?"));
    out["expand_dims"] = {{"reassociation", dims->reassociation},
                          {"output_shape", shape}};
  }
  if (cfg.convertAccGemm())
    out["convert_acc_gemm"] = true;
  if (auto strategy = cfg.loweringStrategy())
    out["lowering_strategy"] = *strategy;
  json notes = json::array();
  for (const config::ReadNote &note : cfg.notes())
    notes.push_back({{"key", note.key}, {"message", note.message}});
  out["notes"] = notes;
  out["keys"] = cfg.keys();
  out["text"] = cfg.print();
  return out;
}

nlohmann::json toJson(const config::TranslationInfo &info) {
  json out = {{"pipeline", info.pipelineName()},
              {"pipeline_text", config::printAttribute(info.pipeline())},
              {"text", info.print()}};
  if (info.workgroupSize)
    out["workgroup_size"] = *info.workgroupSize;
  if (info.subgroupSize)
    out["subgroup_size"] = *info.subgroupSize;
  if (auto options = info.pipelineOptions()) {
    json o = json::object();
    if (options->prefetchNumStages)
      o["prefetch_num_stages"] = *options->prefetchNumStages;
    if (options->prefetchSharedMemory)
      o["prefetch_shared_memory"] = *options->prefetchSharedMemory;
    if (options->noReduceSharedMemoryBankConflicts)
      o["no_reduce_shared_memory_bank_conflicts"] =
          *options->noReduceSharedMemoryBankConflicts;
    if (options->useIgemmConvolution)
      o["use_igemm_convolution"] = *options->useIgemmConvolution;
    if (options->reorderWorkgroupsStrategy)
      o["reorder_workgroups_strategy"] = *options->reorderWorkgroupsStrategy;
    out["gpu_pipeline_options"] = o;
  }
  return out;
}

nlohmann::json toJson(const config::GpuTarget &t) {
  json out = {{"arch", t.arch},
              {"product", t.product},
              {"backend", t.backend},
              {"subgroup_size_choices", t.subgroupSizeChoices},
              {"max_workgroup_sizes", t.maxWorkgroupSizes},
              {"max_thread_count_per_workgroup", t.maxThreadCountPerWorkgroup},
              {"max_workgroup_memory_bytes", t.maxWorkgroupMemoryBytes},
              {"mma_intrinsics", t.mmaIntrinsics},
              {"scaled_mma_intrinsics", t.scaledMmaIntrinsics},
              {"source", t.source}};
  const std::pair<const char *, const std::optional<int64_t> *> optional[] = {
      {"wgp_count", &t.wgpCount},
      {"simds_per_wgp", &t.simdsPerWgp},
      {"workgroup_memory_bank_count", &t.workgroupMemoryBankCount},
      {"max_load_instruction_bits", &t.maxLoadInstructionBits},
      {"vgpr_space_bits", &t.vgprSpaceBits}};
  for (const auto &[key, value] : optional)
    if (*value)
      out[key] = **value;
  if (t.peakMemoryBytesPerSecond > 0)
    out["peak_memory_bytes_per_second"] = t.peakMemoryBytesPerSecond;
  if (!t.peakMatrixOpsPerSecond.empty())
    out["peak_matrix_ops_per_second"] = t.peakMatrixOpsPerSecond;
  return out;
}

nlohmann::json toJson(const config::IterationSpace &space) {
  json kinds = json::array();
  for (config::LoopKind kind : space.kinds)
    kinds.push_back(kind == config::LoopKind::Parallel ? "parallel"
                                                       : "reduction");
  json operands = json::array();
  for (const config::OperandAccess &operand : space.operands) {
    json entry = {{"element_type", operand.elementType},
                  {"dims", operand.dims},
                  {"output", operand.isOutput}};
    if (!operand.shape.empty())
      entry["shape"] = operand.shape;
    operands.push_back(std::move(entry));
  }
  return {{"bounds", space.bounds},
          {"kinds", std::move(kinds)},
          {"text", space.toString()},
          {"operands", std::move(operands)}};
}

Result<config::IterationSpace> iterationSpaceFromJson(const json &value) {
  return detail::readIterationSpace(detail::DomValue(value));
}

json toJson(const config::ContractionDims &dims) {
  json out = {
      {"batch", dims.batch}, {"m", dims.m}, {"n", dims.n}, {"k", dims.k}};
  if (!dims.kB.empty())
    out["k_b"] = dims.kB; // a scaled contraction's in-block reduction dims
  return out;
}

Result<config::ContractionDims> contractionDimsFromJson(const json &value) {
  return detail::readContractionDims(detail::DomValue(value));
}

json toJson(const config::ConvolutionDims &dims) {
  return {{"batch", dims.batch},
          {"output_image", dims.outputImage},
          {"output_channel", dims.outputChannel},
          {"filter_loop", dims.filterLoop},
          {"input_channel", dims.inputChannel},
          {"depth", dims.depth}};
}

Result<config::ConvolutionDims> convolutionDimsFromJson(const json &value) {
  return detail::readConvolutionDims(detail::DomValue(value));
}

json toJson(const config::ImplicitGemm &igemm) {
  json pairs = json::array();
  for (const auto &[conv, gemm] : igemm.convolutionToGemm)
    pairs.push_back({conv, gemm});
  return {{"convolution", toJson(igemm.convolution)},
          {"gemm", toJson(igemm.gemm)},
          {"contraction", toJson(igemm.contraction)},
          {"convolution_to_gemm", std::move(pairs)},
          {"im2col_output_permutation", igemm.im2colOutputPermutation},
          {"filter_reassociation", igemm.filterReassociation},
          {"output_channel_first", igemm.outputChannelFirst},
          {"dimensions", toJson(igemm.dims)},
          {"strides", igemm.strides},
          {"dilations", igemm.dilations}};
}

Result<config::ImplicitGemm> implicitGemmFromJson(const json &value) {
  return detail::readImplicitGemm(detail::DomValue(value));
}

nlohmann::json toJson(const std::vector<config::Problem> &problems) {
  json out = json::array();
  for (const config::Problem &p : problems)
    out.push_back({{"severity", config::toString(p.severity)},
                   {"field", p.field},
                   {"message", p.message},
                   {"rule", p.rule},
                   {"iree", config::toString(p.iree)},
                   {"source", p.source},
                   {"origin", config::toString(p.origin)}});
  return out;
}

nlohmann::json toJson(const layout::CostPrediction &p) {
  nlohmann::json terms = nlohmann::json::array();
  for (const layout::CostTerm &term : p.terms)
    terms.push_back({{"name", term.name},
                     {"us", term.microseconds},
                     {"detail", term.detail}});
  return {{"us", p.microseconds},
          {"model", p.model},
          {"bound_by", p.boundBy},
          {"workgroups", p.workgroups},
          {"resident_per_unit", p.residentPerCu},
          {"rounds", p.rounds},
          {"steps", p.steps},
          {"global_bytes", p.globalBytes},
          {"floor_us", p.floorMicroseconds},
          {"resources", p.resourcesEstimated ? "estimated" : "compiled"},
          {"terms", terms},
          {"notes", p.notes},
          {"summary", p.summary()}};
}

} // namespace tilescope::exporting
