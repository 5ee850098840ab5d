module {
  util.global private @__device_0 = #hal.device.target<"cuda", [#hal.executable.target<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_90", features = "+ptx80", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 232448, max_workgroup_counts = [2147483647, 65535, 65535]>, chip = <wgp_count = 132>>}>]> : !hal.device
  hal.executable private @attention_f16_dispatch_0 {
    hal.executable.variant public @cuda_nvptx_fb target(<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_90", features = "+ptx80", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 232448, max_workgroup_counts = [2147483647, 65535, 65535]>, chip = <wgp_count = 132>>}>) {
      hal.executable.export public @attention_f16_dispatch_0_attention_16x1024x64x1024x64 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @attention_f16_dispatch_0_attention_16x1024x64x1024x64() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [128, 1, 1] subgroup_size = 32, {iree_codegen.denormal_fp_math_f32 = #iree_codegen.denormal_fp_math<"preserve-sign">}>} {
          %cst = arith.constant 1.000000e+00 : f32
          %cst_0 = arith.constant -3.40282347E+38 : f32
          %cst_1 = arith.constant 0.000000e+00 : f32
          %cst_2 = arith.constant 1.250000e-01 : f16
          %c0 = arith.constant 0 : index
          %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x1024x64xf16, #hal.descriptor_type<storage_buffer>>
          %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x1024x64xf16, #hal.descriptor_type<storage_buffer>>
          %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x1024x64xf16, #hal.descriptor_type<storage_buffer>>
          %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<16x1024x64xf16, #hal.descriptor_type<storage_buffer>>
          %4 = iree_codegen.load_from_buffer %0 : memref<16x1024x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<16x1024x64xf16>
          %5 = iree_codegen.load_from_buffer %1 : memref<16x1024x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<16x1024x64xf16>
          %6 = iree_codegen.load_from_buffer %2 : memref<16x1024x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<16x1024x64xf16>
          %7 = tensor.empty() : tensor<16x1024x64xf16>
          %8 = tensor.empty() : tensor<16x1024x64xf32>
          %9 = tensor.empty() : tensor<16x1024xf32>
          %10 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<16x1024x64xf32>) -> tensor<16x1024x64xf32>
          %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<16x1024xf32>) -> tensor<16x1024xf32>
          %12 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<16x1024xf32>) -> tensor<16x1024xf32>
          %13:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], decomposition_config = {pv_attrs = {lowering_config = #iree_gpu.lowering_config<{mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = [1], promotion_types = [#iree_gpu.derived_thread_config], subgroup_basis = [[1, 4, 1, 1, 1], [0, 1, 3, 4]]}>}, qk_attrs = {lowering_config = #iree_gpu.lowering_config<{mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = [0, 1], promotion_types = [#iree_gpu.derived_thread_config, #iree_gpu.derived_thread_config], subgroup_basis = [[1, 4, 1, 1, 1], [0, 1, 2, 3]]}>}}> {lowering_config = #iree_gpu.lowering_config<{promote_operands = [0, 1, 2], promotion_types = [#iree_gpu.derived_thread_config, #iree_gpu.derived_thread_config, #iree_gpu.derived_thread_config], reduction = [0, 0, 0, 64, 0], workgroup = [1, 64, 0, 0, 32]}>, root_op = #iree_codegen.root_op<set = 0>} ins(%4, %5, %6, %cst_2 : tensor<16x1024x64xf16>, tensor<16x1024x64xf16>, tensor<16x1024x64xf16>, f16) outs(%10, %11, %12 : tensor<16x1024x64xf32>, tensor<16x1024xf32>, tensor<16x1024xf32>) {
          ^bb0(%arg0: f32):
            iree_linalg_ext.yield %arg0 : f32
          } -> tensor<16x1024x64xf32>, tensor<16x1024xf32>, tensor<16x1024xf32>
          %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13#2, %13#0 : tensor<16x1024xf32>, tensor<16x1024x64xf32>) outs(%7 : tensor<16x1024x64xf16>) {
          ^bb0(%in: f32, %in_3: f32, %out: f16):
            %15 = arith.divf %cst, %in : f32
            %16 = arith.mulf %15, %in_3 : f32
            %17 = arith.truncf %16 : f32 to f16
            linalg.yield %17 : f16
          } -> tensor<16x1024x64xf16>
          iree_codegen.store_to_buffer %14, %3 : tensor<16x1024x64xf16> into memref<16x1024x64xf16, #hal.descriptor_type<storage_buffer>>
          return
        }
        iree_codegen.dispatch_config @attention_f16_dispatch_0_attention_16x1024x64x1024x64 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
  util.global private mutable @attention_f16_dispatch_0_cuda_nvptx_fb_attention_f16_dispatch_0_attention_16x1024x64x1024x64_buffer : !hal.buffer
  util.initializer {
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
    %memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32
    %buffer_usage = hal.buffer_usage<"TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage"> : i32
    %c8388608 = arith.constant 8388608 : index
    %buffer = hal.allocator.allocate<%allocator : !hal.allocator> affinity(%queue_affinity) type(%memory_type) usage(%buffer_usage) : !hal.buffer{%c8388608}
    util.global.store %buffer, @attention_f16_dispatch_0_cuda_nvptx_fb_attention_f16_dispatch_0_attention_16x1024x64x1024x64_buffer : !hal.buffer
    util.return
  }
  util.func public @attention_f16_dispatch_0_cuda_nvptx_fb_attention_f16_dispatch_0_attention_16x1024x64x1024x64(%arg0: i32) attributes {iree.abi.stub, iree.reflection = {iree.benchmark = "dispatch"}} {
    %0 = arith.index_cast %arg0 : i32 to index
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %cmd = hal.command_buffer.create device(%device : !hal.device) mode("OneShot|AllowInlineExecution") categories(Dispatch) affinity(%queue_affinity) : !hal.command_buffer
    %attention_f16_dispatch_0_cuda_nvptx_fb_attention_f16_dispatch_0_attention_16x1024x64x1024x64_buffer = util.global.load @attention_f16_dispatch_0_cuda_nvptx_fb_attention_f16_dispatch_0_attention_16x1024x64x1024x64_buffer : !hal.buffer
    %c0 = arith.constant 0 : index
    %c2097152 = arith.constant 2097152 : index
    %c4194304 = arith.constant 4194304 : index
    %c6291456 = arith.constant 6291456 : index
    %workgroup_x, %workgroup_y, %workgroup_z = hal.executable.calculate_workgroups device(%device : !hal.device) target(@attention_f16_dispatch_0::@cuda_nvptx_fb::@attention_f16_dispatch_0_attention_16x1024x64x1024x64) : index, index, index
    %exe = hal.executable.lookup device(%device : !hal.device) executable(@attention_f16_dispatch_0) : !hal.executable
    %function_id = hal.executable.lookup.function target(%exe : !hal.executable) function(@attention_f16_dispatch_0::@cuda_nvptx_fb::@attention_f16_dispatch_0_attention_16x1024x64x1024x64) : i64
    %c1 = arith.constant 1 : index
    scf.for %arg1 = %c0 to %0 step %c1 {
      hal.command_buffer.dispatch<%cmd : !hal.command_buffer> target(%exe : !hal.executable)[%function_id] workgroups([%workgroup_x, %workgroup_y, %workgroup_z]) bindings([
        (%attention_f16_dispatch_0_cuda_nvptx_fb_attention_f16_dispatch_0_attention_16x1024x64x1024x64_buffer : !hal.buffer)[%c0, %c2097152], 
        (%attention_f16_dispatch_0_cuda_nvptx_fb_attention_f16_dispatch_0_attention_16x1024x64x1024x64_buffer : !hal.buffer)[%c2097152, %c2097152], 
        (%attention_f16_dispatch_0_cuda_nvptx_fb_attention_f16_dispatch_0_attention_16x1024x64x1024x64_buffer : !hal.buffer)[%c4194304, %c2097152], 
        (%attention_f16_dispatch_0_cuda_nvptx_fb_attention_f16_dispatch_0_attention_16x1024x64x1024x64_buffer : !hal.buffer)[%c6291456, %c2097152]
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
