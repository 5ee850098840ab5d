// What jobs read back, without running anything: occupancy from register and
// memory use (the artifacts' texts are tests/core/isa/tst_kernel_resources),
// compiler diagnostics placed in the document, a dispatch file's device
// target and the history, written by two processes at once (a checked
// run's tensors: tests/core/run/tst_tensor_data).
#include "TestSupport.h"

#include "core/export/ConfigJson.h"
#include "core/layout/Occupancy.h"
#include "core/run/CheckJob.h"
#include "core/run/TensorData.h"
#include "core/service/CompileJob.h"
#include "core/service/Resources.h"
#include "core/tries/ConfigsPutBack.h"
#include "core/tries/History.h"
#include "core/tries/JobJson.h"
#include "core/tries/TimeComparison.h"
#include "core/tries/TryComparison.h"
#include "core/tries/TryJob.h"
#include "core/tune/TuneBundle.h"
#include "core/tune/TuneReport.h"
#include "core/util/Files.h"

#include <QFile>
#include <QTemporaryDir>

#include <cmath>
#include <csignal>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tilescope;
using namespace tilescope::process;
using namespace tilescope::service;
using namespace tilescope::run;
using namespace tilescope::tries;
using namespace tilescope::layout;

namespace {

int limitOf(const Occupancy &occupancy, const std::string &resource) {
  for (const OccupancyLimit &limit : occupancy.limits)
    if (limit.resource == resource)
      return limit.active;
  return -1;
}

} // namespace

class JobResultsTest : public QObject {
  Q_OBJECT

  // A document of one TileAndFuse dispatch "d0" holding one matmul with a
  // 64x64 workgroup tile: the configs a try records.
  static document::Document oneMatmul() {
    document::Dispatch dispatch;
    dispatch.name = "d0";
    dispatch.translationInfo = "#iree_codegen.translation_info<pipeline = "
                               "#iree_gpu.pipeline<TileAndFuse> "
                               "workgroup_size = [256, 1, 1]>";
    document::RootOp op;
    op.name = "linalg.matmul";
    op.loweringConfig = "#iree_gpu.lowering_config<{workgroup = [64, 64, 0]}>";
    dispatch.rootOps = {op};
    document::Document document;
    document.dispatches = {dispatch};
    return document;
  }

private slots:
  // A try's configs, as the history keeps them, put back on a document
  // that has moved on: only what differs, matched by dispatch name and op
  // index; entries of another form are skipped, never thrown on.
  void tryConfigsGoBack() {
    const document::Document tried = oneMatmul();
    const document::Dispatch &dispatch = tried.dispatches[0];
    const document::RootOp &op = dispatch.rootOps[0];
    const tries::TriedConfigs configs = tries::configsOf(tried);

    document::Document now = tried;
    QVERIFY(tries::configChanges(configs, now).empty());
    now.dispatches[0].rootOps[0].loweringConfig =
        "#iree_gpu.lowering_config<{workgroup = [128, 64, 0]}>";
    now.dispatches[0].translationInfo = "#iree_codegen.translation_info<"
                                        "pipeline = #iree_gpu.pipeline<"
                                        "TileAndFuse> workgroup_size = [512, "
                                        "1, 1]>";
    auto changes = tries::configChanges(configs, now);
    QCOMPARE(changes.size(), size_t(2));
    QCOMPARE(changes[0].field, std::string("lowering_config"));
    QCOMPARE(changes[0].value, op.loweringConfig);
    QCOMPARE(changes[1].field, std::string("translation_info"));
    QCOMPARE(changes[1].value, dispatch.translationInfo);
    QVERIFY(changes[0].op == (edit::OpRef{0, 0}));

    // As the history keeps them: read back the same.
    const nlohmann::json kept = tries::toJson(configs);
    QCOMPARE(kept["0:0"]["lowering_config"].get<std::string>(),
             op.loweringConfig);
    QVERIFY(tries::configsFromJson(kept) == configs);

    // Another dispatch's name and an op past the end are read and change
    // nothing; malformed entries are skipped.
    nlohmann::json odd = {{"0:0", {{"dispatch", "other"}}},
                          {"0:7", kept["0:0"]},
                          {"0:x", kept["0:0"]},
                          {"nocolon", kept["0:0"]},
                          {"0:-1", kept["0:0"]},
                          {"0:1", 42}};
    const tries::TriedConfigs read = tries::configsFromJson(odd);
    QCOMPARE(read.size(), size_t(2));
    QVERIFY(tries::configChanges(read, now).empty());
    QVERIFY(tries::configsFromJson(nlohmann::json::array()).empty());
    QVERIFY(tries::configsFromJson(42).empty());
  }

