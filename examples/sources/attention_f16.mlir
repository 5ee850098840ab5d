// Scaled dot-product attention at 16 heads x 1024 queries x 64 (f16), as a
// model's self-attention reaches IREE: softmax(Q.K^T * scale).V in one
// iree_linalg_ext.attention op. IREE decomposes it into the Q.K^T and P.V
// contractions with the online softmax between them, each configured by its
// own decomposition_config (qk_attrs, pv_attrs).
func.func @attention_f16(%q: tensor<16x1024x64xf16>, %k: tensor<16x1024x64xf16>, %v: tensor<16x1024x64xf16>) -> tensor<16x1024x64xf16> {
  %scale = arith.constant 0.125 : f16
  %empty = tensor.empty() : tensor<16x1024x64xf16>
  %out = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
      affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
      affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
      affine_map<(b, m, k1, k2, n) -> ()>,
      affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<16x1024x64xf16>, tensor<16x1024x64xf16>, tensor<16x1024x64xf16>, f16)
      outs(%empty : tensor<16x1024x64xf16>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<16x1024x64xf16>
  return %out : tensor<16x1024x64xf16>
}
