// Split-k: the split-k RFC's worked example (a 32x40960 x 40960x32 matmul,
// which IREE's matmul-like rule splits into 128 chunks of K = 320) with a
// bias and tanh after it, beside two reductions the other rules judge: a
// batch-norm style sum over the outer loop (the outer-reduction rule splits
// it) and a short one (too little work to split).
//   tilescope-cli split-k examples/sources/split_k_program.mlir --target gfx942
func.func @split_k_program(%lhs: tensor<32x40960xf32>, %rhs: tensor<40960x32xf32>,
                           %bias: tensor<32x32xf32>,
                           %activations: tensor<65536x64xf32>,
                           %short: tensor<64x16384xf32>)
    -> (tensor<32x32xf32>, tensor<64xf32>, tensor<16384xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<32x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x32xf32>) -> tensor<32x32xf32>
  %product = linalg.matmul ins(%lhs, %rhs : tensor<32x40960xf32>, tensor<40960x32xf32>)
                           outs(%acc : tensor<32x32xf32>) -> tensor<32x32xf32>
  %activated = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                       affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%product, %bias : tensor<32x32xf32>, tensor<32x32xf32>) outs(%empty : tensor<32x32xf32>) {
  ^bb0(%p: f32, %b: f32, %out: f32):
    %sum = arith.addf %p, %b : f32
    %t = math.tanh %sum : f32
    linalg.yield %t : f32
  } -> tensor<32x32xf32>

  %channels = tensor.empty() : tensor<64xf32>
  %channelAcc = linalg.fill ins(%zero : f32) outs(%channels : tensor<64xf32>) -> tensor<64xf32>
  %channelSum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
      iterator_types = ["reduction", "parallel"]}
      ins(%activations : tensor<65536x64xf32>) outs(%channelAcc : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>

  %columns = tensor.empty() : tensor<16384xf32>
  %columnAcc = linalg.fill ins(%zero : f32) outs(%columns : tensor<16384xf32>) -> tensor<16384xf32>
  %columnSum = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
      iterator_types = ["reduction", "parallel"]}
      ins(%short : tensor<64x16384xf32>) outs(%columnAcc : tensor<16384xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<16384xf32>
  return %activated, %channelSum, %columnSum : tensor<32x32xf32>, tensor<64xf32>, tensor<16384xf32>
}