  // Two tries side by side: the configs field by field, each kernel's
  // resources in both, the times; and the earlier try of the same op with
  // resources (what "changed since the previous try" reads).
  void comparesTwoTries() {
    document::Document document = oneMatmul();
    auto kernel = [](int vgprs, int active, bool spills) {
      service::ResourceReport report;
      isa::KernelResources k;
      k.kernel = "k0";
      k.backend = "rocm";
      k.arch = "gfx942";
      k.vgprs = vgprs;
      k.vgprSpills = spills ? 6 : 0;
      k.sharedMemoryBytes = 4096;
      k.occupancy = layout::Occupancy{};
      k.occupancy->active = active;
      k.occupancy->maximum = 8;
      k.occupancy->unit = "waves per SIMD";
      report.kernels.push_back(k);
      report.notes.push_back("read from the ISA");
      return report;
    };
    tries::TryRecord a;
    a.document = "/x/file.mlir";
    a.op = "0:0";
    a.medianMicroseconds = 30.0;
    a.configs = tries::configsOf(document);
    a.resources = kernel(128, 4, false);
    document.dispatches[0].rootOps[0].loweringConfig =
        "#iree_gpu.lowering_config<{workgroup = [128, 64, 0]}>";
    tries::TryRecord b = a;
    b.medianMicroseconds = 20.0;
    b.configs = tries::configsOf(document);
    b.resources = kernel(200, 2, true);
    // As the history and a bundle keep them: read back the same.
    QCOMPARE(tries::toJson(
                 tries::resourceReportFromJson(tries::toJson(*b.resources))),
             tries::toJson(*b.resources));

    const tries::TryComparison c = tries::compareTries(a, b);
    QCOMPARE(c.configs.ops.size(), size_t(1));
    QCOMPARE(c.configs.ops[0].fields.size(), size_t(1));
    QCOMPARE(c.configs.ops[0].fields[0].field, std::string("workgroup"));
    QCOMPARE(c.configs.ops[0].fields[0].before, std::string("[64, 64, 0]"));
    QCOMPARE(c.configs.ops[0].fields[0].after, std::string("[128, 64, 0]"));
    QCOMPARE(c.kernels.size(), size_t(1));
    int changed = 0;
    for (const tries::ResourcePair &pair : c.kernels[0].resources)
      changed += pair.changed();
    QCOMPARE(changed, 3); // vgprs, their spills and occupancy; shared
                          // memory the same
    QVERIFY(c.speedup() && std::abs(*c.speedup() - 1.5) < 1e-9);
    const nlohmann::json out = tries::toJson(c, a, b);
    QCOMPARE(out["times"]["speedup_b_over_a"].get<double>(), 1.5);
    QCOMPARE(out["times"]["within_noise"].get<bool>(), false);
    QVERIFY(!out["a"].contains("details"));
    QCOMPARE(tries::resourceBrief(b),
             std::string("200 VGPRs, shared 4096 B, spills, 2 of 8 waves "
                         "per SIMD"));
    QCOMPARE(tries::resourceBrief(tries::TryRecord{}), std::string());
    QCOMPARE(tries::registersOf(b).value_or(0), 200LL);
    QCOMPARE(tries::activeOccupancyOf(b).value_or(0), 2LL);

    // Odd details (a try of an older form) compare as nothing, never throw.
    tries::TryRecord odd = a;
    odd.configs.clear();
    odd.resources = tries::resourceReportFromJson({{"kernels", 7}});
    QVERIFY(tries::compareTries(a, odd).kernels.empty());
    QVERIFY(tries::resourceBrief(odd).empty());
    QVERIFY(!tries::firstKernel(odd) && !tries::registersOf(odd));

    QTemporaryDir folder;
    auto history = tries::History::open(
        std::filesystem::path(folder.path().toStdString()) / "h.sqlite");
    QVERIFY(history.ok());
    tries::TryRecord plain = a;
    plain.resources.reset(); // a compile: no resources
    QVERIFY(history->add(a).ok());
    QVERIFY(history->add(plain).ok());
    auto id = history->add(b);
    QVERIFY(id.ok());
    b.id = *id;
    // The history keeps the configs typed as they were added; its JSON
    // details show them.
    auto kept = history->get(*id);
    QVERIFY(kept.ok());
    QVERIFY(kept->configs == b.configs);
    QVERIFY(kept->resources &&
            tries::toJson(*kept->resources) == tries::toJson(*b.resources));
    QVERIFY(!kept->details.contains("configs") &&
            !kept->details.contains("resources"));
    QCOMPARE(tries::detailsJson(*kept)["configs"], tries::toJson(b.configs));
    auto previous = tries::previousWithResources(*history, b);
    QVERIFY(previous.has_value());
    QCOMPARE(previous->medianMicroseconds.value_or(0), 30.0);
    tries::TryRecord otherOp = b;
    otherOp.op = "0:1";
    QVERIFY(!tries::previousWithResources(*history, otherOp));
  }

