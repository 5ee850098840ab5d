// The compile / resources / bench / verify / history / compare loop from
// tilescope-cli, as a user runs it, against the pinned IREE: an edit to the
// CPU example compiled, timed and checked end to end on local-task (and
// failing visibly against a wrong reference); resources read from the real
// gfx942 ISA and sm_90 PTX, an edited gfx942 tile seen in the compiled
// kernel; a config that makes iree-compile run away stopped by the time
// limit with the file untouched; every try in the history; an exported
// tuning spec that makes IREE choose the edited config; one dispatch of a
// whole program compiled, measured and timed alone, edits included.
#include "CliRunner.h"
#include "TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

using namespace tilescope;
using test::cli;
using test::failure;
using test::jsonOf;
using test::kExamples;

namespace {

QByteArray hashOf(const QString &path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    return {};
  return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

} // namespace

class CliJobsTest : public QObject {
  Q_OBJECT

  QTemporaryDir workspace;
  QStringList inWorkspace(QStringList arguments) {
    return arguments << "--workspace" << workspace.path();
  }

private slots:
  void editCompileBenchAndCheckOnTheCpu() {
    // The matmul's config (op 1; op 0 is its fill), retiled.
    const QString edited = workspace.filePath("matmul_edited.mlir");
    auto set =
        cli({"set-config",
             kExamples + "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir",
             "--op", "0:1", "--set",
             "lowering_config=#iree_cpu.lowering_config<cache_parallel = "
             "[32, 32, 0], distribution = [32, 32, 0], "
             "vector_common_parallel = [8, 8, 0], vector_reduction = "
             "[0, 0, 8]>",
             "-o", edited});
    QVERIFY2(set.exitCode == 0, qPrintable(failure(set)));

    auto bench =
        cli(inWorkspace({"bench", edited, "--repetitions", "3", "--json"}));
    QVERIFY2(bench.exitCode == 0, qPrintable(failure(bench)));
    const QJsonObject timed = jsonOf(bench);
    QCOMPARE(timed["outcome"].toString(), QString("ok"));
    QVERIFY(timed["bench"]["median_us"].toDouble() > 0);
    QCOMPARE(timed["bench"]["repetitions"].toInt(), 3);
    QCOMPARE(timed["bench"]["device"].toString(), QString("local-task"));
    // The try folder keeps what was compiled, and the command reproduces it.
    const QString folder =
        timed["compile"]["artifacts"]["directory"].toString();
    QVERIFY(QFile::exists(folder + "/module.vmfb"));
    QVERIFY(QFile::exists(folder + "/command.sh"));
    QCOMPARE(hashOf(folder + "/input.mlir"), hashOf(edited));
    QVERIFY(timed["compile"]["artifacts"]["assembly"].toArray().size() >= 1);

    auto check = cli(
        inWorkspace({"verify", edited, "--program",
                     kExamples + "sources/matmul_f32_small.mlir", "--json"}));
    QVERIFY2(check.exitCode == 0, qPrintable(failure(check)));
    const QJsonObject passed = jsonOf(check);
    QCOMPARE(passed["passed"].toBool(), true);
    QCOMPARE(passed["outputs"][0]["type"].toString(), QString("128x128xf32"));
    QCOMPARE(passed["outputs"][0]["mismatches"].toInt(), 0);

    // Against a reference that computes something else, the check fails
    // and says where.
    auto wrong = cli(
        inWorkspace({"verify", edited, "--program",
                     kExamples + "sources/matmul_f32_small.mlir", "--reference",
                     TILESCOPE_SOURCE_DIR
                     "/tests/e2e/data/matmul_f32_small_wrong_reference.mlir",
                     "--json"}));
    QCOMPARE(wrong.exitCode, 1);
    const QJsonObject failed = jsonOf(wrong);
    QCOMPARE(failed["passed"].toBool(), false);
    QCOMPARE(failed["outcome"].toString(), QString("check-failed"));
    QVERIFY(failed["outputs"][0]["mismatches"].toInt() > 1000);
    QCOMPARE(failed["outputs"][0]["first_mismatches"][0]["index"].toArray(),
             (QJsonArray{0, 0}));

    // A dispatch file that does not come from the program is refused, not
    // checked against IREE's own config.
    auto unrelated =
        cli(inWorkspace({"verify", edited, "--program",
                         kExamples + "sources/softmax_f32.mlir", "--json"}));
    QCOMPARE(unrelated.exitCode, 1);
    QVERIFY2(
        jsonOf(unrelated)["error"].toString().contains("did not substitute"),
        qPrintable(failure(unrelated)));

    // All of it is in the history, newest first, and two tries compare.
    auto listed = cli(inWorkspace({"history", "--json"}));
    QCOMPARE(listed.exitCode, 0);
    const QJsonArray tries =
        QJsonDocument::fromJson(listed.out.toUtf8()).array();
    QCOMPARE(tries.size(), 4);
    QCOMPARE(tries[0]["outcome"].toString(), QString("compile-failed"));
    QCOMPARE(tries[1]["outcome"].toString(), QString("check-failed"));
    QCOMPARE(tries[2]["check_passed"].toBool(), true);
    QCOMPARE(tries[3]["kind"].toString(), QString("bench"));
    auto csv = cli(inWorkspace({"history", "--csv", "--kind", "verify"}));
    QCOMPARE(csv.out.count('\n'), 4); // a header and three tries

    auto original = cli(inWorkspace(
        {"bench",
         kExamples + "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir",
         "--repetitions", "2", "--json"}));
    QVERIFY2(original.exitCode == 0, qPrintable(failure(original)));
    const QString a = QString::number(jsonOf(original)["try"].toInt());
    const QString b = QString::number(tries[3]["id"].toInt());
    auto compared = cli(inWorkspace({"compare", a, b, "--json"}));
    QVERIFY2(compared.exitCode == 0, qPrintable(failure(compared)));
    const QJsonObject comparison = jsonOf(compared);
    const QString configs =
        QJsonDocument(comparison["configs"].toArray()).toJson();
    QVERIFY2(configs.contains("distribution = [32, 32, 0]"),
             qPrintable(configs));
    QVERIFY(comparison["times"]["speedup_b_over_a"].toDouble() > 0);

    // The report of the edited file: its ops with their problems, the edit
    // against the original, and its tries (the bench and the checks).
    auto reported = cli(inWorkspace(
        {"report", edited, "--original",
         kExamples + "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir"}));
    QVERIFY2(reported.exitCode == 0, qPrintable(failure(reported)));
    const QJsonObject report = jsonOf(reported);
    QCOMPARE(report["tilescope_report"].toInt(), 1);
    QVERIFY(report["ops"].toArray().size() >= 2);
    QVERIFY(report["ops"].toArray()[1].toObject()["problems"].isArray());
    const QJsonArray reportEdits = report["edits"].toArray();
    QCOMPARE(reportEdits.size(), 1);
    QVERIFY(QJsonDocument(reportEdits)
                .toJson()
                .contains("distribution = [32, 32, 0]"));
    QCOMPARE(report["tries"].toArray().size(), 4);
    QVERIFY(report["tries"].toArray()[3].toObject()["details"].isObject());
  }

