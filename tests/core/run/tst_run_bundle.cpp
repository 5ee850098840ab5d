// Run bundles: written, run by their own run.sh on the CPU (local-task, the
// same script a GPU host runs), read back; the per-dispatch method checked
// against what IREE's tools really do; the profilers' outputs read.
#include "TestSupport.h"

#include "core/process/Process.h"
#include "core/run/BenchJob.h"
#include "core/run/Profiler.h"
#include "core/run/RunBundle.h"
#include "core/service/IreeCommands.h"
#include "core/tries/BundleTries.h"
#include "core/tries/ProfileComparison.h"
#include "core/util/Csv.h"
#include "core/util/Files.h"

#include <QTemporaryDir>

using namespace tilescope;
using namespace tilescope::process;
using namespace tilescope::service;
using namespace tilescope::isa;
using namespace tilescope::run;
using namespace tilescope::tries;
namespace fs = std::filesystem;

namespace {

const fs::path kCpuExample =
    test::examplesDir() / "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir";

// The CPU example compiled once into `directory`, optionally with IREE's
// dispatch repeat count.
fs::path compileCpuExample(const fs::path &directory, int repeatCount = 1) {
  const auto iree = test::projectIree();
  ProcessSpec compile;
  compile.program = *iree.tool(tools::kIreeCompile);
  const fs::path out =
      directory / ("module-" + std::to_string(repeatCount) + ".vmfb");
  compile.arguments = {kCpuExample.string(), "-o", out.string()};
  if (repeatCount > 1)
    compile.arguments.push_back("--iree-hal-benchmark-dispatch-repeat-count=" +
                                std::to_string(repeatCount));
  const ProcessResult compiled = runProcess(compile);
  if (!compiled.succeeded())
    qFatal("iree-compile %s: %s", compiled.describe().c_str(),
           compiled.standardError.c_str());
  return out;
}

// Per-item time of iree-benchmark-module on local-sync (one thread: the
// steadiest clock here) with --batch_size=N: the fastest of five
// repetitions, which another test's load can only slow (their median moved
// by 40 % between runs beside other tests).
double perItem(const fs::path &module, int batch) {
  const auto iree = test::projectIree();
  ProcessSpec run;
  run.program = *iree.tool(tools::kIreeBenchmarkModule);
  run.arguments = {"--module=" + module.string(),
                   "--device=local-sync",
                   "--batch_size=" + std::to_string(batch),
                   "--benchmark_format=json",
                   "--benchmark_repetitions=5",
                   "--benchmark_min_time=0.05s"};
  const ProcessResult ran = runProcess(run);
  if (!ran.succeeded())
    qFatal("iree-benchmark-module %s", ran.describe().c_str());
  auto stats = timingStats(*parseBenchmarkJson(ran.standardOutput));
  return stats->minimum;
}

} // namespace

class RunBundleTest : public QObject {
  Q_OBJECT

private slots:
  // IREE's dispatch benchmark functions loop --batch_size times themselves:
  // the per-item time of a batch is a dispatch's. Compiling them with
  // --iree-hal-benchmark-dispatch-repeat-count=N as well repeats every
  // dispatch of that loop N times, and the per-item figure becomes N
  // dispatches' time. This is why run.sh batches these modules with
  // --batch_size alone.
  void dispatchBenchmarksLoopTheBatchThemselves() {
    QTemporaryDir dir;
    const fs::path plain = compileCpuExample(dir.path().toStdString());
    const fs::path repeated = compileCpuExample(dir.path().toStdString(), 4);
    perItem(plain, 1); // a first run pays the cold start; not counted
    const double one = perItem(plain, 1);
    const double batched = perItem(plain, 4);
    const double both = perItem(repeated, 4);
    qInfo("per item: batch 1 %.1f us, batch 4 %.1f us, repeat count 4 and "
          "batch 4 %.1f us",
          one, batched, both);
    // A batch's per-item time is one dispatch's with a quarter of the
    // submission: neither a quarter of one (the batch not run) nor four.
    // The submission is much of this small kernel's time here (CI once
    // measured 451 us at batch 1 and 206 us at batch 4), so the floor is
    // 0.35 of one, above the quarter.
    QVERIFY2(batched > 0.35 * one && batched < 2 * one,
             (std::to_string(batched) + " us against " + std::to_string(one))
                 .c_str());
    // Both together count four dispatches as one item.
    QVERIFY(both > 2.5 * batched);
  }

