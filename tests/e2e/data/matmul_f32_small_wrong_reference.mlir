// A deliberately wrong reference for examples/sources/matmul_f32_small.mlir:
// the same signature, but it multiplies by the transposed right-hand side, so
// a checked run against it must fail and say where.
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs_transposed = affine_map<(m, n, k) -> (n, k)>
#out = affine_map<(m, n, k) -> (m, n)>
func.func @matmul_f32_small(%lhs: tensor<128x128xf32>, %rhs: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x128xf32>) -> tensor<128x128xf32>
  %result = linalg.generic {indexing_maps = [#lhs, #rhs_transposed, #out],
                            iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%lhs, %rhs : tensor<128x128xf32>, tensor<128x128xf32>) outs(%acc : tensor<128x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %c, %product : f32
    linalg.yield %sum : f32
  } -> tensor<128x128xf32>
  return %result : tensor<128x128xf32>
}
