// A 3x3 convolution at a UNet's shapes: NHWC input 16x66x66x256, HWCF filter
// 3x3x256x256, f16 inputs, f32 accumulation. IREE builds it as an implicit
// GEMM (use_igemm_convolution): its config's lists index the IGEMM loops.
func.func @conv_3x3_f16(%input: tensor<16x66x66x256xf16>, %filter: tensor<3x3x256x256xf16>) -> tensor<16x64x64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x64x64x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x64x64x256xf32>) -> tensor<16x64x64x256xf32>
  %result = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<16x66x66x256xf16>, tensor<3x3x256x256xf16>)
      outs(%acc : tensor<16x64x64x256xf32>) -> tensor<16x64x64x256xf32>
  return %result : tensor<16x64x64x256xf32>
}
