// RMSNorm as a Llama layer has it (2048 x 4096, f16, f32 sum of squares):
// a reduction with its normalizing consumer fused after it. IREE 3.13
// configures both ops of its dispatch (VectorDistribute), so a tuning spec,
// which configures one op, breaks its compile (tst_cli_jobs).
func.func @rmsnorm(%x: tensor<2048x4096xf16>, %w: tensor<4096xf16>) -> tensor<2048x4096xf16> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2048xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2048xf32>) -> tensor<2048xf32>
  %sumsq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2048x4096xf16>) outs(%fill : tensor<2048xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %m = arith.mulf %e, %e : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2048xf32>
  %e1 = tensor.empty() : tensor<2048x4096xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sumsq, %w : tensor<2048x4096xf16>, tensor<2048xf32>, tensor<4096xf16>) outs(%e1 : tensor<2048x4096xf16>) {
  ^bb0(%a0: f16, %a1: f32, %a2: f16, %out: f16):
    %n = arith.constant 4096.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.divf %a1, %n : f32
    %v = arith.addf %mean, %eps : f32
    %r = math.rsqrt %v : f32
    %e = arith.extf %a0 : f16 to f32
    %t0 = arith.mulf %e, %r : f32
    %g = arith.extf %a2 : f16 to f32
    %z = arith.mulf %t0, %g : f32
    %t = arith.truncf %z : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x4096xf16>
  return %y : tensor<2048x4096xf16>
}