  void resourcesFromTheRealIsaAndPtx() {
    auto amd = cli(inWorkspace(
        {"resources",
         kExamples + "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir",
         "--json"}));
    QVERIFY2(amd.exitCode == 0, qPrintable(failure(amd)));
    const QJsonObject kernel =
        jsonOf(amd)["resources"].toObject()["kernels"].toArray()[0].toObject();
    QCOMPARE(kernel["arch"].toString(), QString("gfx942"));
    QVERIFY(kernel["vgprs"].toInt() > 0);
    QVERIFY(kernel["sgprs"].toInt() > 0);
    QVERIFY(kernel["shared_memory_bytes"].toInt() > 0);
    QCOMPARE(kernel["workgroup_size"].toInt(), 256);
    QCOMPARE(kernel["occupancy"]["unit"].toString(), QString("waves per SIMD"));
    QVERIFY(kernel["occupancy"]["active"].toInt() >= 1);

    auto nvidia = cli(inWorkspace(
        {"resources",
         kExamples + "cuda_sm_90/matmul_f16_1024_dispatch_0.benchmark.mlir",
         "--json"}));
    QVERIFY2(nvidia.exitCode == 0, qPrintable(failure(nvidia)));
    const QJsonObject resources = jsonOf(nvidia)["resources"].toObject();
    QVERIFY2(resources["kernels"].toArray().size() == 1,
             qPrintable(nvidia.out)); // ptxas ran
    const QJsonObject ptx = resources["kernels"][0].toObject();
    QCOMPARE(ptx["arch"].toString(), QString("sm_90"));
    QVERIFY(ptx["registers"].toInt() > 0);
    // IREE's dynamic shared memory, which ptxas cannot see.
    QVERIFY(ptx["shared_memory_bytes"].toInt() > 0);
    QCOMPARE(ptx["workgroup_size"].toInt(), 128);
    QCOMPARE(ptx["occupancy"]["unit"].toString(), QString("warps per SM"));

    // A GPU dispatch compiles here but is not run, and says so.
    auto notHere = cli(inWorkspace(
        {"bench",
         kExamples + "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir",
         "--json"}));
    QCOMPARE(notHere.exitCode, 5);
    QCOMPARE(jsonOf(notHere)["outcome"].toString(), QString("cannot-run-here"));
    QVERIFY(jsonOf(notHere)["bench"].toObject()["why"].toString().contains(
        "no AMD GPU"));
  }