  // A try's prediction as the history keeps it reads back as written, and
  // one of another form (a bundle made elsewhere) is none, never thrown on.
  void amdOccupancyTakesTheTightestLimit() {
    // 132 VGPRs -> 136 of 512 per lane: 3 waves; 50688 B of 64 KiB LDS: one
    // 4-wave workgroup per CU, one wave per SIMD.
    auto occupancy = amdOccupancy("gfx942", {132, 0, 22, 50688, 256, 64});
    QVERIFY(occupancy.ok());
    QCOMPARE(occupancy->maximum, 8);
    QCOMPARE(limitOf(*occupancy, "VGPRs"), 3);
    QCOMPARE(limitOf(*occupancy, "LDS"), 1);
    QCOMPARE(occupancy->active, 1);
    QCOMPARE(occupancy->limitedBy, std::string("LDS"));
    // AGPRs share gfx942's file: 130 + 64 -> 196 -> 200: 2 waves.
    auto withAgprs = amdOccupancy("gfx942", {130, 64, 22, 0, 256, 64});
    QVERIFY(withAgprs.ok());
    QCOMPARE(limitOf(*withAgprs, "VGPRs and AGPRs"), 2);
    QCOMPARE(withAgprs->active, 2);
    // A light kernel reaches the hardware's 8 waves.
    auto light = amdOccupancy("gfx942", {32, 0, 16, 0, 256, 64});
    QVERIFY(light.ok());
    QCOMPARE(light->active, 8);
    QVERIFY(!amdOccupancy("gfx1100", {32, 0, 16, 0, 256, 32}).ok());
  }

  void nvidiaOccupancyFollowsTheCalculator() {
    // 96 registers x 32 = 3072 per warp: 21 warps of registers, 5 blocks of
    // 4 warps = 20 warps of 64; 33 KiB (+1 KiB) of 228 KiB allows 6 blocks.
    auto occupancy = nvidiaOccupancy("sm_90", {96, 33792, 128});
    QVERIFY(occupancy.ok());
    QCOMPARE(occupancy->maximum, 64);
    QCOMPARE(limitOf(*occupancy, "registers"), 20);
    QCOMPARE(limitOf(*occupancy, "shared memory"), 24);
    QCOMPARE(occupancy->active, 20);
    QCOMPARE(occupancy->limitedBy, std::string("registers"));
    // 100 KiB of shared memory: two blocks of 8 warps.
    auto shared = nvidiaOccupancy("sm_90", {32, 100 * 1024, 256});
    QVERIFY(shared.ok());
    QCOMPARE(shared->active, 16);
    QCOMPARE(shared->limitedBy, std::string("shared memory"));
    QVERIFY(!nvidiaOccupancy("sm_42", {32, 0, 128}).ok());
  }

