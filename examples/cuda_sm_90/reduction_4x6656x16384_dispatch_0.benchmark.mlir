module {
  util.global private @__device_0 = #hal.device.target<"cuda", [#hal.executable.target<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_90", features = "+ptx80", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 232448, max_workgroup_counts = [2147483647, 65535, 65535]>, chip = <wgp_count = 132>>}>]> : !hal.device
  hal.executable private @reduction_4x6656x16384_dispatch_0 {
    hal.executable.variant public @cuda_nvptx_fb target(<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_90", features = "+ptx80", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 232448, max_workgroup_counts = [2147483647, 65535, 65535]>, chip = <wgp_count = 132>>}>) {
      hal.executable.export public @reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [32, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
          %cst = arith.constant 0.000000e+00 : f32
          %c0 = arith.constant 0 : index
          %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<26624x16384xf16, #hal.descriptor_type<storage_buffer>>
          %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<26624xf32, #hal.descriptor_type<storage_buffer>>
          %2 = iree_codegen.load_from_buffer %0 : memref<26624x16384xf16, #hal.descriptor_type<storage_buffer>> -> tensor<26624x16384xf16>
          %3 = tensor.empty() : tensor<26624xf32>
          %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<26624xf32>) -> tensor<26624xf32>
          %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<26624x16384xf16>) outs(%4 : tensor<26624xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{lane_basis = [[1, 32], [0, 1]], partial_reduction = [0, 256], subgroup_basis = [[1, 1], [0, 1]], thread = [0, 8], workgroup = [1, 0]}>, root_op = #iree_codegen.root_op<set = 0>} {
          ^bb0(%in: f16, %out: f32):
            %6 = arith.extf %in : f16 to f32
            %7 = arith.addf %6, %out : f32
            linalg.yield %7 : f32
          } -> tensor<26624xf32>
          iree_codegen.store_to_buffer %5, %1 : tensor<26624xf32> into memref<26624xf32, #hal.descriptor_type<storage_buffer>>
          return
        }
        iree_codegen.dispatch_config @reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
  util.global private mutable @reduction_4x6656x16384_dispatch_0_cuda_nvptx_fb_reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32_buffer : !hal.buffer
  util.initializer {
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
    %memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32
    %buffer_usage = hal.buffer_usage<"TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage"> : i32
    %c872521728 = arith.constant 872521728 : index
    %buffer = hal.allocator.allocate<%allocator : !hal.allocator> affinity(%queue_affinity) type(%memory_type) usage(%buffer_usage) : !hal.buffer{%c872521728}
    util.global.store %buffer, @reduction_4x6656x16384_dispatch_0_cuda_nvptx_fb_reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32_buffer : !hal.buffer
    util.return
  }
  util.func public @reduction_4x6656x16384_dispatch_0_cuda_nvptx_fb_reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32(%arg0: i32) attributes {iree.abi.stub, iree.reflection = {iree.benchmark = "dispatch"}} {
    %0 = arith.index_cast %arg0 : i32 to index
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %cmd = hal.command_buffer.create device(%device : !hal.device) mode("OneShot|AllowInlineExecution") categories(Dispatch) affinity(%queue_affinity) : !hal.command_buffer
    %reduction_4x6656x16384_dispatch_0_cuda_nvptx_fb_reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32_buffer = util.global.load @reduction_4x6656x16384_dispatch_0_cuda_nvptx_fb_reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32_buffer : !hal.buffer
    %c0 = arith.constant 0 : index
    %c872415232 = arith.constant 872415232 : index
    %c106496 = arith.constant 106496 : index
    %workgroup_x, %workgroup_y, %workgroup_z = hal.executable.calculate_workgroups device(%device : !hal.device) target(@reduction_4x6656x16384_dispatch_0::@cuda_nvptx_fb::@reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32) : index, index, index
    %exe = hal.executable.lookup device(%device : !hal.device) executable(@reduction_4x6656x16384_dispatch_0) : !hal.executable
    %function_id = hal.executable.lookup.function target(%exe : !hal.executable) function(@reduction_4x6656x16384_dispatch_0::@cuda_nvptx_fb::@reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32) : i64
    %c1 = arith.constant 1 : index
    scf.for %arg1 = %c0 to %0 step %c1 {
      hal.command_buffer.dispatch<%cmd : !hal.command_buffer> target(%exe : !hal.executable)[%function_id] workgroups([%workgroup_x, %workgroup_y, %workgroup_z]) bindings([
        (%reduction_4x6656x16384_dispatch_0_cuda_nvptx_fb_reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32_buffer : !hal.buffer)[%c0, %c872415232], 
        (%reduction_4x6656x16384_dispatch_0_cuda_nvptx_fb_reduction_4x6656x16384_dispatch_0_reduction_26624x16384_f16xf32_buffer : !hal.buffer)[%c872415232, %c106496]
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
