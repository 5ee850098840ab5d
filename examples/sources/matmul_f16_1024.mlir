// A 1024x1024x1024 matmul with a transposed B operand: f16 inputs, f32
// accumulation. The classic MFMA/tensor-core case.
func.func @matmul_f16_1024(%lhs: tensor<1024x1024xf16>, %rhs: tensor<1024x1024xf16>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %result = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%lhs, %rhs : tensor<1024x1024xf16>, tensor<1024x1024xf16>)
      outs(%acc : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %result : tensor<1024x1024xf32>
}
