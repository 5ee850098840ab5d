// A batch of 32 matmuls, 1024x128 * 128x1024 each (attention's scores at 32
// heads): f16 inputs, f32 accumulation. IREE tiles the batch loop at 1.
func.func @batch_matmul_f16(%lhs: tensor<32x1024x128xf16>, %rhs: tensor<32x128x1024xf16>) -> tensor<32x1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<32x1024x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x1024x1024xf32>) -> tensor<32x1024x1024xf32>
  %result = linalg.batch_matmul ins(%lhs, %rhs : tensor<32x1024x128xf16>, tensor<32x128x1024xf16>)
      outs(%acc : tensor<32x1024x1024xf32>) -> tensor<32x1024x1024xf32>
  return %result : tensor<32x1024x1024xf32>
}
