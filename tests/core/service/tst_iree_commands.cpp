// The command lines Tilescope gives the IREE tools and what it reads back.
#include "TestSupport.h"

#include <QFile>

#include "core/service/IreeCommands.h"

using namespace tilescope;

class IreeCommandsTest : public QObject {
  Q_OBJECT

private slots:
  void targetsFromShortNames() {
    auto rocm = service::compileTarget("gfx942");
    QVERIFY(rocm.ok());
    QCOMPARE(rocm->backend, std::string("rocm"));
    QCOMPARE(rocm->runtimeDriver, std::string("hip"));
    QVERIFY(std::find(rocm->compileFlags.begin(), rocm->compileFlags.end(),
                      "--iree-rocm-target=gfx942") != rocm->compileFlags.end());

    auto cuda = service::compileTarget("cuda:sm_90");
    QVERIFY(cuda.ok());
    QCOMPARE(cuda->runtimeDriver, std::string("cuda"));
    QVERIFY(std::find(cuda->compileFlags.begin(), cuda->compileFlags.end(),
                      "--iree-cuda-target=sm_90") != cuda->compileFlags.end());

    auto cpu = service::compileTarget("llvm-cpu");
    QVERIFY(cpu.ok());
    QCOMPARE(cpu->chip, std::string("host"));
    QCOMPARE(cpu->runtimeDriver, std::string("local-task"));

    auto bad = service::compileTarget("tpu");
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().find("'tpu'") != std::string::npos);