  void placesCompilerDiagnostics() {
    const std::string stderrText =
        "/tmp/try/input.mlir:23:17: error: 'iree_codegen.inner_tiled' op "
        "failed to populate offsets for operand 2\n"
        "  %1 = linalg.matmul\n"
        "       ^\n"
        "/tmp/try/input.mlir:23:17: note: see current operation: "
        "lowering_config = {workgroup = [1]}\n"
        "/tmp/try/input.mlir:10:9: error: workgroup tile sizes do not divide "
        "the loops: workgroup = [48, 64, 0]\n"
        "other.mlir:1:1: warning: elsewhere\n";
    const auto diagnostics =
        parseToolDiagnostics(stderrText, "input.mlir", "mine.mlir");
    QCOMPARE(diagnostics.size(), size_t(3));
    QCOMPARE(diagnostics[0].file, std::string("mine.mlir"));
    QCOMPARE(diagnostics[0].line, 23);
    QCOMPARE(diagnostics[0].notes.size(), size_t(1));
    QCOMPARE(diagnostics[2].file, std::string("other.mlir"));
    QVERIFY(diagnostics[2].severity == document::Severity::Warning);
    // A location of numbers past an int (an op's own loc printed raw) is
    // read without its numbers, not thrown out of the job.
    const auto odd = parseToolDiagnostics("x:99999999999:1: error: y\n",
                                          "input.mlir", "mine.mlir");
    QCOMPARE(odd.size(), size_t(1));
    QCOMPARE(odd[0].line, 0);
    QCOMPARE(odd[0].column, 1);

    document::Document document;
    document::Dispatch dispatch;
    dispatch.name = "matmul";
    dispatch.line = 9;
    dispatch.translationInfo =
        "#iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1]>";
    document::RootOp op;
    op.line = 23;
    op.loweringConfig = "#iree_gpu.lowering_config<{mma_kind = "
                        "#iree_gpu.mma_layout<MFMA_F32_16x16x16_F16>, "
                        "workgroup = [64, 128, 0]}>";
    dispatch.rootOps.push_back(op);
    document.dispatches.push_back(dispatch);
    const auto placed = placeDiagnostics(diagnostics, document);
    QCOMPARE(placed[0].dispatch, std::string("matmul"));
    QCOMPARE(placed[0].rootOp, 0);
    // The note names `workgroup` but only the message counts; IREE's
    // "inner_tiled" is the MMA.
    QCOMPARE(placed[0].field, std::string("mma_kind"));
    QVERIFY(placed[0].toString().find("[config field: mma_kind]") !=
            std::string::npos);
    // On the function: translation_info's fields only.
    QCOMPARE(placed[1].rootOp, -1);
    QCOMPARE(placed[1].field, std::string(""));
    QCOMPARE(placed[2].dispatch, std::string(""));
  }

  void compileOutcomesInWords() {
    QTemporaryDir dir;
    CompileJobResult result;
    result.artifacts.directory = dir.path().toStdString();
    result.artifacts.input = dir.filePath("input.mlir").toStdString();
    result.artifacts.module = dir.filePath("module.vmfb").toStdString();
    result.artifacts.reproducer =
        dir.filePath("crash-reproducer.mlir").toStdString();
    result.process.outcome = ProcessResult::Outcome::Signaled;
    result.process.signal = SIGSEGV;
    result.process.elapsed = std::chrono::milliseconds(1800);
    QCOMPARE(result.summary(),
             "iree-compile crashed with SIGSEGV after 1.8 s; its input is "
             "saved as " +
                 result.artifacts.input.string());
    QFile reproducer(dir.filePath("crash-reproducer.mlir"));
    QVERIFY(reproducer.open(QIODevice::WriteOnly));
    reproducer.close();
    QVERIFY(result.summary().find("reproducer saved to") != std::string::npos);
    result.process.outcome = ProcessResult::Outcome::TimedOut;
    result.process.elapsed = std::chrono::milliseconds(3000);
    QVERIFY(result.summary().find("time limit") != std::string::npos);
    QVERIFY(!result.succeeded());
    QCOMPARE(outcomeOf(result), std::string("timed-out"));
    result.process.outcome = ProcessResult::Outcome::Signaled;
    QCOMPARE(outcomeOf(result), std::string("compiler-crashed"));
  }

  // A tune's end-to-end line says which way the tuned program went, and a
  // slower one says not to use its spec.
  void aTunedProgramSlowerEndToEndSaysSo() {
    const TimingStats base{20.0, 0.05, 19.9, 20.1, 5};
    const TimingStats slower{25.0, 0.05, 24.9, 25.1, 5};
    const TimeVerdict worse = compareTimes(base, slower);
    QCOMPARE(tune::endToEndOutcome(worse), std::string("slower"));
    const std::string said = tune::endToEndSentence(worse);
    QVERIFY2(said.find("SLOWER than IREE's default, 0.80x") !=
                     std::string::npos &&
                 said.find("do not use this spec") != std::string::npos,
             said.c_str());
    const TimeVerdict better =
        compareTimes(base, TimingStats{16.0, 0.05, 15.9, 16.1, 5});
    QCOMPARE(tune::endToEndOutcome(better), std::string("faster"));
    QVERIFY2(tune::endToEndSentence(better).find("runs 1.25x as fast") !=
                 std::string::npos,
             tune::endToEndSentence(better).c_str());
    const TimeVerdict same =
        compareTimes(base, TimingStats{20.01, 0.05, 19.9, 20.1, 5});
    QCOMPARE(tune::endToEndOutcome(same), std::string("within noise"));
  }