  void aBundleRunsWhereItIsAndReadsBack() {
    QTemporaryDir dir;
    const fs::path module = compileCpuExample(dir.path().toStdString());
    const auto iree = test::projectIree();
    const fs::path bundle = fs::path(dir.path().toStdString()) / "bundle";
    BundleModule m{"cpu.matmul",
                   module,
                   "local-task",
                   true,
                   {{"try", 7}, {"candidate", "as written"}}};
    BundleWriteOptions write;
    write.iree = &iree;
    auto written = writeRunBundle(bundle, {m}, write);
    QVERIFY2(written, written ? "" : written.error().c_str());
    for (const char *file :
         {"run.sh", "manifest.json", "modules.tsv", "modules/cpu.matmul.vmfb",
          "tools/iree-benchmark-module", "tools/iree-run-module"})
      QVERIFY2(fs::exists(bundle / file), file);
    QCOMPARE(test::readFile(bundle / "run.sh"), runBundleScript());
    auto manifest = readBundleManifest(bundle);
    QVERIFY(manifest);
    QCOMPARE(manifest->modules.size(), size_t(1));
    QCOMPARE(manifest->modules[0].about["try"].get<int>(), 7);
    QVERIFY(readModuleTiming(bundle, "cpu.matmul").status == "not-run");

    // Run it from another folder, with its own tools.
    BundleRunOptions run;
    run.repetitions = 3;
    run.profile = "on";
    ProcessSpec spec = runBundleCommand(bundle, run);
    spec.workingDirectory = "/";
    const ProcessResult ran = runProcess(spec);
    QVERIFY2(ran.succeeded(), ran.standardError.c_str());
    const ModuleTiming timing = readModuleTiming(bundle, "cpu.matmul");
    QCOMPARE(timing.status, std::string("ok"));
    QVERIFY(timing.timed());
    QCOMPARE(timing.device, std::string("local-task"));
    QCOMPARE(timing.perDispatch->repetitions, 3);
    QVERIFY(timing.batch >= 1);
    // An iteration lasts at least the target: batch x the probe's time.
    QVERIFY(timing.probeMicroseconds &&
            timing.batch * *timing.probeMicroseconds >= 1000 * 0.99);
    QVERIFY(timing.perSubmission.has_value());
    QVERIFY(timing.method().find("back to back") != std::string::npos ||
            timing.batch == 1);
    // No profiler for local-task: said, not silently skipped.
    QVERIFY(timing.profileError.find("no profiler for local-task") !=
            std::string::npos);
    // results.json indexes the module.
    const auto index =
        nlohmann::json::parse(test::readFile(bundle / "results/results.json"));
    QCOMPARE(index["format"].get<std::string>(),
             std::string("tilescope-run-results/1"));
    QCOMPARE(index["modules"].size(), size_t(1));

    // Run again: timed modules are left, unless forced.
    const ProcessResult again = runProcess(spec);
    QVERIFY(again.standardOutput.find("timed before") != std::string::npos);
  }

  void aModuleThatCannotRunSaysWhy() {
    QTemporaryDir dir;
    const fs::path module = compileCpuExample(dir.path().toStdString());
    const fs::path bundle = fs::path(dir.path().toStdString()) / "b";
    BundleWriteOptions write;
    write.standalone = false;
    QVERIFY(writeRunBundle(bundle, {{"m", module, "no-such-driver", true, {}}},
                           write));
    BundleRunOptions run;
    run.tools =
        test::projectIree().tool(tools::kIreeBenchmarkModule)->parent_path();
    const ProcessResult ran = runProcess(runBundleCommand(bundle, run));
    QCOMPARE(ran.exitCode, 1);
    const ModuleTiming timing = readModuleTiming(bundle, "m");
    QCOMPARE(timing.status, std::string("failed"));
    QVERIFY(timing.why.find("exited with") != std::string::npos);
    QVERIFY(!timing.timed());
  }

