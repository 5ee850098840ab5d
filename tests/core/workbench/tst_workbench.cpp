// The workbench every front end builds (core/workbench): a session it
// opens is wired with IREE's printer and parser from the parse worker and
// answers the shared edit fixture (tests/data/session_edits.json) exactly
// as a session over the library loaded in process does; without an IREE
// every question says why; the path saved in a front end's settings is read
// at each question; IREE's answers come through it.
#include "TestSupport.h"

#include "core/iree/DocumentParser.h"
#include "core/process/Workspace.h"
#include "core/session/Session.h"
#include "core/tune/TuneReport.h"
#include "core/workbench/Workbench.h"

#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <functional>

#include <nlohmann/json.hpp>

using namespace tilescope;
using json = nlohmann::json;

namespace {

std::filesystem::path workerProgram() {
  return test::binaryDir() / "app" / "tilescope-iree-worker";
}

workbench::Workbench projectBench(const std::filesystem::path &workspace) {
  workbench::WorkbenchOptions options;
  options.iree = test::projectIreeOnly();
  options.workerProgram = workerProgram();
  options.workspace = workspace;
  return workbench::Workbench(std::move(options));
}

// A search that finds nothing: no prefix, no environment, no packages.
tools::IreeSearchOptions nowhere(const std::filesystem::path &given) {
  tools::IreeSearchOptions search;
  search.commandLinePath = given;
  search.useEnvironment = false;
  search.usePythonPackages = false;
  search.projectPrefixes.clear();
  return search;
}

json editsFixture() {
  return json::parse(
      test::readFile(test::sourceDir() / "tests/data/session_edits.json"));
}

// Drives every edit of the fixture; returns the outcomes in words
// ("applied: NEW", "refused", "unchanged").
std::vector<std::string> drive(session::Session &session, const json &fixture) {
  std::vector<std::string> outcomes;
  const edit::OpRef op{0, 0};
  for (const json &e : fixture["edits"]) {
    const session::SetOutcome made = session.set(
        op, e["field"].get<std::string>(), e["value"].get<std::string>());
    if (made)
      outcomes.push_back("applied: " + made.edit->newValue +
                         (made.edit->readByIree ? " (read by IREE)" : ""));
    else
      outcomes.push_back(made.unchanged ? "unchanged" : "refused");
  }
  return outcomes;
}

} // namespace

class WorkbenchTest : public QObject {
  Q_OBJECT

private slots:
  void aSessionItOpensAnswersAsTheLibraryInProcessDoes() {
    QTemporaryDir workspace;
    const workbench::Workbench bench =
        projectBench(workspace.path().toStdString());
    const json fixture = editsFixture();
    const std::filesystem::path file =
        test::sourceDir() / fixture["file"].get<std::string>();

    auto document = bench.parseFile(file);
    QVERIFY2(document.ok(), document.ok() ? "" : document.error().c_str());
    auto opened = bench.open(*document);
    const std::vector<std::string> viaWorker = drive(*opened, fixture);

    // The same edits on a session over the library in this process.
    auto library = test::projectCompiler();
    auto attributes = std::make_shared<iree::AttributeParser>(library);
    session::SessionServices inProcess;
    inProcess.printAttribute = [attributes](const std::string &text) {
      return attributes->print(text);
    };
    inProcess.parseText = [library](const std::string &text,
                                    const std::string &name) {
      iree::DocumentParser parser(library);
      return parser.parseText(text, name);
    };
    iree::DocumentParser parser(library);
    auto direct = parser.parseFile(file);
    QVERIFY(direct.ok());
    session::Session local(inProcess);
    local.open(*direct);
    const std::vector<std::string> viaLibrary = drive(local, fixture);

    QCOMPARE(viaWorker.size(), fixture["edits"].size());
    for (size_t i = 0; i < viaWorker.size(); ++i) {
      const std::string expected = fixture["edits"][i]["outcome"];
      QVERIFY2(viaWorker[i].starts_with(expected),
               (std::to_string(i) + ": " + viaWorker[i]).c_str());
      QCOMPARE(QString::fromStdString(viaWorker[i]),
               QString::fromStdString(viaLibrary[i]));
      if (expected == "applied")
        QVERIFY2(viaWorker[i].ends_with("(read by IREE)"),
                 viaWorker[i].c_str());
    }
    QCOMPARE(QString::fromStdString(opened->text()),
             QString::fromStdString(local.text()));

    // Saved as every front end saves: IREE reads the text back first.
    const std::filesystem::path saved =
        std::filesystem::path(workspace.path().toStdString()) / "edited.mlir";
    auto outcome = opened->save(saved, session::SavePolicy{});
    QVERIFY2(outcome.ok(), outcome.ok() ? "" : outcome.error().c_str());
    QVERIFY2(outcome->written && outcome->readByIree,
             outcome->notReadBack.c_str());
    QCOMPARE(QString::fromStdString(test::readFile(saved)),
             QString::fromStdString(local.text()));
  }

