// A two-layer MLP at small transformer sizes (f16 in, f32 accumulate): two
// contraction dispatches with a truncation between them, for tuning a whole
// program (tilescope-cli tune examples/sources/mlp_f16.mlir --target sm_90).
func.func @mlp(%x: tensor<512x1024xf16>, %w0: tensor<1024x2048xf16>, %w1: tensor<2048x1024xf16>) -> tensor<512x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<512x2048xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<512x2048xf32>) -> tensor<512x2048xf32>
  %m0 = linalg.matmul ins(%x, %w0 : tensor<512x1024xf16>, tensor<1024x2048xf16>) outs(%f0 : tensor<512x2048xf32>) -> tensor<512x2048xf32>
  %h = tensor.empty() : tensor<512x2048xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m0 : tensor<512x2048xf32>) outs(%h : tensor<512x2048xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<512x2048xf16>
  %e1 = tensor.empty() : tensor<512x1024xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %m1 = linalg.matmul ins(%t, %w1 : tensor<512x2048xf16>, tensor<2048x1024xf16>) outs(%f1 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %m1 : tensor<512x1024xf32>
}
