// What a try's record keeps (its prediction, compile, timed run, checked
// run, where it was made and the bundle it was imported from) reads back as
// written: through JSON, through the SQLite history, and from JSON of another
// form (a history written by another version, a bundle made elsewhere) without
// throwing.
#include "TestSupport.h"

#include "core/export/ConfigJson.h"
#include "core/tries/History.h"
#include "core/tries/JobJson.h"
#include "core/tries/TimeComparison.h"

#include <QTemporaryDir>

#include <QTest>
#include <cmath>

using namespace tilescope;

class TryRecordsTest : public QObject {
  Q_OBJECT

  QTemporaryDir folder;
  int histories = 0;

  // A history of its own in the test's folder.
  tries::History freshHistory() {
    auto history = tries::History::open(
        std::filesystem::path(folder.path().toStdString()) /
        ("h" + std::to_string(++histories) + ".sqlite"));
    if (!history)
      qFatal("%s", history.error().c_str());
    return std::move(*history);
  }

  // `record` stored in a fresh history and read back.
  tries::TryRecord readBack(const tries::TryRecord &record) {
    tries::History history = freshHistory();
    auto id = history.add(record);
    if (!id)
      qFatal("%s", id.error().c_str());
    auto back = history.get(*id);
    if (!back)
      qFatal("%s", back.error().c_str());
    return std::move(*back);
  }

private slots:
  void predictionsReadBackAsWritten() {
    layout::CostPrediction p;
    p.microseconds = 31.25;
    p.model = "MMA contraction";
    p.boundBy = "L2";
    p.workgroups = 256;
    p.residentPerCu = 2;
    p.rounds = 1;
    p.steps = 8;
    p.globalBytes = 4.5e6;
    p.floorMicroseconds = 12.5;
    p.resourcesEstimated = false;
    p.terms = {{"L2", 20.0, "4.5 MB"}, {"latency", 3.0, ""}};
    p.notes = {"calibrated on sm_90"};
    const nlohmann::json kept = exporting::toJson(p);
    const auto read = tries::costPredictionFromJson(kept);
    QVERIFY(read.has_value());
    QCOMPARE(exporting::toJson(*read), kept);
    QCOMPARE(read->summary(), p.summary());

    for (const nlohmann::json &odd :
         {nlohmann::json(42), nlohmann::json::object(),
          nlohmann::json{{"us", -1}}, nlohmann::json{{"us", "fast"}},
          nlohmann::json{{"us", 0}}})
      QVERIFY(!tries::costPredictionFromJson(odd));
    const auto partial = tries::costPredictionFromJson(
        {{"us", 5.0}, {"workgroups", -3}, {"terms", 7}, {"notes", {1, "x"}}});
    QVERIFY(partial.has_value());
    QCOMPARE(partial->workgroups, int64_t(0));
    QVERIFY(partial->terms.empty());
    QCOMPARE(partial->notes, std::vector<std::string>{"x"});

    tries::TryRecord record;
    record.kind = "resources";
    record.prediction = p;
    const tries::TryRecord back = readBack(record);
    QVERIFY(back.prediction);
    QCOMPARE(exporting::toJson(*back.prediction), kept);
    QCOMPARE(tries::detailsJson(back)["prediction"], kept);
  }

