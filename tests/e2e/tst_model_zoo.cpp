// The model zoo (examples/models/zoo/): networks nobody here wrote, from
// torchvision, torch.nn, transformers and diffusers, exported by torch's ONNX
// exporter and imported by IREE's iree-import-onnx, through what a user
// does first with each, for sm_90 and gfx942 (f16) and llvm-cpu (f32):
//
//  - configure: the pinned iree-compile configures the program and every
//    root op is linked to the source op it came from;
//  - IREE's own config is never an error: the rules and IREE's own stated
//    pipeline constraints, asked for the whole program at once (where IREE's
//    constraints disagree with the config IREE chose, a warning says so);
//  - every root op is laid out, or says in words why Tilescope does not lay
//    that kind out; every GPU dispatch's root op gets a predicted time (a
//    copy IREE runs on its Distribute pipeline at its bytes' DRAM time);
//  - on llvm-cpu, the program with its weights (with_weights.py, from a seed)
//    runs through the checked run: compiled, run on local-task and compared
//    with the CPU reference, its signature read from the function itself
//    (IREE writes no ABI declaration for torch-input functions).
//
// A line per network and target is printed and written to
// BUILD/model-zoo.json (docs/models.md holds the table).
#include "TestSupport.h"

#include "core/edit/OpLayoutInputs.h"
#include "core/edit/RootOpContext.h"
#include "core/layout/OpCost.h"
#include "core/run/CheckJob.h"
#include "core/service/ConfigureProgram.h"
#include "core/service/IreeConstraints.h"
#include "core/sweep/SweepWorkflow.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace tilescope;
using json = nlohmann::json;

