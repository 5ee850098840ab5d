// The attention dispatch of examples/models/llama3_8b_decoder_layer.mlir as the
// pinned iree-compile configures it for sm_90 (its dispatch benchmark): the
// op's own lowering_config after a decomposition_config holding two more.
module {
  util.global private @__device_0 = #hal.device.target<"cuda", [#hal.executable.target<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_90", features = "+ptx80", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 232448, max_workgroup_counts = [2147483647, 65535, 65535]>, chip = <wgp_count = 132>>}>]> : !hal.device
  hal.executable private @decoder_layer_dispatch_6 {
    hal.executable.variant public @cuda_nvptx_fb target(<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_90", features = "+ptx80", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 232448, max_workgroup_counts = [2147483647, 65535, 65535]>, chip = <wgp_count = 132>>}>) {
      hal.executable.export public @decoder_layer_dispatch_6_attention_32x2048x128x2048x128 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @decoder_layer_dispatch_6_attention_32x2048x128x2048x128() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [128, 1, 1] subgroup_size = 32, {iree_codegen.denormal_fp_math_f32 = #iree_codegen.denormal_fp_math<"preserve-sign">}>} {
          %cst = arith.constant 1.000000e+00 : f32
          %cst_0 = arith.constant -3.40282347E+38 : f32
          %cst_1 = arith.constant 0.000000e+00 : f32
          %cst_2 = arith.constant 8.837890e-02 : f16
          %c50331648 = arith.constant 50331648 : index
          %c16777216 = arith.constant 16777216 : index
          %c33554432 = arith.constant 33554432 : index
          %c0 = arith.constant 0 : index
          %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c50331648) flags("ReadOnly|Indirect") : memref<32x2048x128xf16, strided<[262144, 128, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c16777216) flags("ReadOnly|Indirect") : memref<32x2048x128xf16, strided<[262144, 128, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c33554432) flags("ReadOnly|Indirect") : memref<32x128x2048xf16, strided<[262144, 2048, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2048x32x128xf16, #hal.descriptor_type<storage_buffer>>
          %4 = iree_codegen.load_from_buffer %0 : memref<32x2048x128xf16, strided<[262144, 128, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<32x2048x128xf16>
          %5 = iree_codegen.load_from_buffer %1 : memref<32x2048x128xf16, strided<[262144, 128, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<32x2048x128xf16>
          %6 = iree_codegen.load_from_buffer %2 : memref<32x128x2048xf16, strided<[262144, 2048, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<32x128x2048xf16>
          %7 = tensor.empty() : tensor<2048x32x128xf16>
          %8 = tensor.empty() : tensor<32x2048x128xf16>
          %9 = tensor.empty() : tensor<32x2048x128xf32>
          %10 = tensor.empty() : tensor<32x2048xf32>
          %11 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
          %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<32x2048xf32>) -> tensor<32x2048xf32>
          %13 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<32x2048xf32>) -> tensor<32x2048xf32>
          %14:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], decomposition_config = {pv_attrs = {lowering_config = #iree_gpu.lowering_config<{mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = [1], promotion_types = [#iree_gpu.derived_thread_config], subgroup_basis = [[1, 4, 1, 1, 1], [0, 1, 3, 4]]}>}, qk_attrs = {lowering_config = #iree_gpu.lowering_config<{mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = [0, 1], promotion_types = [#iree_gpu.derived_thread_config, #iree_gpu.derived_thread_config], subgroup_basis = [[1, 4, 1, 1, 1], [0, 1, 2, 3]]}>}}> {lowering_config = #iree_gpu.lowering_config<{promote_operands = [0, 1, 2], promotion_types = [#iree_gpu.derived_thread_config, #iree_gpu.derived_thread_config, #iree_gpu.derived_thread_config], reduction = [0, 0, 0, 64, 0], workgroup = [1, 64, 0, 0, 32]}>, root_op = #iree_codegen.root_op<set = 0>} ins(%4, %5, %6, %cst_2 : tensor<32x2048x128xf16>, tensor<32x2048x128xf16>, tensor<32x128x2048xf16>, f16) outs(%11, %12, %13 : tensor<32x2048x128xf32>, tensor<32x2048xf32>, tensor<32x2048xf32>) {
          ^bb0(%arg0: f32):
            iree_linalg_ext.yield %arg0 : f32
          } -> tensor<32x2048x128xf32>, tensor<32x2048xf32>, tensor<32x2048xf32>
          %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14#2, %14#0 : tensor<32x2048xf32>, tensor<32x2048x128xf32>) outs(%8 : tensor<32x2048x128xf16>) {
          ^bb0(%in: f32, %in_3: f32, %out: f16):
            %17 = arith.divf %cst, %in : f32
            %18 = arith.mulf %17, %in_3 : f32
            %19 = arith.truncf %18 : f32 to f16
            linalg.yield %19 : f16
          } -> tensor<32x2048x128xf16>
          %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<32x2048x128xf16>) outs(%7 : tensor<2048x32x128xf16>) {
          ^bb0(%in: f16, %out: f16):
            linalg.yield %in : f16
          } -> tensor<2048x32x128xf16>
          iree_codegen.store_to_buffer %16, %3 : tensor<2048x32x128xf16> into memref<2048x32x128xf16, #hal.descriptor_type<storage_buffer>>
          return
        }
        iree_codegen.dispatch_config @decoder_layer_dispatch_6_attention_32x2048x128x2048x128 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
  util.global private mutable @decoder_layer_dispatch_6_cuda_nvptx_fb_decoder_layer_dispatch_6_attention_32x2048x128x2048x128_buffer : !hal.buffer
  util.initializer {
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
    %memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32
    %buffer_usage = hal.buffer_usage<"TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage"> : i32
    %c301989888 = arith.constant 301989888 : index
    %buffer = hal.allocator.allocate<%allocator : !hal.allocator> affinity(%queue_affinity) type(%memory_type) usage(%buffer_usage) : !hal.buffer{%c301989888}
    util.global.store %buffer, @decoder_layer_dispatch_6_cuda_nvptx_fb_decoder_layer_dispatch_6_attention_32x2048x128x2048x128_buffer : !hal.buffer
    util.return
  }
  util.func public @decoder_layer_dispatch_6_cuda_nvptx_fb_decoder_layer_dispatch_6_attention_32x2048x128x2048x128(%arg0: i32) attributes {iree.abi.stub, iree.reflection = {iree.benchmark = "dispatch"}} {
    %0 = arith.index_cast %arg0 : i32 to index
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %cmd = hal.command_buffer.create device(%device : !hal.device) mode("OneShot|AllowInlineExecution") categories(Dispatch) affinity(%queue_affinity) : !hal.command_buffer
    %decoder_layer_dispatch_6_cuda_nvptx_fb_decoder_layer_dispatch_6_attention_32x2048x128x2048x128_buffer = util.global.load @decoder_layer_dispatch_6_cuda_nvptx_fb_decoder_layer_dispatch_6_attention_32x2048x128x2048x128_buffer : !hal.buffer
    %c0 = arith.constant 0 : index
    %c150994944 = arith.constant 150994944 : index
    %workgroup_x, %workgroup_y, %workgroup_z = hal.executable.calculate_workgroups device(%device : !hal.device) target(@decoder_layer_dispatch_6::@cuda_nvptx_fb::@decoder_layer_dispatch_6_attention_32x2048x128x2048x128) : index, index, index
    %exe = hal.executable.lookup device(%device : !hal.device) executable(@decoder_layer_dispatch_6) : !hal.executable
    %function_id = hal.executable.lookup.function target(%exe : !hal.executable) function(@decoder_layer_dispatch_6::@cuda_nvptx_fb::@decoder_layer_dispatch_6_attention_32x2048x128x2048x128) : i64
    %c1 = arith.constant 1 : index
    scf.for %arg1 = %c0 to %0 step %c1 {
      hal.command_buffer.dispatch<%cmd : !hal.command_buffer> target(%exe : !hal.executable)[%function_id] workgroups([%workgroup_x, %workgroup_y, %workgroup_z]) bindings([
        (%decoder_layer_dispatch_6_cuda_nvptx_fb_decoder_layer_dispatch_6_attention_32x2048x128x2048x128_buffer : !hal.buffer)[%c0, %c150994944], 
        (%decoder_layer_dispatch_6_cuda_nvptx_fb_decoder_layer_dispatch_6_attention_32x2048x128x2048x128_buffer : !hal.buffer)[%c150994944, %c150994944]
      ]) flags("None")
      hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("Dispatch|CommandRetire") target("CommandIssue|Dispatch") flags("None")
    }
    hal.command_buffer.finalize<%cmd : !hal.command_buffer>
    %1 = util.null : !hal.fence
    %fence = hal.fence.create device(%device : !hal.device) flags("None") : !hal.fence
    hal.device.queue.execute<%device : !hal.device> affinity(%queue_affinity) wait(%1) signal(%fence) commands(%cmd) flags("None")
    %c-1_i32 = arith.constant -1 : i32
    %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32
    util.status.check_ok %status, "failed to wait on timepoint"
    util.return
  }
}
