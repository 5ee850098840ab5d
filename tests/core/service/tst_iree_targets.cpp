// Target facts from the IREE in use, and the built-in table held to them: the
// table is what Tilescope uses with no IREE, so every entry must say what the
// pinned IREE says for the same name, field by field.
#include "TestSupport.h"

#include "core/config/configs/GpuTarget.h"
#include "core/layout/MmaLayouts.h"
#include "core/service/IreeTargets.h"

using namespace tilescope;

namespace {

template <typename T> std::string text(const T &value) {
  std::ostringstream out;
  if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    for (const auto &entry : value)
      out << entry << " ";
  } else if constexpr (std::is_same_v<T, std::vector<int64_t>> ||
                       std::is_same_v<T, std::array<int64_t, 3>>) {
    for (int64_t entry : value)
      out << entry << " ";
  } else if constexpr (std::is_same_v<T, std::optional<int64_t>>) {
    out << (value ? std::to_string(*value) : "none");
  } else {
    out << value;
  }
  return out.str();
}

// The fields IREE's #iree_gpu.target states, compared one by one; empty when
// all agree.
std::string differences(const config::GpuTarget &ours,
                        const config::GpuTarget &iree) {
  std::string out;
  auto field = [&](const char *name, const auto &a, const auto &b) {
    if (a != b)
      out += std::string("  ") + name + ": built-in " + text(a) + ", IREE " +
             text(b) + "\n";
  };
  field("arch", ours.arch, iree.arch);
  field("backend", ours.backend, iree.backend);
  field("features", ours.features, iree.features);
  field("subgroup_size_choices", ours.subgroupSizeChoices,
        iree.subgroupSizeChoices);
  field("max_workgroup_sizes", ours.maxWorkgroupSizes, iree.maxWorkgroupSizes);
  field("max_thread_count_per_workgroup", ours.maxThreadCountPerWorkgroup,
        iree.maxThreadCountPerWorkgroup);
  field("max_workgroup_memory_bytes", ours.maxWorkgroupMemoryBytes,
        iree.maxWorkgroupMemoryBytes);
  field("mma", ours.mmaIntrinsics, iree.mmaIntrinsics);
  field("scaled_mma", ours.scaledMmaIntrinsics, iree.scaledMmaIntrinsics);
  field("simds_per_wgp", ours.simdsPerWgp, iree.simdsPerWgp);
  field("workgroup_memory_bank_count", ours.workgroupMemoryBankCount,
        iree.workgroupMemoryBankCount);
  field("max_load_instruction_bits", ours.maxLoadInstructionBits,
        iree.maxLoadInstructionBits);
  field("vgpr_space_bits", ours.vgprSpaceBits, iree.vgprSpaceBits);
  field("wgp_count", ours.wgpCount, iree.wgpCount);
  return out;
}

} // namespace

class IreeTargetsTest : public QObject {
  Q_OBJECT

private slots:
  // Every built-in name (arch and product) but sm_90, which IREE 3.13 has no
  // facts for.
  void theBuiltInTableSaysWhatIreeSays() {
    const auto iree = test::projectIree();
    int compared = 0;
    for (const char *name : {"gfx942", "mi300x", "gfx950", "mi355x", "gfx1100",
                             "rx7900xtx", "sm_80", "a100"}) {
      auto builtin = config::builtinTarget(name);
      QVERIFY2(builtin.has_value(), name);
      auto asked = service::ireeTarget(iree, name);
      QVERIFY2(
          asked.ok(),
          (std::string(name) + ": " + (asked ? "" : asked.error())).c_str());
      const std::string found = differences(*builtin, asked->target);
      QVERIFY2(found.empty(), (std::string(name) + ":\n" + found).c_str());
      QVERIFY(asked->command.find("--iree-") != std::string::npos);
      ++compared;
    }
    QCOMPARE(compared, 8);
  }

  void aTargetOnlyIreeKnowsIsAskedOfIt() {
    const auto iree = test::projectIree();
    QVERIFY(!config::builtinTarget("gfx1250"));
    auto resolved = service::resolveTarget(&iree, "gfx1250");
    QVERIFY2(resolved.ok(), resolved.ok() ? "" : resolved.error().c_str());
    QVERIFY(resolved->note.empty());
    const config::GpuTarget &t = resolved->target;
    QCOMPARE(t.arch, std::string("gfx1250"));
    QCOMPARE(t.backend, std::string("rocm"));
    QCOMPARE(t.subgroupSizeChoices, std::vector<int64_t>{32});
    QCOMPARE(t.maxWorkgroupMemoryBytes, int64_t(327680));
    QVERIFY(t.offersMma("WMMA_F32_16x16x32_F16"));
    QVERIFY(t.source.find("--iree-rocm-target=gfx1250") != std::string::npos);
    // Without IREE the name is unknown, and the message says what is known.
    auto without = service::resolveTarget(nullptr, "gfx1250");
    QVERIFY(!without.ok());
    QVERIFY(without.error().find("gfx942") != std::string::npos);
  }

