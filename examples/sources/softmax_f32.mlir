// Softmax over the rows of a 32x4096 f32 matrix: a reduction chain IREE
// lowers as one dispatch.
func.func @softmax_f32(%input: tensor<32x4096xf32>) -> tensor<32x4096xf32> {
  %empty = tensor.empty() : tensor<32x4096xf32>
  %result = linalg.softmax dimension(1) ins(%input : tensor<32x4096xf32>) outs(%empty : tensor<32x4096xf32>) -> tensor<32x4096xf32>
  return %result : tensor<32x4096xf32>
}
