// A linear layer at decode (one row, as the classifier of examples/models
// ResNet block): out[n] = sum_k W[n, k] * x[k] + b[n], f16 in, f32
// accumulation, the bias add fused into the same dispatch after the matvec.
func.func @matvec_bias_f16(%x: tensor<2048xf16>, %w: tensor<1000x2048xf16>, %b: tensor<1000xf32>) -> tensor<1000xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1000xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1000xf32>) -> tensor<1000xf32>
  %dot = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d1)>,
                       affine_map<(d0, d1) -> (d0, d1)>,
                       affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<2048xf16>, tensor<1000x2048xf16>) outs(%acc : tensor<1000xf32>) {
  ^bb0(%a: f16, %c: f16, %out: f32):
    %wa = arith.extf %a : f16 to f32
    %wc = arith.extf %c : f16 to f32
    %m = arith.mulf %wa, %wc : f32
    %s = arith.addf %m, %out : f32
    linalg.yield %s : f32
  } -> tensor<1000xf32>
  %biased = linalg.generic {
      indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}
      ins(%dot, %b : tensor<1000xf32>, tensor<1000xf32>) outs(%empty : tensor<1000xf32>) {
  ^bb0(%d: f32, %bb: f32, %o: f32):
    %s = arith.addf %d, %bb : f32
    linalg.yield %s : f32
  } -> tensor<1000xf32>
  return %biased : tensor<1000xf32>
}