  void timedRunsReadBackAsWritten() {
    tries::TriedBench b;
    b.ran = true;
    b.timing.id = "module";
    b.timing.status = "ok";
    b.timing.device = "cuda://0";
    b.timing.kind = "dispatch";
    b.timing.batch = 32;
    b.timing.targetMicroseconds = 200;
    b.timing.benchmark = "BM_main/process_time/real_time";
    b.timing.perDispatch = run::TimingStats{28.93, 0.12, 28.8, 29.1, 5};
    b.timing.perSubmission = run::TimingStats{45.67, 0.5, 45, 46.2, 5};
    b.timing.profiler = "ncu";
    b.timing.profileError = "no SourceCounters section";
    run::ProfileReading reading;
    reading.tool = "ncu";
    reading.kernel = "main_dispatch_0";
    reading.launches = 3;
    reading.kernelMicroseconds = 27.1;
    reading.achievedOccupancyPercent = 48.5;
    reading.registersPerThread = 168;
    reading.sharedMemoryBytes = 50688;
    reading.notes = {"one launch per submission"};
    b.timing.profile = reading;
    b.process = tries::RanProcess{"bash run.sh", "ok", "exited with 0", 3.5};
    b.bundle = "/ws/tries/7/run";
    b.summary = b.timing.summary();
    b.slurm = tries::RanSlurm{"41_0", "COMPLETED",          "node1",
                              "0:0",  "/ws/slurm/41_0.log", true};
    b.floorMicroseconds = 12.5;
    b.efficiency = 12.5 / 28.93;
    b.boundBy = "DRAM";
    b.besideTilescope = {
        {"kernel time", "28.9 us", "27.1 us", "batched", true}};
    const nlohmann::json kept = tries::toJson(b);
    const auto read = tries::triedBenchFromJson(kept);
    QVERIFY(read.has_value());
    QCOMPARE(tries::toJson(*read), kept);
    QCOMPARE(read->timing.method(), b.timing.method());
    QVERIFY(read->timed());

    // What the history or a bundle holds of another form is read as far as
    // its types go, never thrown on.
    QVERIFY(!tries::triedBenchFromJson(nlohmann::json(3)));
    const auto odd = tries::triedBenchFromJson(
        {{"status", "ok"},
         {"per_dispatch", {{"median_us", "fast"}}},
         {"batch", -4},
         {"slurm", {{"task", 41}, {"reattached", "yes"}}},
         {"floor_us", 5.0},
         {"profile",
          {{"kernel_us", 3.0},
           {"tool", 5},
           {"launches", 1e30},
           {"registers", "many"},
           {"notes", {1, "x"}}}},
         {"beside_tilescope", {{{"quantity", 1}, {"differs", "no"}}, 7}}});
    QVERIFY(odd.has_value() && odd->ran && !odd->timed());
    QCOMPARE(odd->timing.status, std::string("failed"));
    QCOMPARE(odd->timing.batch, 1);
    QVERIFY(odd->slurm && odd->slurm->task.empty() && !odd->slurm->reattached);
    QVERIFY(!odd->floorMicroseconds); // a floor without its efficiency
    QVERIFY(odd->timing.profile && odd->timing.profile->tool.empty());
    QCOMPARE(odd->timing.profile->launches, 0);
    QVERIFY(!odd->timing.profile->registersPerThread);
    QCOMPARE(odd->timing.profile->notes, std::vector<std::string>{"x"});
    QCOMPARE(odd->besideTilescope.size(), size_t(1));
    QVERIFY(odd->besideTilescope[0].quantity.empty());
    const auto notRun = tries::triedBenchFromJson({{"ran", false}, {"why", 4}});
    QVERIFY(notRun && !notRun->ran && notRun->why.empty());

    // Through the history: its details print what was kept, and the time
    // comparison takes the per-dispatch figures from it.
    tries::TryRecord record;
    record.kind = "bench";
    record.medianMicroseconds = 28.93;
    record.bench = b;
    const tries::TryRecord back = readBack(record);
    QVERIFY(back.bench);
    QCOMPARE(tries::toJson(*back.bench), kept);
    QCOMPARE(tries::detailsJson(back)["bench"], kept);
    QVERIFY(!back.details.contains("bench"));
    const auto stats = tries::timingOf(back);
    QVERIFY(stats && stats->repetitions == 5 && stats->spread == 0.12);
  }