  // What a tune's bundle brings back from the GPU machine is read as data:
  // both programs' times, the tuned outputs against the default's, and
  // nothing of a tuned program built with another spec or of an output of
  // the wrong size.
  void aTuneBundlesProgramsAreReadBack() {
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    const std::filesystem::path bundle = root / "bundle";
    const std::filesystem::path results = bundle / "results" / "programs";
    std::filesystem::create_directories(results);
    std::filesystem::create_directories(bundle / "programs");
    auto write = [](const std::filesystem::path &path,
                    const std::string &text) {
      QVERIFY2(writeFileAtomically(path, text).ok(), path.c_str());
    };
    auto benchmark = [](double us) {
      std::string rows;
      for (int i = 0; i < 3; ++i)
        rows += std::string(i ? "," : "") +
                "{\"name\": \"BM_f/process_time/real_time\", "
                "\"run_type\": \"iteration\", \"iterations\": 10, "
                "\"real_time\": " +
                std::to_string(us + 0.01 * i) +
                ", \"cpu_time\": 1, \"time_unit\": \"us\"}";
      return "{\"benchmarks\": [" + rows + "]}";
    };
    write(root / "spec.mlir", "the spec\n");
    write(bundle / "programs" / "spec.mlir", "the spec\n");
    write(results / "default.benchmark.json", benchmark(200));
    write(results / "tuned.benchmark.json", benchmark(100));
    const TensorType type{{4}, "f32"};
    const std::string values = randomTensorBytes(type, 7);
    write(results / "default-output0.bin", values);
    write(results / "tuned-output0.bin", values);

    auto made = [&] {
      tune::TuneResult result;
      result.spec = root / "spec.mlir";
      for (const char *what : {"IREE's default", "tuned"}) {
        tune::ProgramRun run;
        run.what = what;
        run.check.compiledOnly = true;
        run.check.resultTypes = {type};
        run.error = "compiled only";
        (std::string(what) == "tuned" ? result.tunedRun : result.defaultRun) =
            run;
      }
      return result;
    };
    tune::TuneResult result = made();
    tune::readTuneBundle(bundle, result);
    QVERIFY(result.defaultRun->time && result.tunedRun->time);
    QCOMPARE(result.defaultRun->time->median, 200.01);
    QVERIFY(result.tunedRun->error.empty());
    QVERIFY2(result.outputsAgree.value_or(false),
             result.outputsComparison.c_str());
    QVERIFY(result.endToEnd && result.endToEnd->speedup > 1.9);

    // A tuned output that differs says so.
    std::string other = values;
    other[3] = static_cast<char>(other[3] ^ 0x40); // the exponent
    write(results / "tuned-output0.bin", other);
    result = made();
    tune::readTuneBundle(bundle, result);
    QVERIFY(result.outputsAgree.has_value() && !*result.outputsAgree);
    QVERIFY2(result.outputsComparison.find("DIFFERS") != std::string::npos,
             result.outputsComparison.c_str());

    // An output of another size is not read.
    write(results / "tuned-output0.bin", values + "extra");
    result = made();
    tune::readTuneBundle(bundle, result);
    QVERIFY(!result.outputsAgree.has_value());
    QVERIFY2(!result.outputsComparison.empty(),
             result.outputsComparison.c_str());

    // A canary outside the bundle is never read: not through a linked
    // output, not through a linked results folder.
    write(results / "tuned-output0.bin", values);
    write(root / "canary.bin", other);
    std::filesystem::remove(results / "tuned-output0.bin");
    std::filesystem::create_symlink(root / "canary.bin",
                                    results / "tuned-output0.bin");
    result = made();
    tune::readTuneBundle(bundle, result);
    QVERIFY(!result.outputsAgree.has_value());
    QVERIFY2(result.outputsComparison.find("symbolic link") !=
                 std::string::npos,
             result.outputsComparison.c_str());
    std::filesystem::remove(results / "tuned-output0.bin");
    write(results / "tuned-output0.bin", values);
    std::filesystem::rename(bundle / "results", root / "outside-results");
    std::filesystem::create_symlink(root / "outside-results",
                                    bundle / "results");
    result = made();
    tune::readTuneBundle(bundle, result);
    QVERIFY(!result.defaultRun->time && !result.tunedRun->time);
    QVERIFY2(result.defaultRun->error.find("symbolic link") !=
                 std::string::npos,
             result.defaultRun->error.c_str());
    std::filesystem::remove(bundle / "results");
    std::filesystem::rename(root / "outside-results", bundle / "results");

    // Another spec: the tuned program there is not this spec's.
    write(results / "tuned-output0.bin", values);
    write(root / "spec.mlir", "the measured winners' spec\n");
    result = made();
    tune::readTuneBundle(bundle, result);
    QVERIFY(result.defaultRun->time);
    QVERIFY(!result.tunedRun->time && !result.endToEnd &&
            !result.outputsAgree.has_value());
    QVERIFY(std::any_of(result.notes.begin(), result.notes.end(),
                        [](const std::string &note) {
                          return note.find("make another") != std::string::npos;
                        }));
  }

