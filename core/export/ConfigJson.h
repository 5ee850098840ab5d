// JSON for the config model: what `tilescope-cli check --json` prints and
// scripts read.
#pragma once

#include "core/config/configs/GpuTarget.h"
#include "core/config/configs/ImplicitGemm.h"
#include "core/config/configs/IterationSpace.h"
#include "core/config/configs/LoweringConfig.h"
#include "core/config/configs/TranslationInfo.h"
#include "core/config/rules/Validation.h"
#include "core/layout/CostModel.h"

#include <nlohmann/json.hpp>

namespace tilescope::exporting {

nlohmann::json toJson(const config::LoweringConfig &config);
nlohmann::json toJson(const config::TranslationInfo &info);
nlohmann::json toJson(const config::GpuTarget &target);
nlohmann::json toJson(const config::IterationSpace &space);
Result<config::IterationSpace> iterationSpaceFromJson(const nlohmann::json &);
nlohmann::json toJson(const config::ContractionDims &dims);
Result<config::ContractionDims>
contractionDimsFromJson(const nlohmann::json &value);
// {"batch", "output_image", "output_channel", "filter_loop",
// "input_channel", "depth"}: loop lists.
nlohmann::json toJson(const config::ConvolutionDims &dims);
Result<config::ConvolutionDims>
convolutionDimsFromJson(const nlohmann::json &value);
// A convolution's implicit GEMM: {"convolution", "gemm" (iteration spaces),
// "contraction", "convolution_to_gemm": [[conv loop, IGEMM loop], ...],
// "im2col_output_permutation", "filter_reassociation",
// "output_channel_first", "dimensions" (ConvolutionDims), "strides",
// "dilations"}.
nlohmann::json toJson(const config::ImplicitGemm &igemm);
Result<config::ImplicitGemm> implicitGemmFromJson(const nlohmann::json &value);
nlohmann::json toJson(const std::vector<config::Problem> &problems);
// The cost model's prediction: {"us", "model", "bound_by", "workgroups",
// "resident_per_unit", "rounds", "steps", "global_bytes", "floor_us",
// "resources": "compiled" | "estimated", "terms": [...], "notes", "summary"}.
nlohmann::json toJson(const layout::CostPrediction &prediction);

} // namespace tilescope::exporting