  void compilesAndImportsReadBackAsWritten() {
    tries::TriedCompile c;
    c.command = "iree-compile input.mlir -o module.vmfb";
    c.outcome = "compile-failed";
    c.status = "exited with 1";
    c.seconds = 1.25;
    c.summary = "failed: 1 error";
    c.backend = "rocm";
    service::CompileDiagnostic d;
    d.diagnostic.severity = document::Severity::Error;
    d.diagnostic.file = "/work/a.mlir";
    d.diagnostic.line = 12;
    d.diagnostic.column = 7;
    d.diagnostic.message = "'func.func' op failed to distribute";
    document::Diagnostic note;
    note.severity = document::Severity::Note;
    note.file = "/work/a.mlir";
    note.line = 3;
    note.message = "see current operation";
    d.diagnostic.notes = {note};
    d.dispatch = "main_dispatch_0";
    d.rootOp = 1;
    d.field = "subgroup";
    c.diagnostics = {d};
    c.files = {"/ws/tries/1",
               "/ws/tries/1/input.mlir",
               "/ws/tries/1/command.sh",
               "/ws/tries/1/compile.log",
               "",
               "",
               {"/ws/tries/1/intermediates/a.rocmasm"}};
    const nlohmann::json kept = tries::toJson(c);
    QVERIFY(kept["artifacts"]["module"].is_null());
    const auto read = tries::triedCompileFromJson(kept);
    QVERIFY(read.has_value());
    QCOMPARE(tries::toJson(*read), kept);
    QCOMPARE(read->diagnostics[0].toString(), d.toString());

    const auto odd = tries::triedCompileFromJson(
        {{"diagnostics",
          {{{"line", -4}, {"severity", "fatal"}, {"notes", {1}}}, 3}},
         {"artifacts", {{"module", 5}, {"assembly", {"a.s", 2}}}}});
    QVERIFY(odd.has_value());
    QCOMPARE(odd->diagnostics.size(), size_t(1));
    QCOMPARE(odd->diagnostics[0].diagnostic.line, 0);
    QVERIFY(odd->diagnostics[0].diagnostic.notes.empty());
    QVERIFY(odd->files.module.empty());
    QCOMPARE(odd->files.assembly, std::vector<std::string>{"a.s"});
    QVERIFY(!tries::triedCompileFromJson(nlohmann::json("compile")));

    // Through the history, with an imported row's origin beside it.
    tries::History history = freshHistory();
    tries::TryRecord record;
    record.kind = "compile";
    record.compile = c;
    auto compiled = history.add(record);
    QVERIFY(compiled.ok());
    auto back = history.get(*compiled);
    QVERIFY(back.ok() && back->compile && !back->imported);
    QCOMPARE(tries::toJson(*back->compile), kept);
    QVERIFY(back->details.empty());

    tries::TryRecord imported;
    imported.kind = "bench";
    imported.imported =
        tries::BundleOrigin{"/ws/bundle", "2026-12-06T10:00:00Z",
                            "try-1",      "2026-12-06T10:05:00Z",
                            "gpu-host",   *compiled};
    imported.details = {{"note", "kept"}};
    auto id = history.add(imported);
    QVERIFY(id.ok());
    auto again = history.get(*id);
    QVERIFY(again.ok() && again->imported && !again->compile);
    QVERIFY(again->imported->sameResults(*imported.imported));
    QCOMPARE(again->imported->runOn, std::string("gpu-host"));
    QCOMPARE(again->imported->compiledIn.value_or(0), *compiled);
    QCOMPARE(again->details, (nlohmann::json{{"note", "kept"}}));
    const nlohmann::json details = tries::detailsJson(*again);
    QCOMPARE(details["imported_from"]["module"], nlohmann::json("try-1"));
    QCOMPARE(details["compiled_in"], nlohmann::json(*compiled));
  }

