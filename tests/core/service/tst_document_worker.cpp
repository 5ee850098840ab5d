// Parsing in tilescope-iree-worker: every kind of bad file gives a clear
// message that says what and where, and a file that crashes IREE's parser
// gives a message, never a dead caller. The worker's answers equal the
// in-process parser's.
#include "TestSupport.h"

#include "core/iree/DocumentParser.h"
#include "core/iree/NestingScan.h"
#include "core/service/DocumentWorker.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace tilescope;

namespace {

service::DocumentWorker worker() {
  return service::DocumentWorker(test::binaryDir() / "app" /
                                     "tilescope-iree-worker",
                                 test::projectIree().compilerLibrary);
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

std::string nestedBrackets(int depth) {
  return "module attributes {x.y = " +
         std::string(static_cast<size_t>(depth), '[') + "1" +
         std::string(static_cast<size_t>(depth), ']') + "} {}\n";
}

std::string nestedRegions(int depth) {
  std::string text = "func.func @f(%c: i1) {\n";
  for (int i = 0; i < depth; ++i)
    text += "scf.if %c {\n";
  for (int i = 0; i < depth; ++i)
    text += "}\n";
  return text + "return\n}\n";
}

} // namespace

class DocumentWorkerTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir;

  std::filesystem::path write(const std::string &name,
                              const std::string &text) {
    const std::filesystem::path path =
        dir.filePath(QString::fromStdString(name)).toStdString();
    test::writeFile(path, text);
    return path;
  }

  // What a served worker answers to `requests` (its greeting first), up to
  // `lines` lines.
  static QStringList servedAnswers(const QByteArray &requests, int lines) {
    QProcess served;
    served.start(
        QString::fromStdString(
            (test::binaryDir() / "app" / "tilescope-iree-worker").string()),
        {"serve", "--iree",
         QString::fromStdString(test::projectIree().compilerLibrary.string())});
    QStringList answers;
    if (!served.waitForStarted())
      return answers;
    served.write(requests);
    while (answers.size() < lines && served.waitForReadyRead(60000))
      while (served.canReadLine())
        answers << QString::fromUtf8(served.readLine()).trimmed();
    served.closeWriteChannel();
    served.waitForFinished(30000);
    return answers;
  }

private slots:
  void answersAsTheInProcessParserDoes_data() {
    QTest::addColumn<QString>("path");
    for (const char *folder : {"rocm_gfx942", "cuda_sm_90", "llvm_cpu"})
      for (const auto &path : test::exampleBenchmarks(folder))
        QTest::newRow(path.filename().c_str())
            << QString::fromStdString(path.string());
  }

  void answersAsTheInProcessParserDoes() {
    QFETCH(QString, path);
    iree::DocumentParser inProcess(test::projectCompiler());
    auto expected = inProcess.parseFile(path.toStdString());
    auto w = worker();
    auto actual = w.parseFile(path.toStdString());
    QVERIFY2(expected.ok(), expected.ok() ? "" : expected.error().c_str());
    QVERIFY2(actual.ok(), actual.ok() ? "" : actual.error().c_str());
    QCOMPARE(actual->text, expected->text);
    QCOMPARE(actual->path, expected->path);
    QCOMPARE(actual->partCount, expected->partCount);
    QCOMPARE(actual->dispatches.size(), expected->dispatches.size());
    for (size_t i = 0; i < actual->dispatches.size(); ++i) {
      const document::Dispatch &a = actual->dispatches[i],
                               &e = expected->dispatches[i];
      QCOMPARE(a.name, e.name);
      QCOMPARE(a.target, e.target);
      QCOMPARE(a.translationInfo, e.translationInfo);
      QCOMPARE(a.line, e.line);
      QCOMPARE(a.rootOps.size(), e.rootOps.size());
      for (size_t j = 0; j < a.rootOps.size(); ++j) {
        QCOMPARE(a.rootOps[j].name, e.rootOps[j].name);
        QCOMPARE(a.rootOps[j].loweringConfig, e.rootOps[j].loweringConfig);
        QCOMPARE(a.rootOps[j].indexingMaps, e.rootOps[j].indexingMaps);
        QCOMPARE(a.rootOps[j].operandTypes, e.rootOps[j].operandTypes);
        QCOMPARE(a.rootOps[j].rootOpSet, e.rootOps[j].rootOpSet);
      }
    }
  }

