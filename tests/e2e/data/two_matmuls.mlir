// Two matmuls in a row: a whole program of two dispatches, for taking one
// dispatch out alone (tilescope-cli compile / resources / bench --op).
func.func @two_matmuls(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>,
                       %c: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m0 = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                      outs(%f0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e1 = tensor.empty() : tensor<64x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x16xf32>) -> tensor<64x16xf32>
  %m1 = linalg.matmul ins(%m0, %c : tensor<64x32xf32>, tensor<32x16xf32>)
                      outs(%f1 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %m1 : tensor<64x16xf32>
}
