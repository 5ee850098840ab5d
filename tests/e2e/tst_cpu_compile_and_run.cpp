// End to end on the CPU: the committed llvm-cpu dispatch benchmark compiles
// with the wheel's iree-compile and runs under iree-benchmark-module on
// local-task, and a real time comes back from its JSON.
#include "TestSupport.h"

#include "core/service/IreeCommands.h"

#include <QTemporaryDir>

using namespace tilescope;

class CpuCompileAndRunTest : public QObject {
  Q_OBJECT

private slots:
  void compilesRunsAndTimesTheCpuExample() {
    const auto iree = test::projectIree();
    QTemporaryDir dir;
    const std::filesystem::path module =
        dir.filePath("matmul.vmfb").toStdString();
    service::CompileRequest compile{
        test::examplesDir() /
            "llvm_cpu/matmul_f32_small_dispatch_0.benchmark.mlir",
        module,
        *service::compileTarget("llvm-cpu"),
        /*inputCarriesTarget=*/true,
        {}};
    auto compileSpec = service::compileCommand(iree, compile);
    QVERIFY(compileSpec.ok());
    compileSpec->timeout = std::chrono::minutes(5);
    const process::ProcessResult compiled = process::runProcess(*compileSpec);
    QVERIFY2(compiled.succeeded(),
             (compileSpec->shellCommand() + " " + compiled.describe() + "\n" +
              compiled.standardError)
                 .c_str());
    QVERIFY(std::filesystem::file_size(module) > 0);

    auto benchSpec =
        service::benchmarkCommand(iree, {module, "local-task", 3, ""});
    QVERIFY(benchSpec.ok());
    benchSpec->arguments.push_back("--benchmark_min_time=0.05s");
    benchSpec->timeout = std::chrono::minutes(5);
    const process::ProcessResult ran = process::runProcess(*benchSpec);
    QVERIFY2(ran.succeeded(), (benchSpec->shellCommand() + " " +
                               ran.describe() + "\n" + ran.standardError)
                                  .c_str());
    auto measurements = service::parseBenchmarkJson(ran.standardOutput);
    QVERIFY2(measurements.ok(),
             measurements.ok() ? "" : measurements.error().c_str());
    QVERIFY(!measurements->empty());
    const auto &first = measurements->front();
    QVERIFY2(first.name.find("matmul_f32_small") != std::string::npos,
             first.name.c_str());
    QVERIFY(first.iterations > 0);
    // 128^3 multiply-adds take a real, positive, bounded time.
    QVERIFY(first.realTimeMicroseconds() > 0.0);
    QVERIFY(first.realTimeMicroseconds() < 10e6);
  }
};

QTEST_GUILESS_MAIN(CpuCompileAndRunTest)
#include "tst_cpu_compile_and_run.moc"
