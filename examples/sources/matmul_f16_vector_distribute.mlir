// A 256x64 * 64x256 f16 matmul with a user-chosen VectorDistribute config
// (compilation_info): MFMA_F32_32x32x8_F16, 2x2 subgroups. IREE keeps it, so
// the dispatch shows how VectorDistribute lays out a contraction.
#config = #iree_gpu.lowering_config<{mma_kind = #iree_gpu.mma_layout<MFMA_F32_32x32x8_F16>, promote_operands = [0, 1], reduction = [0, 0, 32], subgroup_basis = [[2, 2, 1], [0, 1, 2]], workgroup = [64, 64, 0]}>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2>}>
#compilation = #iree_codegen.compilation_info<lowering_config = #config, translation_info = #translation>
func.func @matmul_f16_vector_distribute(%lhs: tensor<256x64xf16>, %rhs: tensor<64x256xf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {compilation_info = #compilation} ins(%lhs, %rhs : tensor<256x64xf16>, tensor<64x256xf16>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
