// A reduction over the middle of three dimensions (parallel, reduction,
// parallel): dispatch creation cannot collapse it, so its configs have three
// iteration dimensions and a basis mapping can permute them.
func.func @reduce_middle(%input: tensor<8x512x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x64xf32>) -> tensor<8x64xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                       affine_map<(d0, d1, d2) -> (d0, d2)>],
      iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%input : tensor<8x512x64xf32>) outs(%init : tensor<8x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %add = arith.addf %in, %acc : f32
    linalg.yield %add : f32
  } -> tensor<8x64xf32>
  return %sum : tensor<8x64xf32>
}