  // isa: the sm_90 matmul compiled here, its PTX classed and cut by its
  // loop (subgroup 2 x 4 intrinsics x K tile 8 = 64 mma.sync a pass), and
  // the SASS of its cubin beside it (64 HMMAs, the registers live at each
  // instruction, the PTX line each came from); the same from the try's id, its
  // folder and its .ptx; what is no assembly is refused.
  void isaClassesTheCompiledKernel() {
    const QString file = TILESCOPE_SOURCE_DIR
        "/examples/cuda_sm_90/matmul_f16_1024_dispatch_0.benchmark.mlir";
    const auto compiled = cli(inWorkspace({"isa", file, "--json"}));
    QVERIFY2(compiled.exitCode == 0, qPrintable(compiled.err));
    auto loopOf = [](const QJsonObject &out, const QString &dialect) {
      QJsonObject loop;
      for (const QJsonValue kernel : out["kernels"].toArray())
        if (kernel["dialect"].toString() == dialect)
          for (const QJsonValue region : kernel["regions"].toArray())
            if (region["kind"].toString() == "loop")
              loop = region.toObject();
      return loop;
    };
    QCOMPARE(jsonOf(compiled)["kernels"].toArray().size(), 2);
    for (const QString dialect : {"ptx", "sass"}) {
      const QJsonObject loop = loopOf(jsonOf(compiled), dialect);
      QCOMPARE(loop["counts"].toObject()["mma"].toInt(), 64);
      QCOMPARE(loop["width_bits"]
                   .toObject()["global load"]
                   .toObject()["128"]
                   .toInt(),
               16);
    }
    QCOMPARE(jsonOf(compiled)["kernels"][0]["dialect"].toString(),
             QString("ptx"));
    const QJsonObject sassLive =
        jsonOf(compiled)["kernels"][1]["live_registers"].toObject();
    QCOMPARE(sassLive["register_file"].toString(), QString("GPRs"));
    QVERIFY(sassLive["peak_vgprs"].toInt() > 32);
    const QString ptx = jsonOf(compiled)["kernels"][0]["file"].toString();
    const QString folder = QFileInfo(ptx).dir().absolutePath() + "/..";
    const auto history = cli(inWorkspace({"history", "--json"}));
    const QJsonArray tries =
        QJsonDocument::fromJson(history.out.toUtf8()).array();
    QVERIFY(!tries.isEmpty());
    const QString id = QString::number(tries[0].toObject()["id"].toInt());
    for (const QString &given : {ptx, folder, id}) {
      const auto again = cli(inWorkspace({"isa", given, "--json"}));
      QVERIFY2(again.exitCode == 0, qPrintable(given + ": " + again.err));
      QCOMPARE(loopOf(jsonOf(again), "ptx")["counts"].toObject()["mma"].toInt(),
               64);
    }
    const QString sass = jsonOf(compiled)["kernels"][1]["file"].toString();
    QVERIFY(sass.endsWith(".sass"));
    countersOfAProfiledTry(id, folder, sass);
    const auto fromSass = cli(inWorkspace({"isa", sass, "--json"}));
    QVERIFY2(fromSass.exitCode == 0, qPrintable(fromSass.err));
    QCOMPARE(
        loopOf(jsonOf(fromSass), "sass")["counts"].toObject()["mma"].toInt(),
        64);
    // Each SASS instruction names the PTX line it came from: an HMMA's is
    // an mma.sync's.
    const auto lines =
        cli(inWorkspace({"isa", sass, "--json", "--instructions"}));
    QVERIFY2(lines.exitCode == 0, qPrintable(lines.err));
    const QString ptxText = test::readFile(ptx.toStdString()).c_str();
    const QStringList ptxLines = ptxText.split('\n');
    int hmmas = 0;
    for (const QJsonValue i :
         loopOf(jsonOf(lines), "sass")["instructions"].toArray()) {
      QVERIFY2(i["ptx_line"].toInt() > 0, qPrintable(i["mnemonic"].toString()));
      if (!i["mnemonic"].toString().startsWith("HMMA"))
        continue;
      ++hmmas;
      // ptxas names the line of the mma.sync's ';' (its operands span
      // four lines after its mnemonic).
      bool fromMma = false;
      for (int l = i["ptx_line"].toInt() - 1;
           l >= 0 && l >= i["ptx_line"].toInt() - 6; --l)
        fromMma |= ptxLines.value(l).contains("mma.sync");
      QVERIFY2(fromMma, qPrintable(QString::number(i["ptx_line"].toInt())));
    }
    QCOMPARE(hmmas, 64);
    const auto text = cli(inWorkspace({"isa", ptx}));
    QVERIFY2(text.out.contains("loop $L__BB0_1 (one pass of its body)") &&
                 text.out.contains("64 mma (mma.sync.aligned.m16n8k16"),
             qPrintable(text.out));
    const auto notAssembly =
        cli(inWorkspace({"isa", TILESCOPE_SOURCE_DIR "/README.md"}));
    QCOMPARE(notAssembly.exitCode, 4);
    // A CPU kernel's .s is x86-64, not AMDGPU: said, never classed as GPU
    // instructions.
    const auto cpu = cli(inWorkspace(
        {"isa",
         kExamples + "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir",
         "--op", "0:1"}));
    QCOMPARE(cpu.exitCode, 4);
    QVERIFY2(cpu.err.contains("not AMDGPU assembly (no .amdgcn_target): a "
                              "CPU's assembly"),
             qPrintable(cpu.err));
  }

private:
  // A try profiled with Nsight Compute (its timed run's bundle wrote the
  // source page: here a page in ncu's form from the try's own SASS, no GPU
  // being here) has its counters laid over its SASS by `isa TRY`; a page
  // given with --counters that is none is refused.
  void countersOfAProfiledTry(const QString &id, const QString &folder,
                              const QString &sass) {
    QFile sassFile(sass);
    QVERIFY(sassFile.open(QIODevice::ReadOnly));
    const QRegularExpression instruction(
        R"(^\s*/\*([0-9a-f]+)\*/\s*(.*?)\s*;)");
    QString page = "\"Kernel Name\",\"k\"\n\"Address\",\"Source\","
                   "\"Warp Stall Sampling (All Samples)\",\"stall_barrier\"\n";
    int rows = 0;
    for (const QString &line : QString(sassFile.readAll()).split('\n'))
      if (auto match = instruction.match(line); match.hasMatch()) {
        page += QString("\"0x%1\",\"%2\",\"%3\",\"%3\"\n")
                    .arg(0x7f0000000000ull +
                             match.captured(1).toULongLong(nullptr, 16),
                         0, 16)
                    .arg(match.captured(2).replace("\"", "\"\""))
                    .arg(++rows);
      }
    QVERIFY(rows > 100);
    QVERIFY(QDir().mkpath(folder + "/run/results"));
    QFile out(folder + "/run/results/module.source.csv");
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(page.toUtf8());
    out.close();
    const auto profiled = cli(inWorkspace({"isa", id, "--json"}));
    QVERIFY2(profiled.exitCode == 0, qPrintable(profiled.err));
    const QJsonObject profile =
        jsonOf(profiled)["kernels"][1]["profile"].toObject();
    QCOMPARE(profile["matched"].toInt(), rows);
    QVERIFY(profile["same_code"].toBool());
    QCOMPARE(profile["stall_samples"].toDouble(), rows * (rows + 1) / 2.0);
    QVERIFY(jsonOf(profiled)["kernels"][0]["profile"].isUndefined());
    const auto text = cli(inWorkspace({"isa", id}));
    QVERIFY2(text.out.contains("profiled (Nsight Compute, ") &&
                 text.out.contains("instruction for instruction"),
             qPrintable(text.out));
    // A page the run left broken is said; the instructions still stand.
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write("ncu was interrupted here");
    out.close();
    const auto leftBroken = cli(inWorkspace({"isa", id, "--json"}));
    QVERIFY2(leftBroken.exitCode == 0, qPrintable(leftBroken.err));
    QVERIFY2(leftBroken.err.contains("note: ") &&
                 leftBroken.err.contains("not Nsight Compute's source page"),
             qPrintable(leftBroken.err));
    QFile::remove(folder + "/run/results/module.source.csv");
    const auto broken = cli(inWorkspace(
        {"isa", id, "--counters", TILESCOPE_SOURCE_DIR "/README.md"}));
    QCOMPARE(broken.exitCode, 4);
    QVERIFY2(broken.err.contains("not Nsight Compute's source page"),
             qPrintable(broken.err));
  }

private slots:
  void anEditedTileReachesTheCompiledKernel() {
    const QString original =
        kExamples +
        "rocm_gfx942/matmul_f16_vector_distribute_dispatch_0.benchmark.mlir";
    const QString edited = workspace.filePath("vd_edited.mlir");
    auto set = cli({"set-config", original, "--op", "0:0", "--set",
                    "workgroup=[128, 64, 0]", "--set",
                    "subgroup_basis=[[4, 1, 1], [0, 1, 2]]", "-o", edited});
    QVERIFY2(set.exitCode == 0, qPrintable(failure(set)));
    auto before = cli(inWorkspace({"resources", original, "--json"}));
    auto after = cli(inWorkspace({"resources", edited, "--json"}));
    QVERIFY2(before.exitCode == 0, qPrintable(failure(before)));
    QVERIFY2(after.exitCode == 0, qPrintable(failure(after)));
    const QJsonObject a = jsonOf(before)["resources"]
                              .toObject()["kernels"]
                              .toArray()[0]
                              .toObject();
    const QJsonObject b = jsonOf(after)["resources"]
                              .toObject()["kernels"]
                              .toArray()[0]
                              .toObject();
    // The workgroup is the translation_info's 256 threads, and the promoted
    // LHS tile doubled with the workgroup's M tile: LDS grows.
    QCOMPARE(b["workgroup_size"].toInt(), 256);
    QVERIFY2(
        b["shared_memory_bytes"].toInt() > a["shared_memory_bytes"].toInt(),
        qPrintable(QString::number(a["shared_memory_bytes"].toInt()) + " -> " +
                   QString::number(b["shared_memory_bytes"].toInt())));
  }

