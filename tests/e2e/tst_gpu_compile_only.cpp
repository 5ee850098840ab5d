// Compile-only for GPUs: every committed gfx942 and sm_90 dispatch benchmark
// compiles to a vmfb with the wheel's iree-compile. No GPU needed.
#include "TestSupport.h"

#include "core/service/IreeCommands.h"

#include <QTemporaryDir>

using namespace tilescope;

class GpuCompileOnlyTest : public QObject {
  Q_OBJECT

private slots:
  void compiles_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("binaryMarker");
    for (const auto &path : test::exampleBenchmarks("rocm_gfx942"))
      QTest::newRow(("gfx942/" + path.filename().string()).c_str())
          << QString::fromStdString(path.string()) << "gfx942"
          << "amdhsa-unknown-gfx942";
    for (const auto &path : test::exampleBenchmarks("cuda_sm_90"))
      QTest::newRow(("sm_90/" + path.filename().string()).c_str())
          << QString::fromStdString(path.string()) << "sm_90"
          << ".target sm_90";
  }

  void compiles() {
    QFETCH(QString, path);
    QFETCH(QString, target);
    QFETCH(QString, binaryMarker);
    QTemporaryDir dir;
    const std::filesystem::path module = dir.filePath("out.vmfb").toStdString();
    service::CompileRequest request{
        path.toStdString(),
        module,
        *service::compileTarget(target.toStdString()),
        /*inputCarriesTarget=*/true,
        {}};
    auto spec = service::compileCommand(test::projectIree(), request);
    QVERIFY(spec.ok());
    spec->timeout = std::chrono::minutes(5);
    const process::ProcessResult result = process::runProcess(*spec);
    QVERIFY2(result.succeeded(),
             (spec->shellCommand() + " " + result.describe() + "\n" +
              result.standardError)
                 .c_str());
    // The vmfb embeds code for the asked-for chip: HSACO for gfx942, PTX for
    // sm_90.
    const std::string bytes = test::readFile(module);
    QVERIFY(bytes.size() > 1000);
    QVERIFY2(bytes.find(binaryMarker.toStdString()) != std::string::npos,
             qPrintable("no '" + binaryMarker + "' in the module"));
  }
};

QTEST_GUILESS_MAIN(GpuCompileOnlyTest)
#include "tst_gpu_compile_only.moc"
