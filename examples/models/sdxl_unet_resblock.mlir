// SDXL UNet res blocks, NHWC, batch 2 (generate_models.py): GroupNorm (32
// groups) + SiLU and 3x3 convolutions at 320 channels and 128x128, a stride-2
// 3x3 downsample, then 320 -> 640 channels at 64x64 with a 1x1 skip. f16
// weights and activations, f32 accumulation; the weights are arguments.
func.func @unet_resblock(%x: tensor<2x128x128x320xf16>, %r1_gn1_g: tensor<320xf16>, %r1_gn1_b: tensor<320xf16>, %r1_gn2_g: tensor<320xf16>, %r1_gn2_b: tensor<320xf16>, %r1_conv1: tensor<3x3x320x320xf16>, %r1_conv2: tensor<3x3x320x320xf16>, %down: tensor<3x3x320x320xf16>, %r2_gn1_g: tensor<320xf16>, %r2_gn1_b: tensor<320xf16>, %r2_gn2_g: tensor<640xf16>, %r2_gn2_b: tensor<640xf16>, %r2_conv1: tensor<3x3x320x640xf16>, %r2_conv2: tensor<3x3x640x640xf16>, %r2_skip: tensor<1x1x320x640xf16>) -> tensor<2x64x64x640xf16> {
  %grouped1 = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [2, 128, 128, 32, 10] : tensor<2x128x128x320xf16> into tensor<2x128x128x32x10xf16>
  %c2 = arith.constant 0.0 : f32
  %empty3 = tensor.empty() : tensor<2x32xf32>
  %fill4 = linalg.fill ins(%c2 : f32) outs(%empty3 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %sum5 = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, c) -> (n, h, w, g, c)>, affine_map<(n, h, w, g, c) -> (n, g)>], iterator_types = ["parallel", "reduction", "reduction", "parallel", "reduction"]} ins(%grouped1 : tensor<2x128x128x32x10xf16>) outs(%fill4 : tensor<2x32xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  %c6 = arith.constant 0.0 : f32
  %empty7 = tensor.empty() : tensor<2x32xf32>
  %fill8 = linalg.fill ins(%c6 : f32) outs(%empty7 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %sumsq9 = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, c) -> (n, h, w, g, c)>, affine_map<(n, h, w, g, c) -> (n, g)>], iterator_types = ["parallel", "reduction", "reduction", "parallel", "reduction"]} ins(%grouped1 : tensor<2x128x128x32x10xf16>) outs(%fill8 : tensor<2x32xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %m = arith.mulf %e, %e : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  %empty10 = tensor.empty() : tensor<2x128x128x32x10xf16>
  %ew11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%grouped1, %sum5, %sumsq9 : tensor<2x128x128x32x10xf16>, tensor<2x32xf32>, tensor<2x32xf32>) outs(%empty10 : tensor<2x128x128x32x10xf16>) {
  ^bb0(%a0: f16, %a1: f32, %a2: f32, %out: f16):
    %cnt = arith.constant 163840.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.divf %a1, %cnt : f32
    %ex2 = arith.divf %a2, %cnt : f32
    %m2 = arith.mulf %mean, %mean : f32
    %var = arith.subf %ex2, %m2 : f32
    %v = arith.addf %var, %eps : f32
    %r = math.rsqrt %v : f32
    %e = arith.extf %a0 : f16 to f32
    %c = arith.subf %e, %mean : f32
    %y = arith.mulf %c, %r : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x128x128x32x10xf16>
  %flat12 = tensor.collapse_shape %ew11 [[0], [1], [2], [3, 4]] : tensor<2x128x128x32x10xf16> into tensor<2x128x128x320xf16>
  %empty13 = tensor.empty() : tensor<2x128x128x320xf16>
  %ew14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%flat12, %r1_gn1_g, %r1_gn1_b : tensor<2x128x128x320xf16>, tensor<320xf16>, tensor<320xf16>) outs(%empty13 : tensor<2x128x128x320xf16>) {
  ^bb0(%a0: f16, %a1: f16, %a2: f16, %out: f16):
    %xe = arith.extf %a0 : f16 to f32
    %g = arith.extf %a1 : f16 to f32
    %bt = arith.extf %a2 : f16 to f32
    %s = arith.mulf %xe, %g : f32
    %y = arith.addf %s, %bt : f32
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %y : f32
    %e = math.exp %neg : f32
    %d = arith.addf %one, %e : f32
    %z = arith.divf %y, %d : f32
    %t = arith.truncf %z : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x128x128x320xf16>
  %c15 = arith.constant 0.0 : f16
  %pad16 = tensor.pad %ew14 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c15 : f16
  } : tensor<2x128x128x320xf16> to tensor<2x130x130x320xf16>
  %c17 = arith.constant 0.0 : f32
  %empty18 = tensor.empty() : tensor<2x128x128x320xf32>
  %fill19 = linalg.fill ins(%c17 : f32) outs(%empty18 : tensor<2x128x128x320xf32>) -> tensor<2x128x128x320xf32>
  %conv20 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%pad16, %r1_conv1 : tensor<2x130x130x320xf16>, tensor<3x3x320x320xf16>) outs(%fill19 : tensor<2x128x128x320xf32>) -> tensor<2x128x128x320xf32>
  %empty21 = tensor.empty() : tensor<2x128x128x320xf16>
  %ew22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv20 : tensor<2x128x128x320xf32>) outs(%empty21 : tensor<2x128x128x320xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x128x128x320xf16>
  %grouped23 = tensor.expand_shape %ew22 [[0], [1], [2], [3, 4]] output_shape [2, 128, 128, 32, 10] : tensor<2x128x128x320xf16> into tensor<2x128x128x32x10xf16>
  %c24 = arith.constant 0.0 : f32
  %empty25 = tensor.empty() : tensor<2x32xf32>
  %fill26 = linalg.fill ins(%c24 : f32) outs(%empty25 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %sum27 = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, c) -> (n, h, w, g, c)>, affine_map<(n, h, w, g, c) -> (n, g)>], iterator_types = ["parallel", "reduction", "reduction", "parallel", "reduction"]} ins(%grouped23 : tensor<2x128x128x32x10xf16>) outs(%fill26 : tensor<2x32xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  %c28 = arith.constant 0.0 : f32
  %empty29 = tensor.empty() : tensor<2x32xf32>
  %fill30 = linalg.fill ins(%c28 : f32) outs(%empty29 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %sumsq31 = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, c) -> (n, h, w, g, c)>, affine_map<(n, h, w, g, c) -> (n, g)>], iterator_types = ["parallel", "reduction", "reduction", "parallel", "reduction"]} ins(%grouped23 : tensor<2x128x128x32x10xf16>) outs(%fill30 : tensor<2x32xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %m = arith.mulf %e, %e : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  %empty32 = tensor.empty() : tensor<2x128x128x32x10xf16>
  %ew33 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%grouped23, %sum27, %sumsq31 : tensor<2x128x128x32x10xf16>, tensor<2x32xf32>, tensor<2x32xf32>) outs(%empty32 : tensor<2x128x128x32x10xf16>) {
  ^bb0(%a0: f16, %a1: f32, %a2: f32, %out: f16):
    %cnt = arith.constant 163840.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.divf %a1, %cnt : f32
    %ex2 = arith.divf %a2, %cnt : f32
    %m2 = arith.mulf %mean, %mean : f32
    %var = arith.subf %ex2, %m2 : f32
    %v = arith.addf %var, %eps : f32
    %r = math.rsqrt %v : f32
    %e = arith.extf %a0 : f16 to f32
    %c = arith.subf %e, %mean : f32
    %y = arith.mulf %c, %r : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x128x128x32x10xf16>
  %flat34 = tensor.collapse_shape %ew33 [[0], [1], [2], [3, 4]] : tensor<2x128x128x32x10xf16> into tensor<2x128x128x320xf16>
  %empty35 = tensor.empty() : tensor<2x128x128x320xf16>
  %ew36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%flat34, %r1_gn2_g, %r1_gn2_b : tensor<2x128x128x320xf16>, tensor<320xf16>, tensor<320xf16>) outs(%empty35 : tensor<2x128x128x320xf16>) {
  ^bb0(%a0: f16, %a1: f16, %a2: f16, %out: f16):
    %xe = arith.extf %a0 : f16 to f32
    %g = arith.extf %a1 : f16 to f32
    %bt = arith.extf %a2 : f16 to f32
    %s = arith.mulf %xe, %g : f32
    %y = arith.addf %s, %bt : f32
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %y : f32
    %e = math.exp %neg : f32
    %d = arith.addf %one, %e : f32
    %z = arith.divf %y, %d : f32
    %t = arith.truncf %z : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x128x128x320xf16>
  %c37 = arith.constant 0.0 : f16
  %pad38 = tensor.pad %ew36 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c37 : f16
  } : tensor<2x128x128x320xf16> to tensor<2x130x130x320xf16>
  %c39 = arith.constant 0.0 : f32
  %empty40 = tensor.empty() : tensor<2x128x128x320xf32>
  %fill41 = linalg.fill ins(%c39 : f32) outs(%empty40 : tensor<2x128x128x320xf32>) -> tensor<2x128x128x320xf32>
  %conv42 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%pad38, %r1_conv2 : tensor<2x130x130x320xf16>, tensor<3x3x320x320xf16>) outs(%fill41 : tensor<2x128x128x320xf32>) -> tensor<2x128x128x320xf32>
  %empty43 = tensor.empty() : tensor<2x128x128x320xf16>
  %ew44 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv42 : tensor<2x128x128x320xf32>) outs(%empty43 : tensor<2x128x128x320xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x128x128x320xf16>
  %empty45 = tensor.empty() : tensor<2x128x128x320xf16>
  %ew46 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %ew44 : tensor<2x128x128x320xf16>, tensor<2x128x128x320xf16>) outs(%empty45 : tensor<2x128x128x320xf16>) {
  ^bb0(%a0: f16, %a1: f16, %out: f16):
    %s = arith.addf %a0, %a1 : f16
    linalg.yield %s : f16
  } -> tensor<2x128x128x320xf16>
  %c47 = arith.constant 0.0 : f16
  %pad48 = tensor.pad %ew46 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c47 : f16
  } : tensor<2x128x128x320xf16> to tensor<2x130x130x320xf16>
  %c49 = arith.constant 0.0 : f32
  %empty50 = tensor.empty() : tensor<2x64x64x320xf32>
  %fill51 = linalg.fill ins(%c49 : f32) outs(%empty50 : tensor<2x64x64x320xf32>) -> tensor<2x64x64x320xf32>
  %conv52 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%pad48, %down : tensor<2x130x130x320xf16>, tensor<3x3x320x320xf16>) outs(%fill51 : tensor<2x64x64x320xf32>) -> tensor<2x64x64x320xf32>
  %empty53 = tensor.empty() : tensor<2x64x64x320xf16>
  %ew54 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv52 : tensor<2x64x64x320xf32>) outs(%empty53 : tensor<2x64x64x320xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x64x64x320xf16>
  %grouped55 = tensor.expand_shape %ew54 [[0], [1], [2], [3, 4]] output_shape [2, 64, 64, 32, 10] : tensor<2x64x64x320xf16> into tensor<2x64x64x32x10xf16>
  %c56 = arith.constant 0.0 : f32
  %empty57 = tensor.empty() : tensor<2x32xf32>
  %fill58 = linalg.fill ins(%c56 : f32) outs(%empty57 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %sum59 = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, c) -> (n, h, w, g, c)>, affine_map<(n, h, w, g, c) -> (n, g)>], iterator_types = ["parallel", "reduction", "reduction", "parallel", "reduction"]} ins(%grouped55 : tensor<2x64x64x32x10xf16>) outs(%fill58 : tensor<2x32xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  %c60 = arith.constant 0.0 : f32
  %empty61 = tensor.empty() : tensor<2x32xf32>
  %fill62 = linalg.fill ins(%c60 : f32) outs(%empty61 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %sumsq63 = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, c) -> (n, h, w, g, c)>, affine_map<(n, h, w, g, c) -> (n, g)>], iterator_types = ["parallel", "reduction", "reduction", "parallel", "reduction"]} ins(%grouped55 : tensor<2x64x64x32x10xf16>) outs(%fill62 : tensor<2x32xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %m = arith.mulf %e, %e : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  %empty64 = tensor.empty() : tensor<2x64x64x32x10xf16>
  %ew65 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%grouped55, %sum59, %sumsq63 : tensor<2x64x64x32x10xf16>, tensor<2x32xf32>, tensor<2x32xf32>) outs(%empty64 : tensor<2x64x64x32x10xf16>) {
  ^bb0(%a0: f16, %a1: f32, %a2: f32, %out: f16):
    %cnt = arith.constant 40960.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.divf %a1, %cnt : f32
    %ex2 = arith.divf %a2, %cnt : f32
    %m2 = arith.mulf %mean, %mean : f32
    %var = arith.subf %ex2, %m2 : f32
    %v = arith.addf %var, %eps : f32
    %r = math.rsqrt %v : f32
    %e = arith.extf %a0 : f16 to f32
    %c = arith.subf %e, %mean : f32
    %y = arith.mulf %c, %r : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x64x64x32x10xf16>
  %flat66 = tensor.collapse_shape %ew65 [[0], [1], [2], [3, 4]] : tensor<2x64x64x32x10xf16> into tensor<2x64x64x320xf16>
  %empty67 = tensor.empty() : tensor<2x64x64x320xf16>
  %ew68 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%flat66, %r2_gn1_g, %r2_gn1_b : tensor<2x64x64x320xf16>, tensor<320xf16>, tensor<320xf16>) outs(%empty67 : tensor<2x64x64x320xf16>) {
  ^bb0(%a0: f16, %a1: f16, %a2: f16, %out: f16):
    %xe = arith.extf %a0 : f16 to f32
    %g = arith.extf %a1 : f16 to f32
    %bt = arith.extf %a2 : f16 to f32
    %s = arith.mulf %xe, %g : f32
    %y = arith.addf %s, %bt : f32
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %y : f32
    %e = math.exp %neg : f32
    %d = arith.addf %one, %e : f32
    %z = arith.divf %y, %d : f32
    %t = arith.truncf %z : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x64x64x320xf16>
  %c69 = arith.constant 0.0 : f16
  %pad70 = tensor.pad %ew68 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c69 : f16
  } : tensor<2x64x64x320xf16> to tensor<2x66x66x320xf16>
  %c71 = arith.constant 0.0 : f32
  %empty72 = tensor.empty() : tensor<2x64x64x640xf32>
  %fill73 = linalg.fill ins(%c71 : f32) outs(%empty72 : tensor<2x64x64x640xf32>) -> tensor<2x64x64x640xf32>
  %conv74 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%pad70, %r2_conv1 : tensor<2x66x66x320xf16>, tensor<3x3x320x640xf16>) outs(%fill73 : tensor<2x64x64x640xf32>) -> tensor<2x64x64x640xf32>
  %empty75 = tensor.empty() : tensor<2x64x64x640xf16>
  %ew76 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv74 : tensor<2x64x64x640xf32>) outs(%empty75 : tensor<2x64x64x640xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x64x64x640xf16>
  %grouped77 = tensor.expand_shape %ew76 [[0], [1], [2], [3, 4]] output_shape [2, 64, 64, 32, 20] : tensor<2x64x64x640xf16> into tensor<2x64x64x32x20xf16>
  %c78 = arith.constant 0.0 : f32
  %empty79 = tensor.empty() : tensor<2x32xf32>
  %fill80 = linalg.fill ins(%c78 : f32) outs(%empty79 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %sum81 = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, c) -> (n, h, w, g, c)>, affine_map<(n, h, w, g, c) -> (n, g)>], iterator_types = ["parallel", "reduction", "reduction", "parallel", "reduction"]} ins(%grouped77 : tensor<2x64x64x32x20xf16>) outs(%fill80 : tensor<2x32xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  %c82 = arith.constant 0.0 : f32
  %empty83 = tensor.empty() : tensor<2x32xf32>
  %fill84 = linalg.fill ins(%c82 : f32) outs(%empty83 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %sumsq85 = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, c) -> (n, h, w, g, c)>, affine_map<(n, h, w, g, c) -> (n, g)>], iterator_types = ["parallel", "reduction", "reduction", "parallel", "reduction"]} ins(%grouped77 : tensor<2x64x64x32x20xf16>) outs(%fill84 : tensor<2x32xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %m = arith.mulf %e, %e : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  %empty86 = tensor.empty() : tensor<2x64x64x32x20xf16>
  %ew87 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%grouped77, %sum81, %sumsq85 : tensor<2x64x64x32x20xf16>, tensor<2x32xf32>, tensor<2x32xf32>) outs(%empty86 : tensor<2x64x64x32x20xf16>) {
  ^bb0(%a0: f16, %a1: f32, %a2: f32, %out: f16):
    %cnt = arith.constant 81920.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.divf %a1, %cnt : f32
    %ex2 = arith.divf %a2, %cnt : f32
    %m2 = arith.mulf %mean, %mean : f32
    %var = arith.subf %ex2, %m2 : f32
    %v = arith.addf %var, %eps : f32
    %r = math.rsqrt %v : f32
    %e = arith.extf %a0 : f16 to f32
    %c = arith.subf %e, %mean : f32
    %y = arith.mulf %c, %r : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x64x64x32x20xf16>
  %flat88 = tensor.collapse_shape %ew87 [[0], [1], [2], [3, 4]] : tensor<2x64x64x32x20xf16> into tensor<2x64x64x640xf16>
  %empty89 = tensor.empty() : tensor<2x64x64x640xf16>
  %ew90 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%flat88, %r2_gn2_g, %r2_gn2_b : tensor<2x64x64x640xf16>, tensor<640xf16>, tensor<640xf16>) outs(%empty89 : tensor<2x64x64x640xf16>) {
  ^bb0(%a0: f16, %a1: f16, %a2: f16, %out: f16):
    %xe = arith.extf %a0 : f16 to f32
    %g = arith.extf %a1 : f16 to f32
    %bt = arith.extf %a2 : f16 to f32
    %s = arith.mulf %xe, %g : f32
    %y = arith.addf %s, %bt : f32
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %y : f32
    %e = math.exp %neg : f32
    %d = arith.addf %one, %e : f32
    %z = arith.divf %y, %d : f32
    %t = arith.truncf %z : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x64x64x640xf16>
  %c91 = arith.constant 0.0 : f16
  %pad92 = tensor.pad %ew90 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c91 : f16
  } : tensor<2x64x64x640xf16> to tensor<2x66x66x640xf16>
  %c93 = arith.constant 0.0 : f32
  %empty94 = tensor.empty() : tensor<2x64x64x640xf32>
  %fill95 = linalg.fill ins(%c93 : f32) outs(%empty94 : tensor<2x64x64x640xf32>) -> tensor<2x64x64x640xf32>
  %conv96 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%pad92, %r2_conv2 : tensor<2x66x66x640xf16>, tensor<3x3x640x640xf16>) outs(%fill95 : tensor<2x64x64x640xf32>) -> tensor<2x64x64x640xf32>
  %empty97 = tensor.empty() : tensor<2x64x64x640xf16>
  %ew98 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv96 : tensor<2x64x64x640xf32>) outs(%empty97 : tensor<2x64x64x640xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x64x64x640xf16>
  %c99 = arith.constant 0.0 : f32
  %empty100 = tensor.empty() : tensor<2x64x64x640xf32>
  %fill101 = linalg.fill ins(%c99 : f32) outs(%empty100 : tensor<2x64x64x640xf32>) -> tensor<2x64x64x640xf32>
  %conv102 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%ew54, %r2_skip : tensor<2x64x64x320xf16>, tensor<1x1x320x640xf16>) outs(%fill101 : tensor<2x64x64x640xf32>) -> tensor<2x64x64x640xf32>
  %empty103 = tensor.empty() : tensor<2x64x64x640xf16>
  %ew104 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv102 : tensor<2x64x64x640xf32>) outs(%empty103 : tensor<2x64x64x640xf16>) {
  ^bb0(%a0: f32, %out: f16):
    %t = arith.truncf %a0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x64x64x640xf16>
  %empty105 = tensor.empty() : tensor<2x64x64x640xf16>
  %ew106 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ew104, %ew98 : tensor<2x64x64x640xf16>, tensor<2x64x64x640xf16>) outs(%empty105 : tensor<2x64x64x640xf16>) {
  ^bb0(%a0: f16, %a1: f16, %out: f16):
    %s = arith.addf %a0, %a1 : f16
    linalg.yield %s : f16
  } -> tensor<2x64x64x640xf16>
  return %ew106 : tensor<2x64x64x640xf16>
}
