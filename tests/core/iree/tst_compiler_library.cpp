// The loader finds the project-local IREE, checks its version, and says what
// is wrong (never crashes) when pointed at something that is not IREE.
#include "TestSupport.h"

#include <QTemporaryDir>
#include <dlfcn.h>

using namespace tilescope;

class CompilerLibraryTest : public QObject {
  Q_OBJECT

private slots:
  void findsTheProjectLocalIree() {
    auto installation = tools::locateIree(test::projectIreeOnly());
    QVERIFY2(installation.ok(),
             installation.ok() ? "" : installation.error().c_str());
    QCOMPARE(installation->foundBy, std::string("project prefix"));
    QCOMPARE(installation->compilerLibrary.filename().string(),
             std::string("libIREECompiler.so"));
    for (const char *tool : {tools::kIreeCompile, tools::kIreeOpt,
                             tools::kIreeRunModule, tools::kIreeBenchmarkModule})
      QVERIFY2(installation->tool(tool).ok(), tool);
  }

  void loadsAndChecksTheApiVersion() {
    auto library = test::projectCompiler();
    QCOMPARE(library->apiVersion().major, 1);
    QVERIFY(library->apiVersion().minor >= 4);
    // "<version> @ <40-hex-digit IREE commit>"
    QVERIFY2(QRegularExpression("[0-9a-f]{40}")
                 .match(QString::fromStdString(library->revision()))
                 .hasMatch(),
             library->revision().c_str());
    const auto backends = library->halTargetBackends();
    for (const char *backend : {"rocm", "cuda", "llvm-cpu"})
      QVERIFY2(std::find(backends.begin(), backends.end(), backend) !=
                   backends.end(),
               backend);
    // The pinned wheel exports every function Tilescope resolves.
    const auto &missing = library->missingOptionalFunctions();
    QVERIFY2(missing.empty(), missing.empty() ? "" : missing.front().c_str());
  }

  void loadingTwiceGivesTheSameLibrary() {
    auto first = test::projectCompiler();
    auto second = test::projectCompiler();
    QCOMPARE(first.get(), second.get());
  }

  void missingFileIsAClearError() {
    auto library =
        iree::CompilerLibrary::load("/nonexistent/libIREECompiler.so");
    QVERIFY(!library.ok());
    QVERIFY2(library.error().find("does not exist") != std::string::npos,
             library.error().c_str());
  }

  void textFileIsNotASharedLibrary() {
    QTemporaryDir dir;
    const std::filesystem::path path =
        dir.filePath("libIREECompiler.so").toStdString();
    test::writeFile(path, "this is not a library\n");
    auto library = iree::CompilerLibrary::load(path);
    QVERIFY(!library.ok());
    QVERIFY2(library.error().find("not a shared library") != std::string::npos,
             library.error().c_str());
  }

  void truncatedElfIsAClearError() {
    QTemporaryDir dir;
    const std::filesystem::path path = dir.filePath("broken.so").toStdString();
    test::writeFile(path, std::string("\x7f"
                                      "ELF") +
                              std::string(60, '\0'));
    auto library = iree::CompilerLibrary::load(path);
    QVERIFY(!library.ok());
    QVERIFY2(library.error().find("could not be loaded") != std::string::npos,
             library.error().c_str());
  }

  void otherLibraryIsNotIree() {
    // Qt's own core library: a real shared library that is not IREE.
    Dl_info info{};
    QVERIFY(::dladdr(reinterpret_cast<void *>(&qVersion), &info) != 0);
    auto library = iree::CompilerLibrary::load(info.dli_fname);
    QVERIFY(!library.ok());
    QVERIFY2(library.error().find("not IREE's compiler") != std::string::npos,
             library.error().c_str());
    QVERIFY2(library.error().find("ireeCompilerGetAPIVersion") !=
                 std::string::npos,
             library.error().c_str());
  }

  void explicitPathThatHoldsNoLibraryIsAnError() {
    tools::IreeSearchOptions options = test::projectIreeOnly();
    options.commandLinePath = "/nonexistent/iree-build";
    auto installation = tools::locateIree(options);
    QVERIFY(!installation.ok());
    QVERIFY2(installation.error().find("--iree") != std::string::npos,
             installation.error().c_str());
  }

  void nothingFoundListsWhereItLooked() {
    tools::IreeSearchOptions options;
    options.useEnvironment = false;
    options.usePythonPackages = false;
    options.projectPrefixes = {"/nonexistent/prefix"};
    auto installation = tools::locateIree(options);
    QVERIFY(!installation.ok());
    QVERIFY2(installation.error().find("/nonexistent/prefix") !=
                 std::string::npos,
             installation.error().c_str());
  }

  void acceptsTheLibraryDirectoryOrAnUnpackedWheel() {
    const auto library = test::projectIree().compilerLibrary;
    QCOMPARE(tools::compilerLibraryUnder(library.parent_path()).value(),
             library);
    QCOMPARE(tools::compilerLibraryUnder(TILESCOPE_IREE_PREFIX).value(),
             library);
  }
};

QTEST_GUILESS_MAIN(CompilerLibraryTest)
#include "tst_compiler_library.moc"