  // Every MMA intrinsic any target of the pinned IREE offers has fragments in
  // Tilescope's table, so whatever a file names can be drawn.
  void everyIntrinsicATargetOffersCanBeDrawn() {
    const auto iree = test::projectIree();
    int intrinsics = 0;
    for (const char *name :
         {"gfx908", "gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1101",
          "gfx1200", "gfx1201", "gfx1250", "sm_60", "sm_70", "sm_75", "sm_80",
          "sm_86", "sm_89"}) {
      auto asked = service::ireeTarget(iree, name);
      if (!asked) {
        // A name this IREE does not know is not a failure of the table.
        QVERIFY2(asked.error().find("nknown") != std::string::npos ||
                     asked.error().find("no GPU target facts") !=
                         std::string::npos,
                 asked.error().c_str());
        continue;
      }
      for (const std::string &scaled : asked->target.scaledMmaIntrinsics) {
        const layout::MmaIntrinsic *found = layout::findMmaIntrinsic(scaled);
        QVERIFY2(found && found->isScaled,
                 (std::string(name) + " offers scaled " + scaled +
                  ", which Tilescope's table lacks")
                     .c_str());
        ++intrinsics;
      }
      for (const std::string &mma : asked->target.mmaIntrinsics) {
        QVERIFY2(layout::findMmaIntrinsic(mma) != nullptr,
                 (std::string(name) + " offers " + mma +
                  ", which Tilescope's MMA table lacks")
                     .c_str());
        ++intrinsics;
      }
    }
    QVERIFY(intrinsics > 40);
  }

  void sm90FallsBackToTheBuiltInDescriptionSayingWhy() {
    const auto iree = test::projectIree();
    auto asked = service::ireeTarget(iree, "sm_90");
    QVERIFY(!asked.ok());
    QVERIFY2(asked.error().find("no GPU target facts") != std::string::npos,
             asked.error().c_str());
    auto resolved = service::resolveTarget(&iree, "sm_90");
    QVERIFY(resolved.ok());
    QCOMPARE(resolved->target.maxWorkgroupMemoryBytes, int64_t(232448));
    QVERIFY(resolved->note.find("built-in") != std::string::npos);
  }

  void aProductIreeKnowsBringsItsOwnFigures() {
    const auto iree = test::projectIree();
    // mi325x is a gfx942 IREE names with its own chip figures; Tilescope's
    // table describes the MI300X, whose figures must not be borrowed: the
    // ones read are IREE's (chip = <sku = "mi325x", memory_bandwidth_tbps =
    // 5.3, perf_tflops = {fp16 = 1307.4, ...}>).
    auto asked = service::ireeTarget(iree, "mi325x");
    if (!asked.ok())
      QSKIP(("this IREE does not know mi325x: " + asked.error()).c_str());
    QCOMPARE(asked->target.arch, std::string("gfx942"));
    QCOMPARE(asked->target.product, std::string("mi325x"));
    QCOMPARE(asked->target.peakMemoryBytesPerSecond, 5.3e12);
    QCOMPARE(asked->target.peakMatrixOpsPerSecond.at("f16"), 1307.4e12);
    QVERIFY(asked->target.wgpCount == 304);
  }

  void unknownNamesSayWhatIreeSaid() {
    const auto iree = test::projectIree();
    auto unknown = service::ireeTarget(iree, "gfx9999");
    QVERIFY(!unknown.ok());
    QVERIFY2(unknown.error().find("Unknown ROCM target 'gfx9999'") !=
                 std::string::npos,
             unknown.error().c_str());
    QVERIFY(unknown.error().find("Unknown CUDA target") != std::string::npos);
    auto resolved = service::resolveTarget(&iree, "gfx9999");
    QVERIFY(!resolved.ok());
    QVERIFY(resolved.error().find("nor is it built into Tilescope") !=
            std::string::npos);
    auto odd = service::targetQueryCommand(iree, "gfx942 --iree-x", "rocm");
    QVERIFY(!odd.ok());
    QVERIFY(!service::targetQueryCommand(iree, "gfx942", "vulkan").ok());
    // A pasted attribute is read as it is, with no IREE.
    auto pasted = service::resolveTarget(
        nullptr, "#iree_gpu.target<arch = \"gfx942\", features = \"\", wgp = "
                 "<compute = fp32, storage = b32, subgroup = none, mma = [], "
                 "subgroup_size_choices = [64], max_workgroup_sizes = [1024, "
                 "1024, 1024], max_thread_count_per_workgroup = 1024, "
                 "max_workgroup_memory_bytes = 65536, max_workgroup_counts = "
                 "[2147483647, 2147483647, 2147483647]>>");
    QVERIFY2(pasted.ok(), pasted.ok() ? "" : pasted.error().c_str());
    QCOMPARE(pasted->target.maxWorkgroupMemoryBytes, int64_t(65536));
  }
};

QTEST_GUILESS_MAIN(IreeTargetsTest)
#include "tst_iree_targets.moc"
