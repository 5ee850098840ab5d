// Configs written the way IREE's lit tests write them: aliases at the top of
// each split part, one shared by two ops, one used once.
#config = #iree_gpu.lowering_config<{reduction = [0, 0, 4], thread = [1, 1, 0], workgroup = [64, 64, 0]}>
#config_once = #iree_gpu.lowering_config<{reduction = [0, 0, 8], thread = [1, 4, 0], workgroup = [32, 32, 0]}>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64>
func.func @shared_a(%lhs: tensor<128x64xf32>, %rhs: tensor<64x128xf32>, %acc: tensor<128x128xf32>) -> tensor<128x128xf32> attributes {translation_info = #translation} {
  %r = linalg.matmul {lowering_config = #config} ins(%lhs, %rhs : tensor<128x64xf32>, tensor<64x128xf32>) outs(%acc : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
func.func @shared_b(%lhs: tensor<128x64xf32>, %rhs: tensor<64x128xf32>, %acc: tensor<128x128xf32>) -> tensor<128x128xf32> attributes {translation_info = #translation} {
  %r = linalg.matmul {lowering_config = #config} ins(%lhs, %rhs : tensor<128x64xf32>, tensor<64x128xf32>) outs(%acc : tensor<128x128xf32>) -> tensor<128x128xf32>
  %s = linalg.matmul {lowering_config = #config_once} ins(%lhs, %rhs : tensor<128x64xf32>, tensor<64x128xf32>) outs(%r : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %s : tensor<128x128xf32>
}

// -----

#config = #iree_gpu.lowering_config<{lane_basis = [[1, 64], [0, 1]], partial_reduction = [0, 256], thread = [0, 4], workgroup = [1, 0]}>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] subgroup_size = 64>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @reduce(%in: tensor<32x4096xf32>, %init: tensor<32xf32>) -> tensor<32xf32> attributes {translation_info = #translation} {
  %r = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%in : tensor<32x4096xf32>) outs(%init : tensor<32xf32>) attrs = {lowering_config = #config} {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    linalg.yield %sum : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}