namespace {

const std::filesystem::path kZoo = test::examplesDir() / "models" / "zoo";

json zooManifest() {
  return json::parse(test::readFile(kZoo / "zoo.json"));
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

class ModelZooTest : public QObject {
  Q_OBJECT

  QTemporaryDir scratch;
  tools::IreeInstallation iree = test::projectIree();
  std::unique_ptr<service::DocumentWorker> worker;
  json table = json::object();

  std::filesystem::path scratchPath() const {
    return scratch.path().toStdString();
  }

  // One network configured for `target`, every root op judged and laid out.
  void survey(const std::string &network, const std::string &target) {
    const std::string file = network + (target == "llvm-cpu" ? ".f32" : ".f16");
    const json manifest = zooManifest();
    QVERIFY2(manifest.contains(file), file.c_str());
    service::ConfigureRequest request;
    request.source = kZoo / manifest[file]["file"].get<std::string>();
    request.target = *service::compileTarget(target);
    request.output = scratchPath() / (file + "." + target + ".mlir");
    const auto started = std::chrono::steady_clock::now();
    auto configured = service::configureProgram(iree, *worker, request);
    const double configureSeconds = secondsSince(started);
    QVERIFY2(configured, (file + " " + target + ": " +
                          (configured ? "" : configured.error()))
                             .c_str());
    const document::Document &document = configured->document;

    // IREE's constraints for every op at once, and IREE's own choices.
    std::vector<service::OpConstraintVerdict> verdicts;
    if (target != "llvm-cpu") {
      auto verdict = service::ireeConstraintVerdict(iree, document,
                                                    std::chrono::minutes(5));
      QVERIFY2(verdict, (file + " " + target + ": " +
                         (verdict ? "" : verdict.error()))
                            .c_str());
      verdicts = std::move(verdict->ops);
      auto marked = service::markIreesOwnChoices(iree, *worker, document,
                                                 verdicts,
                                                 std::chrono::minutes(5));
      QVERIFY2(marked, (file + " " + target + ": " +
                        (marked ? "" : marked.error()))
                           .c_str());
    }

    // The source's lines, to see that each op is linked to its own: a
    // convolution comes from an onnx.Conv (IREE's located print lists
    // dispatches in the source's order, which is not the program's).
    std::vector<std::string> sourceLines;
    {
      std::istringstream lines(test::readFile(request.source));
      for (std::string line; std::getline(lines, line);)
        sourceLines.push_back(line);
    }
    std::map<std::string, int> kinds, warningRules;
    int rootOps = 0, linked = 0, laidOut = 0, notLaidOut = 0, predicted = 0,
        warnings = 0, disagreements = 0;
    std::vector<std::string> errors, unpredicted, fewCandidates;
    int sweepable = 0, sweptEight = 0;
    for (size_t d = 0; d < document.dispatches.size(); ++d) {
      const document::Dispatch &dispatch = document.dispatches[d];
      for (size_t o = 0; o < dispatch.rootOps.size(); ++o) {
        const document::RootOp &op = dispatch.rootOps[o];
        const std::string where = file + " " + target + " " +
                                  std::to_string(d) + ":" + std::to_string(o) +
                                  " (" + dispatch.name + ", " + op.name + ")";
        ++rootOps;
        ++kinds[config::toString(op.kind)];
        if (op.source) {
          ++linked;
          const int line = op.source->line;
          if (op.kind == config::OpKind::Convolution)
            QVERIFY2(line >= 1 && line <= static_cast<int>(sourceLines.size()) &&
                         sourceLines[static_cast<size_t>(line - 1)].find(
                             "onnx.Conv") != std::string::npos,
                     (where + " is linked to source line " +
                      std::to_string(line) + ", not an onnx.Conv")
                         .c_str());
        }
        const edit::RootOpContext context =
            edit::contextOf(document, {d, o});
        std::vector<config::Problem> problems;
        if (context.loweringConfig)
          problems = edit::ruleVerdict(context).problems;
        for (const service::OpConstraintVerdict &verdict : verdicts)
          if (verdict.dispatch == d && verdict.op == o) {
            disagreements += verdict.ireesOwnChoice ? 1 : 0;
            for (config::Problem &p : service::problemsOf(verdict))
              problems.push_back(std::move(p));
          }
        for (const config::Problem &p : problems) {
          if (p.severity == config::Problem::Severity::Error)
            errors.push_back(where + ": " + p.field + ": " + p.message + " [" +
                             p.rule + "]");
          if (p.severity == config::Problem::Severity::Warning) {
            ++warnings;
            ++warningRules[p.rule];
          }
        }
        // A dispatch's root op of a GPU kind a sweep tunes: the rules'
        // neighbours of IREE's config (in process; a sweep asks IREE's
        // space first, which runs iree-opt per op), those the rules pass.
        const bool tunedKind = op.kind == config::OpKind::Contraction ||
                               op.kind == config::OpKind::Convolution;
        if (target != "llvm-cpu" && tunedKind && context.loweringConfig &&
            o == edit::rootOpIndex(dispatch)) {
          sweep::SweepRequest plan;
          plan.document = &document;
          plan.op = {d, o};
          sweep::SweepChoice choice;
          choice.noIreeSpace = true;
          auto prepared = sweep::prepareSweep(nullptr, plan, choice);
          auto planned = prepared ? sweep::planSweep(plan)
                                  : Result<std::vector<sweep::SweepCandidate>>(
                                        Error{prepared.error()});
          size_t valid = 0;
          if (planned)
            for (const sweep::SweepCandidate &candidate : *planned)
              valid += candidate.valid ? 1 : 0;
          ++sweepable;
          if (valid >= 8)
            ++sweptEight;
          else
            fewCandidates.push_back(
                where + ": " + std::to_string(valid) + " valid" +
                (planned ? "" : " (" + planned.error() + ")"));
        }
        // Every GPU dispatch's root op gets a prediction.
        if (target != "llvm-cpu" && o == edit::rootOpIndex(dispatch)) {
          auto prediction =
              layout::predictOpTime(edit::costInputsOf(context));
          if (prediction)
            ++predicted;
          else
            unpredicted.push_back(where + ": " + prediction.error());
        }
        if (!context.loweringConfig)
          continue; // not a GPU lowering config: not drawn
        auto inputs = edit::opLayoutInputs(dispatch, op);
        auto layouts = inputs ? edit::opLayoutsOf(*inputs)
                              : Result<layout::OpLayouts>(
                                    Error{inputs.error()});
        if (layouts) {
          ++laidOut;
        } else {
          // A kind not laid out says so; anything else is a failure.
          QVERIFY2(!edit::kindNotLaidOut(op).empty(),
                   (where + ": " + layouts.error()).c_str());
          ++notLaidOut;
        }
      }
    }
    std::string errorList;
    for (const std::string &error : errors)
      errorList += "\n  " + error;
    json row = {{"network", network},
                {"target", target},
                {"file", manifest[file]["file"]},
                {"configure_seconds", configureSeconds},
                {"dispatches", document.dispatches.size()},
                {"root_ops", rootOps},
                {"kinds", kinds},
                {"linked_to_source", linked},
                {"errors", errors.size()},
                {"warnings", warnings},
                {"warnings_by_rule", warningRules},
                {"iree_constraints_disagree", disagreements},
                {"laid_out", laidOut},
                {"not_laid_out", notLaidOut},
                {"predicted", predicted},
                {"sweepable", sweepable},
                {"eight_valid_neighbours", sweptEight},
                {"few_neighbours", fewCandidates},
                {"unpredicted", unpredicted}};
    table[network][target] = row;
    qInfo("%s", row.dump().c_str());
    QVERIFY2(errors.empty(), ("IREE's own configs called errors:" + errorList)
                                 .c_str());
    std::string unpredictedList;
    for (const std::string &u : unpredicted)
      unpredictedList += "\n  " + u;
    QVERIFY2(unpredicted.empty(),
             ("GPU dispatches not predicted:" + unpredictedList).c_str());
    QVERIFY2(linked == rootOps, (file + " " + target +
                                 ": root ops not linked to their source")
                                    .c_str());
  }

  // The f32 network with its weights, through the checked run on the CPU.
  void checkedRun(const std::string &network) {
    const std::string file = network + ".f32";
    const std::filesystem::path weighted = scratchPath() / (file + ".mlir");
    QProcess python;
    python.setProcessChannelMode(QProcess::MergedChannels);
    python.start(TILESCOPE_PYTHON,
                 {QString::fromStdString((kZoo / "with_weights.py").string()),
                  QString::fromStdString((kZoo / (file + ".mlir")).string()),
                  QString::fromStdString(weighted.string()), "--seed", "1"});
    QVERIFY2(python.waitForFinished(300000) && python.exitCode() == 0,
             qPrintable(python.readAll()));
    run::CheckRequest request;
    request.program = weighted;
    request.target = *service::compileTarget("llvm-cpu");
    request.directory = scratchPath() / ("check-" + network);
    request.timeout = std::chrono::minutes(10);
    const auto started = std::chrono::steady_clock::now();
    auto checked = run::checkProgram(iree, request);
    const double seconds = secondsSince(started);
    QVERIFY2(checked, (network + ": " + (checked ? "" : checked.error())).c_str());
    table[network]["llvm-cpu-check"] = {
        {"passed", checked->hasVerdict() && checked->passed()},
        {"summary", checked->error.empty()
                        ? checked->summary()
                        : checked->failedStep + ": " + checked->error},
        {"function", checked->function},
        {"seconds", seconds}};
    qInfo("%s", table[network]["llvm-cpu-check"].dump().c_str());
    QVERIFY2(checked->hasVerdict() && checked->passed(),
             (network + ": " + checked->failedStep + ": " + checked->error +
              " " + checked->summary())
                 .c_str());
  }

  void network(const std::string &name) {
    survey(name, "sm_90");
    if (QTest::currentTestFailed())
      return;
    survey(name, "gfx942");
    if (QTest::currentTestFailed())
      return;
    survey(name, "llvm-cpu");
    if (QTest::currentTestFailed())
      return;
    checkedRun(name);
  }

private slots:
  void initTestCase() {
    QVERIFY(scratch.isValid());
    worker = std::make_unique<service::DocumentWorker>(
        test::binaryDir() / "app" / "tilescope-iree-worker",
        iree.compilerLibrary);
    worker->timeout = std::chrono::minutes(5);
  }

  void network_data() {
    QTest::addColumn<QString>("name");
    std::set<std::string> names;
    const json manifest = zooManifest();
    for (const auto &entry : manifest)
      names.insert(entry["network"].get<std::string>());
    for (const std::string &name : names)
      QTest::newRow(name.c_str()) << QString::fromStdString(name);
  }
  void network() {
    QFETCH(QString, name);
    network(name.toStdString());
  }

  void cleanupTestCase() {
    std::ofstream(test::binaryDir() / "model-zoo.json") << table.dump(1)
                                                        << "\n";
  }
};

QTEST_GUILESS_MAIN(ModelZooTest)
#include "tst_model_zoo.moc"