  void truncatedFileGivesIreesDiagnosticWithTheLine() {
    std::string text =
        test::readFile(test::examplesDir() / "rocm_gfx942" /
                       "matmul_f16_1024_dispatch_0.benchmark.mlir");
    text.resize(text.size() / 2);
    const auto path = write("truncated.mlir", text);
    auto w = worker();
    auto document = w.parseFile(path);
    QVERIFY(!document.ok());
    QVERIFY(!w.lastDiagnostics().empty());
    const document::Diagnostic &first = w.lastDiagnostics().front();
    QCOMPARE(first.file, path.string());
    QVERIFY(first.line > 0);
    QVERIFY2(contains(document.error(),
                      path.string() + ":" + std::to_string(first.line) + ":" +
                          std::to_string(first.column) + ": error: "),
             document.error().c_str());
  }

  void fileTheVerifierRejectsSaysWhy() {
    const auto path = write("verifier.mlir", "func.func @f() -> i32 {\n"
                                             "  %0 = arith.constant 1 : i64\n"
                                             "  return %0 : i64\n"
                                             "}\n");
    auto w = worker();
    auto document = w.parseFile(path);
    QVERIFY(!document.ok());
    QVERIFY2(contains(document.error(),
                      path.string() +
                          ":3:3: error: type of return operand 0 ('i64') "
                          "doesn't match function result type ('i32')"),
             document.error().c_str());
  }

  void binaryFilesAreRefused() {
    std::mt19937 random(7);
    std::string bytes(4096, '\0');
    for (char &c : bytes)
      c = static_cast<char>(random() & 0xff);
    auto w = worker();
    // With NUL bytes: refused before IREE sees it, with the line.
    auto withNul = w.parseFile(write("binary.bin", bytes));
    QVERIFY(!withNul.ok());
    QVERIFY2(contains(withNul.error(), "contains a NUL byte"),
             withNul.error().c_str());
    // Without: IREE's lexer refuses it, with a place (and the bytes that are
    // not UTF-8 in the quoted source line reach the caller as U+FFFD).
    for (char &c : bytes)
      if (c == '\0')
        c = '\x7f';
    const auto path = write("binary-no-nul.bin", bytes);
    auto noNul = w.parseFile(path);
    QVERIFY(!noNul.ok());
    QVERIFY2(contains(noNul.error(), path.string() + ":1:"),
             noNul.error().c_str());
  }