    // The product names check and targets take compile for their chips.
    auto h100 = service::compileTarget("h100");
    QVERIFY2(h100.ok(), h100.ok() ? "" : h100.error().c_str());
    QCOMPARE(h100->chip, std::string("sm_90"));
    QCOMPARE(h100->runtimeDriver, std::string("cuda"));
    auto mi300x = service::compileTarget("MI300X");
    QVERIFY(mi300x.ok());
    QCOMPARE(mi300x->chip, std::string("gfx942"));
    QCOMPARE(mi300x->backend, std::string("rocm"));
  }

  // Where iree-compile must be told to start: a configured program and a
  // benchmark of configured executables resume at their configurations (a
  // benchmark from the input phase can lose its config: ResNet's
  // 1x1000x256 matvec took minutes to a kernel distributing nothing); a
  // source starts at the input.
  void compilePhasesOfWhatIsCompiled() {
    auto text = [](const char *path) {
      QFile file(QString(TILESCOPE_SOURCE_DIR "/") + path);
      return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString()
                                            : std::string();
    };
    const std::string benchmark =
        text("examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    QVERIFY(!benchmark.empty());
    QCOMPARE(service::compilePhaseOf(benchmark),
             std::optional<std::string>("executable-configurations"));
    QVERIFY(!service::hasStreamHost(benchmark)); // a benchmark, not a program
    const std::string source = text("examples/sources/matmul_f16_1024.mlir");
    QVERIFY(!source.empty());
    QCOMPARE(service::compilePhaseOf(source), std::optional<std::string>());
    QVERIFY(!service::hasStreamHost(source));
  }

  void compileCommandUsesTheWheelsCompiler() {
    const auto iree = test::projectIree();
    service::CompileRequest request{
        "in.mlir", "out.vmfb", *service::compileTarget("gfx942"), false, {}};
    auto spec = service::compileCommand(iree, request);
    QVERIFY(spec.ok());
    QCOMPARE(spec->program, iree.tools.at(tools::kIreeCompile));
    QCOMPARE(spec->arguments.front(), std::string("in.mlir"));
    QCOMPARE(spec->arguments.back(), std::string("out.vmfb"));
    request.inputCarriesTarget = true;
    QCOMPARE(service::compileCommand(iree, request)->arguments,
             (std::vector<std::string>{"in.mlir", "-o", "out.vmfb"}));
  }

  void benchmarkCommandAsksForJson() {
    const auto iree = test::projectIree();
    auto spec = service::compileCommand(
        iree, {"a", "b", *service::compileTarget("cpu"), true, {}});
    QVERIFY(spec.ok());
    auto bench =
        service::benchmarkCommand(iree, {"m.vmfb", "local-task", 3, ""});
    QVERIFY(bench.ok());
    QCOMPARE(bench->arguments,
             (std::vector<std::string>{"--module=m.vmfb", "--device=local-task",
                                       "--benchmark_format=json",
                                       "--benchmark_repetitions=3"}));
    QVERIFY(
        !service::benchmarkCommand(iree, {"m.vmfb", "local-task", 0, ""}).ok());
  }

  void parsesBenchmarkJson() {
    const std::string output = R"(2026-11-22T02:00:00+00:00
Running iree-benchmark-module
{
  "context": {"date": "2026-11-22"},
  "benchmarks": [
    {"name": "BM_x/process_time/real_time", "run_type": "iteration",
     "iterations": 1000, "real_time": 2500.0, "cpu_time": 2400.0,
     "time_unit": "ns"},
    {"name": "BM_x/process_time/real_time_mean", "run_type": "aggregate",
     "aggregate_name": "mean", "iterations": 3, "real_time": 1.5,
     "cpu_time": 1.4, "time_unit": "ms"}
  ]
})";
    auto measurements = service::parseBenchmarkJson(output);
    QVERIFY(measurements.ok());
    QCOMPARE(measurements->size(), size_t(2));
    QCOMPARE((*measurements)[0].realTimeMicroseconds(), 2.5);
    QCOMPARE((*measurements)[1].aggregateName, std::string("mean"));
    QCOMPARE((*measurements)[1].realTimeMicroseconds(), 1500.0);

    QVERIFY(!service::parseBenchmarkJson("no json here").ok());
    // Times from another machine are held to physics, naming the field.
    for (const auto &[entry, said] :
         {std::pair{R"("real_time": 1e-300, "time_unit": "us")",
                    "benchmarks[0].real_time 1e-300 us is under a nanosecond"},
          std::pair{R"("real_time": -5, "time_unit": "us")",
                    "benchmarks[0].real_time -5 us is negative"},
          std::pair{R"("real_time": 5, "time_unit": "fortnights")",
                    "benchmarks[0].time_unit \"fortnights\" is none of"}}) {
      auto refused = service::parseBenchmarkJson(
          std::string(R"({"benchmarks": [{"name": "BM", )") + entry + "}]}");
      QVERIFY(!refused.ok());
      QVERIFY2(refused.error().find(said) != std::string::npos,
               refused.error().c_str());
    }
    // A tight spread is no time: a stddev or cv aggregate under a
    // nanosecond is read (google benchmark writes cv as a fraction).
    auto spread = service::parseBenchmarkJson(
        R"({"benchmarks": [{"name": "BM", "run_type": "iteration", )"
        R"("real_time": 12.5, "time_unit": "us"}, {"name": "BM_stddev", )"
        R"("run_type": "aggregate", "aggregate_name": "stddev", )"
        R"("real_time": 0.0003, "time_unit": "us"}, {"name": "BM_cv", )"
        R"("run_type": "aggregate", "aggregate_name": "cv", )"
        R"("real_time": 0.0004, "time_unit": "us"}]})");
    QVERIFY2(spread.ok(), spread.ok() ? "" : spread.error().c_str());
    QCOMPARE(spread->size(), size_t(3));
    QVERIFY(!service::parseBenchmarkJson("{\"benchmarks\": [").ok());
    QVERIFY(!service::parseBenchmarkJson("{\"benchmarks\": []}").ok());
  }

  void parsesTheDriverList() {
    const auto drivers = service::parseDriverList(
        "# ====\n# Available HAL drivers\n# ====\n\n"
        "            cuda: NVIDIA CUDA HAL driver (via dylib)\n"
        "      local-task: Local execution using the IREE task system\n");
    QCOMPARE(drivers.size(), size_t(2));
    QCOMPARE(drivers[0].name, std::string("cuda"));
    QCOMPARE(drivers[1].description,
             std::string("Local execution using the IREE task system"));
  }

  void theWheelsRuntimeOffersTheGpuDrivers() {
    auto drivers = service::listRuntimeDrivers(test::projectIree());
    QVERIFY2(drivers.ok(), drivers.ok() ? "" : drivers.error().c_str());
    std::vector<std::string> names;
    for (const auto &driver : *drivers)
      names.push_back(driver.name);
    for (const char *name : {"hip", "cuda", "local-task", "local-sync"})
      QVERIFY2(std::find(names.begin(), names.end(), name) != names.end(),
               name);
  }
};

QTEST_GUILESS_MAIN(IreeCommandsTest)
#include "tst_iree_commands.moc"
