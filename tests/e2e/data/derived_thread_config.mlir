// A copy as IREE's passes leave it: its lowering_config is
// #iree_gpu.derived_thread_config, and IREE derives the thread tiles from the
// op's loops (128-bit vectors of f16 along the innermost loop).
func.func @promoted_copy(%source: tensor<32x64xf16>, %init: tensor<32x64xf16>) -> tensor<32x64xf16>
    attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 64>} {
  %copy = linalg.copy {lowering_config = #iree_gpu.derived_thread_config}
      ins(%source : tensor<32x64xf16>) outs(%init : tensor<32x64xf16>) -> tensor<32x64xf16>
  return %copy : tensor<32x64xf16>
}