  // A spec whose winners each compiled alone but with which IREE cannot
  // compile the whole program (the Llama decoder layer's RMSNorm reduction
  // for sm_90: 'failed to distribute') is a failure the report names.
  void aSpecThatBreaksTheProgramsCompileSaysSo() {
    tune::TuneResult result;
    result.defaultRun = tune::ProgramRun{};
    result.defaultRun->check.compiledOnly = true;
    QVERIFY(!tune::specBreaksCompile(result));
    result.tunedRun = tune::ProgramRun{};
    result.tunedRun->check.failedStep = "compile";
    result.tunedRun->error = "compile: iree-compile exited with 1";
    QVERIFY(tune::specBreaksCompile(result));
    QVERIFY(tune::tuneReport(result).find("DOES NOT COMPILE WITH THIS SPEC") !=
            std::string::npos);
    QCOMPARE(tune::toJson(result)["spec_breaks_compile"].get<bool>(), true);
    // Where IREE's own configs do not compile either, the spec is not why.
    result.defaultRun->check.failedStep = "compile";
    QVERIFY(!tune::specBreaksCompile(result));
  }

  // Two times are told apart only beyond their repetitions' noise.
  void timesDifferOnlyBeyondTheirNoise() {
    const TimingStats steady{20.0, 0.05, 19.9, 20.1, 5};
    const TimingStats faster{18.0, 0.05, 17.9, 18.1, 5};
    const TimeVerdict apart = compareTimes(steady, faster);
    QVERIFY(!apart.withinNoise);
    QVERIFY(std::abs(apart.speedup - 20.0 / 18.0) < 1e-9);
    QVERIFY(apart.text.find("B is 1.11x A's speed") != std::string::npos);
    // 0.1 us apart with a spread of 0.5 us over 5 repetitions: noise.
    const TimingStats noisy{20.0, 0.5, 19.0, 21.0, 5};
    const TimingStats close{19.9, 0.5, 19.0, 21.0, 5};
    const TimeVerdict near = compareTimes(noisy, close);
    QVERIFY(near.withinNoise);
    QVERIFY(near.text.rfind("within noise", 0) == 0);
    // No spread known: 1 % of the faster still counts as noise.
    const TimingStats bare{100.0, 0, 100.0, 100.0, 1};
    const TimingStats barely{99.5, 0, 99.5, 99.5, 1};
    QVERIFY(compareTimes(bare, barely).withinNoise);
    QVERIFY(
        !compareTimes(bare, TimingStats{97.0, 0, 97.0, 97.0, 1}).withinNoise);
    // The history's rows carry their spread; old rows their median alone.
    TryRecord row;
    row.medianMicroseconds = 20.0;
    row.bench = tries::TriedBench{};
    row.bench->ran = true;
    row.bench->timing.perDispatch = noisy;
    QCOMPARE(timingOf(row)->spread, 0.5);
    row.bench.reset();
    QCOMPARE(timingOf(row)->repetitions, 0);
    QVERIFY(!timingOf(TryRecord{}));
  }