  // The jobs of the fixture, started from the same choices the CLI, Python
  // and the window's panels fill (python_api and widgets_session_window
  // compare their answers with the same fixture).
  void theFixturesJobsAnswerAsItSays() {
    QTemporaryDir workspace;
    const workbench::Workbench bench =
        projectBench(workspace.path().toStdString());
    const json fixture = editsFixture();
    auto document =
        bench.parseFile(test::sourceDir() / fixture["file"].get<std::string>());
    QVERIFY(document.ok());
    for (const char *kind : {"sweep_axes", "sweep_iree_space"}) {
      const json &expected = fixture[kind];
      workbench::SweepJobChoice choice;
      choice.op = {0, 0};
      choice.vary = expected.value("vary", std::vector<std::string>{});
      choice.nearest = expected.value("nearest", choice.nearest);
      auto request = bench.sweepRequest(*document, choice);
      QVERIFY2(bool(request), request ? "" : request.refusal().message.c_str());
      auto prepared = bench.prepareSweep(*request, choice);
      QVERIFY2(bool(prepared),
               prepared ? "" : prepared.refusal().message.c_str());
      auto planned = bench.planSweep(*request);
      QVERIFY2(bool(planned), planned ? "" : planned.refusal().message.c_str());
      QCOMPARE(planned->candidates.size(), expected["candidates"].size());
      for (size_t i = 0; i < planned->candidates.size(); ++i) {
        const sweep::SweepCandidate &c = planned->candidates[i];
        QCOMPARE(QString::fromStdString(c.name),
                 QString::fromStdString(
                     expected["candidates"][i][0].get<std::string>()));
        QCOMPARE(c.valid, expected["candidates"][i][1].get<bool>());
      }
    }

    const json &tuneFixture = fixture["tune"];
    workbench::TuneChoice choice;
    choice.program =
        test::sourceDir() / tuneFixture["program"].get<std::string>();
    choice.target = tuneFixture["target"];
    choice.candidates = tuneFixture["candidates"];
    choice.budgetMinutes = tuneFixture["budget_minutes"];
    auto request = bench.tuneRequest(choice);
    QVERIFY2(bool(request), request ? "" : request.refusal().message.c_str());
    auto tuned = bench.tune(*request);
    QVERIFY2(bool(tuned), tuned ? "" : tuned.refusal().message.c_str());
    QCOMPARE(tuned->dispatches.size(), tuneFixture["dispatches"].size());
    for (size_t i = 0; i < tuned->dispatches.size(); ++i) {
      const tune::DispatchTune &d = tuned->dispatches[i];
      const json &expected = tuneFixture["dispatches"][i];
      QCOMPARE(QString::fromStdString(d.winner),
               QString::fromStdString(expected["winner"].get<std::string>()));
      QCOMPARE(QString::fromStdString(d.outcome),
               QString::fromStdString(expected["outcome"].get<std::string>()));
      QCOMPARE(d.kept, expected["kept"].get<bool>());
    }
  }