  void emptyFileIsAnEmptyDocument() {
    auto w = worker();
    auto document = w.parseFile(write("empty.mlir", ""));
    QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());
    QVERIFY(document->dispatches.empty());
    QCOMPARE(document->partCount, 1);
  }

  // 50 MB of weights, as whole programs carry them: parsed, not refused.
  void fiftyMegabytesParse() {
    const size_t elements = 50u << 18; // 4 bytes each: 50 MiB of data
    std::string text = "func.func @weights() -> tensor<" +
                       std::to_string(elements) +
                       "xf32> {\n  %0 = arith.constant dense<\"0x";
    text.reserve(elements * 8 + 200);
    for (size_t i = 0; i < elements; ++i)
      text += "0000803F";
    text += "\"> : tensor<" + std::to_string(elements) +
            "xf32>\n  return %0 : tensor<" + std::to_string(elements) +
            "xf32>\n}\n";
    QVERIFY(text.size() > 50u << 20);
    auto w = worker();
    auto document = w.parseFile(write("big.mlir", text));
    QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());
    QCOMPARE(document->text.size(), text.size());
  }

  void deepNestingIsRefusedWithItsPlace_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("depth");
    QTest::newRow("200000 brackets") << "brackets" << 200000;
    QTest::newRow("200000 regions") << "regions" << 200000;
    QTest::newRow("1001 regions") << "regions" << iree::kMaximumNesting + 1;
  }

  void deepNestingIsRefusedWithItsPlace() {
    QFETCH(QString, kind);
    QFETCH(int, depth);
    const std::string text =
        kind == "brackets" ? nestedBrackets(depth) : nestedRegions(depth);
    const auto path = write("deep.mlir", text);
    auto w = worker();
    auto document = w.parseFile(path);
    QVERIFY(!document.ok());
    // The place the limit is passed: line:column of the opening.
    const auto excess = iree::findExcessiveNesting(text);
    QVERIFY(excess);
    QVERIFY2(contains(document.error(), path.string() + ":" +
                                            std::to_string(excess->line) + ":" +
                                            std::to_string(excess->column) +
                                            ": error: nests 1001 levels deep"),
             document.error().c_str());
  }

  // Up to the limit, nesting is IREE's to judge and parses.
  void nestingAtTheLimitParses() {
    const int depth =
        iree::kMaximumNesting - 2; // module attributes { x = [...]
    auto w = worker();
    auto document = w.parseText(nestedBrackets(depth), "limit.mlir");
    QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());
    auto regions =
        w.parseText(nestedRegions(iree::kMaximumNesting - 2), "regions.mlir");
    QVERIFY2(regions.ok(), regions.ok() ? "" : regions.error().c_str());
  }

  static std::string crashingText() {
    return "func.func @ok() {\n  return\n}\n"
           "// -----\n"
           "func.func @fine() {\n  return\n}\n"
           "// -----\n"
           "module attributes {x.s = #iree_codegen.xor_shuffle<128, 0>} {}\n";
  }

  void directoryAndMissingPathSaySo() {
    auto w = worker();
    auto directory = w.parseFile(test::examplesDir());
    QVERIFY(!directory.ok());
    QVERIFY2(contains(directory.error(), "is a directory"),
             directory.error().c_str());
    auto missing = w.parseFile("/nonexistent/file.mlir");
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error(),
             std::string("/nonexistent/file.mlir: no such file"));
  }

  // IREE 3.13's xor_shuffle verifier divides by a zero access width
  // (SIGFPE). Tilescope refuses it first, at its line and column...
  void knownIreeCrasherIsRefusedWithItsPlace() {
    const auto path = write("crash.mlir", crashingText());
    auto w = worker();
    auto document = w.parseFile(path);
    QVERIFY(!document.ok());
    QVERIFY2(contains(document.error(),
                      path.string() +
                          ":9:26: error: #iree_codegen.xor_shuffle<128, 0> "
                          "has an access width of 0"),
             document.error().c_str());
  }

  // ...and when IREE does crash (here, asked to parse unguarded), the caller
  // gets the part it was in and the command to reproduce it.
  void ireeCrashIsAMessageNamingThePart() {
    const auto path = write("crash.mlir", crashingText());
    iree::ParseOptions unguarded;
    unguarded.unguarded = true;
    auto w = worker();
    auto document = w.parseFile(path, unguarded);
    QVERIFY(!document.ok());
    QVERIFY2(contains(document.error(),
                      path.string() + ": IREE's parser crashed in part 3"),
             document.error().c_str());
    QVERIFY2(contains(document.error(), "signal 8"), document.error().c_str());
    QVERIFY2(contains(document.error(), "To reproduce: "),
             document.error().c_str());
    QVERIFY2(contains(w.lastCommand(), "--unguarded"), w.lastCommand().c_str());
    // An unsaved buffer's reproducer is kept on disk.
    auto buffer = w.parseText(crashingText(), "edited.mlir", unguarded);
    QVERIFY(!buffer.ok());
    const std::string command = w.lastCommand();
    const std::string copy = command.substr(command.rfind(' ') + 1);
    QVERIFY2(std::filesystem::exists(copy), command.c_str());
    std::filesystem::remove_all(std::filesystem::path(copy).parent_path());
  }

  void hungParseIsStoppedAndSaysSo() {
    // 900 nested regions take IREE a while; a 1 ms limit stops it.
    auto w = worker();
    w.timeout = std::chrono::milliseconds(1);
    auto document = w.parseText(nestedRegions(900), "slow.mlir");
    QVERIFY(!document.ok());
    QVERIFY2(contains(document.error(),
                      "slow.mlir: IREE's parser did not finish and timed out"),
             document.error().c_str());
  }

  // A served request's number comes back first in its answer, in order, so
  // an answer is never taken for another request's; a number that is not
  // one is refused.
  void answersCarryTheirRequestsNumber() {
    const QString file =
        QString::fromStdString((test::examplesDir() / "rocm_gfx942" /
                                "matmul_f16_1024_dispatch_0.benchmark.mlir")
                                   .string());
    const QString request =
        "{\"command\": \"parse\", \"file\": \"%1\", \"id\": %2}\n";
    const QStringList lines =
        servedAnswers(request.arg(file).arg(41).toUtf8() +
                          request.arg(file).arg(42).toUtf8() +
                          ("{\"command\": \"parse\", \"file\": \"" + file +
                           "\", \"id\": \"x\"}\n")
                              .toUtf8(),
                      4);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QString("{\"ready\":true}"));
    QVERIFY2(lines[1].startsWith("{\"id\":41,\"") &&
                 lines[1].contains("\"ok\":true"),
             qPrintable(lines[1].left(200)));
    QVERIFY2(lines[2].startsWith("{\"id\":42,\""),
             qPrintable(lines[2].left(200)));
    QVERIFY2(lines[3].contains("is a whole number"),
             qPrintable(lines[3].left(200)));
  }

  // Text sent after its request line, its length in the line: answered
  // as the file would be; a refused request's payload is read past, so the
  // next line is still the next request.
  void payloadsFollowTheirRequestLine() {
    const QByteArray text = "func.func @f() {\n  return\n}\n";
    const QByteArray attribute = "#iree_gpu.lowering_config<{workgroup = "
                                 "[64, 64, 0]}>";
    auto line = [](const char *command, qsizetype bytes, int id) {
      return QString("{\"command\": \"%1\", \"payload_bytes\": %2, "
                     "\"buffer_name\": \"b.mlir\", \"id\": %3}\n")
          .arg(command)
          .arg(bytes)
          .arg(id)
          .toUtf8();
    };
    const QStringList lines =
        servedAnswers(line("parse", text.size(), 1) + text +
                          line("no-such-command", text.size(), 2) + text +
                          line("attribute", attribute.size(), 3) + attribute +
                          "{\"command\": \"parse\", \"payload_bytes\": -4}\n",
                      5);
    QCOMPARE(lines.size(), 5);
    QVERIFY2(lines[1].startsWith("{\"id\":1,\"") &&
                 lines[1].contains("\"ok\":true"),
             qPrintable(lines[1].left(200)));
    QVERIFY2(lines[2].contains("a request's") &&
                 lines[2].contains("\"ok\":false"),
             qPrintable(lines[2].left(200)));
    QVERIFY2(lines[3].startsWith("{\"id\":3,\"") &&
                 lines[3].contains("workgroup = [64, 64, 0]"),
             qPrintable(lines[3].left(200)));
    QVERIFY2(lines[4].contains("payload_bytes"),
             qPrintable(lines[4].left(200)));
  }

  // A buffer larger than a pipe holds reaches the worker whole, and no
  // file is written for it.
  void aLargeBufferGoesOverThePipe() {
    std::string text;
    for (int i = 0; text.size() < (1u << 20); ++i)
      text += "func.func @f" + std::to_string(i) + "() {\n  return\n}\n";
    // Nowhere to write a file: the request must not need one.
    const QByteArray saved = qgetenv("TMPDIR");
    qputenv("TMPDIR", "/nonexistent/tilescope-no-temp");
    auto document = worker().parseText(text, "large.mlir");
    if (saved.isNull())
      qunsetenv("TMPDIR");
    else
      qputenv("TMPDIR", saved);
    QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());
    QCOMPARE(document->text.size(), text.size());
  }

  // One worker serves every open in turn: IREE is loaded once, not per
  // open, and each DocumentWorker finds the one kept.
  void workerIsKeptBetweenOpens() {
    const std::string good = "func.func @f() {\n  return\n}\n";
    QVERIFY(worker().parseText(good, "first.mlir").ok());
    const int started = service::DocumentWorker::workersStarted();
    for (const auto &path : test::exampleBenchmarks("rocm_gfx942")) {
      auto document = worker().parseFile(path);
      QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());
    }
    QCOMPARE(service::DocumentWorker::workersStarted(), started);
    service::DocumentWorker::stopIdleWorkers();
    QVERIFY(worker().parseText(good, "fresh.mlir").ok());
    QCOMPARE(service::DocumentWorker::workersStarted(), started + 1);
  }

  // A crash ends that worker only: the next open gets a fresh one, and a
  // file IREE refuses leaves the worker serving.
  void crashedWorkerIsReplaced() {
    const std::string good = "func.func @f() {\n  return\n}\n";
    QVERIFY(worker().parseText(good, "warm.mlir").ok());
    const int started = service::DocumentWorker::workersStarted();
    QVERIFY(!worker().parseText("func.func @f( {", "refused.mlir").ok());
    QVERIFY(worker().parseText(good, "after-refusal.mlir").ok());
    QCOMPARE(service::DocumentWorker::workersStarted(), started);

    iree::ParseOptions unguarded;
    unguarded.unguarded = true;
    auto w = worker();
    auto crashed = w.parseText(crashingText(), "crash.mlir", unguarded);
    QVERIFY(!crashed.ok());
    QVERIFY2(contains(crashed.error(), "crashed in part 3"),
             crashed.error().c_str());
    const std::string command = w.lastCommand();
    std::filesystem::remove_all(
        std::filesystem::path(command.substr(command.rfind(' ') + 1))
            .parent_path());
    auto after = worker().parseText(good, "after-crash.mlir");
    QVERIFY2(after.ok(), after.ok() ? "" : after.error().c_str());
    QCOMPARE(service::DocumentWorker::workersStarted(), started + 1);
  }

  // A worker that has answered kAnswersPerWorker requests is retired: the
  // IREE context it keeps does not grow for ever.
  void workerIsRetiredAfterItsShare() {
    const std::string good = "func.func @f() {\n  return\n}\n";
    QVERIFY(worker().parseText(good, "warm.mlir").ok());
    const int started = service::DocumentWorker::workersStarted();
    for (int i = 0; i <= service::DocumentWorker::kAnswersPerWorker; ++i)
      QVERIFY(worker().parseText(good, "again.mlir").ok());
    QCOMPARE(service::DocumentWorker::workersStarted(), started + 1);
  }

  void missingWorkerOrLibrarySaysWhich() {
    service::DocumentWorker noProgram("/nonexistent/tilescope-iree-worker",
                                      test::projectIree().compilerLibrary);
    auto a = noProgram.parseText("", "x.mlir");
    QVERIFY(!a.ok());
    QVERIFY2(contains(a.error(), "cannot start Tilescope's parser process"),
             a.error().c_str());
    service::DocumentWorker noLibrary(test::binaryDir() / "app" /
                                          "tilescope-iree-worker",
                                      "/nonexistent/libIREECompiler.so");
    auto b = noLibrary.parseText("", "x.mlir");
    QVERIFY(!b.ok());
    QVERIFY2(contains(b.error(), "/nonexistent/libIREECompiler.so"),
             b.error().c_str());
  }
};

QTEST_GUILESS_MAIN(DocumentWorkerTest)
#include "tst_document_worker.moc"