  void aBundleRefusesWhatCannotTravel() {
    QTemporaryDir dir;
    const fs::path module = compileCpuExample(dir.path().toStdString());
    BundleWriteOptions write;
    write.standalone = false;
    const fs::path at = fs::path(dir.path().toStdString()) / "x";
    QVERIFY(!writeRunBundle(at, {}, write));
    auto badId = writeRunBundle(at, {{"../up", module, "local-task"}}, write);
    QVERIFY(!badId &&
            badId.error().find("not a plain file name") != std::string::npos);
    auto twice = writeRunBundle(
        at, {{"a", module, "local-task"}, {"a", module, "local-task"}}, write);
    QVERIFY(!twice && twice.error().find("twice") != std::string::npos);
    auto missing =
        writeRunBundle(at, {{"a", at / "none.vmfb", "local-task"}}, write);
    QVERIFY(!missing &&
            missing.error().find("does not exist") != std::string::npos);
    write.standalone = true; // and no IREE to take the tools from
    QVERIFY(!writeRunBundle(at, {{"a", module, "local-task"}}, write));
  }

  // A manifest that is not one says why: nested past the bound (counted
  // before parsing), where the parse stopped, its top level, its format.
  void aManifestThatIsNotOneSaysWhy() {
    QTemporaryDir bundle;
    const std::filesystem::path root = bundle.path().toStdString();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {std::string(10000, '[') + std::string(10000, ']'),
         "nests arrays and objects more than 64 deep"},
        {"{\"format\": 3", "is not JSON: parse error at line 1, column 13"},
        {"[1, 2]", "its top level is a JSON array, not an object"},
        {"{\"format\": \"tilescope-run-bundle/0\"}",
         "its \"format\" is \"tilescope-run-bundle/0\""},
        {"{\"modules\": []}", "it names no \"format\""},
        // Brackets inside strings are text, not nesting.
        {"{\"format\": \"" + std::string(200, '[') + "\"}",
         "its \"format\" is \"[[["}};
    for (const auto &[text, expected] : cases) {
      QVERIFY(writeFileAtomically(root / "manifest.json", text).ok());
      auto manifest = readBundleManifest(root);
      QVERIFY(!manifest.ok());
      QVERIFY2(manifest.error().find(expected) != std::string::npos,
               manifest.error().c_str());
    }
  }

  void benchTimesThroughTheBundle() {
    QTemporaryDir dir;
    const fs::path module = compileCpuExample(dir.path().toStdString());
    BenchJobRequest request;
    request.module = module;
    request.device = "local-task";
    request.directory = fs::path(dir.path().toStdString()) / "run";
    request.repetitions = 2;
    auto timed = benchModule(test::projectIree(), request);
    QVERIFY2(timed, timed ? "" : timed.error().c_str());
    QVERIFY2(timed->succeeded(), timed->summary().c_str());
    QVERIFY(timed->summary().find("per dispatch") != std::string::npos);
    QVERIFY(fs::exists(timed->bundle / "run.sh"));
    QVERIFY(timed->spec.shellCommand().find("TILESCOPE_TOOLS=") !=
            std::string::npos);
  }

  // Nsight Compute's CSV as `ncu --csv --page raw --print-units base`
  // prints it, its own lines and the application's around it.
  // The model's order is judged problem by problem: a bundle of a sweep,
  // its file's config compiled whole, and an unrelated kernel gives one
  // agreement over the sweep and that config, none across problems.
  void ordersAreJudgedPerProblem() {
    auto module = [](std::string document, std::string op, double predicted,
                     double measured, std::string candidate) {
      ImportedModule m;
      m.id = candidate.empty() ? "whole" : candidate;
      m.document = std::move(document);
      m.op = std::move(op);
      m.target = "cuda";
      m.candidate = std::move(candidate);
      m.predictedMicroseconds = predicted;
      m.timing.status = "ok";
      m.timing.perDispatch = TimingStats{measured, 0, 0, 0, 3};
      return m;
    };
    const std::vector<ImportedModule> modules = {
        module("big.mlir", "", 30, 25, ""), // the config, compiled whole
        module("big.mlir", "0:0", 10, 20, "a"),
        module("big.mlir", "0:0", 20, 40, "b"),
        module("big.mlir", "0:0", 40, 30, "c"),
        module("small.mlir", "", 1, 900, ""),
        module("small.mlir", "0:0", 2, 5, "s")};
    QVERIFY(modules[1].timing.timed());
    const auto orders = orderAgreements(modules);
    QCOMPARE(orders.size(), size_t(1)); // small.mlir has two: no order
    QCOMPARE(orders[0].document, std::string("big.mlir"));
    QCOMPARE(orders[0].op, std::string("0:0"));
    QCOMPARE(orders[0].modules, 4);
    QCOMPARE(orders[0].predictedFirst, std::string("a"));
    QCOMPARE(orders[0].fastest, std::string("a"));
    QCOMPARE(orders[0].predictedFirstOverFastest, 1.0);
    // predicted 30 10 20 40: ranks 3 1 2 4; measured 25 20 40 30: 2 1 4 3;
    // 1 - 6 x (1 + 0 + 4 + 1) / (4 x 15)
    QVERIFY(std::abs(orders[0].rankCorrelation - 0.4) < 1e-9);
    QVERIFY(!orders[0].profiledRankCorrelation); // none was profiled

    // Profiled, every one: the order against one launch's time beside it.
    std::vector<ImportedModule> profiled(modules.begin(), modules.begin() + 4);
    const double launch[] = {30, 22, 21, 50};
    for (size_t i = 0; i < profiled.size(); ++i) {
      profiled[i].timing.profile = ProfileReading{};
      profiled[i].timing.profile->kernelMicroseconds = launch[i];
    }
    const auto both = orderAgreements(profiled);
    QCOMPARE(both.size(), size_t(1));
    QVERIFY(both[0].profiledRankCorrelation.has_value());
    QCOMPARE(both[0].profiledFastest, std::string("b"));
    QVERIFY(std::abs(*both[0].profiledFirstOverFastest - 22.0 / 21.0) < 1e-9);
    // predicted ranks 3 1 2 4; profiled 30 22 21 50: 3 2 1 4 -> 1 - 6x2/60
    QVERIFY(std::abs(*both[0].profiledRankCorrelation - 0.8) < 1e-9);
  }

  void readsNsightCompute() {
    const std::string csv =
        "==PROF== Connected to process 4242 (/x/iree-benchmark-module)\n"
        "BM_matmul/process_time/real_time 12 us\n"
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel "
        "Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\","
        "\"Device\",\"CC\",\"dram__throughput.avg.pct_of_peak_sustained_"
        "elapsed\",\"gpu__time_duration.sum\",\"launch__block_size\","
        "\"launch__grid_size\",\"launch__registers_per_thread\","
        "\"launch__shared_mem_per_block_dynamic\",\"launch__shared_mem_per_"
        "block_static\",\"sm__maximum_warps_per_active_cycle_pct\","
        "\"sm__warps_active.avg.pct_of_peak_sustained_active\"\n"
        "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"%\","
        "\"nsecond\",\"\",\"\",\"register/thread\",\"byte\",\"byte\",\"%\","
        "\"%\"\n"
        "\"0\",\"4242\",\"iree-benchmark-module\",\"127.0.0.1\",\"matmul_"
        "kernel\",\"1\",\"13\",\"(128, 1, 1)\",\"(16, 16, 1)\",\"0\",\"9.0\","
        "\"12.73\",\"28,928\",\"128\",\"256\",\"96\",\"33,792\",\"0\","
        "\"31.25\",\"29.71\"\n"
        "\"1\",\"4242\",\"iree-benchmark-module\",\"127.0.0.1\",\"matmul_"
        "kernel\",\"1\",\"13\",\"(128, 1, 1)\",\"(16, 16, 1)\",\"0\",\"9.0\","
        "\"12.80\",\"29,100\",\"128\",\"256\",\"96\",\"33,792\",\"0\","
        "\"31.25\",\"29.90\"\n"
        "==PROF== Disconnected from process 4242\n";
    auto reading = parseNsightComputeCsv(csv);
    QVERIFY2(reading, reading ? "" : reading.error().c_str());
    QCOMPARE(reading->tool, std::string("ncu"));
    QCOMPARE(reading->kernel, std::string("matmul_kernel"));
    QCOMPARE(reading->launches, 2);
    QVERIFY(std::abs(reading->kernelMicroseconds - 29.014) < 1e-9);
    QCOMPARE(*reading->registersPerThread, 96);
    QCOMPARE(*reading->sharedMemoryBytes, 33792LL);
    QCOMPARE(*reading->theoreticalOccupancyPercent, 31.25);
    QVERIFY(std::abs(*reading->achievedOccupancyPercent - 29.805) < 1e-9);
    QVERIFY(std::abs(*reading->dramThroughputPercent - 12.765) < 1e-9);
    QCOMPARE(*reading->workgroupSize, 128);
    // Kept in the history and read back.
    auto back = profileFromJson(toJson(*reading));
    QVERIFY(back);
    QCOMPARE(*back->registersPerThread, 96);
    QCOMPARE(back->kernelMicroseconds, reading->kernelMicroseconds);

    QVERIFY(!parseNsightComputeCsv("==PROF== no kernels were profiled\n"));
  }

  void readsRocprofv3() {
    const std::string trace =
        "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Kernel_Id\",\"Kernel_Name\","
        "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\",\"LDS_"
        "Block_Size\",\"Scratch_Size\",\"Arch_VGPR_Count\",\"Accum_VGPR_"
        "Count\",\"SGPR_Count\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\","
        "\"Workgroup_Size_Z\"\n"
        "\"KERNEL_DISPATCH\",2,1,7,\"matmul_kernel\",1,1000000,1030500,"
        "50688,0,132,0,22,256,1,1\n"
        "\"KERNEL_DISPATCH\",2,1,7,\"matmul_kernel\",2,2000000,2030000,"
        "50688,0,132,0,22,256,1,1\n";
    const std::string counters =
        "\"Kernel_Name\",\"Counter_Name\",\"Counter_Value\"\n"
        "\"matmul_kernel\",\"FETCH_SIZE\",4096\n"
        "\"matmul_kernel\",\"WRITE_SIZE\",1024\n"
        "\"matmul_kernel\",\"MeanOccupancyPerActiveCU\",7.5\n";
    auto reading = parseRocprofKernelTrace(trace, counters);
    QVERIFY2(reading, reading ? "" : reading.error().c_str());
    QCOMPARE(reading->launches, 2);
    QCOMPARE(reading->kernelMicroseconds, 30.25);
    QCOMPARE(*reading->vgprs, 132);
    QCOMPARE(*reading->sgprs, 22);
    QCOMPARE(*reading->sharedMemoryBytes, 50688LL);
    QCOMPARE(*reading->workgroupSize, 256);
    QCOMPARE(*reading->dramBytes, 5120.0 * 1024);

    // Counts a table cannot hold in an int (inf, 1e30, below zero) are
    // none, not an undefined cast.
    std::string odd = trace;
    odd.replace(odd.find("50688,0,132,0,22,256,1,1"),
                std::string("50688,0,132,0,22,256,1,1").size(),
                "inf,0,1e30,-4,22,1e10,1e10,1");
    auto oddReading = parseRocprofKernelTrace(odd, counters);
    QVERIFY(oddReading);
    QVERIFY(!oddReading->vgprs && !oddReading->agprs);
    QVERIFY(!oddReading->sharedMemoryBytes && !oddReading->workgroupSize);

    // A counters file of 64 MiB of newlines is no table of 64 million
    // rows (gigabytes held): it is refused, and says why.
    auto flood = parseRocprofKernelTrace(trace, std::string(64u << 20, '\n'));
    QVERIFY(!flood);
    QVERIFY2(flood.error().starts_with("rocprofv3's counters: a comma-"
                                       "separated table of more than"),
             flood.error().c_str());
    QVERIFY(parseCsv(std::string(kMaxCsvRows - 1, '\n')));
    QVERIFY(!parseCsv(std::string(kMaxCsvRows + 1, '\n')));
    QVERIFY(!parseCsv(std::string(kMaxCsvFields + 1, ',')));

    // Beside what Tilescope read from the compile: equal resources are
    // not marked, a time off by more than 3 % is.
    KernelResources compiled;
    compiled.backend = "rocm";
    compiled.vgprs = 132;
    compiled.agprs = 0;
    compiled.sharedMemoryBytes = 50688;
    TimingStats perDispatch{33.0, 0.1, 32.9, 33.1, 5};
    ProfileInputs inputs;
    inputs.reading = &*reading;
    inputs.resources = &compiled;
    inputs.perDispatch = &perDispatch;
    inputs.peakMemoryBytesPerSecond = 5.3e12;
    const auto rows = profileBesideTilescope(inputs);
    int differing = 0;
    for (const ProfileRow &row : rows) {
      differing += row.differs;
      if (row.quantity == "VGPRs" || row.quantity.rfind("shared", 0) == 0)
        QVERIFY(!row.differs);
    }
    QCOMPARE(differing, 1); // the time: 33 against 30.25 us
    QVERIFY(profileTable(rows).find("! kernel time") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(RunBundleTest)
#include "tst_run_bundle.moc"
