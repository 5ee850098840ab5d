// readConstraints against what IREE prints: the constraints ops
// iree-codegen-insert-smt-constraints writes for a matmul (the project's
// iree-opt), read with their functions, lines, dims and asserts, in a file
// that repeats them and in one of bare ops that a quadratic reading never
// finished.

#include "TestSupport.h"

#include "core/process/Process.h"
#include "core/service/PrintedConstraints.h"
#include "core/util/Files.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace tilescope;

namespace {

// The matmul example with IREE's constraints inserted, as iree-opt prints it.
std::string ireeConstraintsOfMatmul(const std::filesystem::path &folder) {
  const auto opt = test::projectIree().tool("iree-opt");
  if (!opt)
    qFatal("%s", opt.error().c_str());
  process::ProcessSpec spec;
  spec.program = *opt;
  spec.arguments = {
      "--pass-pipeline=builtin.module(hal.executable(hal.executable.variant("
      "builtin.module(func.func(iree-codegen-insert-smt-constraints)))))",
      (test::examplesDir() / "rocm_gfx942" /
       "matmul_f16_1024_dispatch_0.benchmark.mlir")
          .string(),
      "-o", (folder / "constraints.mlir").string()};
  const process::ProcessResult result = process::runProcess(spec);
  if (!result.succeeded())
    qFatal("%s", result.describe().c_str());
  auto text = readTextFile(folder / "constraints.mlir");
  if (!text)
    qFatal("%s", text.error().c_str());
  return *text;
}

// The 1-based lines that start with (after spaces) `what`, counted apart
// from the reader.
std::vector<int> linesStartingWith(const std::string &text,
                                   const std::string &what) {
  std::vector<int> lines;
  int line = 1;
  for (size_t start = 0; start < text.size(); ++line) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const size_t first = text.find_first_not_of(' ', start);
    if (first < end && text.compare(first, what.size(), what) == 0)
      lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::string replaced(std::string text, const std::string &from,
                     const std::string &to) {
  for (size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

} // namespace

class PrintedConstraintsTest : public QObject {
  Q_OBJECT

private slots:
  void readsWhatIreePrinted() {
    QTemporaryDir folder;
    const std::string text =
        ireeConstraintsOfMatmul(folder.path().toStdString());
    const auto ops = service::readConstraints(text);
    const std::vector<int> lines =
        linesStartingWith(text, service::kConstraintsOp);
    QCOMPARE(ops.size(), lines.size());
    QVERIFY(!ops.empty());
    // One op a pipeline IREE 3.13 would take for the matmul's root op
    // (its set 0), each with its own dims' constants just above it.
    const std::vector<std::string> pipelines{"TileAndFuse", "VectorDistribute"};
    QCOMPARE(ops.size(), pipelines.size());
    const std::vector<std::optional<int64_t>> matmul{1024, 1024, 1024};
    for (size_t i = 0; i < ops.size(); ++i) {
      QCOMPARE(ops[i].line, lines[i]);
      QCOMPARE(ops[i].function,
               std::string("matmul_f16_1024_dispatch_0_"
                           "matmul_1024x1024x1024_f16xf16xf32"));
      QCOMPARE(ops[i].set, 0LL);
      QVERIFY(ops[i].content.dims == matmul);
      QCOMPARE(ops[i].content.pipeline, pipelines[i]);
      QVERIFY(ops[i].content.assertions > 0);
      QVERIFY(ops[i].content.knobsTemplate.ok());
    }
  }

  // Two copies of the module, the second's function renamed and one of
  // its dims' constants changed: each op gets its own function, line and
  // dims, the constant nearest above it.
  void carriesFunctionsLinesAndConstantsDownAFile() {
    QTemporaryDir folder;
    const std::string one =
        ireeConstraintsOfMatmul(folder.path().toStdString());
    std::string two =
        replaced(one, "@matmul_f16_1024_dispatch_0_matmul_", "@second_matmul_");
    two = replaced(two, "%c1024_3 = arith.constant 1024 : index",
                   "%c1024_3 = arith.constant 512 : index");
    const std::string text = one + two;
    const auto ops = service::readConstraints(text);
    const auto first = service::readConstraints(one);
    QCOMPARE(ops.size(), 2 * first.size());
    const int linesOfOne =
        static_cast<int>(std::count(one.begin(), one.end(), '\n'));
    for (size_t i = 0; i < first.size(); ++i) {
      const auto &again = ops[first.size() + i];
      QCOMPARE(ops[i].line, first[i].line);
      QCOMPARE(again.line, first[i].line + linesOfOne);
      QVERIFY(again.function.starts_with("second_matmul_"));
      QCOMPARE(again.content.assertions, first[i].content.assertions);
    }
    // The first op's dims are %c1024, %c1024_2, %c1024_3.
    QVERIFY(ops[0].content.dims ==
            (std::vector<std::optional<int64_t>>{1024, 1024, 1024}));
    QVERIFY(ops[first.size()].content.dims ==
            (std::vector<std::optional<int64_t>>{1024, 1024, 512}));
  }

  // 300,000 ops with nothing after them: each was sought to the end of the
  // file for its `set =` and counted from its start for its line (hours;
  // ctest's limit fails a return of that).
  void bareOpsReadInTheirLength() {
    std::string text;
    for (int i = 0; i < 300000; ++i)
      text += std::string(service::kConstraintsOp) + " dims(%c" +
              std::to_string(i) + ") {\n";
    QVERIFY(service::readConstraints(text).empty());
    // and with their sets, each region closed
    std::string closed;
    for (int i = 0; i < 100000; ++i)
      closed += "  %c" + std::to_string(i) + " = arith.constant " +
                std::to_string(i) + " : index\n  " + service::kConstraintsOp +
                " target = <set = " + std::to_string(i) + ">, dims(%c" +
                std::to_string(i) + ", %nowhere) {\n  }\n";
    const auto ops = service::readConstraints(closed);
    QCOMPARE(ops.size(), size_t(100000));
    QCOMPARE(ops.back().line, 3 * 100000 - 1);
    QCOMPARE(ops.back().set, 99999LL);
    QVERIFY(ops.back().content.dims ==
            (std::vector<std::optional<int64_t>>{99999, std::nullopt}));
  }
};

QTEST_GUILESS_MAIN(PrintedConstraintsTest)
#include "tst_printed_constraints.moc"