  void aRunawayCompileIsStoppedAndHarmsNothing() {
    // Swapping the reduction's lane_basis mapping makes the pinned
    // iree-compile grind for about a minute: the time limit stops it.
    const QString edited = workspace.filePath("runaway.mlir");
    auto set = cli(
        {"set-config",
         kExamples +
             "rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir",
         "--op", "0:0", "--set", "lane_basis=[[1, 64], [1, 0]]", "-o", edited});
    QVERIFY2(set.exitCode == 0, qPrintable(failure(set)));
    const QByteArray hash = hashOf(edited);
    auto compiled =
        cli(inWorkspace({"compile", edited, "--timeout", "3", "--json"}));
    QCOMPARE(compiled.exitCode, 1);
    const QJsonObject result = jsonOf(compiled);
    QCOMPARE(result["outcome"].toString(), QString("timed-out"));
    QVERIFY2(result["compile"]["summary"].toString().contains("time limit"),
             qPrintable(compiled.out));
    QCOMPARE(hashOf(edited), hash);
    auto listed =
        cli(inWorkspace({"history", "--outcome", "timed-out", "--json"}));
    QCOMPARE(QJsonDocument::fromJson(listed.out.toUtf8()).array().size(), 1);
    // A time that is none is refused before anything runs, naming the
    // option, by every job command (never 300 s in its place); so is a
    // --limit that is no count.
    for (const char *bad : {"abc", "0", "-5", "nan", "1e9"})
      for (const QStringList &command :
           {QStringList{"compile", edited}, QStringList{"isa", edited},
            QStringList{"verify", edited, "--program", edited}}) {
        auto refused =
            cli(inWorkspace(command + QStringList{"--timeout", bad}));
        QVERIFY2(refused.exitCode == 2 &&
                     refused.err.contains("--timeout is in seconds"),
                 qPrintable(command.front() + " --timeout " + bad + ": " +
                            failure(refused)));
      }
    auto limited = cli(inWorkspace({"history", "--limit", "many"}));
    QVERIFY2(limited.exitCode == 2 && limited.err.contains("--limit"),
             qPrintable(failure(limited)));
    QCOMPARE(QJsonDocument::fromJson(cli(inWorkspace({"history", "--outcome",
                                                      "timed-out", "--json"}))
                                         .out.toUtf8())
                 .array()
                 .size(),
             1);
  }

