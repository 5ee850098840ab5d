// The lowering-config seed's reduction: iteration space 4 x 6656 x 16384
// (parallel, parallel, reduction), f16 in, f32 accumulation.
func.func @reduction_4x6656x16384(%input: tensor<4x6656x16384xf16>) -> tensor<4x6656xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x6656xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x6656xf32>) -> tensor<4x6656xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                       affine_map<(d0, d1, d2) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%input : tensor<4x6656x16384xf16>) outs(%acc : tensor<4x6656xf32>) {
  ^bb0(%in: f16, %out: f32):
    %wide = arith.extf %in : f16 to f32
    %add = arith.addf %wide, %out : f32
    linalg.yield %add : f32
  } -> tensor<4x6656xf32>
  return %sum : tensor<4x6656xf32>
}
