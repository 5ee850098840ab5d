// What a compiled kernel uses, read from its artifacts' texts (no tool
// run): AMDGPU kernel metadata, ptxas -v's report, a PTX's target and block
// sizes, and the shared memory IREE gives an export in translated IR.
#include "core/isa/KernelResources.h"

#include <QTest>

using namespace tilescope;
using namespace tilescope::isa;

namespace {

// The metadata of the gfx942 f16 matmul example as the pinned IREE compiles
// it (trimmed to the lines read).
constexpr const char *kAmdAssembly = R"(
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     4
    .group_segment_fixed_size: 50688
    .max_flat_workgroup_size: 256
    .name:           matmul_dispatch_0
    .private_segment_fixed_size: 16
    .reqd_workgroup_size:
      - 256
      - 1
      - 1
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .vgpr_count:     132
    .vgpr_spill_count: 3
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
)";

constexpr const char *kPtxasOutput = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'matmul_dispatch_0' for 'sm_90'
ptxas info    : Function properties for matmul_dispatch_0
    8 bytes stack frame, 12 bytes spill stores, 16 bytes spill loads
ptxas info    : Used 96 registers, used 1 barriers, 1024 bytes smem, 360 bytes cmem[0]
ptxas info    : Compile time = 32.985 ms
)";

} // namespace

class KernelResourcesTest : public QObject {
  Q_OBJECT

private slots:
  void readsAmdKernelMetadata() {
    auto kernels = parseAmdgpuAssembly(kAmdAssembly);
    QVERIFY2(kernels.ok(), kernels.ok() ? "" : kernels.error().c_str());
    QCOMPARE(kernels->size(), size_t(1));
    const KernelResources &k = kernels->front();
    QCOMPARE(k.kernel, std::string("matmul_dispatch_0"));
    QCOMPARE(k.arch, std::string("gfx942"));
    QCOMPARE(k.vgprs.value_or(0), 132);
    QCOMPARE(k.agprs.value_or(0), 4);
    QCOMPARE(k.sgprs.value_or(0), 22);
    QCOMPARE(k.vgprSpills.value_or(0), 3);
    QVERIFY(k.spills());
    QCOMPARE(k.sharedMemoryBytes, 50688LL);
    QCOMPARE(k.scratchBytes, 16LL);
    QCOMPARE(k.workgroupSize, 256);
    QVERIFY(!parseAmdgpuAssembly("s_endpgm\n").ok());
    QVERIFY(!parseAmdgpuAssembly(".amdgpu_metadata\n: [\n.end_amdgpu_metadata")
                 .ok());
  }

  void readsPtxasAndPtx() {
    auto kernels = parsePtxasVerbose(kPtxasOutput);
    QVERIFY(kernels.ok());
    QCOMPARE(kernels->size(), size_t(1));
    const KernelResources &k = kernels->front();
    QCOMPARE(k.kernel, std::string("matmul_dispatch_0"));
    QCOMPARE(k.arch, std::string("sm_90"));
    QCOMPARE(k.registers.value_or(0), 96);
    QCOMPARE(k.spillStoreBytes.value_or(0), 12LL);
    QCOMPARE(k.spillLoadBytes.value_or(0), 16LL);
    QCOMPARE(k.scratchBytes, 8LL);
    QCOMPARE(k.sharedMemoryBytes, 1024LL);
    QVERIFY(!parsePtxasVerbose("ptxas info    : 0 bytes gmem\n").ok());

    const PtxFacts facts = parsePtx(".version 8.0\n.target sm_90\n"
                                    ".visible .entry matmul_dispatch_0(\n"
                                    "  .param .u64 p0\n)\n.maxntid 128, 1, 1\n"
                                    "{\n}\n.visible .entry other()\n"
                                    ".reqntid 32, 2\n{\n}\n");
    QCOMPARE(facts.target, std::string("sm_90"));
    QCOMPARE(facts.blockSize.at("matmul_dispatch_0"), 128);
    QCOMPARE(facts.blockSize.at("other"), 64);

    const auto local = parseWorkgroupLocalMemory(
        "hal.executable.export public @a ordinal(0) layout(#l) count(%d: "
        "!hal.device) -> (index, index, index) {\n} attributes "
        "{workgroup_local_memory = 33792 : index, workgroup_size = [128 : "
        "index, 1 : index, 1 : index]}\nbuiltin.module {\n}\n"
        "hal.executable.export public @b ordinal(1) layout(#l)\nbuiltin.module "
        "{ workgroup_local_memory = 5 }\n");
    QCOMPARE(local.size(), size_t(1));
    QCOMPARE(local.at("a"), 33792LL);

    // A program's dispatch names carry '$', which NVPTX writes as '_':
    // the export's shared memory is found under the PTX entry's name.
    const auto program = parseWorkgroupLocalMemory(
        "hal.executable.export public @main_graph$async_dispatch_1_conv "
        "ordinal(0) layout(#l) {\n} attributes {workgroup_local_memory = "
        "8960 : index}\nbuiltin.module {\n}\n");
    QCOMPARE(program.at(ptxName("main_graph$async_dispatch_1_conv")), 8960LL);
    QCOMPARE(ptxName("main_graph$async_dispatch_1_conv"),
             std::string("main_graph_async_dispatch_1_conv"));
  }

  // A workgroup shape no GPU runs (more than 1024 threads, a size of 0 or
  // one whose product overflows) is not taken, as ptxas ignores such a
  // .maxntid: the lanes' readers would otherwise run millions of lanes.
  void refusesWorkgroupsNoGpuRuns() {
    const PtxFacts facts =
        parsePtx(".version 8.0\n.target sm_90\n.visible .entry huge()\n"
                 ".maxntid 1024, 1, 1444\n{\n}\n.visible .entry wraps()\n"
                 ".reqntid 4294967296, 4294967296, 4294967296\n{\n}\n"
                 ".visible .entry most()\n.reqntid 32, 8, 4\n{\n}\n");
    QVERIFY(!facts.blockSize.contains("huge"));
    QVERIFY(!facts.blockSize.contains("wraps"));
    QCOMPARE(facts.blockSize.at("most"), 1024);

    std::string amd = kAmdAssembly;
    const std::string shape = "      - 256\n      - 1\n      - 1\n";
    QVERIFY(amd.find(shape) != std::string::npos);
    for (const char *bad : {"      - 256\n      - 8\n      - 1\n",
                            "      - 0\n      - 1\n      - 1\n",
                            "      - 99999999999\n      - 99999999999\n"
                            "      - 99999999999\n"}) {
      std::string text = amd;
      text.replace(text.find(shape), shape.size(), bad);
      auto kernels = parseAmdgpuAssembly(text);
      QVERIFY(kernels.ok());
      // The metadata's .max_flat_workgroup_size stands.
      QCOMPARE(kernels->front().workgroupSize, 256);
    }
    // Nor a register count below zero or past any register file (the
    // occupancy divides by the registers a wave holds).
    for (const char *bad : {"-4", "2147483647"}) {
      std::string text = amd;
      const std::string agprs = ".agpr_count:     4";
      text.replace(text.find(agprs), agprs.size(),
                   std::string(".agpr_count:     ") + bad);
      auto kernels = parseAmdgpuAssembly(text);
      QVERIFY(kernels.ok());
      QVERIFY(!kernels->front().agprs);
      QCOMPARE(kernels->front().vgprs.value_or(0), 132);
    }
  }
};

QTEST_GUILESS_MAIN(KernelResourcesTest)
#include "tst_kernel_resources.moc"