  void anExportedSpecChangesWhatIreeChooses() {
    // IREE's own choice for this matmul is workgroup [64, 128, 0]; the
    // spec carries the edit, and configuring the source with it yields the
    // edited config, field for field.
    const QString edited = workspace.filePath("mm_edited.mlir");
    auto set = cli(
        {"set-config",
         kExamples + "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir",
         "--op", "0:0", "--set", "workgroup=[128, 128, 0]", "--set",
         "subgroup=[4, 4, 0]", "-o", edited});
    QVERIFY2(set.exitCode == 0, qPrintable(failure(set)));
    const QString spec = workspace.filePath("spec.mlir");
    auto exported = cli({"export-spec", edited, "-o", spec, "--program",
                         kExamples + "sources/matmul_f16_1024.mlir", "--json"});
    QVERIFY2(exported.exitCode == 0, qPrintable(failure(exported)));
    const QJsonObject proof = jsonOf(exported)["proof"].toArray()[0].toObject();
    QCOMPARE(proof["applied"].toBool(), true);
    QFile file(spec);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY(text.contains("iree_codegen.tuning_spec_entrypoint"));
    QVERIFY(text.contains("workgroup = [128, 128, 0]"));
    QVERIFY(text.contains("transform.iree.match.dims_equal %k, [1024]"));

    // The unedited file's spec against another program: no dispatch of
    // that name, so IREE's config cannot be the exported one.
    auto unrelated =
        cli({"export-spec", edited, "-o", workspace.filePath("spec2.mlir"),
             "--program", kExamples + "sources/matmul_f32_small.mlir"});
    QCOMPARE(unrelated.exitCode, 1);
    QVERIFY(unrelated.out.contains("no dispatch"));
    // A reduction is matched by its body, as IREE prints it: an edited
    // partial_reduction exported and configured into its source program
    // by the pinned iree-compile comes back as the config IREE chose.
    const QString reductionEdited = workspace.filePath("reduction.mlir");
    auto editedReduction =
        cli({"set-config",
             kExamples +
                 "rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir",
             "--op", "0:0", "--set", "partial_reduction=[0, 1024]", "-o",
             reductionEdited});
    QVERIFY2(editedReduction.exitCode == 0,
             qPrintable(failure(editedReduction)));
    const QString reductionSpec = workspace.filePath("reduction.spec.mlir");
    auto reduction =
        cli({"export-spec", reductionEdited, "-o", reductionSpec, "--program",
             kExamples + "sources/reduction_4x6656x16384.mlir", "--json"});
    QVERIFY2(reduction.exitCode == 0, qPrintable(failure(reduction)));
    const QJsonObject reductionProof =
        jsonOf(reduction)["proof"].toArray()[0].toObject();
    QVERIFY2(reductionProof["applied"].toBool(), qPrintable(reduction.out));
    QFile reductionFile(reductionSpec);
    QVERIFY(reductionFile.open(QIODevice::ReadOnly));
    const QString reductionText = QString::fromUtf8(reductionFile.readAll());
    QVERIFY(reductionText.contains("cast_compatible_dag_from_root"));
    QVERIFY(reductionText.contains("partial_reduction = [0, 1024]"));
    // The unedited config against the same program is IREE's own: only the
    // edited one proves that the matcher took the op.
    QVERIFY(!reductionText.contains("partial_reduction = [0, 512]"));

    // IREE applies a spec's config and the program still fails to compile:
    // RMSNorm's reduction with its consumer fused after it, whose IREE
    // config configures both ops, while a spec configures one. The proof
    // compiles the program and says so (a try had compiled the dispatch
    // with IREE's config of the consumer in place).
    const QString rmsSource =
        TILESCOPE_SOURCE_DIR "/tests/e2e/data/rmsnorm_f16.mlir";
    const QString rms = workspace.filePath("rms.sm_90.mlir");
    auto configured =
        cli({"configure", rmsSource, "--target", "sm_90", "-o", rms});
    QVERIFY2(configured.exitCode == 0, qPrintable(failure(configured)));
    auto broken = cli({"export-spec", rms, "-o", workspace.filePath("rms.spec"),
                       "--program", rmsSource, "--json"});
    QCOMPARE(broken.exitCode, 1);
    const QJsonObject brokenProof =
        jsonOf(broken)["proof"].toArray()[0].toObject();
    QCOMPARE(brokenProof["op"].toString(), QString("0:0"));
    QCOMPARE(brokenProof["applied"].toBool(), false);
    QVERIFY2(brokenProof["differences"].toArray().isEmpty(),
             qPrintable(broken.out));
    QVERIFY2(brokenProof["compile_error"].toString().contains(
                 "failed to distribute"),
             qPrintable(broken.out));
    QVERIFY(brokenProof["compile_error"].toString().contains(
        "1 other op a lowering_config of its own"));

    // A spec configures one op of a dispatch: by default the root op
    // (softmax's second reduction), and two asked for are refused before
    // IREE refuses them.
    const QString softmax =
        kExamples + "cuda_sm_90/softmax_f32_dispatch_0.benchmark.mlir";
    auto byDefault = cli({"export-spec", softmax});
    QVERIFY2(byDefault.exitCode == 0, qPrintable(failure(byDefault)));
    QCOMPARE(byDefault.out.count("-> @apply_op_config"), 1);
    QVERIFY(byDefault.out.contains("_op1 -> @apply_op_config"));
    auto two = cli({"export-spec", softmax, "--op", "0:0", "--op", "0:2"});
    QCOMPARE(two.exitCode, 1);
    QVERIFY2(two.err.contains("ops 0 and 2 of one dispatch"),
             qPrintable(two.err));
  }