  void runAndCheckOutcomesInTheHistorysWords() {
    BenchJobResult bench;
    bench.process.outcome = ProcessResult::Outcome::Exited;
    bench.process.exitCode = 1;
    bench.error = "iree-benchmark-module exited with 1";
    QCOMPARE(outcomeOf(bench), std::string("run-failed"));
    bench.process.outcome = ProcessResult::Outcome::TimedOut;
    QCOMPARE(outcomeOf(bench), std::string("timed-out"));
    bench.process.outcome = ProcessResult::Outcome::Exited;
    bench.process.exitCode = 0;
    bench.error.clear();
    bench.timing.status = "ok";
    bench.timing.perDispatch = TimingStats{20.5, 0.1, 20.4, 20.7, 3};
    QCOMPARE(outcomeOf(bench), std::string("ok"));

    CheckResult check;
    check.compiledOnly = true;
    QCOMPARE(outcomeOf(check), std::string("cannot-run-here"));
    check.compiledOnly = false;
    check.failedStep = "reference compile";
    check.error = "iree-compile exited with 1";
    QCOMPARE(outcomeOf(check), std::string("compile-failed"));
    check.failedStep = "run";
    QCOMPARE(outcomeOf(check), std::string("run-failed"));
    check.failedStep.clear();
    check.error.clear();
    auto type = parseTensorType("2xf32");
    check.outputs.push_back(
        {0, compareTensors(*type, {1, 2}, {1, 2}, defaultTolerance("f32"))});
    QCOMPARE(outcomeOf(check), std::string("ok"));
    check.outputs.push_back(
        {1, compareTensors(*type, {1, 9}, {1, 2}, defaultTolerance("f32"))});
    QCOMPARE(outcomeOf(check), std::string("check-failed"));
  }

  // A save writes through a link (the link stays, its target changes) and
  // never replaces what is not a regular file; reads refuse FIFOs and
  // devices before opening them.
  void writesKeepLinksAndSpecialFiles() {
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    QVERIFY(writeFileAtomically(root / "real.mlir", "old\n").ok());
    std::filesystem::create_symlink("real.mlir", root / "link.mlir");
    QVERIFY(writeFileAtomically(root / "link.mlir", "new\n").ok());
    QVERIFY(std::filesystem::is_symlink(root / "link.mlir"));
    QCOMPARE(*readTextFile(root / "real.mlir"), std::string("new\n"));
    QVERIFY(::mkfifo((root / "fifo").c_str(), 0600) == 0);
    auto fifo = writeFileAtomically(root / "fifo", "text");
    QVERIFY(!fifo.ok());
    QVERIFY2(fifo.error().find("a FIFO") != std::string::npos,
             fifo.error().c_str());
    QVERIFY(std::filesystem::is_fifo(root / "fifo"));
    QVERIFY(!readTextFile(root / "fifo").ok());
    auto device = writeFileAtomically("/dev/null", "text");
    QVERIFY(!device.ok());
    QVERIFY(std::filesystem::is_character_file("/dev/null"));
    auto zero = readTextFile("/dev/zero");
    QVERIFY2(!zero.ok() &&
                 zero.error().find("character device") != std::string::npos,
             zero.ok() ? "read /dev/zero" : zero.error().c_str());
  }

  void findsTheDeviceTargetOfADispatchFile() {
    const std::string text =
        "util.global private @__device_0 = #hal.device.target<\"hip\", "
        "[#hal.executable.target<\"rocm\", \"rocm-hsaco-fb\", {abi = \"h>p\", "
        "x = [1, 2]}>]> : !hal.device\n";
    QCOMPARE(deviceTargetText(text),
             std::string("#hal.device.target<\"hip\", "
                         "[#hal.executable.target<\"rocm\", \"rocm-hsaco-fb\", "
                         "{abi = \"h>p\", x = [1, 2]}>]>"));
    QCOMPARE(deviceTargetText("func.func @f()"), std::string());
    // A bare program goes on that device, wrapped in a module opening on its
    // first line; a module of its own (as iree-import-onnx writes) gets the
    // device among its attributes, its lines where they were.
    const auto onDevice = programOnDevice("func.func @f() {}", text);
    QVERIFY(onDevice.has_value());
    QVERIFY(onDevice->rfind("module attributes {hal.device.targets = "
                            "[#hal.device.target<\"hip\"",
                            0) == 0);
    QVERIFY(onDevice->find("func.func @f() {}") != std::string::npos);
    const auto ownModule =
        programOnDevice("// a module\nmodule {\nfunc.func @f() {}\n}\n", text);
    QVERIFY(ownModule.has_value());
    QVERIFY2(ownModule->rfind("// a module\nmodule attributes "
                              "{hal.device.targets = [#hal.device.target<",
                              0) == 0 &&
                 ownModule->find("]} {\nfunc.func @f() {}\n}") !=
                     std::string::npos,
             ownModule->c_str());
    QVERIFY(!programOnDevice("module @m (x) {\n}\n", text));
    QVERIFY(!programOnDevice("func.func @f() {}", "func.func @g()"));
  }

