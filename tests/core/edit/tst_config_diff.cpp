// Two versions of a root op's configs, field by field as the document read
// them; a config Tilescope does not read field by field (a CPU
// lowering_config) differs whole, with its parameters by name on each side
// so a person reads both in full.
#include "TestSupport.h"

#include "core/edit/ConfigDiff.h"
#include "core/export/DifferenceJson.h"

#include <QTest>

using namespace tilescope;

namespace {

document::RootOp opWith(const std::string &config) {
  document::RootOp op;
  op.name = "linalg.matmul";
  op.loweringConfig = config;
  return op;
}

const char *kCpuA =
    "#iree_cpu.lowering_config<cache_parallel = [32, 32, 0], distribution = "
    "[32, 32, 0], vector_common_parallel = [8, 8, 0], vector_reduction = [0, "
    "0, 8]>";
const char *kCpuB = "#iree_cpu.lowering_config<distribution = [64, 64, 0], "
                    "vector_common_parallel = [8, 8, 0], vector_reduction = "
                    "[0, 0, 4], vector_inner_parallel = [0, 0, 0]>";

} // namespace

class ConfigDiffTest : public QObject {
  Q_OBJECT

private slots:
  void aWholeConfigOpensIntoItsParameters() {
    const auto differences =
        edit::loweringConfigDifferences(opWith(kCpuA), opWith(kCpuB));
    QCOMPARE(differences.size(), size_t(1));
    const edit::FieldDifference &whole = differences[0];
    QCOMPARE(whole.field, std::string("lowering_config"));
    QCOMPARE(whole.before, std::string(kCpuA));
    std::vector<std::string> rows;
    for (const edit::FieldDifference &e : whole.entries)
      rows.push_back(e.field + ": " + e.before + " | " + e.after);
    QCOMPARE(rows, (std::vector<std::string>{
                       "cache_parallel: [32, 32, 0] | ",
                       "distribution: [32, 32, 0] | [64, 64, 0]",
                       "vector_common_parallel: [8, 8, 0] | [8, 8, 0]",
                       "vector_reduction: [0, 0, 8] | [0, 0, 4]",
                       "vector_inner_parallel:  | [0, 0, 0]"}));

    // The same entries under `diff --json`'s keys.
    edit::DocumentDifference document;
    document.ops.push_back({"d0", "linalg.matmul (line 1)", differences});
    const nlohmann::json json =
        exporting::differencesJson(document, "before", "after");
    const nlohmann::json &entries = json[0]["fields"][0]["entries"];
    QCOMPARE(entries.size(), size_t(5));
    QCOMPARE(entries[3]["after"], nlohmann::json("[0, 0, 4]"));
  }

  void fieldsThatReadDifferAloneWithNoEntries() {
    const auto differences = edit::loweringConfigDifferences(
        opWith("#iree_gpu.lowering_config<{workgroup = [64, 64, 0], "
               "reduction = [0, 0, 8]}>"),
        opWith("#iree_gpu.lowering_config<{workgroup = [64, 64, 0], "
               "reduction = [0, 0, 4]}>"));
    QCOMPARE(differences.size(), size_t(1));
    QCOMPARE(differences[0].field, std::string("reduction"));
    QVERIFY(differences[0].entries.empty());
    // Text that is no attribute at all differs whole, with nothing to open.
    const auto broken = edit::loweringConfigDifferences(
        opWith(kCpuA), opWith("#iree_cpu.lowering_config<"));
    QCOMPARE(broken.size(), size_t(1));
    QCOMPARE(broken[0].entries.size(), size_t(4));
    QVERIFY(broken[0].entries[0].after.empty());
  }
};

QTEST_GUILESS_MAIN(ConfigDiffTest)
#include "tst_config_diff.moc"
