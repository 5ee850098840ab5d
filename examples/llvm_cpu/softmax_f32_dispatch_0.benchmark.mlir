module {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>]> : !hal.device
  hal.executable private @softmax_f32_dispatch_0 {
    hal.executable.variant public @embedded_elf_x86_64 target(<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>) {
      hal.executable.export public @softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>} {
          %cst = arith.constant 0.000000e+00 : f32
          %cst_0 = arith.constant 0xFFC00000 : f32
          %c0 = arith.constant 0 : index
          %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x4096xf32, #hal.descriptor_type<storage_buffer>>
          %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<32x4096xf32, #hal.descriptor_type<storage_buffer>>
          %2 = iree_codegen.load_from_buffer %0 : memref<32x4096xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x4096xf32>
          %3 = tensor.empty() : tensor<32x4096xf32>
          %4 = tensor.empty() : tensor<32xf32>
          %5 = linalg.fill {lowering_config = #iree_cpu.lowering_config<vector_common_parallel = [4]>} ins(%cst_0 : f32) outs(%4 : tensor<32xf32>) -> tensor<32xf32>
          %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<32x4096xf32>) outs(%5 : tensor<32xf32>) attrs =  {lowering_config = #iree_cpu.lowering_config<vector_common_parallel = [4, 0], vector_reduction = [0, 4]>} {
          ^bb0(%in: f32, %out: f32):
            %10 = arith.maxnumf %in, %out : f32
            linalg.yield %10 : f32
          } -> tensor<32xf32>
          %7 = linalg.fill {lowering_config = #iree_cpu.lowering_config<vector_common_parallel = [4]>} ins(%cst : f32) outs(%4 : tensor<32xf32>) -> tensor<32xf32>
          %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2, %6 : tensor<32x4096xf32>, tensor<32xf32>) outs(%7 : tensor<32xf32>) attrs =  {lowering_config = #iree_cpu.lowering_config<distribution = [4, 0], vector_common_parallel = [4, 0], vector_reduction = [0, 4]>, root_op = #iree_codegen.root_op<set = 0>} {
          ^bb0(%in: f32, %in_1: f32, %out: f32):
            %10 = arith.subf %in, %in_1 : f32
            %11 = math.exp %10 : f32
            %12 = arith.addf %11, %out : f32
            linalg.yield %12 : f32
          } -> tensor<32xf32>
          %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2, %6, %8 : tensor<32x4096xf32>, tensor<32xf32>, tensor<32xf32>) outs(%3 : tensor<32x4096xf32>) attrs =  {lowering_config = #iree_cpu.lowering_config<vector_common_parallel = [4, 0], vector_inner_parallel = [0, 4]>} {
          ^bb0(%in: f32, %in_1: f32, %in_2: f32, %out: f32):
            %10 = arith.subf %in, %in_1 : f32
            %11 = math.exp %10 : f32
            %12 = arith.divf %11, %in_2 : f32
            linalg.yield %12 : f32
          } -> tensor<32x4096xf32>
          iree_codegen.store_to_buffer %9, %1 : tensor<32x4096xf32> into memref<32x4096xf32, #hal.descriptor_type<storage_buffer>>
          return
        }
        iree_codegen.dispatch_config @softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
  util.global private mutable @softmax_f32_dispatch_0_embedded_elf_x86_64_softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store_buffer : !hal.buffer
  util.initializer {
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
    %memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32
    %buffer_usage = hal.buffer_usage<"TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage"> : i32
    %c1048576 = arith.constant 1048576 : index
    %buffer = hal.allocator.allocate<%allocator : !hal.allocator> affinity(%queue_affinity) type(%memory_type) usage(%buffer_usage) : !hal.buffer{%c1048576}
    util.global.store %buffer, @softmax_f32_dispatch_0_embedded_elf_x86_64_softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store_buffer : !hal.buffer
    util.return
  }
  util.func public @softmax_f32_dispatch_0_embedded_elf_x86_64_softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store(%arg0: i32) attributes {iree.abi.stub, iree.reflection = {iree.benchmark = "dispatch"}} {
    %0 = arith.index_cast %arg0 : i32 to index
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %cmd = hal.command_buffer.create device(%device : !hal.device) mode("OneShot|AllowInlineExecution") categories(Dispatch) affinity(%queue_affinity) : !hal.command_buffer
    %softmax_f32_dispatch_0_embedded_elf_x86_64_softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store_buffer = util.global.load @softmax_f32_dispatch_0_embedded_elf_x86_64_softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store_buffer : !hal.buffer
    %c0 = arith.constant 0 : index
    %c524288 = arith.constant 524288 : index
    %workgroup_x, %workgroup_y, %workgroup_z = hal.executable.calculate_workgroups device(%device : !hal.device) target(@softmax_f32_dispatch_0::@embedded_elf_x86_64::@softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store) : index, index, index
    %exe = hal.executable.lookup device(%device : !hal.device) executable(@softmax_f32_dispatch_0) : !hal.executable
    %function_id = hal.executable.lookup.function target(%exe : !hal.executable) function(@softmax_f32_dispatch_0::@embedded_elf_x86_64::@softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store) : i64
    %c1 = arith.constant 1 : index
    scf.for %arg1 = %c0 to %0 step %c1 {
      hal.command_buffer.dispatch<%cmd : !hal.command_buffer> target(%exe : !hal.executable)[%function_id] workgroups([%workgroup_x, %workgroup_y, %workgroup_z]) bindings([
        (%softmax_f32_dispatch_0_embedded_elf_x86_64_softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store_buffer : !hal.buffer)[%c0, %c524288], 
        (%softmax_f32_dispatch_0_embedded_elf_x86_64_softmax_f32_dispatch_0_softmax_32x4096xf32_dispatch_tensor_store_buffer : !hal.buffer)[%c524288, %c524288]
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