  void historyKeepsEveryTryOfTwoProcesses() {
    QTemporaryDir dir;
    const std::filesystem::path file =
        std::filesystem::path(dir.path().toStdString()) / "history.sqlite";
    auto opened = History::open(file);
    QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().c_str());
    constexpr int kPerProcess = 40;
    pid_t children[2];
    for (int c = 0; c < 2; ++c) {
      children[c] = ::fork();
      if (children[c] == 0) {
        auto history = History::open(file);
        int failures = history.ok() ? 0 : 1;
        for (int i = 0; history.ok() && i < kPerProcess; ++i) {
          TryRecord record;
          record.kind = "compile";
          record.document = "/w/file" + std::to_string(c) + ".mlir";
          record.outcome = i % 2 ? "ok" : "compile-failed";
          record.summary = "child " + std::to_string(c) + " try " +
                           std::to_string(i) + ", with \"quotes\", and commas";
          record.medianMicroseconds = i * 1.5;
          record.details = {{"i", i}};
          failures += history->add(record).ok() ? 0 : 1;
        }
        ::_exit(failures == 0 ? 0 : 1);
      }
    }
    for (pid_t child : children) {
      int status = 0;
      ::waitpid(child, &status, 0);
      QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    auto all = opened->list();
    QVERIFY(all.ok());
    QCOMPARE(all->size(), size_t(2 * kPerProcess));
    // Newest first, ids unique.
    QVERIFY(all->front().id > all->back().id);
    HistoryFilter filter;
    filter.document = "/w/file1.mlir";
    filter.outcome = "ok";
    auto some = opened->list(filter);
    QVERIFY(some.ok());
    QCOMPARE(some->size(), size_t(kPerProcess / 2));
    auto one = opened->get(some->front().id);
    QVERIFY(one.ok());
    QCOMPARE(one->details["i"].get<int>() % 2, 1);
    QVERIFY(!opened->get(999999).ok());
    const std::string csv = historyCsv(*some);
    QVERIFY(csv.find("\"child 1 try ") != std::string::npos);
    QVERIFY(csv.find("\"\"quotes\"\"") != std::string::npos);
    filter.limit = 3;
    QCOMPARE(opened->list(filter)->size(), size_t(3));
  }

  // A job killed between making its try folder and recording it leaves a
  // folder nothing names; the history removes it (its process is gone), and
  // leaves a recorded try's folder and a living job's.
  void triesKilledBeforeTheirRowLeaveNoFolder() {
    QTemporaryDir dir;
    const std::filesystem::path workspace = dir.path().toStdString();
    auto history = History::open(historyFile(workspace));
    QVERIFY(history.ok());
    TryRecord first;
    first.kind = "compile";
    QVERIFY(history->add(first).ok()); // the once-per-process sweep is done
    const pid_t gone = ::fork();
    if (gone == 0)
      ::_exit(0);
    ::waitpid(gone, nullptr, 0);
    auto folder = [&](long long pid, int n) {
      const auto path =
          workspace / "tries" /
          ("20261128-010203-" + std::to_string(pid) + "-" + std::to_string(n));
      std::filesystem::create_directories(path / "compile");
      test::writeFile(path / "compile" / "module.vmfb", "bytes");
      return path;
    };
    const auto recorded = folder(gone, 0);
    const auto orphan = folder(gone, 1);
    const auto living = folder(::getpid(), 2);
    // A Slurm array's tasks still take their module from this one: a run
    // killed while they ran reattaches to them.
    const auto listed = folder(gone, 3);
    std::filesystem::create_directories(workspace / "slurm" / "sweep-abc");
    test::writeFile(workspace / "slurm" / "sweep-abc" / "candidates.tsv",
                    "c0\tbundle\t" + listed.string() + "\n");
    TryRecord kept;
    kept.kind = "compile";
    kept.directory = (recorded / "compile").string();
    QVERIFY(history->add(kept).ok());
    QCOMPARE(history->removeOrphanTryFolders(), size_t(1));
    QVERIFY(!std::filesystem::exists(orphan));
    QVERIFY(std::filesystem::exists(recorded));
    QVERIFY(std::filesystem::exists(living));
    QVERIFY(std::filesystem::exists(listed));
  }
};

QTEST_GUILESS_MAIN(JobResultsTest)
#include "tst_job_results.moc"
