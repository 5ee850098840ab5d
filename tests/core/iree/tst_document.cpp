// Parsing IREE files through the real compiler's C API: every committed
// example parses and shows its dispatches; broken input gives the compiler's
// diagnostic with file and line, and never a crash.
#include "TestSupport.h"

#include "core/export/DocumentJson.h"
#include "core/iree/DocumentParser.h"
#include "core/iree/NestingScan.h"

#include <QTemporaryDir>

#include <random>

using namespace tilescope;

namespace {

// The nesting scan written the plain way, a byte at a time: what the
// sixteen-bytes-at-a-time scan must find, to the column.
std::optional<iree::NestingExcess> plainNestingScan(std::string_view text,
                                                    int limit) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '"') {
      while (i + 1 < text.size() && text[i + 1] != '"' && text[i + 1] != '\n') {
        if (text[i + 1] == '\\')
          ++i;
        ++i;
      }
      if (i + 1 < text.size() && text[i + 1] == '"')
        ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > limit) {
        const std::string_view before = text.substr(0, i);
        const size_t lineStart = before.rfind('\n');
        return iree::NestingExcess{
            static_cast<int>(std::count(before.begin(), before.end(), '\n')) +
                1,
            static_cast<int>(
                i - (lineStart == std::string_view::npos ? 0 : lineStart + 1)) +
                1,
            depth};
      }
    } else if (c == ')' || c == ']' || c == '}' ||
               (c == '>' && !(i > 0 && text[i - 1] == '-') &&
                !(i + 1 < text.size() && text[i + 1] == '='))) {
      if (depth > 0)
        --depth;
    }
  }
  return std::nullopt;
}

} // namespace

class DocumentTest : public QObject {
  Q_OBJECT

  std::shared_ptr<iree::CompilerLibrary> library;

private slots:
  void initTestCase() { library = test::projectCompiler(); }