  // A choice out of range is refused naming what, before anything runs.
  void aChoiceOutOfRangeIsRefused() {
    QTemporaryDir workspace;
    const workbench::Workbench bench =
        projectBench(workspace.path().toStdString());
    workbench::TuneChoice tune;
    tune.program = test::sourceDir() / "tests/e2e/data/two_matmuls.mlir";
    tune.target = "gfx942";
    auto refusedFor = [&](const workbench::TuneChoice &choice) {
      auto made = bench.tuneRequest(choice);
      return made ? std::string() : made.refusal().message;
    };
    QVERIFY(refusedFor(tune).empty());
    for (double budget : {0.0, -1.0, std::nan(""), 1e300}) {
      workbench::TuneChoice bad = tune;
      bad.budgetMinutes = budget;
      QVERIFY2(refusedFor(bad).find("budget") != std::string::npos,
               refusedFor(bad).c_str());
    }
    for (double seconds : {0.0, std::nan(""), HUGE_VAL}) {
      workbench::TuneChoice bad = tune;
      bad.timeoutSeconds = seconds;
      QVERIFY2(refusedFor(bad).find("timeout") != std::string::npos,
               refusedFor(bad).c_str());
    }
    workbench::TuneChoice bad = tune;
    bad.target = "no-such-chip";
    QVERIFY(refusedFor(bad).starts_with("target: "));
    bad = tune;
    bad.program = "/nonexistent/program.mlir";
    auto missing = bench.tuneRequest(bad);
    QVERIFY(!missing);
    QVERIFY(missing.refusal().kind == workbench::Refusal::Kind::Input);
    bad = tune;
    bad.bundle = workspace.filePath("bundle").toStdString();
    bad.on = "ssh:gpu-box";
    QVERIFY(!refusedFor(bad).empty());

    iree::DocumentParser parser(test::projectCompiler());
    auto document = parser.parseFile(
        test::sourceDir() /
        "examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    QVERIFY(document.ok());
    workbench::SweepJobChoice sweep;
    auto sweepRefusal = [&](const workbench::SweepJobChoice &choice) {
      auto made = bench.sweepRequest(*document, choice);
      return made ? std::string() : made.refusal().message;
    };
    QVERIFY(sweepRefusal(sweep).empty());
    for (auto change :
         std::vector<std::function<void(workbench::SweepJobChoice &)>>{
             [](auto &c) { c.nearest = -1; }, [](auto &c) { c.nearest = 4097; },
             [](auto &c) { c.parallel = -1; },
             [](auto &c) { c.repetitions = 0; },
             [](auto &c) { c.timeoutSeconds = std::nan(""); },
             [](auto &c) { c.stage = "run"; },
             [](auto &c) {
               c.op = {0, 7};
             },
             [](auto &c) { c.vary = {"workgroup"}; },
             [](auto &c) { c.compileOn = "slurm:cpu"; }}) {
      workbench::SweepJobChoice badSweep = sweep;
      change(badSweep);
      QVERIFY(!sweepRefusal(badSweep).empty());
    }
  }

  void withoutIreeEveryQuestionSaysWhy() {
    QTemporaryDir workspace;
    workbench::WorkbenchOptions options;
    options.iree = nowhere("/nonexistent/iree-for-tilescope");
    options.workerProgram = workerProgram();
    options.workspace = workspace.path().toStdString();
    const workbench::Workbench bench(options);
    auto iree = bench.iree();
    QVERIFY(!iree.ok());
    QVERIFY2(iree.error().find("/nonexistent/iree-for-tilescope") !=
                 std::string::npos,
             iree.error().c_str());
    auto parsed = bench.parseFile(
        test::sourceDir() /
        "examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    QVERIFY(!parsed.ok());
    QCOMPARE(QString::fromStdString(parsed.error()),
             QString::fromStdString(iree.error()));
    QVERIFY(bench.ireeVersion() == iree.error());

    // A session it opens refuses an edit with the reason, and saves nothing
    // unread.
    iree::DocumentParser parser(test::projectCompiler());
    auto document = parser.parseFile(
        test::sourceDir() /
        "examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    QVERIFY(document.ok());
    auto session = bench.open(*document);
    const session::SetOutcome made =
        session->set({0, 0}, "workgroup", "[64, 64, 0]");
    QVERIFY(!made);
    QVERIFY2(made.refusal.find("/nonexistent/iree-for-tilescope") !=
                 std::string::npos,
             made.refusal.c_str());
    const std::filesystem::path target =
        std::filesystem::path(workspace.path().toStdString()) / "out.mlir";
    auto saved = session->save(target, session::SavePolicy{});
    QVERIFY(saved.ok());
    QVERIFY(!saved->written);
    QVERIFY(!saved->notReadBack.empty());
    QVERIFY(!std::filesystem::exists(target));
  }

  void theSavedPathIsReadAtEachQuestion() {
    auto saved = std::make_shared<std::filesystem::path>("/nonexistent/saved");
    workbench::WorkbenchOptions options;
    options.iree = nowhere({});
    options.iree.commandLinePath.reset();
    options.savedIreePath = [saved]() -> std::optional<std::filesystem::path> {
      return *saved;
    };
    options.workerProgram = workerProgram();
    const workbench::Workbench bench(options);
    QVERIFY(!bench.iree().ok());
    *saved = test::projectIree().compilerLibrary;
    auto found = bench.iree();
    QVERIFY2(found.ok(), found.ok() ? "" : found.error().c_str());
    QCOMPARE(
        QString::fromStdString(found->compilerLibrary.string()),
        QString::fromStdString(test::projectIree().compilerLibrary.string()));
    // No workspace given: the default one.
    QCOMPARE(QString::fromStdString(bench.workspace().string()),
             QString::fromStdString(process::defaultWorkspace().string()));
  }

  void ireesAnswersComeThroughIt() {
    QTemporaryDir workspace;
    const workbench::Workbench bench =
        projectBench(workspace.path().toStdString());
    auto document = bench.parseFile(
        test::sourceDir() /
        "examples/rocm_gfx942/matmul_f16_1024_dispatch_0.benchmark.mlir");
    QVERIFY(document.ok());
    auto defaults = bench.defaults(*document);
    QVERIFY2(defaults.ok(), defaults.ok() ? "" : defaults.error().c_str());
    auto verdict = bench.constraints(*document, edit::OpRef{0, 0});
    QVERIFY2(verdict.ok(), verdict.ok() ? "" : verdict.error().c_str());
    const std::string version = bench.ireeVersion();
    QVERIFY2(version.find(test::projectIree().compilerLibrary.string()) == 0,
             version.c_str());
    QVERIFY2(version.find("\nIREE (https://iree.dev)") != std::string::npos,
             version.c_str());
    QCOMPARE(defaults->document.dispatches.size(), document->dispatches.size());
  }
};

QTEST_GUILESS_MAIN(WorkbenchTest)
#include "tst_workbench.moc"