  void checksAndPlacesReadBackAsWritten() {
    tries::TriedCheck check;
    check.directory = "/ws/tries/2";
    check.backend = "llvm-cpu";
    check.device = "local-task";
    check.function = "main";
    check.commands = {"iree-compile a.mlir", "iree-run-module --module=m"};
    tries::CheckedOutput output;
    output.index = 1;
    output.type = "4x8xf32";
    output.mismatches = 3;
    output.maxAbsoluteError = 0.5;
    output.maxRelativeError = 0.25;
    output.tolerance = {1e-3, 1e-2};
    output.firstMismatches = {{{0, 2}, 1.5, 1.0}, {{3, 7}, -2.0, -1.5}};
    check.outputs = {output};
    check.summary = "check failed: output 1, 3 of 32 elements";
    check.seconds = 2.5;
    check.passed = false;
    const nlohmann::json kept = tries::toJson(check);
    const auto read = tries::triedCheckFromJson(kept);
    QVERIFY(read.has_value());
    QCOMPARE(tries::toJson(*read), kept);

    // Another form: wrong types skipped, a NaN (written as null) as NaN,
    // no verdict where "passed" is null.
    const auto odd = tries::triedCheckFromJson(
        {{"outputs",
          {{{"index", -1},
            {"mismatches", 1.5},
            {"max_abs_error", nullptr},
            {"tolerance", {{"absolute", -1}}},
            {"first_mismatches",
             {{{"index", {1, "x"}}, {"value", nullptr}}, 2}}},
           "output"}},
         {"passed", nullptr},
         {"commands", {"a", 1}}});
    QVERIFY(odd.has_value());
    QVERIFY(!odd->passed);
    QCOMPARE(odd->commands, std::vector<std::string>{"a"});
    QCOMPARE(odd->outputs.size(), size_t(1));
    QCOMPARE(odd->outputs[0].index, 0);
    QCOMPARE(odd->outputs[0].mismatches, 0LL);
    QVERIFY(std::isnan(odd->outputs[0].maxAbsoluteError));
    QCOMPARE(odd->outputs[0].tolerance.absolute, 0.0);
    QCOMPARE(odd->outputs[0].firstMismatches.size(), size_t(1));
    QCOMPARE(odd->outputs[0].firstMismatches[0].index, std::vector<int64_t>{1});
    QVERIFY(std::isnan(odd->outputs[0].firstMismatches[0].value));
    QVERIFY(!tries::triedCheckFromJson(nlohmann::json::array()));

    // Through the history, each under the key it always had.
    tries::TryRecord record;
    record.kind = "verify";
    record.program = "/work/model.mlir";
    record.check = check;
    record.resourcesError = "no assembly was written";
    record.dispatchAlone =
        tries::DispatchTaken{2, "main_dispatch_2", "/ws/alone.mlir", "cmd"};
    record.where = {
        "slurm:gpu", "slurm:cpu",
        tries::CompileTask{"41_3", "NODE_FAIL", "n7", "/ws/41.log"}};
    record.details = {{"note", "kept"}};
    const nlohmann::json details = tries::detailsJson(record);
    QCOMPARE(details["program"], nlohmann::json("/work/model.mlir"));
    QCOMPARE(details["check"], kept);
    QCOMPARE(details["dispatch_alone"]["dispatch"], nlohmann::json(2));
    QCOMPARE(details["on"], nlohmann::json("slurm:gpu"));
    QCOMPARE(details["compiled_on"], nlohmann::json("slurm:cpu"));
    QCOMPARE(details["compile_task"]["state"], nlohmann::json("NODE_FAIL"));
    QCOMPARE(details["note"], nlohmann::json("kept"));
    const tries::TryRecord back = readBack(record);
    QCOMPARE(tries::detailsJson(back), details);
    QCOMPARE(back.where.compileTask->node, std::string("n7"));
    QCOMPARE(back.details, (nlohmann::json{{"note", "kept"}}));

    // Made here: no place is written.
    const nlohmann::json here = tries::detailsJson(tries::TryRecord{});
    QVERIFY(!here.contains("on") && !here.contains("compiled_on") &&
            !here.contains("compile_task") && !here.contains("check"));
  }
};

QTEST_GUILESS_MAIN(TryRecordsTest)
#include "tst_try_records.moc"