  // The parse worker's answer writes each long text once; reading it back
  // gives the document written, and an index past the texts is named.
  void sharedTextsReadBack() {
    iree::DocumentParser parser(library);
    for (const char *folder : {"rocm_gfx942", "cuda_sm_90", "llvm_cpu"})
      for (const auto &path : test::exampleBenchmarks(folder)) {
        auto document = parser.parseFile(path);
        QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());
        const nlohmann::json shared = exporting::toJson(*document, true);
        QVERIFY(shared.contains("texts"));
        auto back = exporting::documentFromJson(shared);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        QCOMPARE(exporting::toJson(*back), exporting::toJson(*document));
      }
    auto document = parser.parseFile(test::exampleBenchmarks("rocm_gfx942")[0]);
    QVERIFY(document.ok());
    nlohmann::json broken = exporting::toJson(*document, true);
    broken["dispatches"][0]["translation_info"] = 99;
    auto refused = exporting::documentFromJson(broken);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().find("dispatch 0 \"translation_info\" names "
                                  "shared text 99 of") != std::string::npos,
             refused.error().c_str());
  }

  // The parse worker's answer read from its text (simdjson's tape) gives
  // what nlohmann's DOM gives, for every example in both forms; a refusal
  // keeps IREE's words and diagnostics; a broken answer or document says so.
  void answerTextReadsAsTheDom() {
    iree::DocumentParser parser(library);
    for (const char *folder : {"rocm_gfx942", "cuda_sm_90", "llvm_cpu"})
      for (const auto &path : test::exampleBenchmarks(folder)) {
        auto document = parser.parseFile(path);
        QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());
        for (bool share : {false, true}) {
          const nlohmann::json written = exporting::toJson(*document, share);
          const std::string answer = nlohmann::json{
              {"id", 7},
              {"ok", true},
              {"document", written}}.dump();
          auto read = exporting::documentAnswerFromJsonText(answer);
          QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
          QVERIFY(read->ok);
          QVERIFY2(read->documentError.empty(), read->documentError.c_str());
          QCOMPARE(exporting::toJson(read->document),
                   exporting::toJson(*document));
        }
      }
    auto refusal = exporting::documentAnswerFromJsonText(
        R"({"ok": false, "error": "f.mlir:3:1: error: no", "diagnostics":
            [{"severity": "error", "file": "f.mlir", "line": 3,
              "column": 1, "message": "no", "notes": []}]})");
    QVERIFY(refusal.ok() && !refusal->ok);
    QCOMPARE(refusal->error, std::string("f.mlir:3:1: error: no"));
    QCOMPARE(refusal->diagnostics.size(), size_t(1));
    QCOMPARE(refusal->diagnostics[0].line, 3);
    for (const char *broken : {"", "{\"ok\": 1}", "[true]", "{\"ok\": tru"})
      QVERIFY2(!exporting::documentAnswerFromJsonText(broken).ok(), broken);
    auto noDocument = exporting::documentAnswerFromJsonText(R"({"ok": true})");
    QVERIFY(noDocument.ok() && noDocument->ok);
    QVERIFY(!noDocument->documentError.empty());
  }

  // Seeded random damage to a document's JSON (a field removed, or given a
  // value of another type, a whole number out of any range, a fraction):
  // the tape reader and the DOM reader accept the same and refuse the
  // same, in the same words, and read the same document where they accept.
  void bothReadersAgreeOnDamagedDocuments() {
    iree::DocumentParser parser(library);
    std::vector<nlohmann::json> documents;
    for (const char *folder : {"rocm_gfx942", "llvm_cpu"})
      for (const auto &path : test::exampleBenchmarks(folder)) {
        auto document = parser.parseFile(path);
        QVERIFY(document.ok());
        documents.push_back(exporting::toJson(*document, documents.size() % 2));
      }
    const std::vector<nlohmann::json> values = {nullptr,
                                                true,
                                                -1,
                                                0,
                                                3,
                                                18446744073709551615ull,
                                                -9223372036854775807ll - 1,
                                                1.5,
                                                "text",
                                                nlohmann::json::array(),
                                                nlohmann::json::array({1, "a"}),
                                                nlohmann::json::object()};
    std::mt19937 random(20261207);
    int accepted = 0, refused = 0;
    for (int trial = 0; trial < 3000; ++trial) {
      nlohmann::json damaged = documents[random() % documents.size()];
      // Walk down to a random field and damage it.
      nlohmann::json *at = &damaged;
      for (int depth = 0;
           depth < 8 && (at->is_object() || at->is_array()) && !at->empty();
           ++depth) {
        auto it = at->begin();
        std::advance(it, static_cast<long>(random() % at->size()));
        if (random() % 4 == 0 && at->is_object()) {
          if (random() % 2)
            at->erase(it);
          else
            *it = values[random() % values.size()];
          break;
        }
        at = &*it;
        if (!(at->is_object() || at->is_array()))
          *at = values[random() % values.size()];
      }
      auto dom = exporting::documentFromJson(damaged);
      auto tape = exporting::documentAnswerFromJsonText(
          nlohmann::json{{"ok", true}, {"document", damaged}}.dump());
      QVERIFY(tape.ok() && tape->ok);
      const std::string context = damaged.dump().substr(0, 400);
      QVERIFY2(dom.ok() == tape->documentError.empty(),
               (context + "\n dom: " + (dom.ok() ? "ok" : dom.error()) +
                "\n tape: " + tape->documentError)
                   .c_str());
      if (dom.ok()) {
        ++accepted;
        QCOMPARE(exporting::toJson(tape->document), exporting::toJson(*dom));
      } else {
        ++refused;
        QCOMPARE(tape->documentError, dom.error());
      }
    }
    // Both outcomes, many times.
    QVERIFY2(accepted > 300 && refused > 300,
             (std::to_string(accepted) + " accepted, " +
              std::to_string(refused) + " refused")
                 .c_str());
  }

  // Seeded random texts of brackets, arrows, comments, strings with
  // escapes and line ends, at every offset against the 16-byte blocks.
  void nestingScanAgreesWithAPlainScan() {
    std::mt19937 random(20261124);
    const std::string alphabet = "([{<>)]}<<(([[->>=//\"\"\\\n\nab -=";
    std::uniform_int_distribution<size_t> letter(0, alphabet.size() - 1);
    int excesses = 0;
    for (int trial = 0; trial < 20000; ++trial) {
      const size_t length = random() % 120;
      std::string text;
      for (size_t i = 0; i < length; ++i)
        text += alphabet[letter(random)];
      const int limit = 1 + static_cast<int>(random() % 8);
      const auto expected = plainNestingScan(text, limit);
      const auto actual = iree::findExcessiveNesting(text, limit);
      QVERIFY2(expected.has_value() == actual.has_value(), text.c_str());
      if (expected) {
        ++excesses;
        QCOMPARE(actual->line, expected->line);
        QCOMPARE(actual->column, expected->column);
        QCOMPARE(actual->depth, expected->depth);
      }
    }
    // Both outcomes were tried, many times.
    QVERIFY(excesses > 2000 && excesses < 18000);
  }

  void everyExampleParses_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("loweringConfigPrefix");
    for (const auto &[folder, prefix] :
         std::vector<std::pair<std::string, QString>>{
             {"rocm_gfx942", "#iree_gpu.lowering_config<"},
             {"cuda_sm_90", "#iree_gpu.lowering_config<"},
             {"llvm_cpu", "#iree_cpu.lowering_config<"}}) {
      for (const auto &path : test::exampleBenchmarks(folder))
        QTest::newRow(path.filename().c_str())
            << QString::fromStdString(path.string()) << prefix;
    }
  }

  void everyExampleParses() {
    QFETCH(QString, path);
    QFETCH(QString, loweringConfigPrefix);
    iree::DocumentParser parser(library);
    auto document = parser.parseFile(path.toStdString());
    QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());
    QCOMPARE(document->dispatches.size(), size_t(1));
    const document::Dispatch &dispatch = document->dispatches.front();
    QVERIFY(!dispatch.name.empty());
    QVERIFY(!dispatch.executable.empty());
    QVERIFY(dispatch.line > 0);
    QVERIFY(QString::fromStdString(dispatch.translationInfo)
                .startsWith("#iree_codegen.translation_info<"));
    QVERIFY(QString::fromStdString(dispatch.target)
                .startsWith("#hal.executable.target<"));
    // --iree-codegen-add-tuner-attributes marked the root op (except where
    // the source chose the config with compilation_info).
    auto root = std::find_if(
        dispatch.rootOps.begin(), dispatch.rootOps.end(),
        [](const document::RootOp &op) { return op.rootOpSet.has_value(); });
    if (path.contains("vector_distribute"))
      root = std::find_if(dispatch.rootOps.begin(), dispatch.rootOps.end(),
                          [](const document::RootOp &op) {
                            return !op.loweringConfig.empty();
                          });
    QVERIFY(root != dispatch.rootOps.end());
    QVERIFY2(QString::fromStdString(root->loweringConfig)
                 .startsWith(loweringConfigPrefix),
             root->loweringConfig.c_str());
    QVERIFY(!root->operandTypes.empty());
    // The line points at the op in the file.
    const QStringList lines =
        QString::fromStdString(document->text).split('\n');
    QVERIFY(root->line > 0 && root->line <= lines.size());
    QVERIFY2(lines[root->line - 1].contains("lowering_config"),
             qPrintable(lines[root->line - 1]));
  }

  void theSeedReductionCarriesItsConfig() {
    iree::DocumentParser parser(library);
    auto document = parser.parseFile(
        test::examplesDir() /
        "rocm_gfx942/reduction_4x6656x16384_dispatch_0.benchmark.mlir");
    QVERIFY(document.ok());
    const document::RootOp &root = document->dispatches.front().rootOps.front();
    QCOMPARE(root.name, std::string("linalg.generic"));
    QVERIFY(root.loweringConfig.find("partial_reduction") != std::string::npos);
    QVERIFY(root.loweringConfig.find("lane_basis") != std::string::npos);
    QVERIFY(root.iteratorTypes.find("reduction") != std::string::npos);
    QVERIFY(document->dispatches.front().translationInfo.find(
                "VectorDistribute") != std::string::npos);
  }

  void truncatedFileGivesTheCompilersDiagnostic() {
    const auto example =
        test::examplesDir() /
        "rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir";
    std::string text = test::readFile(example);
    text.resize(text.size() / 2);
    QTemporaryDir dir;
    const std::filesystem::path truncated =
        dir.filePath("truncated.mlir").toStdString();
    test::writeFile(truncated, text);

    iree::DocumentParser parser(library);
    auto document = parser.parseFile(truncated);
    QVERIFY(!document.ok());
    QVERIFY(!parser.lastDiagnostics().empty());
    const document::Diagnostic &first = parser.lastDiagnostics().front();
    QVERIFY(first.severity == document::Severity::Error);
    QCOMPARE(first.file, truncated.string());
    QVERIFY2(first.line > 0, first.toString().c_str());
    QVERIFY(first.column > 0);
    QVERIFY(!first.message.empty());
    // The error text says file and line.
    QVERIFY2(document.error().find(truncated.string() + ":" +
                                   std::to_string(first.line) + ":") !=
                 std::string::npos,
             document.error().c_str());
  }

  void splitFileKeepsTheFilesLineNumbers() {
    const std::string text = "func.func @first() {\n"
                             "  return\n"
                             "}\n"
                             "// -----\n"
                             "func.func @second() {\n"
                             "  %0 = arith.constant 1 : i32\n"
                             "  return\n"
                             "}\n"
                             "// -----\n"
                             "func.func @third() {\n"
                             "  %0 = arith.constant : i32\n" // line 11: broken
                             "  return\n"
                             "}\n";
    iree::DocumentParser parser(library);
    auto document = parser.parseText(text, "split.mlir");
    QVERIFY(!document.ok());
    QCOMPARE(parser.lastDiagnostics().front().line, 11);

    const std::string good = text.substr(0, text.rfind("// -----"));
    auto parsed = parser.parseText(good, "split.mlir");
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
    QCOMPARE(parsed->partCount, 2);
  }

  // Found by property_documents against iree-opt: every broken part is
  // reported, in part order, as iree-opt --split-input-file reports them.
  void everyBrokenPartIsReported() {
    const std::string text = "a // -----\nb // ----- c\n// ----\n"
                             "module {}\n// -----\nmodule @m {}\n";
    iree::DocumentParser parser(library);
    auto document = parser.parseText(text, "parts.mlir");
    QVERIFY(!document.ok());
    QCOMPARE(document.error(),
             std::string(
                 "parts.mlir:3:7: warning: near miss with file split marker\n"
                 "// ----\n"
                 "      ^\n"
                 "parts.mlir:1:1: error: custom op 'a' is unknown (tried "
                 "'builtin.a' as well)\n"
                 "a // -----\n"
                 "^\n"
                 "parts.mlir:2:1: error: custom op 'b' is unknown (tried "
                 "'builtin.b' as well)\n"
                 "b // ----- c\n"
                 "^\n"
                 "parts.mlir:2:12: error: custom op 'c' is unknown (tried "
                 "'builtin.c' as well)\n"
                 "b // ----- c\n"
                 "           ^"));
  }

  // A split marker inside a string literal makes MLIR's lexer read past the
  // part (iree-opt crashes on this file): refused, saying where.
  void markerInsideAStringIsRefused() {
    const std::string text = "module {}\n// -----\n"
                             "module attributes {x = \"a // ----- b\"} {}\n"
                             "// -----\nmodule @m {}\n";
    iree::DocumentParser parser(library);
    auto document = parser.parseText(text, "cut.mlir");
    QVERIFY(!document.ok());
    QVERIFY2(document.error().rfind(
                 "cut.mlir:3:27: error: this split marker cuts the string "
                 "literal that starts at 3:24",
                 0) == 0,
             document.error().c_str());
    // Unsplit, the same text is one module with a string attribute.
    iree::ParseOptions whole;
    whole.splitInputFile = false;
    QVERIFY(!parser.parseText(text, "cut.mlir", whole).ok()); // two modules
    const std::string one = "module attributes {t.x = \"a // ----- b\"} {}\n";
    auto parsed = parser.parseText(one, "one.mlir", whole);
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
    // Not told, Tilescope does not split on a marker inside a string.
    QVERIFY(parser.parseText(one, "one.mlir").ok());
  }

  // LLVM prints no caret under a line with non-ASCII bytes, and no source
  // at all when a line break (\r) stands between the line start and the
  // column.
  void diagnosticsPrintSourceAsLlvmDoes() {
    iree::DocumentParser parser(library);
    auto accented = parser.parseText("module {} \xc3\xa9\n", "utf8.mlir");
    QVERIFY(!accented.ok());
    QCOMPARE(accented.error(),
             std::string("utf8.mlir:1:11: error: unexpected character\n"
                         "module {} \xc3\xa9"));
    auto carriage = parser.parseText(
        "module attributes {x = \"abc\r\ndef\"} {}\n", "cr.mlir");
    QVERIFY(!carriage.ok());
    QCOMPARE(
        carriage.error(),
        std::string("cr.mlir:1:29: error: expected '\"' in string literal"));
  }

  void configuredFunctionsOutsideExecutablesAreDispatches() {
    // A lit-test style function: a bare func.func carrying translation_info.
    const std::string text =
        "#translation = #iree_codegen.translation_info<pipeline = "
        "#iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] "
        "subgroup_size = 64>\n"
        "func.func @configured() attributes {translation_info = #translation} "
        "{\n  return\n}\n"
        "func.func @plain() {\n  return\n}\n";
    iree::DocumentParser parser(library);
    auto document = parser.parseText(text, "lit.mlir");
    QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());
    QCOMPARE(document->dispatches.size(), size_t(1));
    QCOMPARE(document->dispatches.front().name, std::string("configured"));
    QCOMPARE(document->dispatches.front().line, 2);
  }

  void hostileInputIsAnErrorNotACrash() {
    iree::DocumentParser parser(library);
    QVERIFY(
        !parser.parseText(std::string("func.func @f(\0", 14), "nul.mlir").ok());
    QVERIFY(!parser.parseText(std::string(100000, '['), "deep.mlir").ok());
    QVERIFY(!parser.parseFile("/nonexistent/file.mlir").ok());
    QVERIFY(!parser.parseFile(test::examplesDir()).ok());
    // Empty input is a valid, empty module.
    auto empty = parser.parseText("", "empty.mlir");
    QVERIFY(empty.ok());
    QVERIFY(empty->dispatches.empty());
  }
};

QTEST_GUILESS_MAIN(DocumentTest)
#include "tst_document.moc"
