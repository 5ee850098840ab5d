// A tune's decisions between its runs (core/tune/TuneSteps.h), each alone:
// the shares of the program's time, measured where every kind has a time
// and predicted otherwise; the order the kinds are swept in; the winner of
// a dispatch's candidates; what a winner known only by the cost model
// earns against its margin; and a kind's tuning taken by its other
// dispatches.
#include "core/tune/TuneSteps.h"

#include <QTest>

#include <cmath>

using namespace tilescope;
using namespace tilescope::tune;

namespace {

DispatchTune dispatch(size_t index, const std::string &kind,
                      std::optional<double> predicted,
                      std::optional<double> measured = std::nullopt) {
  DispatchTune tuned;
  tuned.dispatch = index;
  tuned.name = "d" + std::to_string(index);
  tuned.kind = kind;
  tuned.defaultPredicted = predicted;
  if (measured) {
    run::TimingStats stats;
    stats.median = *measured;
    stats.repetitions = 5;
    tuned.defaultTime = stats;
  }
  return tuned;
}

sweep::SweepCandidate candidate(const std::string &name, bool valid,
                                std::optional<double> predicted) {
  sweep::SweepCandidate c;
  c.name = name;
  c.valid = valid;
  c.predictedMicroseconds = predicted;
  return c;
}

} // namespace

class TuneStepsTest : public QObject {
  Q_OBJECT

private slots:
  void sharesArePredictedUnlessEveryKindIsMeasured() {
    std::vector<DispatchTune> dispatches = {
        dispatch(0, "a", 30, 300), dispatch(1, "b", 10), dispatch(2, "", 50)};
    shareTimes(dispatches, false);
    // One kind without a time: the predictions decide, over those predicted.
    QCOMPARE(dispatches[0].shareFrom, std::string("predicted"));
    QCOMPARE(dispatches[0].share, 30.0 / 90.0);
    QCOMPARE(dispatches[1].share, 10.0 / 90.0);

    dispatches = {dispatch(0, "a", 30, 300), dispatch(1, "b", 10, 100)};
    shareTimes(dispatches, false); // a bundle's times, imported
    QCOMPARE(dispatches[0].shareFrom, std::string("measured"));
    QCOMPARE(dispatches[0].share, 0.75);
  }

  void kindsAreSweptByTheirShare() {
    std::vector<DispatchTune> dispatches = {
        dispatch(0, "small", 1), dispatch(1, "big", 5), dispatch(2, "mid", 3),
        dispatch(3, "small", 1), dispatch(4, "", 100)};
    dispatches[3].sameAs = 0;
    dispatches[2].outcome = "not tuned: IREE's default did not compile";
    shareDefaults(dispatches);
    shareTimes(dispatches, false);
    // "small" holds two dispatches' share, 2 of 10; "big" 5; "mid" is
    // decided already; the same kind's second and a dispatch with no kind
    // are not swept.
    QCOMPARE(sweepOrder(dispatches), (std::vector<size_t>{1, 0}));
  }

  void theWinnerIsTheNearestThatChangesSomething() {
    const std::vector<sweep::SweepCandidate> candidates = {
        candidate("invalid", false, 1), candidate("same", true, 2),
        candidate("unpredicted", true, std::nullopt),
        candidate("first", true, 9), candidate("second", true, 3)};
    const auto same = [](const sweep::SweepCandidate &c) {
      return c.name == "same";
    };
    const sweep::SweepCandidate *won = winnerOf(candidates, false, same);
    QVERIFY(won);
    QCOMPARE(won->name, std::string("first"));
    QVERIFY(!winnerOf(candidates, true, same)); // none was timed
  }

  void aPredictedWinnerNeedsMoreThanTheMargin() {
    DispatchTune tuned = dispatch(0, "a", 100);
    tuned.winnerPredicted = 100 / (kPredictedMargin * 1.01);
    decideOnPrediction(tuned);
    QVERIFY(tuned.predictedOnly);
    QVERIFY(tuned.why.find("margin is 1.12x") != std::string::npos);

    tuned.winnerPredicted = 100 / (kPredictedMargin * 0.99);
    decideOnPrediction(tuned);
    QVERIFY(!tuned.predictedOnly);
    QCOMPARE(tuned.outcome, std::string("kept IREE's: predicted gain within "
                                        "the cost model's error"));

    tuned.winnerPredicted = 120;
    decideOnPrediction(tuned);
    QVERIFY(!tuned.predictedOnly);
    QCOMPARE(tuned.outcome,
             std::string("kept IREE's: no candidate is predicted faster"));
  }

  void aKindsDispatchesTakeItsTuning() {
    std::vector<DispatchTune> dispatches = {dispatch(0, "a", 10),
                                            dispatch(1, "a", 10)};
    dispatches[1].sameAs = 0;
    dispatches[1].share = 0.5;
    dispatches[1].op = 2;
    dispatches[0].kept = true;
    dispatches[0].outcome = "tuned";
    dispatches[0].loweringConfig = "#iree_gpu.lowering_config<{}>";
    std::vector<size_t> told;
    takeKindsTuning(dispatches,
                    [&](const DispatchTune &t) { told.push_back(t.dispatch); });
    const DispatchTune &second = dispatches[1];
    QVERIFY(second.kept);
    QCOMPARE(second.loweringConfig, dispatches[0].loweringConfig);
    QCOMPARE(second.outcome, std::string("as dispatch 0: tuned"));
    QCOMPARE(second.name, std::string("d1"));
    QCOMPARE(second.op, size_t(2));
    QCOMPARE(second.share, 0.5);
    QCOMPARE(told, (std::vector<size_t>{1}));
  }

  // A module stored as a failed run (its run failed, or its .done is
  // garbage) is not counted timed.
  void theImportCountsOnlyTimesStored() {
    std::vector<tries::ImportedModule> modules(4);
    modules[0].imported = 10;
    modules[0].timing.status = "ok";
    modules[0].timing.perDispatch = run::TimingStats{12.5, 0.1, 12, 13, 5};
    modules[1].imported = 11; // stored, as a failed run
    modules[1].timing.status = "failed";
    modules[2].alreadyImported = true;
    modules[2].imported = 3;
    modules[3].timing.status = "not-run";
    QCOMPARE(describeImport(modules, "/b"),
             std::string("4 modules from /b: 1 timed now, 1 imported before, "
                         "2 without a time"));
  }

  // One range per choice, for every front end: a NaN, a zero or a week and
  // a minute of budget, and counts past their limits are refused by name.
  void theChoicesAreHeldToOneRange() {
    TuneRequest request;
    QVERIFY(setTuneLimits(request, 0.5, 16, 3).ok());
    QCOMPARE(request.budget.count(), 30LL);
    QCOMPARE(request.candidatesPerDispatch, size_t(16));
    QCOMPARE(request.repetitions, 3);
    for (double budget : {0.0, -1.0, std::nan(""), 7 * 24 * 60 + 1.0}) {
      auto refused = setTuneLimits(request, budget, 8, 5);
      QVERIFY(!refused.ok());
      QVERIFY(refused.error().find("budget") != std::string::npos);
    }
    QVERIFY(setTuneLimits(request, 30, TuneLimits::kMaxCandidates + 1, 5)
                .error()
                .find("candidates") != std::string::npos);
    QVERIFY(setTuneLimits(request, 30, 8, 0).error().find("repetitions") !=
            std::string::npos);
    QCOMPARE(request.candidatesPerDispatch, size_t(16)); // left as it was
  }
};

QTEST_GUILESS_MAIN(TuneStepsTest)
#include "tst_tune_steps.moc"
