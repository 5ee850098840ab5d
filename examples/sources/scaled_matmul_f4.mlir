// A scaled FP4 matmul (MX format): C[m, n] = sum_k A[m, k] * 2^sa[m, k/32] * B[n, k] * 2^sb[n, k/32],
// K = 4096 as 128 blocks of 32, as gfx950's MFMA_SCALE intrinsics compute it.
// FP4 and E8M0 cross the program boundary as bytes (two FP4 values per byte).
func.func @scaled_matmul_f4(%a_bytes: tensor<1024x128x16xi8>, %b_bytes: tensor<1024x128x16xi8>,
                            %a_scale_bytes: tensor<1024x128xi8>, %b_scale_bytes: tensor<1024x128xi8>) -> tensor<1024x1024xf32> {
  %a = flow.tensor.bitcast %a_bytes : tensor<1024x128x16xi8> -> tensor<1024x128x32xf4E2M1FN>
  %b = flow.tensor.bitcast %b_bytes : tensor<1024x128x16xi8> -> tensor<1024x128x32xf4E2M1FN>
  %a_scales = flow.tensor.bitcast %a_scale_bytes : tensor<1024x128xi8> -> tensor<1024x128xf8E8M0FNU>
  %b_scales = flow.tensor.bitcast %b_scale_bytes : tensor<1024x128xi8> -> tensor<1024x128xf8E8M0FNU>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %mm = linalg.generic {
      indexing_maps = [affine_map<(m, n, k, kb) -> (m, k, kb)>, affine_map<(m, n, k, kb) -> (n, k, kb)>,
                       affine_map<(m, n, k, kb) -> (m, k)>, affine_map<(m, n, k, kb) -> (n, k)>,
                       affine_map<(m, n, k, kb) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b, %a_scales, %b_scales : tensor<1024x128x32xf4E2M1FN>, tensor<1024x128x32xf4E2M1FN>, tensor<1024x128xf8E8M0FNU>, tensor<1024x128xf8E8M0FNU>)
      outs(%c : tensor<1024x1024xf32>) {
  ^bb0(%in: f4E2M1FN, %in_b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %x = arith.scaling_extf %in, %sa : f4E2M1FN, f8E8M0FNU to f32
    %y = arith.scaling_extf %in_b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<1024x1024xf32>
  return %mm : tensor<1024x1024xf32>
}
