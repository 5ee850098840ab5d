// One Llama-3-8B decoder layer at sequence 2048, batch 1 (generate_models.py):
// RMSNorm, Q/K/V/O projections 4096x4096, attention 32 heads x 128, RMSNorm,
// the gated MLP (SiLU) at 14336. f16 weights and activations, f32 accumulation;
// the weights are arguments.
func.func @decoder_layer(%x: tensor<2048x4096xf16>, %norm1: tensor<4096xf16>, %wq: tensor<4096x4096xf16>, %wk: tensor<4096x4096xf16>, %wv: tensor<4096x4096xf16>, %wo: tensor<4096x4096xf16>, %norm2: tensor<4096xf16>, %wgate: tensor<14336x4096xf16>, %wup: tensor<14336x4096xf16>, %wdown: tensor<4096x14336xf16>) -> tensor<2048x4096xf16> {
  %c1 = arith.constant 0.0 : f32
  %empty2 = tensor.empty() : tensor<2048xf32>
  %fill3 = linalg.fill ins(%c1 : f32) outs(%empty2 : tensor<2048xf32>) -> tensor<2048xf32>
  %sumsq4 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2048x4096xf16>) outs(%fill3 : tensor<2048xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %m = arith.mulf %e, %e : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2048xf32>
  %empty5 = tensor.empty() : tensor<2048x4096xf16>
  %ew6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sumsq4, %norm1 : tensor<2048x4096xf16>, tensor<2048xf32>, tensor<4096xf16>) outs(%empty5 : tensor<2048x4096xf16>) {
  ^bb0(%a0: f16, %a1: f32, %a2: f16, %out: f16):
    %n = arith.constant 4096.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.divf %a1, %n : f32
    %v = arith.addf %mean, %eps : f32
    %r = math.rsqrt %v : f32
    %e = arith.extf %a0 : f16 to f32
    %y = arith.mulf %e, %r : f32
    %g = arith.extf %a2 : f16 to f32
    %z = arith.mulf %y, %g : f32
    %t = arith.truncf %z : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x4096xf16>
  %c7 = arith.constant 0.0 : f32
  %empty8 = tensor.empty() : tensor<2048x4096xf32>
  %fill9 = linalg.fill ins(%c7 : f32) outs(%empty8 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %mm10 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%ew6, %wq : tensor<2048x4096xf16>, tensor<4096x4096xf16>) outs(%fill9 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %empty11 = tensor.empty() : tensor<2048x4096xf16>
  %ew12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm10 : tensor<2048x4096xf32>) outs(%empty11 : tensor<2048x4096xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x4096xf16>
  %heads13 = tensor.expand_shape %ew12 [[0], [1, 2]] output_shape [2048, 32, 128] : tensor<2048x4096xf16> into tensor<2048x32x128xf16>
  %empty14 = tensor.empty() : tensor<32x2048x128xf16>
  %perm15 = linalg.transpose ins(%heads13 : tensor<2048x32x128xf16>) outs(%empty14 : tensor<32x2048x128xf16>) permutation = [1, 0, 2]
  %c16 = arith.constant 0.0 : f32
  %empty17 = tensor.empty() : tensor<2048x4096xf32>
  %fill18 = linalg.fill ins(%c16 : f32) outs(%empty17 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %mm19 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%ew6, %wk : tensor<2048x4096xf16>, tensor<4096x4096xf16>) outs(%fill18 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %empty20 = tensor.empty() : tensor<2048x4096xf16>
  %ew21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm19 : tensor<2048x4096xf32>) outs(%empty20 : tensor<2048x4096xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x4096xf16>
  %heads22 = tensor.expand_shape %ew21 [[0], [1, 2]] output_shape [2048, 32, 128] : tensor<2048x4096xf16> into tensor<2048x32x128xf16>
  %empty23 = tensor.empty() : tensor<32x2048x128xf16>
  %perm24 = linalg.transpose ins(%heads22 : tensor<2048x32x128xf16>) outs(%empty23 : tensor<32x2048x128xf16>) permutation = [1, 0, 2]
  %c25 = arith.constant 0.0 : f32
  %empty26 = tensor.empty() : tensor<2048x4096xf32>
  %fill27 = linalg.fill ins(%c25 : f32) outs(%empty26 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %mm28 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%ew6, %wv : tensor<2048x4096xf16>, tensor<4096x4096xf16>) outs(%fill27 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %empty29 = tensor.empty() : tensor<2048x4096xf16>
  %ew30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm28 : tensor<2048x4096xf32>) outs(%empty29 : tensor<2048x4096xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x4096xf16>
  %heads31 = tensor.expand_shape %ew30 [[0], [1, 2]] output_shape [2048, 32, 128] : tensor<2048x4096xf16> into tensor<2048x32x128xf16>
  %empty32 = tensor.empty() : tensor<32x2048x128xf16>
  %perm33 = linalg.transpose ins(%heads31 : tensor<2048x32x128xf16>) outs(%empty32 : tensor<32x2048x128xf16>) permutation = [1, 0, 2]
  %scale34 = arith.constant 0.08838835 : f16
  %empty35 = tensor.empty() : tensor<32x2048x128xf16>
  %attn36 = iree_linalg_ext.attention <{indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k2, n)>, affine_map<(b, m, k1, k2, n) -> ()>, affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}> ins(%perm15, %perm24, %perm33, %scale34 : tensor<32x2048x128xf16>, tensor<32x2048x128xf16>, tensor<32x2048x128xf16>, f16) outs(%empty35 : tensor<32x2048x128xf16>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<32x2048x128xf16>
  %empty37 = tensor.empty() : tensor<2048x32x128xf16>
  %perm38 = linalg.transpose ins(%attn36 : tensor<32x2048x128xf16>) outs(%empty37 : tensor<2048x32x128xf16>) permutation = [1, 0, 2]
  %merged39 = tensor.collapse_shape %perm38 [[0], [1, 2]] : tensor<2048x32x128xf16> into tensor<2048x4096xf16>
  %c40 = arith.constant 0.0 : f32
  %empty41 = tensor.empty() : tensor<2048x4096xf32>
  %fill42 = linalg.fill ins(%c40 : f32) outs(%empty41 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %mm43 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%merged39, %wo : tensor<2048x4096xf16>, tensor<4096x4096xf16>) outs(%fill42 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %empty44 = tensor.empty() : tensor<2048x4096xf16>
  %ew45 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm43 : tensor<2048x4096xf32>) outs(%empty44 : tensor<2048x4096xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x4096xf16>
  %empty46 = tensor.empty() : tensor<2048x4096xf16>
  %ew47 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %ew45 : tensor<2048x4096xf16>, tensor<2048x4096xf16>) outs(%empty46 : tensor<2048x4096xf16>) {
  ^bb0(%a0: f16, %a1: f16, %out: f16):
    %s = arith.addf %a0, %a1 : f16
    linalg.yield %s : f16
  } -> tensor<2048x4096xf16>
  %c48 = arith.constant 0.0 : f32
  %empty49 = tensor.empty() : tensor<2048xf32>
  %fill50 = linalg.fill ins(%c48 : f32) outs(%empty49 : tensor<2048xf32>) -> tensor<2048xf32>
  %sumsq51 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%ew47 : tensor<2048x4096xf16>) outs(%fill50 : tensor<2048xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %m = arith.mulf %e, %e : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2048xf32>
  %empty52 = tensor.empty() : tensor<2048x4096xf16>
  %ew53 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ew47, %sumsq51, %norm2 : tensor<2048x4096xf16>, tensor<2048xf32>, tensor<4096xf16>) outs(%empty52 : tensor<2048x4096xf16>) {
  ^bb0(%a0: f16, %a1: f32, %a2: f16, %out: f16):
    %n = arith.constant 4096.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.divf %a1, %n : f32
    %v = arith.addf %mean, %eps : f32
    %r = math.rsqrt %v : f32
    %e = arith.extf %a0 : f16 to f32
    %y = arith.mulf %e, %r : f32
    %g = arith.extf %a2 : f16 to f32
    %z = arith.mulf %y, %g : f32
    %t = arith.truncf %z : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x4096xf16>
  %c54 = arith.constant 0.0 : f32
  %empty55 = tensor.empty() : tensor<2048x14336xf32>
  %fill56 = linalg.fill ins(%c54 : f32) outs(%empty55 : tensor<2048x14336xf32>) -> tensor<2048x14336xf32>
  %mm57 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%ew53, %wgate : tensor<2048x4096xf16>, tensor<14336x4096xf16>) outs(%fill56 : tensor<2048x14336xf32>) -> tensor<2048x14336xf32>
  %empty58 = tensor.empty() : tensor<2048x14336xf16>
  %ew59 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm57 : tensor<2048x14336xf32>) outs(%empty58 : tensor<2048x14336xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x14336xf16>
  %c60 = arith.constant 0.0 : f32
  %empty61 = tensor.empty() : tensor<2048x14336xf32>
  %fill62 = linalg.fill ins(%c60 : f32) outs(%empty61 : tensor<2048x14336xf32>) -> tensor<2048x14336xf32>
  %mm63 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%ew53, %wup : tensor<2048x4096xf16>, tensor<14336x4096xf16>) outs(%fill62 : tensor<2048x14336xf32>) -> tensor<2048x14336xf32>
  %empty64 = tensor.empty() : tensor<2048x14336xf16>
  %ew65 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm63 : tensor<2048x14336xf32>) outs(%empty64 : tensor<2048x14336xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x14336xf16>
  %empty66 = tensor.empty() : tensor<2048x14336xf16>
  %ew67 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ew59, %ew65 : tensor<2048x14336xf16>, tensor<2048x14336xf16>) outs(%empty66 : tensor<2048x14336xf16>) {
  ^bb0(%a0: f16, %a1: f16, %out: f16):
    %g = arith.extf %a0 : f16 to f32
    %u = arith.extf %a1 : f16 to f32
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %g : f32
    %e = math.exp %neg : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %g, %d : f32
    %y = arith.mulf %s, %u : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x14336xf16>
  %c68 = arith.constant 0.0 : f32
  %empty69 = tensor.empty() : tensor<2048x4096xf32>
  %fill70 = linalg.fill ins(%c68 : f32) outs(%empty69 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %mm71 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%ew67, %wdown : tensor<2048x14336xf16>, tensor<4096x14336xf16>) outs(%fill70 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %empty72 = tensor.empty() : tensor<2048x4096xf16>
  %ew73 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm71 : tensor<2048x4096xf32>) outs(%empty72 : tensor<2048x4096xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x4096xf16>
  %empty74 = tensor.empty() : tensor<2048x4096xf16>
  %ew75 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ew47, %ew73 : tensor<2048x4096xf16>, tensor<2048x4096xf16>) outs(%empty74 : tensor<2048x4096xf16>) {
  ^bb0(%a0: f16, %a1: f16, %out: f16):
    %s = arith.addf %a0, %a1 : f16
    linalg.yield %s : f16
  } -> tensor<2048x4096xf16>
  return %ew75 : tensor<2048x4096xf16>
}
