// A GroupNorm's statistics: per batch and group, the sum over the spatial
// positions and the group's 10 channels (as the SDXL res block's first
// GroupNorm reads its 320 channels in 32 groups).
func.func @group_sums(%x: tensor<2x1024x32x10xf16>) -> tensor<2x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x32xf32>) -> tensor<2x32xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>,
                       affine_map<(d0, d1, d2, d3) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x1024x32x10xf16>) outs(%acc : tensor<2x32xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    %s = arith.addf %e, %out : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  return %sum : tensor<2x32xf32>
}