  void aFileWithoutATargetNeedsOne() {
    auto compiled = cli(inWorkspace(
        {"compile", kExamples + "sources/matmul_f32_small.mlir", "--json"}));
    QCOMPARE(compiled.exitCode, 4);
    QVERIFY2(compiled.err.contains("carries no target"),
             qPrintable(compiled.err));
    // The try folder named as every command names what it writes (-o,
    // --output; --out as before).
    const QString folder = workspace.filePath("named-try");
    auto forCpu =
        cli(inWorkspace({"compile", kExamples + "sources/matmul_f32_small.mlir",
                         "--target", "llvm-cpu", "-o", folder, "--json"}));
    QVERIFY2(forCpu.exitCode == 0, qPrintable(failure(forCpu)));
    QVERIFY(QFileInfo::exists(folder + "/module.vmfb"));
    auto clash = cli(inWorkspace(
        {"compile",
         kExamples + "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir",
         "--target", "sm_90"}));
    QCOMPARE(clash.exitCode, 4);
    QVERIFY2(clash.err.contains("is compiled for rocm"), qPrintable(clash.err));
  }

  // A sweep lists its candidates with the editor's rules (those IREE
  // refuses never compile), compiles the valid ones in parallel, keeps each
  // in the history under its name, and resumes without redoing them.
  // --op on a whole program's configuration dump: that dispatch alone, as
  // IREE's benchmark dump takes it out (edits included), compiled and timed
  // on the CPU, and compiled for gfx942 with one kernel's resources.
  void oneDispatchOfAWholeProgram() {
    const QString source =
        TILESCOPE_SOURCE_DIR "/tests/e2e/data/two_matmuls.mlir";
    const QString cpu = workspace.filePath("two_matmuls.cpu.mlir");
    auto configured =
        cli({"configure", source, "--target", "llvm-cpu", "-o", cpu});
    QVERIFY2(configured.exitCode == 0, qPrintable(failure(configured)));
    const QString edited = workspace.filePath("two_matmuls.cpu.edited.mlir");
    // A CPU config is replaced whole.
    auto set = cli({"set-config", cpu, "--op", "1:1", "--set",
                    "lowering_config=#iree_cpu.lowering_config<distribution "
                    "= [16, 16, 0], vector_common_parallel = [8, 16, 0], "
                    "vector_reduction = [0, 0, 16]>",
                    "-o", edited});
    QVERIFY2(set.exitCode == 0, qPrintable(failure(set)));

    auto timed = cli(inWorkspace({"bench", edited, "--op", "1:1", "--json"}));
    QVERIFY2(timed.exitCode == 0, qPrintable(failure(timed)));
    const QJsonObject out = jsonOf(timed);
    const QJsonObject alone = out["dispatch_alone"].toObject();
    QCOMPARE(alone["name"].toString(),
             QString("two_matmuls_dispatch_1_matmul_64x16x32_f32"));
    QVERIFY(out["bench"].toObject()["ran"].toBool());
    // The module compiled is the dispatch alone, with the edit in it.
    QFile module(alone["file"].toString());
    QVERIFY(module.open(QIODevice::ReadOnly));
    const QByteArray text = module.readAll();
    QVERIFY(text.contains("distribution = [16, 16, 0]"));
    QVERIFY(text.contains("two_matmuls_dispatch_1"));
    QVERIFY(!text.contains("two_matmuls_dispatch_0"));
    // The history names the program and its op.
    auto history = cli(inWorkspace({"history", "--json"}));
    const QJsonObject row =
        QJsonDocument::fromJson(history.out.toUtf8()).array()[0].toObject();
    QCOMPARE(row["op"].toString(), QString("1:1"));
    QCOMPARE(row["document"].toString(), edited);

    const QString gpu = workspace.filePath("two_matmuls.gfx942.mlir");
    auto configuredGpu =
        cli({"configure", source, "--target", "gfx942", "-o", gpu});
    QVERIFY2(configuredGpu.exitCode == 0, qPrintable(failure(configuredGpu)));
    auto resources =
        cli(inWorkspace({"resources", gpu, "--op", "1:0", "--json"}));
    QVERIFY2(resources.exitCode == 0, qPrintable(failure(resources)));
    const QJsonArray kernels =
        jsonOf(resources)["resources"].toObject()["kernels"].toArray();
    QCOMPARE(kernels.size(), 1);
    QCOMPARE(kernels[0].toObject()["arch"].toString(), QString("gfx942"));

    // A sweep of that op compiles each candidate's dispatch alone.
    auto swept = cli(inWorkspace({"sweep", gpu, "--op", "1:0", "--vary",
                                  "workgroup[0]=32,64", "--compile-only",
                                  "--name", "whole-program", "--json"}));
    QVERIFY2(swept.exitCode == 0, qPrintable(failure(swept)));
    QCOMPARE(jsonOf(swept)["ran"].toInt(), 2);
    auto rows =
        cli(inWorkspace({"history", "--sweep", "whole-program", "--json"}));
    for (const QJsonValue &t :
         QJsonDocument::fromJson(rows.out.toUtf8()).array()) {
      const QJsonObject details = t.toObject()["details"].toObject();
      QCOMPARE(details["dispatch_alone"].toObject()["dispatch"].toInt(), 1);
      QCOMPARE(details["resources"].toObject()["kernels"].toArray().size(), 1);
    }

    // A source program has no dispatches to take out.
    auto noDispatch = cli(inWorkspace(
        {"compile", source, "--target", "llvm-cpu", "--op", "0:0"}));
    QVERIFY(noDispatch.exitCode != 0);
  }
};

QTEST_GUILESS_MAIN(CliJobsTest)
#include "tst_cli_jobs.moc"
