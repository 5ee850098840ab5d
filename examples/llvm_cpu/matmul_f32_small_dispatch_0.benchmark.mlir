module {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>]> : !hal.device
  hal.executable private @matmul_f32_small_dispatch_0 {
    hal.executable.variant public @embedded_elf_x86_64 target(<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>) {
      hal.executable.export public @matmul_f32_small_dispatch_0_matmul_128x128x128_f32 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_f32_small_dispatch_0_matmul_128x128x128_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {enable_loop_peeling}>} {
          %cst = arith.constant 0.000000e+00 : f32
          %c0 = arith.constant 0 : index
          %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128x128xf32, #hal.descriptor_type<storage_buffer>>
          %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128x128xf32, #hal.descriptor_type<storage_buffer>>
          %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<128x128xf32, #hal.descriptor_type<storage_buffer>>
          %3 = iree_codegen.load_from_buffer %0 : memref<128x128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128x128xf32>
          %4 = iree_codegen.load_from_buffer %1 : memref<128x128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128x128xf32>
          %5 = tensor.empty() : tensor<128x128xf32>
          %6 = linalg.fill {lowering_config = #iree_cpu.lowering_config<cache_parallel = [16, 64], vector_common_parallel = [8, 4]>} ins(%cst : f32) outs(%5 : tensor<128x128xf32>) -> tensor<128x128xf32>
          %7 = linalg.matmul {lowering_config = #iree_cpu.lowering_config<cache_parallel = [16, 64, 0], distribution = [16, 64, 0], vector_common_parallel = [8, 4, 0], vector_reduction = [0, 0, 4]>, root_op = #iree_codegen.root_op<set = 0>} ins(%3, %4 : tensor<128x128xf32>, tensor<128x128xf32>) outs(%6 : tensor<128x128xf32>) -> tensor<128x128xf32>
          iree_codegen.store_to_buffer %7, %2 : tensor<128x128xf32> into memref<128x128xf32, #hal.descriptor_type<storage_buffer>>
          return
        }
        iree_codegen.dispatch_config @matmul_f32_small_dispatch_0_matmul_128x128x128_f32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
  util.global private mutable @matmul_f32_small_dispatch_0_embedded_elf_x86_64_matmul_f32_small_dispatch_0_matmul_128x128x128_f32_buffer : !hal.buffer
  util.initializer {
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
    %memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32
    %buffer_usage = hal.buffer_usage<"TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage"> : i32
    %c196608 = arith.constant 196608 : index
    %buffer = hal.allocator.allocate<%allocator : !hal.allocator> affinity(%queue_affinity) type(%memory_type) usage(%buffer_usage) : !hal.buffer{%c196608}
    util.global.store %buffer, @matmul_f32_small_dispatch_0_embedded_elf_x86_64_matmul_f32_small_dispatch_0_matmul_128x128x128_f32_buffer : !hal.buffer
    util.return
  }
  util.func public @matmul_f32_small_dispatch_0_embedded_elf_x86_64_matmul_f32_small_dispatch_0_matmul_128x128x128_f32(%arg0: i32) attributes {iree.abi.stub, iree.reflection = {iree.benchmark = "dispatch"}} {
    %0 = arith.index_cast %arg0 : i32 to index
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %cmd = hal.command_buffer.create device(%device : !hal.device) mode("OneShot|AllowInlineExecution") categories(Dispatch) affinity(%queue_affinity) : !hal.command_buffer
    %matmul_f32_small_dispatch_0_embedded_elf_x86_64_matmul_f32_small_dispatch_0_matmul_128x128x128_f32_buffer = util.global.load @matmul_f32_small_dispatch_0_embedded_elf_x86_64_matmul_f32_small_dispatch_0_matmul_128x128x128_f32_buffer : !hal.buffer
    %c0 = arith.constant 0 : index
    %c65536 = arith.constant 65536 : index
    %c131072 = arith.constant 131072 : index
    %workgroup_x, %workgroup_y, %workgroup_z = hal.executable.calculate_workgroups device(%device : !hal.device) target(@matmul_f32_small_dispatch_0::@embedded_elf_x86_64::@matmul_f32_small_dispatch_0_matmul_128x128x128_f32) : index, index, index
    %exe = hal.executable.lookup device(%device : !hal.device) executable(@matmul_f32_small_dispatch_0) : !hal.executable
    %function_id = hal.executable.lookup.function target(%exe : !hal.executable) function(@matmul_f32_small_dispatch_0::@embedded_elf_x86_64::@matmul_f32_small_dispatch_0_matmul_128x128x128_f32) : i64
    %c1 = arith.constant 1 : index
    scf.for %arg1 = %c0 to %0 step %c1 {
      hal.command_buffer.dispatch<%cmd : !hal.command_buffer> target(%exe : !hal.executable)[%function_id] workgroups([%workgroup_x, %workgroup_y, %workgroup_z]) bindings([
        (%matmul_f32_small_dispatch_0_embedded_elf_x86_64_matmul_f32_small_dispatch_0_matmul_128x128x128_f32_buffer : !hal.buffer)[%c0, %c65536], 
        (%matmul_f32_small_dispatch_0_embedded_elf_x86_64_matmul_f32_small_dispatch_0_matmul_128x128x128_f32_buffer : !hal.buffer)[%c65536, %c65536], 
        (%matmul_f32_small_dispatch_0_embedded_elf_x86_64_matmul_f32_small_dispatch_0_matmul_128x128x128_f32_buffer : !hal.buffer)[%c131072, %c65536]
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
